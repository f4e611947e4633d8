"""Taxi: parity with Gymnasium 1.4's Taxi-v4 (all options) and the Taxi-v3 rain model."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.toy_text.taxi import TaxiEnv as ReferenceTaxi
from hypothesis import given, settings
from hypothesis import strategies as st
from protogym_toy_text.taxi import TaxiEnv, TaxiV3Env, decode, encode

import protogym

RolloutCheck = Callable[[Any, Any, Sequence[int], int], tuple[int, int]]

# Building Gymnasium's table takes a while; reuse one per rain setting across examples.
REFERENCE_CACHE: dict[tuple[bool, float], Any] = {}

pytestmark = pytest.mark.filterwarnings("ignore:'Taxi-v3' is out of date:DeprecationWarning")


def _actions(n: int, seed: int) -> list[int]:
    return [int(a) for a in np.random.default_rng(seed).integers(0, 6, n)]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"is_rainy": True},
        {"fickle_passenger": True},
        {"is_rainy": True, "fickle_passenger": True},
        {"is_rainy": True, "rainy_probability": 0.5},
        {"fickle_passenger": True, "fickle_probability": 1.0},
    ],
)
@pytest.mark.parametrize("seed", [0, 123])
def test_tt_taxi_v4_parity_through_make(
    kwargs: dict[str, Any], seed: int, same_rollout: RolloutCheck
) -> None:
    ours = protogym.make("Taxi-v4", **kwargs)
    theirs = gymnasium.make("Taxi-v4", **kwargs)
    terminated, truncated = same_rollout(ours, theirs, _actions(12_000, seed), seed)
    assert truncated > 20


def test_tt_taxi_v3_default_is_v4_default(same_rollout: RolloutCheck) -> None:
    ours = protogym.make("Taxi-v3")
    theirs = gymnasium.make("Taxi-v4")
    terminated, truncated = same_rollout(ours, theirs, _actions(12_000, 5), 5)
    assert truncated > 20


PADS = ((0, 0), (0, 4), (4, 0), (4, 3))


def _deliver(env: Any, seed: int) -> tuple[list[Any], int]:
    """Drive greedily with the action mask and a fixed route table; return the trajectory."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trajectory: list[Any] = [obs]
    deliveries = 0
    for _ in range(4000):
        mask = info["action_mask"]
        row, col, passenger, destination = decode(obs)
        # Pick up when legal, drop off at the destination, else a random legal move.
        if mask[4]:
            action = 4
        elif passenger == 4 and (row, col) == PADS[destination]:
            action = 5
        else:
            action = int(rng.choice(np.flatnonzero(mask[:4])))
        obs, reward, terminated, truncated, info = env.step(action)
        trajectory.append((obs, reward, terminated, truncated, info["prob"]))
        if terminated or truncated:
            deliveries += terminated
            obs, info = env.reset()
            trajectory.append(obs)
    return trajectory, deliveries


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"fickle_passenger": True, "fickle_probability": 1.0}, {"is_rainy": True}],
)
def test_tt_taxi_deliveries_match_gymnasium(kwargs: dict[str, Any]) -> None:
    ours, delivered = _deliver(protogym.make("Taxi-v4", **kwargs), 3)
    theirs, _ = _deliver(gymnasium.make("Taxi-v4", **kwargs), 3)
    assert ours == theirs
    assert delivered >= 5


def test_tt_taxi_fickle_passenger_changes_destination_once() -> None:
    ours = TaxiEnv(fickle_passenger=True, fickle_probability=1.0)
    theirs: Any = ReferenceTaxi(fickle_passenger=True, fickle_probability=1.0)
    ours.reset(seed=8)
    theirs.reset(seed=8)
    start = encode(2, 2, 4, 1)  # in the cab, heading for G
    ours.s = start
    theirs.s = start
    first = ours.step(0)
    assert first[:4] == theirs.step(0)[:4]
    row, col, passenger, destination = decode(first[0])
    assert (row, col, passenger) == (3, 2, 4) and destination != 1
    second = ours.step(1)  # the passenger changes their mind only once
    assert decode(second[0])[3] == destination
    assert second[:4] == theirs.step(1)[:4]


def test_tt_taxi_tables_match_gymnasium() -> None:
    for kwargs in ({}, {"is_rainy": True}, {"is_rainy": True, "rainy_probability": 0.3}):
        ours, theirs = TaxiEnv(**kwargs), ReferenceTaxi(**kwargs)
        assert ours.P == theirs.P
        assert all(np.array_equal(ours.action_mask(s), theirs.action_mask(s)) for s in range(500))


