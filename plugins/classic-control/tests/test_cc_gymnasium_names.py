"""The package stands in for ``gymnasium.envs.classic_control``: Gymnasium's class, module and
helper names, `state` as an array, reset options given as 0-d arrays, and rewards of
Gymnasium's type."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import numpy as np
import protogym_classic_control
import pytest
from protogym_classic_control import cartpole, continuous_mountain_car, utils
from protogym_classic_control.cartpole import CartPoleEnv
from protogym_classic_control.mountain_car import MountainCarEnv
from protogym_classic_control.pendulum import PendulumEnv

import protogym
from protogym.error import UnsupportedMode

RANGE_IDS = ["Acrobot-v1", "CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0"]


def test_the_package_exports_gymnasiums_class_names() -> None:
    assert protogym_classic_control.CartPoleEnv is CartPoleEnv
    assert (
        protogym_classic_control.Continuous_MountainCarEnv
        is continuous_mountain_car.ContinuousMountainCarEnv
    )
    for name in ("AcrobotEnv", "MountainCarEnv", "PendulumEnv"):
        assert name in dir(protogym_classic_control)
        assert getattr(protogym_classic_control, name).__name__ == name
    with pytest.raises(AttributeError, match="has no attribute 'CartPole'"):
        _ = protogym_classic_control.CartPole


def test_cartpoles_module_also_holds_the_vector_env() -> None:
    from protogym_classic_control.vector.cartpole import CartPoleVectorEnv

    assert cartpole.CartPoleVectorEnv is CartPoleVectorEnv
    with pytest.raises(AttributeError):
        _ = cartpole.PoleCart


def test_plugin_discovery_loads_no_env_module() -> None:
    code = (
        "import sys, protogym\n"
        "protogym.spec('CartPole-v1')\n"
        "loaded = [m for m in sys.modules if m.startswith('protogym_classic_control.')]\n"
        "print(sorted(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "['protogym_classic_control.plugin']"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(3, 3.0), (-0.25, -0.25), (np.float32(0.5), 0.5), (np.int64(2), 2.0), (np.array(-0.4), -0.4)],
)
def test_verify_number_and_cast_takes_one_real_number(value: object, expected: float) -> None:
    number = utils.verify_number_and_cast(value)
    assert type(number) is float and number == expected


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("x", "'x' (str)"),
        ([1.0], "[1.0] (list)"),
        (np.array([1.0, 2.0]), "array([1., 2.]) (ndarray)"),
        (True, "True (bool)"),
        (None, "None (NoneType)"),
    ],
)
def test_verify_number_and_cast_refuses_anything_else(value: object, shown: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"must be a real number, got {shown}")):
        utils.verify_number_and_cast(value)


def test_maybe_parse_reset_bounds_reads_options_or_defaults() -> None:
    assert utils.maybe_parse_reset_bounds(None, -0.1, 0.1) == (-0.1, 0.1)
    assert utils.maybe_parse_reset_bounds({"low": np.array(-0.3)}, -0.1, 0.1) == (-0.3, 0.1)
    with pytest.raises(ValueError, match=re.escape("low=0.5 > high=0.1")):
        utils.maybe_parse_reset_bounds({"low": 0.5}, -0.1, 0.1)


@pytest.mark.parametrize("env_id", RANGE_IDS)
@pytest.mark.parametrize(
    "bounds", [(-0.4, 0.4), (np.array(-0.4), np.array(0.4)), (np.float32(-0.4), 0.4)]
)
def test_reset_ranges_accept_0d_arrays_and_numpy_scalars(
    env_id: str, bounds: tuple[Any, Any]
) -> None:
    env = protogym.make(env_id)
    low, high = bounds
    env.reset(seed=7, options={"low": low, "high": high})
    state = env.unwrapped.state  # type: ignore[attr-defined]
    assert np.all((state >= -0.4) & (state <= 0.4))
    env.step(env.action_space.sample())


@pytest.mark.parametrize("env_id", RANGE_IDS)
@pytest.mark.parametrize(
    "bounds", [("x", "y"), (10.0, 8.0), ([-1.0, -1.0], [1.0, 1.0]), (np.zeros(2), np.ones(2))]
)
def test_bad_reset_ranges_are_value_errors(env_id: str, bounds: tuple[Any, Any]) -> None:
    env = protogym.make(env_id)
    with pytest.raises(ValueError, match="reset"):
        env.reset(options={"low": bounds[0], "high": bounds[1]})


def test_pendulum_reset_options_accept_0d_arrays() -> None:
    env = PendulumEnv()
    env.reset(seed=1, options={"x_init": np.array(0.2), "y_init": np.array(0.1)})
    assert env.state is not None
    theta, theta_dot = env.state
    assert abs(theta) <= 0.2 and abs(theta_dot) <= 0.1


def test_state_is_a_float64_array_like_gymnasiums() -> None:
    env = CartPoleEnv()
    assert env.state is None
    env.reset(seed=0, options={"low": 0.01, "high": 0.01})
    state = env.state
    assert isinstance(state, np.ndarray) and state.dtype == np.float64 and state.shape == (4,)
    np.testing.assert_array_equal(state, [0.01] * 4)
    state[0] = 2.0  # a copy: the env does not move
    assert env.state is not None and env.state[0] == 0.01


def test_assigning_state_sets_where_the_next_step_starts() -> None:
    env = MountainCarEnv()
    env.reset(seed=0)
    env.state = np.array([0.49, 0.02])
    _, _, terminated, _, _ = env.step(2)
    assert terminated
    env.state = (-0.5, 0.0)  # any sequence of two numbers
    assert env.state is not None and env.state.tolist() == [-0.5, 0.0]
    with pytest.raises(ValueError, match=r"MountainCarEnv.state must be 2 real numbers"):
        env.state = [0.1, 0.2, 0.3]
    env.state = None
    assert env.state is None


def test_pendulum_reward_is_numpys_float64_like_gymnasiums() -> None:
    env = PendulumEnv()
    env.reset(seed=0)
    for action in (np.array([1.0], np.float32), np.array([-3.0]), [0.5]):
        _, reward, _, _, _ = env.step(action)  # type: ignore[arg-type]
        assert type(reward) is np.float64


@pytest.mark.parametrize(
    ("env_id", "attributes", "shape"),
    [
        ("CartPole-v1", {"screen_width": 300, "screen_height": 200}, (200, 300, 3)),
        ("MountainCar-v0", {"screen_width": 300, "screen_height": 200}, (200, 300, 3)),
        ("Pendulum-v1", {"screen_dim": 250}, (250, 250, 3)),
    ],
)
def test_frame_size_attributes_set_the_frame_size(
    env_id: str, attributes: dict[str, int], shape: tuple[int, int, int]
) -> None:
    env = protogym.make(env_id, render_mode="rgb_array")
    for name, value in attributes.items():
        setattr(env.unwrapped, name, value)
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape == shape
    env.close()


def test_acrobot_counts_its_actions_as_gymnasium_names_it() -> None:
    env = protogym.make("Acrobot-v1")
    assert env.unwrapped.actions_num == env.action_space.n == 3


@pytest.mark.parametrize("env_id", ["CartPole-v1", "Pendulum-v1", "Acrobot-v1"])
def test_an_unknown_render_mode_is_unsupported_mode(env_id: str) -> None:
    with pytest.raises(UnsupportedMode, match="got 'ansi'"):
        protogym.make(env_id, render_mode="ansi", disable_env_checker=True)
