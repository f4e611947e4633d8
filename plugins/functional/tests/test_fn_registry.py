"""The plugin's ids: registered with Gymnasium's limits (the classic ids' for ours), made
through `make` and `make_vec(..., "vector_entry_point")`, keyword arguments as params."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from protogym_functional.phys2d.cartpole import CartPoleFunctional, CartPoleJaxEnv
from protogym_functional.phys2d.pendulum import PendulumFunctional

import protogym
from protogym.cli import main
from protogym.envs.functional_jax_env import FunctionalJaxVectorEnv
from protogym.vector.vector_env import AutoresetMode

pytestmark = [pytest.mark.jax, pytest.mark.filterwarnings("ignore:.*is out of date")]

# id: (max_episode_steps, reward_threshold)
IDS = {
    "phys2d/CartPole-v0": (200, 195.0),
    "phys2d/CartPole-v1": (500, 475.0),
    "phys2d/Pendulum-v0": (200, None),
    "phys2d/Acrobot-v1": (500, -100.0),
    "phys2d/MountainCar-v0": (200, -110.0),
    "phys2d/MountainCarContinuous-v0": (999, 90.0),
    "tabular/Blackjack-v0": (None, None),
    "tabular/CliffWalking-v0": (None, None),
    "tabular/FrozenLake-v1": (100, 0.70),
    "tabular/FrozenLake8x8-v1": (200, 0.85),
    "tabular/Taxi-v3": (200, 8.0),
}


@pytest.mark.parametrize("env_id", IDS)
def test_spec_limits_match_gymnasium_and_the_classic_ids(env_id: str) -> None:
    spec = protogym.spec(env_id)
    assert (spec.max_episode_steps, spec.reward_threshold) == IDS[env_id]
    assert spec.vector_entry_point is not None
    assert str(spec.entry_point).startswith("protogym_functional.")


# Each id compiles four programs (reset, step, vector reset and step): seconds apiece.
QUICK = ("phys2d/CartPole-v1", "tabular/CliffWalking-v0")


@pytest.mark.parametrize(
    "env_id",
    [pytest.param(i, marks=() if i in QUICK else pytest.mark.slow) for i in IDS],
)
def test_make_and_make_vec(env_id: str) -> None:
    env = protogym.make(env_id)
    obs, info = env.reset(seed=3)
    assert np.asarray(obs) in env.observation_space and info == {}
    env.action_space.seed(3)
    obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
    assert np.asarray(obs) in env.observation_space
    assert isinstance(reward, float) and isinstance(terminated, bool) and truncated is False
    env.close()

    vec = protogym.make_vec(env_id, 3, vectorization_mode="vector_entry_point")
    assert isinstance(vec, FunctionalJaxVectorEnv)
    assert vec.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert vec.time_limit == (IDS[env_id][0] or 0)
    vec.reset(seed=3)
    vec.action_space.seed(3)
    batch, rewards, terminations, truncations, _ = vec.step(vec.action_space.sample())
    assert batch.shape == (3, *np.shape(obs))
    assert rewards.shape == terminations.shape == truncations.shape == (3,)
    vec.close()


def test_keyword_arguments_set_the_params() -> None:
    heavy = protogym.make("phys2d/CartPole-v1", gravity=20.0)
    assert isinstance(heavy.unwrapped, CartPoleJaxEnv)
    assert isinstance(heavy.unwrapped.func_env, CartPoleFunctional)
    assert heavy.unwrapped.func_env.default_params.gravity == 20.0
    light = protogym.make("phys2d/CartPole-v1")
    heavy.reset(seed=0)
    light.reset(seed=0)
    # a pole leaning right falls faster under more gravity
    assert heavy.step(1)[0][3] != light.step(1)[0][3]
    vec = protogym.make_vec(
        "phys2d/Pendulum-v0",
        2,
        vectorization_mode="vector_entry_point",
        vector_kwargs={"autoreset_mode": "SameStep"},
        g=9.81,
    )
    assert isinstance(vec, FunctionalJaxVectorEnv)
    assert isinstance(vec.func_env, PendulumFunctional)
    assert vec.func_env.default_params.g == 9.81
    assert vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    with pytest.raises(TypeError, match="CartPoleParams has no parameter"):
        protogym.make("phys2d/CartPole-v1", gravty=20.0)


def test_plugin_discovery_imports_no_jax() -> None:
    code = (
        "import sys, protogym; protogym.spec('phys2d/CartPole-v1'); "
        "print('jax' in sys.modules, 'protogym_functional.phys2d' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_the_cli_lists_and_describes_the_ids(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--all", "--plain"]) == 0
    listed = capsys.readouterr().out
    for env_id in ("phys2d/CartPole-v1", "phys2d/Pendulum-v0", "tabular/Blackjack-v0"):
        assert env_id in listed
    assert main(["describe", "phys2d/CartPole-v1", "--plain"]) == 0
    described = capsys.readouterr().out
    assert "CartPoleJaxVectorEnv" in described and "475.0" in described


def test_the_classic_heuristics_drive_the_physics_ids() -> None:
    for env_id in IDS:
        expected = ["heuristic"] if env_id.startswith("phys2d/") else []
        assert protogym.registry.policies(env_id) == expected
    policy = protogym.registry.policy("phys2d/CartPole-v1", "heuristic")
    env = protogym.make("phys2d/CartPole-v1")
    obs, _ = env.reset(seed=0)
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, _ = env.step(policy(obs))
        total, done = total + float(reward), terminated or truncated
    assert total == 500.0  # it balances the pole until the time limit
