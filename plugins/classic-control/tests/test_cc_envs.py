"""Every classic-control env through `protogym.make`: registration, spaces, episode limits,
rewards and termination rules, bad input, and protogym's own checker."""

from __future__ import annotations

import math
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protogym_classic_control.cartpole import CartPoleEnv

import protogym
from protogym.error import ResetNeeded
from protogym.registration import spec
from protogym.spaces import Box, Discrete, Space

SPECS = {
    # id: (entry point, max_episode_steps, reward_threshold)
    "CartPole-v0": ("cartpole:CartPoleEnv", 200, 195.0),
    "CartPole-v1": ("cartpole:CartPoleEnv", 500, 475.0),
    "MountainCar-v0": ("mountain_car:MountainCarEnv", 200, -110.0),
    "MountainCarContinuous-v0": (
        "continuous_mountain_car:ContinuousMountainCarEnv",
        999,
        90.0,
    ),
    "Pendulum-v1": ("pendulum:PendulumEnv", 200, None),
    "Acrobot-v1": ("acrobot:AcrobotEnv", 500, -100.0),
}
# The native vector envs (protogym_classic_control.vector).
VECTOR_ENTRY_POINTS = {
    "CartPole-v0": "cartpole:CartPoleVectorEnv",
    "CartPole-v1": "cartpole:CartPoleVectorEnv",
    "MountainCar-v0": "mountain_car:MountainCarVectorEnv",
    "MountainCarContinuous-v0": "continuous_mountain_car:ContinuousMountainCarVectorEnv",
    "Pendulum-v1": "pendulum:PendulumVectorEnv",
    "Acrobot-v1": "acrobot:AcrobotVectorEnv",
}
CURRENT_IDS = [env_id for env_id in SPECS if env_id != "CartPole-v0"]


