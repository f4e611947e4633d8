"""CartPole's own rules: spaces, rewards, termination, bad input and the episode limits."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from protogym_classic_control.cartpole import CartPoleEnv

import protogym
from protogym.error import ResetNeeded
from protogym.registration import spec
from protogym.spaces import Box, Discrete

THETA_LIMIT = 12 * 2 * math.pi / 360


def test_cc_cartpole_spaces_and_metadata() -> None:
    env = CartPoleEnv()
    assert env.action_space == Discrete(2)
    high = np.array([4.8, np.inf, 2 * THETA_LIMIT, np.inf], dtype=np.float32)
    assert env.observation_space == Box(-high, high, dtype=np.float32)
    assert env.metadata == {"render_modes": ["human", "rgb_array"], "render_fps": 50}
    assert env.render_mode is None


def test_cc_cartpole_reset_is_uniform_in_the_default_range_and_in_the_space() -> None:
    env = CartPoleEnv()
    for seed in range(50):
        obs, info = env.reset(seed=seed)
        assert info == {}
        assert obs.dtype == np.float32 and obs.shape == (4,)
        assert np.all(np.abs(obs) <= 0.05)
        assert obs in env.observation_space


def test_cc_cartpole_same_seed_same_start_and_none_keeps_the_stream() -> None:
    env = CartPoleEnv()
    first, _ = env.reset(seed=7)
    second, _ = env.reset()
    again, _ = env.reset(seed=7)
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, second)


def test_cc_cartpole_pushing_right_accelerates_right_and_tips_the_pole_left() -> None:
    env = CartPoleEnv()
    env.reset(seed=0, options={"low": 0.0, "high": 0.0})
    obs, reward, terminated, truncated, info = env.step(1)
    # From rest: x' = tau * xacc and theta' = tau * thetaacc, with F = +10 N.
    temp = 10.0 / 1.1
    thetaacc = -temp / (0.5 * (4.0 / 3.0 - 0.1 / 1.1))
    xacc = temp - 0.05 * thetaacc / 1.1
    np.testing.assert_array_equal(
        obs, np.array([0.0, 0.02 * xacc, 0.0, 0.02 * thetaacc], dtype=np.float32)
    )
    assert (reward, terminated, truncated, info) == (1.0, False, False, {})


def test_cc_cartpole_terminates_when_the_pole_falls_and_rewards_that_step() -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    steps = 0
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, _ = env.step(1)
        steps += 1
        assert reward == 1.0 and truncated is False
    assert abs(obs[2]) > THETA_LIMIT or abs(obs[0]) > 2.4
    assert steps < 30


def test_cc_cartpole_terminates_when_the_cart_leaves_the_track() -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    env.state = (2.4, 1.0, 0.0, 0.0)
    obs, reward, terminated, _, _ = env.step(0)
    assert obs[0] > 2.4
    assert terminated and reward == 1.0


def test_cc_cartpole_steps_after_termination_warn_once_and_reward_zero() -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    while not env.step(1)[2]:
        pass
    with pytest.warns(UserWarning, match=r"called after the episode terminated"):
        _, reward, terminated, _, _ = env.step(1)
    assert (reward, terminated) == (0.0, True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, reward, terminated, _, _ = env.step(0)
    assert (reward, terminated) == (0.0, True)
    assert env.steps_beyond_terminated == 2
    env.reset()
    assert env.steps_beyond_terminated is None


def test_cc_cartpole_sutton_barto_reward() -> None:
    env = CartPoleEnv(sutton_barto_reward=True)
    env.reset(seed=0)
    rewards = []
    terminated = False
    while not terminated:
        _, reward, terminated, _, _ = env.step(0)
        rewards.append(reward)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == -1.0
    with pytest.warns(UserWarning):
        assert env.step(0)[1] == -1.0


def test_cc_cartpole_semi_implicit_integrator_updates_velocity_first() -> None:
    env = CartPoleEnv()
    env.kinematics_integrator = "semi-implicit euler"
    env.reset(seed=0, options={"low": 0.0, "high": 0.0})
    env.step(1)
    assert env.state is not None
    x, x_dot, theta, theta_dot = env.state
    assert x == 0.02 * x_dot and x_dot > 0
    assert theta == 0.02 * theta_dot and theta_dot < 0


@pytest.mark.parametrize("action", [0, 1, np.int64(1), np.int32(0), np.uint8(1), np.array(1)])
def test_cc_cartpole_accepts_every_integer_spelling(action: object) -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    reference = CartPoleEnv()
    reference.reset(seed=0)
    np.testing.assert_array_equal(env.step(action)[0], reference.step(int(action))[0])  # type: ignore[arg-type, call-overload]


@pytest.mark.parametrize(
    ("action", "shown"),
    [
        (2, "2 (int)"),
        (-1, "-1 (int)"),
        (1.0, "1.0 (float)"),
        (np.int64(5), "np.int64(5) (int64)"),
        (np.array([1]), "array([1]) (ndarray)"),
        ("left", "'left' (str)"),
        (None, "None (NoneType)"),
    ],
)
def test_cc_cartpole_invalid_action_names_action_and_space_and_changes_nothing(
    action: object, shown: str
) -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    env.step(1)
    def snapshot() -> object:
        return (np.asarray(env.state).tolist(), env.steps_beyond_terminated,
                env.np_random.bit_generator.state)

    before = snapshot()
    message = (
        f"CartPoleEnv.step() got the invalid action {shown}: it is not in the action space "
        "Discrete(2); pass an integer in [0, 2)"
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        env.step(action)  # type: ignore[arg-type]
    assert snapshot() == before


def test_cc_cartpole_step_before_reset_raises_reset_needed() -> None:
    env = CartPoleEnv()
    with pytest.raises(ResetNeeded, match=r"CartPoleEnv has no state yet: call env.reset\(\)"):
        env.step(0)
    # A bad action is still reported as such before the missing reset.
    with pytest.raises(ValueError, match="invalid action 3"):
        env.step(3)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"low": 0.1, "high": -0.1}, "got options low=0.1 > high=-0.1"),
        ({"low": "a"}, "option 'low' must be a real number, got 'a' (str)"),
        ({"high": None}, "option 'high' must be a real number, got None (NoneType)"),
        ({"high": float("nan")}, "option 'high' must be a real number, got nan"),
    ],
)
def test_cc_cartpole_bad_reset_options(options: dict[str, object], message: str) -> None:
    env = CartPoleEnv()
    with pytest.raises(ValueError, match=re.escape(f"CartPoleEnv.reset() {message}")):
        env.reset(seed=0, options=options)


def test_cc_cartpole_unknown_render_mode_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"supports render_mode 'human', 'rgb_array' or None"):
        CartPoleEnv(render_mode="ansi")


def test_cc_cartpole_is_an_env_with_the_explicit_defaults() -> None:
    env = CartPoleEnv()
    assert isinstance(env, protogym.Env)
    assert env.unwrapped is env
    assert env.spec is None
    with env as entered:
        assert entered is env


@pytest.mark.parametrize(
    ("env_id", "limit", "threshold"), [("CartPole-v0", 200, 195.0), ("CartPole-v1", 500, 475.0)]
)
def test_cc_cartpole_registered_specs(env_id: str, limit: int, threshold: float) -> None:
    if env_id == "CartPole-v0":
        with pytest.warns(DeprecationWarning, match="the newest version is 'CartPole-v1'"):
            registered = spec(env_id)
    else:
        registered = spec(env_id)
    assert registered.entry_point == "protogym_classic_control.cartpole:CartPoleEnv"
    assert registered.max_episode_steps == limit
    assert registered.reward_threshold == threshold
