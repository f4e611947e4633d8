"""RLlib (new API stack) on protogym ids: its env runner builds protogym's native vector env
through the Gymnasium id's `vector_entry_point` (next-step autoreset), collects the
episodes it collects on Gymnasium's CartPole, and PPO with two env runners on a loopback
Ray cluster learns CartPole."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

from protogym.interop.gymnasium import GymnasiumVectorEnv

PROTOGYM_CARTPOLE = "protogym.interop.gymnasium:protogym/CartPole-v1"
"""Gymnasium's ``module:id``: importing the module registers protogym's ids in Gymnasium's
registry, in the driver and in every Ray worker."""


def _config(env_id: str, mode: str, num_envs: int = 4) -> PPOConfig:
    return (
        PPOConfig()  # type: ignore[no-untyped-call]
        .environment(env_id)
        .env_runners(num_envs_per_env_runner=num_envs, gym_env_vectorize_mode=mode)
        .debugging(seed=3)
    )


def _episodes(env_id: str, mode: str) -> list[Any]:
    """400 greedy steps of RLlib's env runner, in this process, from seeded resets."""
    runner = SingleAgentEnvRunner(config=_config(env_id, mode))
    episodes = runner.sample(num_timesteps=400, explore=False)
    runner.stop()  # type: ignore[no-untyped-call]
    return list(episodes)


def test_env_runner_builds_the_native_vector_env_in_next_step_mode() -> None:
    runner = SingleAgentEnvRunner(config=_config(PROTOGYM_CARTPOLE, "vector_entry_point"))
    assert runner.env is not None
    env = runner.env.unwrapped
    assert isinstance(env, GymnasiumVectorEnv)
    assert type(env.protogym_vector_env).__name__ == "CartPoleVectorEnv"
    assert env.autoreset_mode is gymnasium.vector.AutoresetMode.NEXT_STEP
    assert runner.num_envs == 4
    episodes = runner.sample(num_timesteps=200, random_actions=True)
    assert sum(len(episode) for episode in episodes) >= 200
    for episode in episodes:
        episode.validate()
    runner.stop()  # type: ignore[no-untyped-call]


@pytest.mark.parametrize("mode", ["vector_entry_point", "sync"])
def test_env_runner_episodes_equal_gymnasiums(mode: str) -> None:
    """The same seeds and RLModule weights (from `debugging(seed=...)`), greedy actions:
    every episode RLlib cuts from protogym's env equals the one from Gymnasium's."""
    ours = _episodes(PROTOGYM_CARTPOLE, mode)
    theirs = _episodes("CartPole-v1", "sync")
    assert len(ours) == len(theirs)
    assert sum(episode.is_done for episode in ours) >= 10
    for mine, reference in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(mine.get_observations(), reference.get_observations())
        np.testing.assert_array_equal(mine.get_actions(), reference.get_actions())
        np.testing.assert_array_equal(mine.get_rewards(), reference.get_rewards())
        assert (mine.is_terminated, mine.is_truncated) == (
            reference.is_terminated,
            reference.is_truncated,
        )


@pytest.fixture(scope="module")
def loopback_ray() -> Iterator[None]:
    """A one-node Ray cluster with two CPUs on 127.0.0.1, torn down after the module (a
    cluster some other test of this process started is used as it is)."""
    import ray
    from ray._private import ray_constants

    if ray.is_initialized():
        yield
        return
    # As in tests/vector/conftest.py: keep Ray on loopback, without usage reports, and in a
    # short temporary folder of its own.
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    temp_dir = Path(tempfile.mkdtemp(prefix="pgrllib-"))
    saved_tmpdir = os.environ.get("RAY_TMPDIR")
    os.environ["RAY_TMPDIR"] = str(temp_dir)
    try:
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            object_store_memory=100 * 1024 * 1024,
            _node_ip_address="127.0.0.1",
            _temp_dir=str(temp_dir),
        )
        yield
    finally:
        with contextlib.suppress(Exception):
            ray.shutdown()
        if saved_tmpdir is None:
            os.environ.pop("RAY_TMPDIR", None)
        else:
            os.environ["RAY_TMPDIR"] = saved_tmpdir
        shutil.rmtree(temp_dir, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.usefixtures("loopback_ray")
def test_ppo_learns_cartpole_with_two_env_runners() -> None:
    """PPO on protogym's id, two remote env runners each stepping 4 native CartPoles, for at
    most 40 iterations of 2,000 steps; it stops once the mean return of the runners'
    episodes reaches 450."""
    config = (
        _config(PROTOGYM_CARTPOLE, "vector_entry_point")
        .env_runners(num_env_runners=2, num_cpus_per_env_runner=1, sample_timeout_s=60.0)
        .learners(num_learners=0)
        .training(
            lr=1e-3,
            gamma=0.99,
            train_batch_size_per_learner=2000,
            minibatch_size=250,
            num_epochs=10,
            vf_loss_coeff=0.01,
        )
        .debugging(seed=0)
    )
    algo = config.build_algo()
    try:
        returns = []
        for _ in range(40):
            result = algo.train()  # type: ignore[no-untyped-call]
            returns.append(float(result["env_runners"].get("episode_return_mean", 0.0)))
            if returns[-1] >= 450.0:
                break
        assert algo.env_runner_group is not None
        assert algo.env_runner_group.num_remote_env_runners() == 2
    finally:
        algo.stop()  # type: ignore[no-untyped-call]
    assert returns[-1] >= 450.0, returns