def _make(env_id: str, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # CartPole-v0 is out of date
        return protogym.make(env_id, **kwargs)


def _force(value: float) -> np.ndarray:
    return np.array([value], dtype=np.float32)


@pytest.mark.parametrize("env_id", SPECS)
def test_cc_registered_with_gymnasiums_limits_and_thresholds(env_id: str) -> None:
    import gymnasium

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        registered = spec(env_id)
    entry_point, limit, threshold = SPECS[env_id]
    assert registered.entry_point == f"protogym_classic_control.{entry_point}"
    assert registered.max_episode_steps == limit
    assert registered.reward_threshold == threshold
    assert registered.kwargs == {}
    vector = VECTOR_ENTRY_POINTS.get(env_id)
    expected_vector = None if vector is None else f"protogym_classic_control.vector.{vector}"
    assert registered.vector_entry_point == expected_vector
    assert registered.plugin == "protogym-classic-control"
    reference = gymnasium.spec(env_id)
    assert (reference.max_episode_steps, reference.reward_threshold) == (limit, threshold)


@pytest.mark.parametrize("env_id", SPECS)
def test_cc_spaces_and_metadata_match_gymnasium(env_id: str) -> None:
    import gymnasium

    env = _make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        reference = gymnasium.make(env_id)
    _assert_same_space(env.observation_space, reference.observation_space)
    _assert_same_space(env.action_space, reference.action_space)
    assert dict(env.metadata) == reference.metadata
    env.close()


def _assert_same_space(ours: Space[Any], theirs: Any) -> None:
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    if isinstance(ours, Discrete):
        assert (ours.n, ours.start) == (theirs.n, theirs.start)
    else:
        assert isinstance(ours, Box)
        np.testing.assert_array_equal(ours.low, theirs.low)
        np.testing.assert_array_equal(ours.high, theirs.high)


def _policy(env_id: str) -> Callable[[np.ndarray], Any]:
    """An action rule that never terminates an episode, so time limits can be seen."""
    if env_id.startswith("CartPole"):
        return lambda obs: 1 if obs[2] + 0.5 * obs[3] > 0 else 0
    if env_id == "MountainCarContinuous-v0":
        return lambda obs: _force(0.0)
    if env_id == "Pendulum-v1":
        return lambda obs: _force(1.0)
    return lambda obs: 1  # MountainCar coasts, Acrobot applies no torque


@pytest.mark.parametrize("env_id", SPECS)
def test_cc_make_truncates_at_the_registered_limit(env_id: str) -> None:
    env = _make(env_id)
    policy = _policy(env_id)
    obs, _ = env.reset(seed=0)
    limit = SPECS[env_id][1]
    for step in range(1, limit + 1):
        obs, reward, terminated, truncated, info = env.step(policy(obs))
        assert not terminated
        assert truncated == (step == limit)
        assert isinstance(reward, float) and info == {}
    env.close()


@pytest.mark.parametrize("env_id", ["MountainCar-v0", "Pendulum-v1"])
def test_cc_make_max_episode_steps_overrides_the_spec(env_id: str) -> None:
    env = _make(env_id, max_episode_steps=7)
    policy = _policy(env_id)
    obs, _ = env.reset(seed=0)
    truncations = [env.step(policy(obs))[3] for _ in range(7)]
    assert truncations == [False] * 6 + [True]


@pytest.mark.parametrize("env_id", CURRENT_IDS)
def test_cc_protogyms_checker_finds_nothing_to_warn_about(env_id: str) -> None:
    env = _make(env_id, render_mode="rgb_array").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = protogym.check_env(env, skip_render_check=False)
    assert "0 warning" in str(report) or "no findings" in str(report)
    env.close()


@pytest.mark.parametrize("env_id", CURRENT_IDS)
def test_cc_step_before_reset_raises_reset_needed(env_id: str) -> None:
    env = _make(env_id).unwrapped
    action = env.action_space.sample()
    name = type(env).__name__
    with pytest.raises(ResetNeeded, match=rf"{name} has no state yet: call env.reset\(\)"):
        env.step(action)


@pytest.mark.parametrize(
    ("env_id", "action", "shown"),
    [
        ("MountainCar-v0", 3, "3 (int)"),
        ("MountainCar-v0", 0.5, "0.5 (float)"),
        ("Acrobot-v1", -1, "-1 (int)"),
        ("Acrobot-v1", np.array([2]), "array([2]) (ndarray)"),
    ],
)
def test_cc_discrete_invalid_action_names_action_and_space_and_changes_nothing(
    env_id: str, action: object, shown: str
) -> None:
    env = _make(env_id).unwrapped
    env.reset(seed=0)
    env.step(2)
    before = (tuple(env.state), env.np_random.bit_generator.state)
    message = (
        f"{type(env).__name__}.step() got the invalid action {shown}: it is not in the action "
        "space Discrete(3); pass an integer in [0, 3)"
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        env.step(action)
    assert (tuple(env.state), env.np_random.bit_generator.state) == before


@pytest.mark.parametrize("env_id", ["MountainCarContinuous-v0", "Pendulum-v1"])
@pytest.mark.parametrize(
    ("action", "shown"),
    [
        (np.array([0.1, 0.2], dtype=np.float32), "array([0.1, 0.2], dtype=float32) (ndarray)"),
        (np.array([math.nan], dtype=np.float32), "array([nan], dtype=float32) (ndarray)"),
        (np.array([[0.5]], dtype=np.float32), "array([[0.5]], dtype=float32) (ndarray)"),
        (np.float32(0.5), "np.float32(0.5) (float32)"),
        (0.5, "0.5 (float)"),
        ([1.0, 2.0], "[1.0, 2.0] (list)"),
        (np.array(["a"]), "array(['a'], dtype='<U1') (ndarray)"),
        (None, "None (NoneType)"),
    ],
)
def test_cc_continuous_invalid_action_names_action_and_space_and_changes_nothing(
    env_id: str, action: object, shown: str
) -> None:
    env = _make(env_id).unwrapped
    env.reset(seed=0)
    env.step(_force(0.5))
    before = (tuple(env.state), env.np_random.bit_generator.state)
    message = (
        f"{type(env).__name__}.step() got the invalid action {shown}: the action space is "
        f"{env.action_space!r}; pass a float array of shape (1,) with no NaN"
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        env.step(action)
    assert (tuple(env.state), env.np_random.bit_generator.state) == before


@pytest.mark.parametrize("env_id", ["MountainCarContinuous-v0", "Pendulum-v1"])
@pytest.mark.parametrize("spelling", [[0.25], (0.25,), np.array([0.25]), np.array([1]), [1]])
def test_cc_continuous_actions_accept_lists_and_other_dtypes(env_id: str, spelling: Any) -> None:
    value = float(np.asarray(spelling)[0])
    env, reference = _make(env_id).unwrapped, _make(env_id).unwrapped
    env.reset(seed=5)
    reference.reset(seed=5)
    result = env.step(spelling)
    expected = reference.step(np.array([value], dtype=np.float64))
    np.testing.assert_array_equal(result[0], expected[0])
    assert result[1:] == expected[1:]


def test_cc_mountain_car_rewards_minus_one_until_the_flag() -> None:
    env = _make("MountainCar-v0", max_episode_steps=1000)
    obs, _ = env.reset(seed=0)
    rewards = []
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, _ = env.step(2 if obs[1] >= 0 else 0)
        rewards.append(reward)
        assert not truncated
    assert set(rewards) == {-1.0}
    assert obs[0] >= 0.5 and obs[1] >= 0


def test_cc_mountain_car_goal_velocity_delays_termination() -> None:
    env = _make("MountainCar-v0").unwrapped
    env.reset(seed=0)
    env.state = (0.49, 0.02)
    assert env.step(1)[2] is True
    fussy = _make("MountainCar-v0", goal_velocity=0.05).unwrapped
    fussy.reset(seed=0)
    fussy.state = (0.49, 0.02)
    assert fussy.step(1)[2] is False


@pytest.mark.parametrize("env_id", ["MountainCar-v0", "MountainCarContinuous-v0"])
def test_cc_mountain_car_left_wall_stops_the_car(env_id: str) -> None:
    env = _make(env_id).unwrapped
    env.reset(seed=0, options={"low": -1.19, "high": -1.19})
    env.state = (-1.19, -0.05)
    obs, *_ = env.step(0 if env_id == "MountainCar-v0" else _force(-1.0))
    assert env.state[0] == -1.2 and env.state[1] == 0.0
    np.testing.assert_array_equal(obs, np.array([-1.2, 0.0], dtype=np.float32))


def test_cc_continuous_mountain_car_reward_pays_100_at_the_goal_minus_the_raw_energy() -> None:
    env = _make("MountainCarContinuous-v0").unwrapped
    env.reset(seed=0)
    env.state = (0.449, 0.01)
    _, reward, terminated, _, _ = env.step(_force(3.0))
    assert terminated
    assert reward == pytest.approx(100.0 - 0.1 * 9.0)
    # The force is clipped to 1 for the dynamics, but the energy is paid on the raw action.
    clipped = _make("MountainCarContinuous-v0").unwrapped
    clipped.reset(seed=0)
    clipped.state = (-0.5, 0.0)
    env.state = (-0.5, 0.0)
    obs, reward, *_ = env.step(_force(3.0))
    reference_obs, reference_reward, *_ = clipped.step(_force(1.0))
    np.testing.assert_array_equal(obs, reference_obs)
    assert (reward, reference_reward) == (pytest.approx(-0.9), pytest.approx(-0.1))


def test_cc_continuous_mountain_car_compares_a_float32_position_in_float32() -> None:
    """Gymnasium's state is float32 after a step, and numpy compares a float32 with the
    Python float 0.45 in float32: a position of float32(0.45) = 0.44999998807907104 has
    reached the flag. Pinned from Gymnasium 1.4 (a float64 comparison says it has not)."""
    env = _make("MountainCarContinuous-v0").unwrapped
    env.reset(seed=0)
    env.state = np.array([0.44061595, 0.01], dtype=np.float32)
    obs, reward, terminated, _, _ = env.step(_force(0.0))
    assert obs.tolist() == [0.44999998807907104, 0.009384037926793098]
    assert terminated and reward == 100.0
    env.state = np.array([0.44061592, 0.01], dtype=np.float32)  # one float32 short
    obs, reward, terminated, _, _ = env.step(_force(0.0))
    assert obs[0] == np.nextafter(np.float32(0.45), np.float32(0))
    assert not terminated and reward == 0.0


def test_cc_continuous_mountain_car_state_has_gymnasiums_dtype() -> None:
    """float64 after reset (the first step is computed in float64), float32 after a step."""
    env = _make("MountainCarContinuous-v0").unwrapped
    env.reset(seed=0)
    assert env.state.dtype == np.float64 and env.state[1] == 0.0
    env.step(_force(0.5))
    assert env.state.dtype == np.float32
    env.state = (0.1, 0.0)
    assert env.state.dtype == np.float64
    with pytest.raises(ValueError, match="must be 2 real numbers, got"):
        env.state = (0.1, "fast")
    with pytest.raises(ValueError, match="must be 2 real numbers, got"):
        env.state = np.zeros(3)


def test_cc_continuous_mountain_car_constants_can_be_changed_between_steps() -> None:
    """As in Gymnasium, the constants are attributes a user may change; the float32 step
    rounds the new value, not the old one."""
    env = _make("MountainCarContinuous-v0").unwrapped
    twin = _make("MountainCarContinuous-v0", max_episode_steps=None).unwrapped
    for each in (env, twin):
        each.reset(seed=1)
        each.step(_force(0.3))
    env.power = 0.003
    obs, *_ = env.step(_force(0.5))
    reference, *_ = twin.step(_force(1.0))  # twice the force at the old power pushes alike
    assert env.power == 0.003
    np.testing.assert_array_equal(obs, reference)


def test_cc_pendulum_upright_at_rest_costs_nothing_and_torque_is_clipped() -> None:
    env = _make("Pendulum-v1").unwrapped
    obs, _ = env.reset(seed=0, options={"x_init": 0.0, "y_init": 0.0})
    np.testing.assert_array_equal(obs, np.array([1.0, 0.0, 0.0], dtype=np.float32))
    _, reward, terminated, truncated, _ = env.step(_force(0.0))
    assert reward == 0.0 and not terminated and not truncated
    env.reset(seed=0, options={"x_init": 0.0, "y_init": 0.0})
    _, reward, *_ = env.step(_force(5.0))
    assert env.last_u == 2.0
    assert reward == pytest.approx(-0.001 * 4.0)
    assert env.state[1] == pytest.approx(3.0 * 2.0 * 0.05)


def test_cc_pendulum_gravity_is_a_make_keyword() -> None:
    light = _make("Pendulum-v1", g=1.0).unwrapped
    heavy = _make("Pendulum-v1").unwrapped
    for env in (light, heavy):
        env.reset(seed=0, options={"x_init": 1.0, "y_init": 0.0})
    assert tuple(light.state) == tuple(heavy.state)
    light.step(_force(0.0))
    heavy.step(_force(0.0))
    assert abs(light.state[1]) == pytest.approx(abs(heavy.state[1]) / 10)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"x_init": "far"}, "option 'x_init' must be a real number, got 'far' (str)"),
        ({"y_init": [1.0]}, "option 'y_init' must be a real number, got [1.0] (list)"),
    ],
)
def test_cc_pendulum_bad_reset_options(options: dict[str, Any], message: str) -> None:
    env = _make("Pendulum-v1")
    with pytest.raises(ValueError, match=re.escape(f"PendulumEnv.reset() {message}")):
        env.reset(seed=0, options=options)


