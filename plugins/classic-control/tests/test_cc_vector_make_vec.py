"""`make_vec` of every classic-control id: native by default, equal to sync step for step."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import protogym
from protogym.vector import AutoresetMode, VectorEnv

IDS = ["CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1"]


@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_defaults_to_the_native_env_and_matches_sync(env_id: str) -> None:
    native: Any = protogym.make_vec(env_id, 3, max_episode_steps=12)
    sync: Any = protogym.make_vec(
        env_id, 3, vectorization_mode="sync", max_episode_steps=12, disable_env_checker=True
    )
    assert native.spec.id == env_id
    assert native.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    assert type(native).__module__.startswith("protogym_classic_control.vector.")
    assert native.autoreset_mode is AutoresetMode.SAME_STEP
    assert isinstance(native, VectorEnv)
    sync.action_space.seed(0)
    obs_native, _ = native.reset(seed=31)
    obs_sync, _ = sync.reset(seed=31)
    np.testing.assert_array_equal(obs_native, obs_sync)
    ends = 0
    for _ in range(30):
        actions = sync.action_space.sample()
        a = native.step(actions)
        b = sync.step(actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            np.testing.assert_array_equal(x, y)
        ends += int(np.sum(a[3]))
    assert ends >= 3  # the time limit of 12 was crossed by every sub-env
    native.close()
    sync.close()


def test_env_arguments_reach_the_native_env() -> None:
    env: Any = protogym.make_vec("Pendulum-v1", 2, g=9.81, render_mode="rgb_array")
    assert env.unwrapped.g == 9.81
    assert env.render_mode == "rgb_array"
    env.reset(seed=0)
    frames = env.render()
    assert len(frames) == 2 and frames[0].ndim == 3
    env.close()
