"""The autoreset mode is part of a vector env's type: mypy checks these `assert_type`s."""

from __future__ import annotations

from typing import Any, Literal, assert_type

import numpy as np

from protogym.vector import (
    AsyncVectorEnv,
    AutoresetMode,
    NextStep,
    SameStep,
    SyncVectorEnv,
    VectorEnv,
)
from tests.vector.vector_helpers import countdowns


def needs_same_step(env: VectorEnv[Any, Any, SameStep]) -> bool:
    """Code that reads `final_obs` can demand a same-step env in its signature."""
    _, _, _, _, infos = env.step(np.ones(env.num_envs, dtype=np.int64))
    return "final_obs" in infos


def test_the_mode_is_inferred_from_the_constructor_argument() -> None:
    default = SyncVectorEnv(countdowns(2))
    assert_type(default, SyncVectorEnv[Any, Any, Literal[AutoresetMode.SAME_STEP]])
    assert_type(default.autoreset_mode, Literal[AutoresetMode.SAME_STEP])
    next_step = SyncVectorEnv(countdowns(2), autoreset_mode="next_step")
    assert_type(next_step, SyncVectorEnv[Any, Any, NextStep])
    disabled = SyncVectorEnv(countdowns(2), autoreset_mode=AutoresetMode.DISABLED)
    assert_type(disabled.autoreset_mode, Literal[AutoresetMode.DISABLED])
    mode: AutoresetMode = AutoresetMode.SAME_STEP
    dynamic = SyncVectorEnv(countdowns(2), autoreset_mode=mode)
    assert_type(dynamic.autoreset_mode, AutoresetMode)
    default.reset(seed=0)
    assert needs_same_step(default) is False
    assert isinstance(next_step, VectorEnv)


def test_async_infers_the_mode_too() -> None:
    with AsyncVectorEnv(countdowns(1), autoreset_mode="next_step") as env:
        assert_type(env.autoreset_mode, Literal[AutoresetMode.NEXT_STEP])
        assert env.autoreset_mode is AutoresetMode.NEXT_STEP