def test_cc_acrobot_terminates_with_reward_zero_above_the_line() -> None:
    env = _make("Acrobot-v1").unwrapped
    env.reset(seed=0)
    env.state = (math.pi, 0.0, 0.0, 0.0)  # pointing straight up, at rest
    _, reward, terminated, _, _ = env.step(1)
    assert (reward, terminated) == (0.0, True)
    env.reset(seed=0)
    _, reward, terminated, _, _ = env.step(1)
    assert (reward, terminated) == (-1.0, False)


def test_cc_acrobot_torque_noise_draws_from_the_env_generator() -> None:
    quiet = _make("Acrobot-v1").unwrapped
    noisy = _make("Acrobot-v1").unwrapped
    noisy.torque_noise_max = 0.5
    for env in (quiet, noisy):
        env.reset(seed=0)
    before = noisy.np_random.bit_generator.state
    quiet.step(1)
    noisy.step(1)
    assert noisy.np_random.bit_generator.state != before
    assert tuple(noisy.state) != tuple(quiet.state)


def test_cc_acrobot_nips_dynamics_differ_from_the_book() -> None:
    book = _make("Acrobot-v1").unwrapped
    nips = _make("Acrobot-v1").unwrapped
    nips.book_or_nips = "nips"
    for env in (book, nips):
        env.reset(seed=0, options={"low": 0.5, "high": 0.5})
        env.step(2)
    assert tuple(book.state) != tuple(nips.state)


