"""A CleanRL-shaped training loop, both ways across the Gymnasium interop.

The loop is ours, written the way CleanRL's `dqn.py` is (docs/interop/cleanrl.md has the
recipe run on CleanRL's own scripts): a same-step-autoreset vector env of
`RecordEpisodeStatistics` envs, episode returns read from ``final_info``, the last
observation of a truncated episode from ``final_obs``, a replay buffer and a Q-network
trained on it. Run on a protogym env made through Gymnasium, and on a Gymnasium env made
through protogym, it must log the same episodes, store the same transitions and learn the
same weights as on Gymnasium's own CartPole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np
import pytest
import torch
from numpy.typing import NDArray

import protogym
import protogym.interop.gymnasium  # registers protogym's ids with Gymnasium
from protogym.vector import SyncVectorEnv
from protogym.wrappers import RecordEpisodeStatistics

NUM_ENVS = 2
STEPS = 300
LIMIT = 30  # a short time limit, so that episodes are truncated too
SEED = 7


@dataclass
class Run:
    episodes: list[tuple[int, int, float, int]] = field(default_factory=list)
    """(step, sub-env, return, length) of each finished episode."""
    next_observations: list[NDArray[Any]] = field(default_factory=list)
    truncations: int = 0
    weights: list[torch.Tensor] = field(default_factory=list)


def train(envs: Any, steps: int = STEPS) -> Run:
    """DQN the CleanRL way, on any vector env with Gymnasium 1.x's same-step info layout."""
    # The network is tiny: more threads would only contend with other processes.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _train(envs, steps)
    finally:
        torch.set_num_threads(threads)


def _train(envs: Any, steps: int) -> Run:
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    n_actions = int(envs.single_action_space.n)
    q_network = torch.nn.Sequential(
        torch.nn.Linear(4, 32), torch.nn.ReLU(), torch.nn.Linear(32, n_actions)
    )
    optimizer = torch.optim.Adam(q_network.parameters(), lr=1e-3)
    buffer: list[tuple[NDArray[Any], NDArray[Any], int, float, bool]] = []
    run = Run()
    obs, _ = envs.reset(seed=SEED)
    for step in range(steps):
        epsilon = max(0.05, 1.0 - step / (0.5 * steps))
        if rng.random() < epsilon:
            actions = rng.integers(n_actions, size=NUM_ENVS)
        else:
            with torch.no_grad():
                actions = q_network(torch.as_tensor(obs)).argmax(dim=1).numpy()
        next_obs, rewards, terminated, truncated, infos = envs.step(actions)
        if "final_info" in infos and "episode" in infos["final_info"]:
            episode = infos["final_info"]["episode"]
            for finished in np.flatnonzero(infos["final_info"]["_episode"]):
                returned, length = float(episode["r"][finished]), int(episode["l"][finished])
                run.episodes.append((step, int(finished), returned, length))
        real_next_obs = next_obs.copy()
        for ended in np.flatnonzero(truncated):
            real_next_obs[ended] = infos["final_obs"][ended]
            run.truncations += 1
        run.next_observations.append(real_next_obs)
        for index in range(NUM_ENVS):
            buffer.append((obs[index], real_next_obs[index], int(actions[index]),
                           float(rewards[index]), bool(terminated[index])))
        obs = next_obs
        if step >= 60 and step % 4 == 0:
            batch = [buffer[i] for i in rng.integers(len(buffer), size=32)]
            states, next_states, taken, reward, done = (
                np.array(column) for column in zip(*batch, strict=True)
            )
            with torch.no_grad():
                target = torch.as_tensor(reward, dtype=torch.float32) + 0.99 * q_network(
                    torch.as_tensor(next_states)
                ).max(dim=1).values * (1 - torch.as_tensor(done, dtype=torch.float32))
            chosen = q_network(torch.as_tensor(states)).gather(
                1, torch.as_tensor(taken).unsqueeze(1)
            ).squeeze(1)
            loss = torch.nn.functional.mse_loss(chosen, target)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
    envs.close()
    run.weights = [parameter.detach().clone() for parameter in q_network.parameters()]
    return run


def gymnasium_vector(make_one: Callable[[], gymnasium.Env[Any, Any]]) -> Any:
    return gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.wrappers.RecordEpisodeStatistics(make_one())] * NUM_ENVS,
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )


@pytest.fixture(scope="module")
def reference() -> Run:
    """The loop on Gymnasium's own CartPole."""
    return train(gymnasium_vector(lambda: gymnasium.make("CartPole-v1", max_episode_steps=LIMIT)))


def _assert_same_run(ours: Run, reference: Run) -> None:
    assert reference.truncations > 0 and len(reference.episodes) > 10
    assert ours.episodes == reference.episodes
    assert ours.truncations == reference.truncations
    for mine, theirs in zip(ours.next_observations, reference.next_observations, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    for learnt, expected in zip(ours.weights, reference.weights, strict=True):
        assert torch.equal(learnt, expected)


def test_a_protogym_env_trains_through_gymnasium_as_gymnasiums_own(reference: Run) -> None:
    envs = gymnasium_vector(
        lambda: gymnasium.make(
            "protogym.interop.gymnasium:protogym/CartPole-v1", max_episode_steps=LIMIT
        )
    )
    _assert_same_run(train(envs), reference)


def test_a_gymnasium_env_trains_through_protogym_as_in_gymnasium(reference: Run) -> None:
    envs = SyncVectorEnv(
        [
            lambda: RecordEpisodeStatistics(
                protogym.make("gymnasium:CartPole-v1", max_episode_steps=LIMIT)
            )
        ]
        * NUM_ENVS,
        autoreset_mode="same_step",
    )
    _assert_same_run(train(envs), reference)


def test_protogyms_make_vec_runs_the_loop_too(reference: Run) -> None:
    envs = protogym.make_vec(
        "CartPole-v1",
        NUM_ENVS,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": "same_step"},
        wrappers=[RecordEpisodeStatistics],
        max_episode_steps=LIMIT,
    )
    _assert_same_run(train(envs), reference)