def test_tt_taxi_v3_rain_model() -> None:
    v3 = TaxiV3Env(is_rainy=True)
    middle, wall_south = encode(2, 2, 0, 1), encode(4, 2, 0, 1)
    # Southbound from the centre: 0.8 ahead, 0.1 west ("left"), 0.1 east.
    assert v3.P[middle][0] == [
        (0.8, encode(3, 2, 0, 1), -1, False),
        (0.1, encode(2, 1, 0, 1), -1, False),
        (0.1, encode(2, 3, 0, 1), -1, False),
    ]
    # At the southern edge v3 still drifts sideways where no wall is in the way.
    assert v3.P[wall_south][0] == [
        (0.8, wall_south, -1, False),
        (0.1, encode(4, 1, 0, 1), -1, False),
        (0.1, wall_south, -1, False),
    ]
    # v4 fixed both: left/right follow the heading and a blocked move does not drift.
    v4 = TaxiEnv(is_rainy=True)
    lateral = (1.0 - 0.8) / 2.0
    assert v4.P[middle][0] == [
        (0.8, encode(3, 2, 0, 1), -1, False),
        (lateral, encode(2, 3, 0, 1), -1, False),
        (lateral, encode(2, 1, 0, 1), -1, False),
    ]
    assert v4.P[wall_south][0] == [
        (0.8, wall_south, -1, False),
        (lateral, wall_south, -1, False),
        (lateral, wall_south, -1, False),
    ]


def test_tt_taxi_v3_fickle_probability_is_fixed() -> None:
    env = TaxiV3Env(fickle_passenger=True)
    hits = 0
    for seed in range(200):
        env.reset(seed=seed)
        expected = np.random.default_rng(seed)
        expected.random()  # the initial state
        hits += env.fickle_step
        assert env.fickle_step == (expected.random() < 0.3)
    assert 30 < hits < 90


def test_tt_taxi_encode_decode_round_trip() -> None:
    env, reference = TaxiEnv(), ReferenceTaxi()
    for state in range(500):
        assert env.encode(*env.decode(state)) == state
        assert env.decode(state) == tuple(reference.decode(state))


def test_tt_taxi_info_mask_is_a_fresh_array() -> None:
    env = TaxiEnv()
    _, info = env.reset(seed=0)
    info["action_mask"][:] = 9
    _, again = env.reset(seed=0)
    assert again["action_mask"].dtype == np.int8 and again["action_mask"].max() == 1


@pytest.mark.parametrize("kwargs", [{"rainy_probability": 1.2}, {"fickle_probability": -0.1}])
def test_tt_taxi_rejects_bad_probabilities(kwargs: dict[str, Any]) -> None:
    name, value = next(iter(kwargs.items()))
    with pytest.raises(ValueError, match=rf"^Taxi {name} must be in \[0, 1\], got {value}$"):
        TaxiEnv(**kwargs)


def test_tt_taxi_ansi_matches_gymnasium() -> None:
    ours = protogym.make("Taxi-v4", render_mode="ansi")
    theirs = gymnasium.make("Taxi-v4", render_mode="ansi")
    ours.reset(seed=1)
    theirs.reset(seed=1)
    assert ours.render() == theirs.render()
    for action in _actions(300, 9):
        result = ours.step(action)
        theirs.step(action)
        assert ours.render() == theirs.render()
        if result[2] or result[3]:
            ours.reset()
            theirs.reset()


@settings(max_examples=40, deadline=None)
@given(
    is_rainy=st.booleans(),
    fickle=st.booleans(),
    rainy_probability=st.floats(0.0, 1.0),
    fickle_probability=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**31),
    actions=st.lists(st.integers(0, 5), min_size=1, max_size=300),
)
def test_tt_taxi_any_options_match_gymnasium(
    is_rainy: bool,
    fickle: bool,
    rainy_probability: float,
    fickle_probability: float,
    seed: int,
    actions: list[int],
) -> None:
    kwargs: dict[str, Any] = {
        "is_rainy": is_rainy,
        "fickle_passenger": fickle,
        "rainy_probability": rainy_probability,
        "fickle_probability": fickle_probability,
    }
    ours, theirs = (
        TaxiEnv(**kwargs),
        REFERENCE_CACHE.setdefault((is_rainy, rainy_probability), ReferenceTaxi(**kwargs)),
    )
    theirs.fickle_passenger, theirs.fickle_probability = fickle, fickle_probability
    first, info = ours.reset(seed=seed)
    expected, expected_info = theirs.reset(seed=seed)
    assert first == expected
    assert np.array_equal(info["action_mask"], expected_info["action_mask"])
    for action in actions:
        state, reward, terminated, truncated, info = ours.step(action)
        ref = theirs.step(action)
        assert (state, reward, terminated, truncated, info["prob"]) == (*ref[:4], ref[4]["prob"])
        assert np.array_equal(info["action_mask"], ref[4]["action_mask"])
