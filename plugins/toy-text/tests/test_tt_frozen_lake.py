"""FrozenLake: parity with Gymnasium 1.4, map generation, options, text output."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.toy_text import frozen_lake as reference
from hypothesis import given, settings
from hypothesis import strategies as st
from protogym_toy_text.frozen_lake import MAPS, FrozenLakeEnv, generate_random_map

import protogym

RolloutCheck = Callable[[Any, Any, Sequence[int], int], tuple[int, int]]

CUSTOM = ["SFFHF", "FHFFF", "FFFHG", "HFFFF"]


def _actions(n: int, seed: int) -> list[int]:
    return [int(a) for a in np.random.default_rng(seed).integers(0, 4, n)]


@pytest.mark.parametrize("env_id", ["FrozenLake-v1", "FrozenLake8x8-v1"])
@pytest.mark.parametrize("seed", [0, 1, 42])
def test_tt_frozen_lake_parity_through_make(
    env_id: str, seed: int, same_rollout: RolloutCheck
) -> None:
    ours, theirs = protogym.make(env_id), gymnasium.make(env_id)
    terminated, truncated = same_rollout(ours, theirs, _actions(5000, seed), seed)
    assert terminated > 10


@pytest.mark.parametrize(
    "kwargs",
    [
        {"is_slippery": False},
        {"desc": CUSTOM},
        {"desc": CUSTOM, "is_slippery": False},
        {"map_name": "8x8", "success_rate": 0.75},
        {"success_rate": 0.6, "reward_schedule": (5, -2, -0.01)},
        {"desc": generate_random_map(6, 0.7, seed=9), "success_rate": 0.9},
    ],
)
def test_tt_frozen_lake_options_parity(kwargs: dict[str, Any], same_rollout: RolloutCheck) -> None:
    ours = protogym.make("FrozenLake-v1", **kwargs)
    theirs = gymnasium.make("FrozenLake-v1", **kwargs)
    terminated, truncated = same_rollout(ours, theirs, _actions(4000, 7), 3)
    assert terminated + truncated > 5
    inner = ours.unwrapped
    assert isinstance(inner, FrozenLakeEnv)
    assert inner.reward_range == getattr(theirs.unwrapped, "reward_range")  # noqa: B009


def test_tt_frozen_lake_timelimit_truncates_like_gymnasium(same_rollout: RolloutCheck) -> None:
    # Bumping into the top-left walls never ends an episode, so only the 100-step limit can.
    ours, theirs = (
        protogym.make("FrozenLake-v1", is_slippery=False),
        gymnasium.make("FrozenLake-v1", is_slippery=False),
    )
    terminated, truncated = same_rollout(ours, theirs, [0, 3] * 250, 0)
    assert (terminated, truncated) == (0, 5)


def test_tt_frozen_lake_table_matches_gymnasium() -> None:
    for kwargs in ({}, {"map_name": "8x8"}, {"is_slippery": False}, {"desc": CUSTOM}):
        assert FrozenLakeEnv(**kwargs).P == reference.FrozenLakeEnv(**kwargs).P


@pytest.mark.parametrize(
    "size,p,seed", [(4, 0.8, 0), (8, 0.8, 1), (8, 0.5, 2), (11, 0.9, 3), (2, 1.0, 4)]
)
def test_tt_generate_random_map_matches_gymnasium(size: int, p: float, seed: int) -> None:
    board = generate_random_map(size, p, seed)
    assert board == reference.generate_random_map(size, p, seed)
    assert len(board) == size and all(len(row) == size for row in board)
    assert board[0][0] == "S" and board[-1][-1] == "G"
    assert reference.is_valid([list(row) for row in board], size)


def test_tt_generate_random_map_seeds() -> None:
    assert generate_random_map(seed=5) == generate_random_map(seed=5)
    assert len({tuple(generate_random_map(seed=s)) for s in range(10)}) == 10


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"size": 1}, "generate_random_map needs an int size >= 2, got 1"),
        ({"size": 3.0}, "generate_random_map needs an int size >= 2, got 3.0"),
        ({"p": 0.0}, r"needs a frozen-tile probability p in \(0, 1\], got 0.0"),
        ({"p": 1.2}, r"needs a frozen-tile probability p in \(0, 1\], got 1.2"),
    ],
)
def test_tt_generate_random_map_rejects_bad_input(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate_random_map(**kwargs)


def test_tt_frozen_lake_random_map_when_no_map() -> None:
    env = FrozenLakeEnv(map_name=None)
    assert env.desc.shape == (8, 8)
    assert env.desc[0, 0] == b"S" and env.desc[-1, -1] == b"G"


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"map_name": "5x5"}, r"FrozenLake has no map named '5x5'; use one of \['4x4', '8x8'\]"),
        ({"desc": []}, "FrozenLake desc must be a non-empty list of equal-length rows"),
        ({"desc": ["SFF", "FG"]}, "FrozenLake desc must be a non-empty list of equal-length rows"),
        (
            {"desc": ["SFX", "FFG"]},
            r"may only use the tiles S, F, H and G, but it contains \['X'\]",
        ),
        ({"desc": ["FFF", "FFG"]}, "FrozenLake desc needs at least one start tile 'S'"),
        ({"success_rate": 1.5}, r"FrozenLake success_rate must be in \[0, 1\], got 1.5"),
        ({"reward_schedule": (1, 0)}, r"reward_schedule must be \(goal, hole, frozen\) rewards"),
    ],
)
def test_tt_frozen_lake_rejects_bad_options(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FrozenLakeEnv(**kwargs)


def test_tt_frozen_lake_desc_forms() -> None:
    rows = FrozenLakeEnv(desc=["SF", "HG"]).desc
    assert np.array_equal(FrozenLakeEnv(desc=[["S", "F"], ["H", "G"]]).desc, rows)
    assert np.array_equal(FrozenLakeEnv(desc=[[b"S", b"F"], [b"H", b"G"]]).desc, rows)
    assert MAPS["4x4"] == ["SFFF", "FHFH", "FFFH", "HFFG"]


def test_tt_frozen_lake_slippery_probabilities() -> None:
    env = FrozenLakeEnv(success_rate=0.5)
    env.reset(seed=0)
    # From the start, "down" goes down w.p. 0.5 and left/right (left bumps the wall) 0.25.
    assert env.P[0][1] == [(0.25, 0, 0, False), (0.5, 4, 0, False), (0.25, 1, 0, False)]
    # Holes and the goal are absorbing with no further reward.
    assert env.P[5][2] == [(1.0, 5, 0, True)]


def test_tt_frozen_lake_ansi_matches_gymnasium() -> None:
    ours = protogym.make("FrozenLake-v1", render_mode="ansi")
    theirs = gymnasium.make("FrozenLake-v1", render_mode="ansi")
    ours.reset(seed=4)
    theirs.reset(seed=4)
    assert ours.render() == theirs.render() == "\n\x1b[41mS\x1b[0mFFF\nFHFH\nFFFH\nHFFG\n"
    for action in _actions(60, 2):
        ours.step(action)
        theirs.step(action)
        assert ours.render() == theirs.render()
        inner = ours.unwrapped
        assert isinstance(inner, FrozenLakeEnv)
        if inner.s in (5, 7, 11, 12, 15):
            ours.reset()
            theirs.reset()


def test_tt_frozen_lake_state_can_be_set() -> None:
    env = FrozenLakeEnv(is_slippery=False)
    env.reset(seed=0)
    env.s = 14
    assert env.step(2)[:3] == (15, 1, True)
    with pytest.raises(ValueError, match=r"FrozenLakeEnv.s must be a state in Discrete\(16\)"):
        env.s = 16


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(2, 7),
    frozen=st.floats(0.3, 1.0),
    map_seed=st.integers(0, 2**31),
    slippery=st.booleans(),
    success_rate=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**31),
    actions=st.lists(st.integers(0, 3), min_size=1, max_size=300),
)
def test_tt_frozen_lake_any_map_matches_gymnasium(
    size: int,
    frozen: float,
    map_seed: int,
    slippery: bool,
    success_rate: float,
    seed: int,
    actions: list[int],
) -> None:
    desc = generate_random_map(size, frozen, map_seed)
    kwargs: dict[str, Any] = {
        "desc": desc,
        "is_slippery": slippery,
        "success_rate": success_rate,
    }
    ours = FrozenLakeEnv(**kwargs)
    theirs: Any = reference.FrozenLakeEnv(**kwargs)
    assert ours.P == theirs.P
    assert ours.reset(seed=seed) == theirs.reset(seed=seed)
    for action in actions:
        result = ours.step(action)
        assert result == theirs.step(action)
        assert result[0] in ours.observation_space
