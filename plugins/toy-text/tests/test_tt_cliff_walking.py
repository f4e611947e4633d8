"""CliffWalking: parity with Gymnasium 1.4 (v1 and the slippery variant), v0, text output."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.toy_text.cliffwalking import CliffWalkingEnv as ReferenceCliff
from protogym_toy_text.cliff_walking import CliffWalkingEnv

import protogym

RolloutCheck = Callable[[Any, Any, Sequence[int], int], tuple[int, int]]

pytestmark = pytest.mark.filterwarnings("ignore:'CliffWalking-v0' is out of date")


def _actions(n: int, seed: int) -> list[int]:
    """Random moves biased to the right and down, so the goal is reached now and then."""
    rng = np.random.default_rng(seed)
    return [int(a) for a in rng.choice(4, size=n, p=[0.2, 0.35, 0.25, 0.2])]


@pytest.mark.parametrize(
    "our_id,their_id",
    [
        ("CliffWalking-v1", "CliffWalking-v1"),
        ("CliffWalkingSlippery-v1", "CliffWalkingSlippery-v1"),
        ("CliffWalking-v0", "CliffWalking-v1"),
    ],
)
@pytest.mark.parametrize("seed", [0, 7])
def test_tt_cliff_walking_parity_through_make(
    our_id: str, their_id: str, seed: int, same_rollout: RolloutCheck
) -> None:
    ours, theirs = protogym.make(our_id), gymnasium.make(their_id)
    terminated, _ = same_rollout(ours, theirs, _actions(30_000, seed), seed)
    assert terminated > 3


def test_tt_cliff_walking_tables_match_gymnasium() -> None:
    for slippery in (False, True):
        ours, theirs = CliffWalkingEnv(is_slippery=slippery), ReferenceCliff(is_slippery=slippery)
        assert {
            s: {a: [(p, int(n), r, bool(t)) for p, n, r, t in out] for a, out in acts.items()}
            for s, acts in theirs.P.items()
        } == ours.P


def test_tt_cliff_walking_rules() -> None:
    env = CliffWalkingEnv()
    assert env.reset(seed=0) == (36, {"prob": 1})
    assert env.step(1) == (36, -100, False, False, {"prob": 1.0})  # onto the cliff: back home
    assert env.step(0) == (24, -1, False, False, {"prob": 1.0})
    for _ in range(11):
        env.step(1)
    assert env.step(2) == (47, -1, True, False, {"prob": 1.0})


def test_tt_cliff_walking_ansi_matches_gymnasium() -> None:
    ours = protogym.make("CliffWalking-v1", render_mode="ansi")
    theirs = gymnasium.make("CliffWalking-v1", render_mode="ansi")
    ours.reset(seed=0)
    theirs.reset(seed=0)
    text = ours.render()
    assert text == theirs.render()
    assert text.splitlines()[3] == "x  " + "C  " * 10 + "T"
    for action in _actions(200, 1):
        ours.step(action)
        theirs.step(action)
        assert ours.render() == theirs.render()
