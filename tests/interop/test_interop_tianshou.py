"""Tianshou on protogym: its `DummyVectorEnv` over `to_gymnasium` envs and a protogym vector
env as one Tianshou vector env (`to_tianshou_vector_env`) collect, with Tianshou's own
collector, the transitions it collects on Gymnasium's CartPole; DQN learns CartPole."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
import torch
from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import BaseVectorEnv, DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import protogym
from protogym.interop.gymnasium import to_gymnasium
from protogym.interop.tianshou import TianshouVectorEnv, to_tianshou_vector_env

DISABLED = {"autoreset_mode": "disabled"}
FIELDS = ("obs", "act", "rew", "terminated", "truncated", "obs_next")


def _ours(num_envs: int, mode: str = "vector_entry_point") -> TianshouVectorEnv:
    return to_tianshou_vector_env(
        protogym.make_vec(
            "CartPole-v1",
            num_envs,
            vectorization_mode=mode,  # type: ignore[call-overload]
            vector_kwargs=DISABLED,
        )
    )


def _dummy(make_one: Any, num_envs: int) -> DummyVectorEnv:
    return DummyVectorEnv([make_one] * num_envs)


def _greedy_policy(hidden: int = 16) -> DiscreteQLearningPolicy[Net]:
    """A Q-network with fixed random weights: greedy actions depend on the observation only."""
    torch.manual_seed(0)
    return DiscreteQLearningPolicy(
        model=Net(state_shape=4, action_shape=2, hidden_sizes=[hidden]),
        action_space=gymnasium.spaces.Discrete(2),
    )


def _collect(venv: BaseVectorEnv, amount: dict[str, int]) -> tuple[dict[str, Any], CollectStats]:
    venv.seed(5)
    buffer = VectorReplayBuffer(2000, len(venv))
    collector = Collector[CollectStats](_greedy_policy(), venv, buffer)
    collector.reset()
    stats = collector.collect(n_step=amount.get("n_step"), n_episode=amount.get("n_episode"))
    batch = buffer[:]
    return {field: getattr(batch, field) for field in FIELDS}, stats


@pytest.mark.parametrize("amount", [{"n_step": 400}, {"n_episode": 7}])
def test_collected_transitions_equal_gymnasiums(amount: dict[str, int]) -> None:
    """`n_episode=7` over 4 envs makes the collector step a subset of them at the end."""
    theirs, _ = _collect(_dummy(lambda: gymnasium.make("CartPole-v1"), 4), amount)
    wrapped, _ = _collect(_dummy(lambda: to_gymnasium(protogym.make("CartPole-v1")), 4), amount)
    for venv in (_ours(4), _ours(4, "sync")):
        ours, stats = _collect(venv, amount)
        assert stats.n_collected_episodes >= 7
        for field in FIELDS:
            np.testing.assert_array_equal(ours[field], theirs[field], err_msg=field)
            np.testing.assert_array_equal(wrapped[field], theirs[field], err_msg=field)


def test_spaces_are_gymnasiums_as_tianshou_checks() -> None:
    venv = _ours(3)
    assert isinstance(venv, BaseVectorEnv)
    assert len(venv) == 3
    assert venv.action_space == [gymnasium.spaces.Discrete(2)] * 3
    assert all(isinstance(space, gymnasium.spaces.Box) for space in venv.observation_space)


def test_reset_by_env_id_resets_only_those() -> None:
    venv = _ours(3)
    obs, infos = venv.reset(seed=[1, 2, 3])
    reference = protogym.make_vec("CartPole-v1", 3, vector_kwargs=DISABLED)
    expected, _ = reference.reset(seed=[1, 2, 3])
    np.testing.assert_array_equal(obs, expected)
    assert infos.shape == (3,)
    actions = np.array([1, 0, 1])
    stepped, *_ = venv.step(actions)
    reference.step(actions)
    again, infos = venv.reset(env_id=[1], seed=9)
    assert again.shape == (1, 4) and len(infos) == 1
    only_second = {"reset_mask": np.array([False, True, False])}
    expected, _ = reference.reset(seed=[None, 9, None], options=only_second)
    np.testing.assert_array_equal(again[0], expected[1])
    after, *_, step_infos = venv.step(actions)
    np.testing.assert_array_equal(after, reference.step(actions)[0])
    assert [info["env_id"] for info in step_infos] == [0, 1, 2]


def test_a_sub_env_left_out_of_a_step_must_be_reset_first() -> None:
    venv = _ours(3)
    venv.reset()
    _, _, _, _, infos = venv.step(np.array([0, 1]), id=[0, 2])
    assert [info["env_id"] for info in infos] == [0, 2]
    with pytest.raises(RuntimeError, match=r"sub-envs \[1\] must be reset"):
        venv.step(np.array([0]), id=[1])
    venv.reset(env_id=1)
    venv.step(np.array([0, 0, 0]))


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda venv: venv.step(np.zeros(2, dtype=np.int64)), ValueError, "got 2 actions for 3"),
        (lambda venv: venv.step(None), ValueError, "only Tianshou's asynchronous"),
        (lambda venv: venv.reset(env_id=[3]), IndexError, r"env ids \[3\] are out of range"),
        (lambda venv: venv.reset(env_id=[0, 1], seed=[1]), ValueError, "got 1 seeds for 2"),
        (lambda venv: venv.reset(foo=1), TypeError, "reset takes env_id, seed and options"),
    ],
)
def test_bad_input_is_a_clear_error(call: Any, error: type[Exception], message: str) -> None:
    venv = _ours(3)
    venv.reset()
    with pytest.raises(error, match=message):
        call(venv)


def test_only_disabled_autoreset_and_vector_envs_are_taken() -> None:
    same_step = protogym.make_vec("CartPole-v1", 2)
    with pytest.raises(ValueError, match="'autoreset_mode': 'disabled'"):
        to_tianshou_vector_env(same_step)
    with pytest.raises(TypeError, match="needs a protogym vector env"):
        to_tianshou_vector_env(protogym.make("CartPole-v1"))  # type: ignore[arg-type]


def test_closed_env_refuses_calls() -> None:
    venv = _ours(2)
    venv.close()
    with pytest.raises(AssertionError, match="cannot be called after close"):
        venv.reset()


@pytest.mark.slow
def test_dqn_learns_cartpole_on_the_native_vector_env() -> None:
    """RL Zoo's CartPole-v1 DQN settings over 10 native envs, for at most 60k steps; the
    trainer stops once a greedy test of 10 episodes reaches CartPole-v1's threshold of 475."""
    torch.set_num_threads(1)
    torch.manual_seed(0)
    np.random.seed(0)  # Tianshou's replay buffers sample with numpy's global generator
    training, testing = _ours(10), _ours(10)
    training.seed(0)
    testing.seed(100)
    policy = DiscreteQLearningPolicy(
        model=Net(state_shape=4, action_shape=2, hidden_sizes=[256, 256]),
        action_space=training.action_space[0],
        eps_training=1.0,
    )
    algorithm = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=2.3e-3),
        gamma=0.99,
        target_update_freq=128,
    )
    training_collector = Collector[CollectStats](
        algorithm, training, VectorReplayBuffer(100_000, 10), exploration_noise=True
    )
    training_collector.reset()
    training_collector.collect(n_step=1000, random=True)
    test_collector = Collector[CollectStats](algorithm, testing)

    def anneal(epoch: int, env_step: int) -> None:
        policy.set_eps_training(0.04 + 0.96 * max(1 - env_step / 8000, 0.0))

    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=training_collector,
            test_collector=test_collector,
            max_epochs=12,
            epoch_num_steps=5000,
            collection_step_num_env_steps=250,
            update_step_num_gradient_steps_per_sample=0.5,
            test_step_num_episodes=10,
            batch_size=64,
            training_fn=anneal,
            stop_fn=lambda mean_return: mean_return >= 475.0,
            verbose=False,
            show_progress=False,
        )
    )
    assert result.best_reward >= 475.0
