"""Toy-text test settings and the rollout-parity helper shared by the env tests.

Rendering never needs a display: SDL's dummy drivers are set before pygame is imported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _assert_same(ours: Any, theirs: Any, what: str, check_type: bool) -> None:
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and ours.keys() == theirs.keys(), what
        for key in theirs:
            _assert_same(ours[key], theirs[key], f"{what}[{key!r}]", check_type)
    elif isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs), what
        for index, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            _assert_same(a, b, f"{what}[{index}]", check_type)
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), what
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, what
        assert np.array_equal(ours, theirs), f"{what}: {ours} != {theirs}"
    else:
        assert ours == theirs, f"{what}: {ours!r} != {theirs!r}"
        if check_type:
            assert type(ours) is type(theirs), f"{what}: {type(ours)} is not {type(theirs)}"


RolloutCheck = Callable[[Any, Any, Sequence[int], int], tuple[int, int]]


@pytest.fixture
def same_rollout() -> RolloutCheck:
    """Step two envs with the same seed and actions; every result must be identical.

    Observations, rewards and flags must also have the same Python types; info values must
    be equal. Episodes that end are reset (unseeded) on both sides and compared too.
    Returns the numbers of terminated and truncated episodes, so tests can show that the
    rollouts crossed episode ends.
    """

    def check(ours: Any, theirs: Any, actions: Sequence[int], seed: int) -> tuple[int, int]:
        pair = (ours.reset(seed=seed), theirs.reset(seed=seed))
        _assert_same(pair[0], pair[1], "reset", check_type=False)
        terminations = truncations = 0
        for t, action in enumerate(actions):
            mine = ours.step(action)
            ref = theirs.step(action)
            for index, name in enumerate(("obs", "reward", "terminated", "truncated")):
                _assert_same(mine[index], ref[index], f"step {t} {name}", check_type=True)
            _assert_same(mine[4], ref[4], f"step {t} info", check_type=False)
            if ref[2] or ref[3]:
                terminations += bool(ref[2])
                truncations += bool(ref[3] and not ref[2])
                _assert_same(ours.reset(), theirs.reset(), f"reset after {t}", False)
        return terminations, truncations

    return check
