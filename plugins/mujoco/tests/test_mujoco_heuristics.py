"""The "heuristic" policies do what their docstrings say: both pendulums stay up for the whole
episode, Reacher reaches far better than chance, Swimmer swims forward."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import protogym


def episode_return(env_id: str, policy: Callable[[Any], Any] | None, seed: int) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        env = protogym.make(env_id)
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    total = 0.0
    while True:
        action = policy(obs) if policy is not None else env.action_space.sample()
        obs, reward, terminated, truncated, _ = env.step(action)
        total += float(reward)
        if terminated or truncated:
            env.close()
            return total


@pytest.mark.parametrize(
    ("env_id", "expected"),
    [("InvertedPendulum-v5", 1000.0), ("InvertedPendulum-v4", 1000.0),
     ("InvertedDoublePendulum-v5", 9300.0)],
)  # fmt: skip
def test_the_pendulums_are_held_up_past_the_threshold(env_id: str, expected: float) -> None:
    policy = protogym.registry.policy(env_id, "heuristic")
    threshold = protogym.registry[env_id].reward_threshold
    assert threshold is not None and expected > threshold
    for seed in (0, 1):
        assert episode_return(env_id, policy, seed) >= expected


def test_reacher_reaches_far_better_than_chance() -> None:
    policy = protogym.registry.policy("Reacher-v5", "heuristic")
    ours = np.mean([episode_return("Reacher-v5", policy, seed) for seed in range(4)])
    chance = np.mean([episode_return("Reacher-v5", None, seed) for seed in range(4)])
    assert ours > -12.0 and chance < -30.0


def test_swimmer_swims_forward() -> None:
    policy = protogym.registry.policy("Swimmer-v5", "heuristic")
    assert episode_return("Swimmer-v5", policy, 0) > 300.0
    assert protogym.registry.policies("Swimmer-v4") == ["heuristic"]
