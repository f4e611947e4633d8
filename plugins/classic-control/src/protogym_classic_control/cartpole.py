"""CartPole: balance a pole hinged on a cart by pushing the cart left or right.

The cart-pole of Barto, Sutton and Anderson (1983) with Gymnasium 1.4's constants, spaces,
rewards and seeding: under the same seed and actions the trajectory equals Gymnasium's. The
state lives in Python floats and each step allocates only the observation array.
"""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym import Env
from protogym.spaces import Box, Discrete
from protogym_classic_control.utils import (
    INT_SCALAR_TYPES,
    KEY_LEFT,
    KEY_RIGHT,
    StateArray,
    check_render_mode,
    discrete_action,
    parse_reset_bounds,
    reset_needed,
    warn_no_render_mode,
)

if TYPE_CHECKING:
    from protogym.utils.play import KeyCombination
    from protogym_classic_control.rendering import Canvas

__all__ = ["CartPoleEnv"]

_FLOAT32 = np.dtype(np.float32)
# Builds the observation from Python floats; faster than np.array for a few elements.
_fromiter = np.fromiter
_DIRECTIONS: dict[int | np.integer[Any], float] = {0: -1.0, 1: 1.0}

_X_THRESHOLD = 2.4
_THETA_THRESHOLD_RADIANS = 12 * 2 * math.pi / 360
# The observation bounds (twice the termination thresholds), built once: every env's Box is
# built from these same read-only arrays, which Box copies.
_OBS_HIGH = np.array(
    [_X_THRESHOLD * 2, np.inf, _THETA_THRESHOLD_RADIANS * 2, np.inf], dtype=np.float32
)
_OBS_LOW = -_OBS_HIGH
_OBS_HIGH.flags.writeable = _OBS_LOW.flags.writeable = False


