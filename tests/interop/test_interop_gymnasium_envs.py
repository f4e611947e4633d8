"""protogym envs as Gymnasium envs and back, checked by Gymnasium's and SB3's own checkers."""

from __future__ import annotations

import functools
import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import protogym
from protogym.error import UnregisteredEnv
from protogym.interop.gymnasium import (
    GymnasiumEnv,
    ProtogymEnv,
    from_gymnasium,
    gymnasium_id,
    register_gymnasium_ids,
    to_gymnasium,
)
from protogym.wrappers import TimeLimit
from tests.interop.interop_ids import first_party_ids, quiet_make

IDS = first_party_ids(all_up_to=24)  # every MuJoCo id that can be made, too


def _warnings_of(check: Callable[[Any], None], env: Any) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(env)
    # Gymnasium's "is different from the unwrapped version" names the env's own stack.
    return {str(w.message).split("(<")[0] for w in caught}


def _outcome(check: Callable[[Any], None], env: Any) -> tuple[str | None, set[str]]:
    """The checker's rejection of `env` (its assertion message), or None and its warnings.

    SB3's checker asserts on Gymnasium's own BipedalWalker, whose reward is a numpy
    float32 (not a Python float); an env that does as Gymnasium's does gets the same."""
    try:
        return None, _warnings_of(check, env)
    except AssertionError as error:
        return str(error), set()


def _gymnasium_reference(env_id: str) -> Any | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return gymnasium.make(env_id)
    except gymnasium.error.Error:
        return None


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize(
    "check", [gymnasium_check_env, sb3_check_env], ids=["gymnasium", "stable-baselines3"]
)
def test_peer_checkers_find_nothing_they_do_not_find_in_gymnasium(
    env_id: str, check: Callable[[Any], None]
) -> None:
    if check is gymnasium_check_env and protogym.registry[env_id].plugin == "protogym-mujoco":
        # Gymnasium's MuJoCo envs draw render_mode="human" through GLFW, which aborts the
        # process without a display: its render check is left out on both sides (ours draws
        # in plugins/mujoco's own rendering and conformance tests).
        check = functools.partial(gymnasium_check_env, skip_render_check=True)
    rejected, ours = _outcome(check, to_gymnasium(quiet_make(env_id)))
    reference = _gymnasium_reference(env_id)
    rejected_theirs, theirs = (
        _outcome(check, reference) if reference is not None else (None, set())
    )
    assert rejected == rejected_theirs, (
        f"{env_id}: rejected as {rejected!r}, Gymnasium's own as {rejected_theirs!r}"
    )
    assert ours <= theirs, f"{env_id}: warnings Gymnasium's own env does not get: {ours - theirs}"


def test_the_adapter_is_a_real_gymnasium_env_that_sb3_accepts() -> None:
    made = protogym.make("CartPole-v1")
    env = to_gymnasium(made)
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    assert env.spec is not None and env.spec.id == "protogym/CartPole-v1"
    assert env.spec.max_episode_steps == 500 and env.spec.reward_threshold == 475.0
    assert env.metadata["render_fps"] == 50 and env.render_mode is None
    env.reset(seed=3)
    assert env.unwrapped is env
    inner: Any = made.unwrapped
    assert env.np_random is inner.np_random
    np.testing.assert_array_equal(env.unwrapped.state, inner.state)
    env.close()


# Ids both libraries have, with the dynamics golden-tested against Gymnasium's. Continuous
# envs agree to float rounding (numpy may order a sum differently), discrete ones exactly.
_SHARED = [
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
    "FrozenLake-v1",
    "Taxi-v4",
    "CliffWalking-v1",
    "Blackjack-v1",
    "LunarLander-v3",
    "LunarLanderContinuous-v3",
    "BipedalWalker-v3",
    "BipedalWalkerHardcore-v3",
    "CarRacing-v3",
    *(f"{name}-v{version}" for version in (5, 4) for name in (
        "Ant", "HalfCheetah", "Hopper", "Humanoid", "HumanoidStandup", "InvertedDoublePendulum",
        "InvertedPendulum", "Reacher", "Swimmer", "Walker2d")),
    "Pusher-v5",
]  # fmt: skip


@pytest.mark.parametrize("env_id", _SHARED)
def test_same_seed_and_actions_give_gymnasiums_own_trajectory(env_id: str) -> None:
    ours = to_gymnasium(quiet_make(env_id))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = gymnasium.make(env_id)
    ours.action_space.seed(11)
    actions = [ours.action_space.sample() for _ in range(300)]
    for seed in (0, 7):
        obs_a, _ = ours.reset(seed=seed)
        obs_b, _ = theirs.reset(seed=seed)
        np.testing.assert_array_equal(obs_a, obs_b)
        for action in actions:
            a = ours.step(action)
            b = theirs.step(action)
            np.testing.assert_allclose(a[0], b[0], rtol=1e-6, atol=1e-7)
            assert float(a[1]) == pytest.approx(float(b[1]), rel=1e-9, abs=1e-12)
            assert (a[2], a[3]) == (b[2], b[3])
            if a[2] or a[3]:
                break


