"""FunctionalNumpyEnv and FunctionalNumpyVectorEnv: a numpy FuncEnv behind the Env and
VectorEnv contracts."""

from __future__ import annotations

import numpy as np
import pytest

from protogym import Env, error
from protogym.functional.numpy_env import FunctionalNumpyEnv, FunctionalNumpyVectorEnv
from protogym.spaces import Box, MultiDiscrete
from protogym.vector.vector_env import AutoresetMode, VectorEnv
from tests.functional.envs import NumpyWalk


def test_single_env_follows_the_env_contract_and_its_seed() -> None:
    env = FunctionalNumpyEnv(NumpyWalk())
    assert isinstance(env, Env)
    assert env.observation_space is NumpyWalk.observation_space
    with pytest.raises(error.ResetNeeded, match="call reset"):
        env.step(np.int64(1))
    first = [env.reset(seed=3)[0]] + [env.step(np.int64(1))[0] for _ in range(5)]
    obs, info = env.reset(seed=3)
    np.testing.assert_array_equal(obs, first[0])
    assert info == {"start": obs[0]}
    for expected in first[1:]:
        obs, reward, terminated, truncated, info = env.step(np.int64(1))
        np.testing.assert_array_equal(obs, expected)
        assert type(reward) is float and type(terminated) is bool and truncated is False
    assert terminated  # five moves right end the walk
    assert env.render() is None


def test_single_env_rejects_bad_arguments() -> None:
    with pytest.raises(TypeError, match=r"func_env must be a FuncEnv, got object \(missing: "):
        FunctionalNumpyEnv(object())  # type: ignore[arg-type]
    with pytest.raises(error.UnsupportedMode, match="render_mode must be None or 'rgb_array'"):
        FunctionalNumpyEnv(NumpyWalk(), render_mode="human")
    with pytest.raises(NotImplementedError, match="NumpyWalk cannot render"):
        FunctionalNumpyEnv(NumpyWalk(), render_mode="rgb_array")


def test_vector_env_batches_spaces_and_defaults_to_next_step() -> None:
    envs = FunctionalNumpyVectorEnv(NumpyWalk(), 3, max_episode_steps=2)
    assert isinstance(envs, VectorEnv)
    assert envs.autoreset_mode is AutoresetMode.NEXT_STEP
    assert envs.single_action_space is NumpyWalk.action_space
    assert envs.action_space == MultiDiscrete([2, 2, 2])
    assert envs.observation_space == Box(-10.0, 10.0, (3, 2), np.float32)
    obs, infos = envs.reset(seed=0)
    assert obs.shape == (3, 2) and infos["_start"].tolist() == [True] * 3
    _, _, _, truncated, _ = envs.step([0, 1, 0])
    assert not truncated.any()
    _, rewards, terminated, truncated, infos = envs.step([0, 1, 0])
    assert rewards.dtype == np.float64 and truncated.tolist() == [True] * 3
    obs, rewards, terminated, truncated, infos = envs.step([0, 1, 0])
    assert rewards.tolist() == [0.0] * 3 and not (terminated | truncated).any()
    np.testing.assert_array_equal(infos["start"], obs[:, 0])
    assert infos["_start"].tolist() == [True] * 3 and infos["_moves"].tolist() == [False] * 3


def test_vector_env_same_step_uses_gymnasiums_final_layout() -> None:
    envs = FunctionalNumpyVectorEnv(
        NumpyWalk(), 2, max_episode_steps=2, metadata={"autoreset_mode": "same_step"}
    )
    envs.reset(seed=0)
    _, _, _, _, infos = envs.step(np.array([1, 1]))
    assert "final_obs" not in infos
    obs, _, _, truncated, infos = envs.step(np.array([1, 0]))
    assert truncated.tolist() == [True, True]
    assert infos["final_obs"].dtype == object and infos["_final_obs"].tolist() == [True, True]
    assert infos["final_obs"][0][0] > infos["final_obs"][1][0]
    assert infos["final_info"]["moves"].tolist() == [2, 2]
    assert infos["final_info"]["_moves"].tolist() == [True, True]
    np.testing.assert_array_equal(infos["start"], obs[:, 0])  # the new episodes' starts


def test_vector_env_disabled_mode_resets_with_a_mask() -> None:
    envs = FunctionalNumpyVectorEnv(NumpyWalk(), 3, metadata={"autoreset_mode": "disabled"})
    with pytest.raises(error.ResetNeeded, match="reset\\(\\) every copy once"):
        envs.reset(options={"reset_mask": np.array([True, False, False])})
    first, _ = envs.reset(seed=1)
    moved, *_ = envs.step([1, 1, 1])
    obs, infos = envs.reset(options={"reset_mask": np.array([True, False, False])})
    np.testing.assert_array_equal(obs[1:], moved[1:])
    assert obs[0, 0] != moved[0, 0] and abs(obs[0, 0]) <= 0.5
    assert infos["_start"].tolist() == [True, False, False]
    with pytest.raises(ValueError, match="must have shape \\(3,\\)"):
        envs.reset(options={"reset_mask": np.array([True, False])})


@pytest.mark.parametrize("num_envs", [0, -2, 1.5, True])
def test_vector_env_rejects_bad_counts(num_envs: object) -> None:
    with pytest.raises(ValueError, match="num_envs must be a positive int"):
        FunctionalNumpyVectorEnv(NumpyWalk(), num_envs)  # type: ignore[arg-type]


def test_vector_env_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="autoreset_mode must be an AutoresetMode or one of"):
        FunctionalNumpyVectorEnv(NumpyWalk(), 2, metadata={"autoreset_mode": "sometimes"})
    with pytest.raises(ValueError, match="max_episode_steps must be an int >= 0"):
        FunctionalNumpyVectorEnv(NumpyWalk(), 2, max_episode_steps=-1)
    with pytest.raises(error.UnsupportedMode, match="must be None or 'rgb_array'"):
        FunctionalNumpyVectorEnv(NumpyWalk(), 2, render_mode="human")
    with pytest.raises(NotImplementedError, match="NumpyWalk cannot render"):
        FunctionalNumpyVectorEnv(NumpyWalk(), 2, render_mode="rgb_array")
    envs = FunctionalNumpyVectorEnv(NumpyWalk(), 2)
    with pytest.raises(error.ResetNeeded, match="call reset"):
        envs.step([0, 1])
    with pytest.raises(error.InvalidSeed, match="one int seed for the whole batch"):
        envs.reset(seed=[1, 2])
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="leading dimension of 2, got shape \\(3,\\)"):
        envs.step([0, 1, 1])
    with pytest.raises(ValueError, match="leading dimension of 2, got shape \\(\\)"):
        envs.step(1)