class CartPoleEnv(Env[NDArray[np.float32], int | np.integer[Any]]):
    """Keep the pole upright: +1 reward per step until it falls or the cart leaves the track.

    Observation (float32): cart position, cart velocity, pole angle (rad), pole angular
    velocity. Actions: 0 pushes the cart left, 1 right, with a fixed force. The episode
    terminates when the pole leans more than 12 degrees or the cart is more than 2.4 from the
    centre; `CartPole-v0`/`-v1` truncate at 200/500 steps through `make`'s time limit.

    `reset(options={"low": .., "high": ..})` changes the uniform range of every initial state
    variable (default -0.05..0.05). With ``sutton_barto_reward=True`` the reward is 0 per step
    and -1 on termination, as in the original paper.

    The physical constants are public attributes, read on every step, so they can be changed
    on `env.unwrapped` as in Gymnasium.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "rgb_array"], "render_fps": 50}

    action_space: Discrete
    observation_space: Box
    render_mode: str | None
    state = StateArray(4)

    def __init__(self, sutton_barto_reward: bool = False, render_mode: str | None = None) -> None:
        check_render_mode("CartPoleEnv", render_mode)
        self.sutton_barto_reward = bool(sutton_barto_reward)
        self.render_mode = render_mode

        self.gravity = 9.8
        self.masscart = 1.0
        self.masspole = 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5  # half the pole's length
        self.polemass_length = self.masspole * self.length
        self.force_mag = 10.0
        self.tau = 0.02  # seconds per step
        self.kinematics_integrator = "euler"  # or "semi-implicit euler"

        self.theta_threshold_radians = _THETA_THRESHOLD_RADIANS
        self.x_threshold = _X_THRESHOLD

        self.action_space = Discrete(2)
        self.observation_space = Box(_OBS_LOW, _OBS_HIGH, dtype=np.float32)

        self._state: tuple[float, ...] | None = None
        # None while the pole is up; counts the steps taken after termination otherwise.
        self.steps_beyond_terminated: int | None = None
        # the frame size in pixels; set before the first render() for another size
        self.screen_width = 600
        self.screen_height = 400
        self._canvas: Canvas | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        low, high = parse_reset_bounds("CartPoleEnv", options, -0.05, 0.05)
        x, x_dot, theta, theta_dot = self.np_random.uniform(low=low, high=high, size=(4,)).tolist()
        self._state = (x, x_dot, theta, theta_dot)
        self.steps_beyond_terminated = None
        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        return _fromiter(self._state, _FLOAT32), {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        direction = _DIRECTIONS.get(action) if action.__class__ in INT_SCALAR_TYPES else None
        if direction is None:
            direction = _DIRECTIONS[discrete_action("CartPoleEnv", action, self.action_space)]
        state = self._state
        if state is None:
            raise reset_needed("CartPoleEnv")
        x, x_dot, theta, theta_dot = state

        force = direction * self.force_mag
        total_mass = self.total_mass
        polemass_length = self.polemass_length
        tau = self.tau
        costheta = math.cos(theta)
        sintheta = math.sin(theta)
        temp = (force + polemass_length * (theta_dot * theta_dot) * sintheta) / total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * (costheta * costheta) / total_mass)
        )
        xacc = temp - polemass_length * thetaacc * costheta / total_mass
        if self.kinematics_integrator == "euler":
            x = x + tau * x_dot
            x_dot = x_dot + tau * xacc
            theta = theta + tau * theta_dot
            theta_dot = theta_dot + tau * thetaacc
        else:  # semi-implicit Euler: velocities first
            x_dot = x_dot + tau * xacc
            x = x + tau * x_dot
            theta_dot = theta_dot + tau * thetaacc
            theta = theta + tau * theta_dot
        self._state = state = (x, x_dot, theta, theta_dot)

        x_threshold = self.x_threshold
        theta_threshold = self.theta_threshold_radians
        terminated = (
            x < -x_threshold
            or x > x_threshold
            or theta < -theta_threshold
            or theta > theta_threshold
        )
        if not terminated:
            reward = 0.0 if self.sutton_barto_reward else 1.0
        elif self.steps_beyond_terminated is None:
            self.steps_beyond_terminated = 0
            reward = -1.0 if self.sutton_barto_reward else 1.0
        else:
            if self.steps_beyond_terminated == 0:
                warnings.warn(
                    "CartPoleEnv.step() was called after the episode terminated; call reset() "
                    "once terminated is True, as further steps are undefined behaviour",
                    UserWarning,
                    stacklevel=2,
                )
            self.steps_beyond_terminated += 1
            reward = -1.0 if self.sutton_barto_reward else 0.0

        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        return _fromiter(state, _FLOAT32), reward, terminated, False, {}

    def render(self) -> NDArray[np.uint8] | None:
        """An (400, 600, 3) uint8 frame in `rgb_array` mode; draws the window in `human`."""
        if self.render_mode is None:
            warn_no_render_mode("CartPoleEnv", self.spec.id if self.spec else "CartPole-v1")
            return None
        if self._state is None:
            raise reset_needed("CartPoleEnv")
        from protogym_classic_control import rendering

        if self._canvas is None:
            self._canvas = rendering.Canvas(
                self.screen_width, self.screen_height, self.render_mode,
                self.metadata["render_fps"],
            )
        canvas = self._canvas
        surface = canvas.begin()

        x, _, theta, _ = self._state
        scale = canvas.width / (self.x_threshold * 2)
        pole_width = 10.0
        pole_length = scale * (2 * self.length)
        cart_width = 50.0
        cart_height = 30.0
        axle_offset = cart_height / 4.0
        cart_x = x * scale + canvas.width / 2.0
        cart_top = 100

        half_w, half_h = cart_width / 2, cart_height / 2
        cart = [
            (cart_x - half_w, cart_top - half_h),
            (cart_x - half_w, cart_top + half_h),
            (cart_x + half_w, cart_top + half_h),
            (cart_x + half_w, cart_top - half_h),
        ]
        rendering.fill_polygon(surface, cart, (0, 0, 0))

        half_pole = pole_width / 2
        pole = rendering.rotated(
            [
                (-half_pole, -half_pole),
                (-half_pole, pole_length - half_pole),
                (half_pole, pole_length - half_pole),
                (half_pole, -half_pole),
            ],
            -theta,
            cart_x,
            cart_top + axle_offset,
        )
        rendering.fill_polygon(surface, pole, (202, 152, 101))
        rendering.fill_circle(
            surface, int(cart_x), int(cart_top + axle_offset), int(half_pole), (129, 132, 203)
        )
        rendering.draw_hline(surface, 0, canvas.width, cart_top, (0, 0, 0))
        return canvas.finish()

    def get_keys_to_action(self) -> dict[KeyCombination, int]:
        """Keyboard play: the left arrow pushes the cart left, the right arrow right."""
        return {(KEY_LEFT,): 0, (KEY_RIGHT,): 1}

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()


def __getattr__(name: str) -> Any:
    # Gymnasium defines its vector CartPole in this module; ours lives in `vector.cartpole`
    # (which imports this module), so it is loaded on first access.
    if name == "CartPoleVectorEnv":
        from protogym_classic_control.vector.cartpole import CartPoleVectorEnv

        return CartPoleVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