def test_protogym_ids_are_makeable_from_gymnasium() -> None:
    env = gymnasium.make("protogym.interop.gymnasium:protogym/CartPole-v1")
    assert env.spec is not None and env.spec.max_episode_steps == 500
    obs, _ = env.reset(seed=5)
    assert obs in env.observation_space
    vector = gymnasium.make_vec("protogym/CartPole-v1", 3)
    assert vector.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, _ = vector.reset(seed=5)
    assert obs.shape == (3, 4)
    vector.close()


def test_namespaced_and_later_registered_ids_reach_gymnasium() -> None:
    protogym.register("acme/Corridor-v0", entry_point="protogym_toy_text.grid_world:GridWorldEnv")
    try:
        assert gymnasium_id("acme/Corridor-v0") == "protogym-acme/Corridor-v0"
        assert "protogym-acme/Corridor-v0" in register_gymnasium_ids()
        env = gymnasium.make("protogym-acme/Corridor-v0", size=3)
        obs, _ = env.reset(seed=0)
        assert obs["agent"].tolist() == [0, 0]
    finally:
        protogym.registry.unregister("acme/Corridor-v0")
        gymnasium.registry.pop("protogym-acme/Corridor-v0", None)


def test_gymnasium_ids_are_makeable_from_protogym() -> None:
    env = protogym.make("gymnasium:CartPole-v1")
    assert env.spec is not None and env.spec.max_episode_steps == 500
    assert isinstance(env.unwrapped, ProtogymEnv)
    obs, _ = env.reset(seed=1)
    reference, _ = gymnasium.make("CartPole-v1").reset(seed=1)
    np.testing.assert_array_equal(obs, reference)
    assert isinstance(env, TimeLimit)
    protogym.check_env(env.unwrapped)


def test_a_gymnasium_id_registered_by_a_package_is_made_after_importing_it() -> None:
    env = protogym.make("gymnasium:ale_py:ALE/Pong-v5", obs_type="ram")
    obs, info = env.reset(seed=0)
    assert obs.shape == (128,) and obs.dtype == np.uint8
    assert info["lives"] == 0
    env.close()


def test_an_unknown_gymnasium_id_says_how_to_name_its_package() -> None:
    with pytest.raises(UnregisteredEnv, match=r"'gymnasium:<package>:Nope-v0'"):
        protogym.make("gymnasium:Nope-v0")
    with pytest.raises(ModuleNotFoundError, match="names the package 'no_such_pkg'"):
        protogym.make("gymnasium:no_such_pkg:Nope-v0")


def test_from_gymnasium_gives_protogym_spaces_wrappers_and_checks() -> None:
    env = from_gymnasium(gymnasium.make("CartPole-v1").unwrapped)
    assert isinstance(env, protogym.Env)
    assert isinstance(env.observation_space, protogym.spaces.Box)
    protogym.check_env(env)
    limited = TimeLimit(env, 5)
    limited.reset(seed=0)
    for _ in range(5):
        *_, truncated, _ = limited.step(0)
    assert truncated
    vector = protogym.vector.SyncVectorEnv(
        [lambda: from_gymnasium(gymnasium.make("CartPole-v1")) for _ in range(2)]
    )
    obs, _ = vector.reset(seed=0)
    assert obs.shape == (2, 4)


def test_converting_twice_or_a_non_env_is_a_type_error_that_names_it() -> None:
    with pytest.raises(TypeError, match=r"needs a protogym env .* got 3 \(int\)"):
        to_gymnasium(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"already a gymnasium\.Env"):
        to_gymnasium(gymnasium.make("CartPole-v1"))
    with pytest.raises(TypeError, match=r"needs a gymnasium.Env, got 'x' \(str\)"):
        from_gymnasium("x")  # type: ignore[arg-type]


def test_a_missing_gymnasium_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "try:\n    import protogym.interop.gymnasium\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert 'pip install "protogym[gymnasium]"' in out


def test_the_adapter_pickles_for_async_workers() -> None:
    import pickle

    env = pickle.loads(pickle.dumps(to_gymnasium(protogym.make("CartPole-v1"))))
    assert isinstance(env, GymnasiumEnv)
    env.reset(seed=0)
