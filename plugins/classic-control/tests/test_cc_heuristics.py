"""The "heuristic" policies do what a random agent cannot: balance the pole, reach the flag,
swing up, and they are reachable by name through the registry and `protogym run`."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

import protogym
from protogym.cli import main


def _returns(env_id: str, seeds: range) -> tuple[list[float], list[bool]]:
    env = protogym.make(env_id)
    policy = protogym.registry.policy(env_id, "heuristic")
    returns, reached = [], []
    for seed in seeds:
        obs: Any
        obs, _ = env.reset(seed=seed)
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            obs, reward, terminated, truncated, _ = env.step(policy(obs))
            total += float(reward)
        returns.append(total)
        reached.append(bool(terminated))
    return returns, reached


def test_cartpole_balances_to_the_time_limit() -> None:
    returns, _ = _returns("CartPole-v1", range(5))
    assert returns == [500.0] * 5


@pytest.mark.parametrize("env_id", ["MountainCar-v0", "Acrobot-v1"])
def test_the_goal_is_reached_in_every_episode(env_id: str) -> None:
    returns, reached = _returns(env_id, range(5))
    assert all(reached), returns


def test_continuous_mountain_car_reaches_the_flag_with_little_force_wasted() -> None:
    returns, reached = _returns("MountainCarContinuous-v0", range(5))
    assert all(reached) and min(returns) > 85.0


def test_pendulum_swings_up_and_stays() -> None:
    returns, _ = _returns("Pendulum-v1", range(5))
    assert statistics.fmean(returns) > -300.0  # a random agent scores about -1200


def test_every_classic_id_names_a_heuristic() -> None:
    ids = [s.id for s in protogym.registry.values() if s.plugin == "protogym-classic-control"]
    assert all(protogym.registry.policies(env_id) == ["heuristic"] for env_id in ids)


def test_protogym_run_uses_a_named_policy(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["run", "CartPole-v1", "--policy", "heuristic", "--episodes", "2", "--seed", "0"]
    assert main(command) == 0
    out = capsys.readouterr().out
    assert "policy 'heuristic'" in out
    assert "2 of 2 episodes reached the reward threshold 475.0" in out
    assert main(["run", "CartPole-v1", "--policy", "nope", "--episodes", "1"]) == 2
    assert "no policy 'nope' is registered for 'CartPole-v1'" in capsys.readouterr().err