@settings(max_examples=25, deadline=None)
@given(
    env_id=st.sampled_from(
        ["MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1"]
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_cc_observations_stay_in_the_observation_space(env_id: str, seed: int) -> None:
    env = _make(env_id)
    env.action_space.seed(seed)
    obs, _ = env.reset(seed=seed)
    assert obs in env.observation_space
    for _ in range(100):
        obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        assert obs in env.observation_space
        if env_id == "Pendulum-v1":
            assert -(math.pi**2 + 0.1 * 64 + 0.001 * 4) <= reward <= 0.0
        if terminated or truncated:
            obs, _ = env.reset()


def test_cc_discovery_imports_the_plugin_module_but_no_env_module() -> None:
    script = (
        "import sys, protogym\n"
        "assert protogym.registry['Acrobot-v1'].plugin == 'protogym-classic-control'\n"
        "print(sorted(m for m in sys.modules\n"
        "             if m.startswith(('protogym_classic_control', 'pygame'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert (
        result.stdout.strip() == "['protogym_classic_control', 'protogym_classic_control.plugin']"
    )


def test_cc_discrete_envs_take_python_ints_and_sampled_numpy_integers() -> None:
    # Type-checked by mypy as well: both calls must be accepted by the env's signature.
    env = CartPoleEnv()
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(0)
    sampled = env.action_space.sample()
    obs, reward, terminated, truncated, info = env.step(sampled)
    assert isinstance(sampled, np.int64)
    assert obs.dtype == np.float32 and reward == 1.0
