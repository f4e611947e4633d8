"""protogym vector envs as Stable-Baselines3 VecEnvs: the legacy same-step contract, the
attribute and method calls, and a real PPO run that learns CartPole."""

from __future__ import annotations

import warnings
from typing import Any, Literal

import numpy as np
import pytest
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.evaluation import evaluate_policy
from stable_baselines3.common.vec_env import VecEnv

import protogym
from protogym.interop.sb3 import to_sb3_vec_env

MODES: list[Literal["sync", "async", "vector_entry_point"]] = [
    "sync",
    "async",
    "vector_entry_point",
]


@pytest.mark.parametrize("mode", MODES)
def test_the_legacy_contract_matches_the_vector_envs_own_steps(
    mode: Literal["sync", "async", "vector_entry_point"],
) -> None:
    reference = protogym.make_vec("CartPole-v1", 3, vectorization_mode="sync")
    venv = to_sb3_vec_env(protogym.make_vec("CartPole-v1", 3, vectorization_mode=mode))
    assert isinstance(venv, VecEnv)
    venv.seed(4)
    obs = venv.reset()
    expected, _ = reference.reset(seed=4)
    np.testing.assert_array_equal(obs, expected)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(120):
        actions = rng.integers(0, 2, size=3)
        obs, rewards, dones, infos = venv.step(actions)
        ref_obs, ref_rewards, terminated, truncated, ref_infos = reference.step(actions)
        np.testing.assert_array_equal(obs, ref_obs)
        np.testing.assert_array_equal(rewards, ref_rewards.astype(np.float32))
        np.testing.assert_array_equal(dones, terminated | truncated)
        for index in range(3):
            assert infos[index]["TimeLimit.truncated"] == bool(
                truncated[index] and not terminated[index]
            )
            if dones[index]:
                ended += 1
                np.testing.assert_array_equal(
                    infos[index]["terminal_observation"],
                    ref_infos["final_obs"][index],
                )
            else:
                assert "terminal_observation" not in infos[index]
    assert ended > 0
    venv.close()


def test_a_time_limit_is_reported_as_truncation() -> None:
    venv = to_sb3_vec_env(protogym.make_vec("CartPole-v1", 2, max_episode_steps=5))
    venv.reset()
    for _ in range(4):
        _, _, dones, _ = venv.step(np.array([0, 1]))
        if dones.any():
            pytest.skip("an episode fell before the limit")  # pragma: no cover
    _, _, dones, infos = venv.step(np.array([1, 0]))
    assert dones.all()
    assert [info["TimeLimit.truncated"] for info in infos] == [True, True]


def test_attributes_and_methods_reach_the_sub_envs() -> None:
    venv = to_sb3_vec_env(
        protogym.make_vec("CartPole-v1", 3, vectorization_mode="sync", render_mode="rgb_array")
    )
    assert venv.render_mode == "rgb_array"
    assert venv.get_attr("render_mode") == ["rgb_array"] * 3
    venv.set_attr("marker", 7, indices=[1])
    assert venv.get_attr("marker", indices=[1]) == [7]
    venv.reset()
    frames = venv.env_method("render", indices=[0, 2])
    assert [frame.shape for frame in frames] == [(400, 600, 3)] * 2
    assert venv.env_is_wrapped(object) == [False, False, False]
    image = venv.render()
    assert image is not None and image.ndim == 3


def test_a_native_vector_env_answers_for_all_its_sub_envs() -> None:
    venv = to_sb3_vec_env(protogym.make_vec("CartPole-v1", 4))
    assert venv.get_attr("num_envs") == [4, 4, 4, 4]
    with pytest.raises(ValueError, match="set it without indices"):
        venv.set_attr("gravity", 1.0, indices=[0])


def test_next_step_vector_envs_and_non_vector_envs_are_refused() -> None:
    with pytest.raises(ValueError, match="autoreset_mode': 'same_step'"):
        to_sb3_vec_env(
            protogym.make_vec("CartPole-v1", 2, vector_kwargs={"autoreset_mode": "next_step"})
        )
    with pytest.raises(TypeError, match=r"needs a protogym vector env .* got 'CartPole-v1'"):
        to_sb3_vec_env("CartPole-v1")  # type: ignore[arg-type]


def _linear(start: float) -> Any:
    return lambda progress: progress * start


@pytest.mark.slow
def test_ppo_learns_cartpole_on_the_native_vector_env() -> None:
    """RL Zoo's CartPole-v1 PPO settings, 100k steps over 8 native envs, then a
    deterministic evaluation that must reach the reward threshold."""
    torch.set_num_threads(1)
    venv = to_sb3_vec_env(protogym.make_vec("CartPole-v1", 8))
    model = PPO(
        "MlpPolicy",
        venv,
        n_steps=32,
        batch_size=256,
        gae_lambda=0.8,
        gamma=0.98,
        n_epochs=20,
        ent_coef=0.0,
        learning_rate=_linear(0.001),
        clip_range=_linear(0.2),
        seed=0,
        device="cpu",
    )
    model.learn(100_000)
    evaluation = to_sb3_vec_env(protogym.make_vec("CartPole-v1", 4))
    evaluation.seed(123)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "not wrapped with a Monitor"
        mean, _ = evaluate_policy(model, evaluation, n_eval_episodes=10, deterministic=True)
    assert isinstance(mean, float) and mean >= 475.0  # CartPole-v1's reward threshold
