"""Pendulum: swing a frictionless pendulum up and hold it upright with a limited torque.

Gymnasium 1.4's `Pendulum-v1` (constants, spaces, costs, reset options, seeding), step for step
to the bit. The state lives in Python floats and each step allocates only the observation
array. Gymnasium squares numpy scalars (`x ** 2`), which numpy computes with the C library's
`pow` and `powf`; those are not always correctly rounded, so the squares here are taken with the
same functions (Python's `float ** 2` is `pow`) rather than as `x * x`.
"""

from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym import Env
from protogym.spaces import Box
from protogym_classic_control.utils import (
    KEY_LEFT,
    KEY_RIGHT,
    StateArray,
    check_render_mode,
    continuous_action,
    option_as_float,
    reset_needed,
    warn_no_render_mode,
)

if TYPE_CHECKING:
    from protogym.utils.play import KeyCombination
    from protogym_classic_control.rendering import Canvas

__all__ = ["PendulumEnv", "angle_normalize"]

_FLOAT32 = np.dtype(np.float32)
# Builds the observation from Python floats; faster than np.array for a few elements.
_fromiter = np.fromiter
_PI = math.pi
_TWO_PI = 2 * math.pi
_MILLI_AS_FLOAT32 = array("f", [0.001])[0]
_float64 = np.float64
_sin, _cos = math.sin, math.cos
DEFAULT_X = math.pi
DEFAULT_Y = 1.0


def angle_normalize(angle: float) -> float:
    """`angle` wrapped into [-pi, pi)."""
    return ((angle + _PI) % _TWO_PI) - _PI


class PendulumEnv(Env[NDArray[np.float32], NDArray[np.float32]]):
    """Keep the pendulum upright: the cost is theta^2 + 0.1 theta_dot^2 + 0.001 torque^2.

    Observation (float32): cos(theta), sin(theta), angular velocity in [-8, 8], with theta = 0
    upright. Action: a shape-(1,) float32 torque in [-2, 2]; larger torques are clipped, as in
    Gymnasium. There is no termination; `Pendulum-v1` truncates at 200 steps through `make`'s
    time limit. `g` is gravity.

    The initial angle and velocity are uniform in [-x_init, x_init] and [-y_init, y_init],
    by default pi and 1; `reset(options={"x_init": .., "y_init": ..})` changes them.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    action_space: Box
    observation_space: Box
    render_mode: str | None
    state = StateArray(2)

    def __init__(self, render_mode: str | None = None, g: float = 10.0) -> None:
        check_render_mode("PendulumEnv", render_mode)
        self.render_mode = render_mode
        self.max_speed = 8.0
        self.max_torque = 2.0
        self.dt = 0.05
        self.g = g
        self.m = 1.0
        self.l = 1.0  # the pendulum's length, named as in Gymnasium

        high = np.array([1.0, 1.0, self.max_speed], dtype=np.float32)
        self.action_space = Box(-self.max_torque, self.max_torque, shape=(1,), dtype=np.float32)
        self.observation_space = Box(-high, high, dtype=np.float32)

        self._state: tuple[float, ...] | None = None
        # The torque of the last step, drawn as an arrow; None right after reset.
        self.last_u: float | None = None
        # A one-float32 buffer: storing a float in it and reading it back rounds to float32.
        self._float32 = array("f", [0.0])
        self.screen_dim = 500  # the frame's side in pixels; set before the first render()
        self._canvas: Canvas | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        x, y = DEFAULT_X, DEFAULT_Y
        if options is not None:
            if "x_init" in options:
                x = option_as_float("PendulumEnv", "x_init", options["x_init"])
            if "y_init" in options:
                y = option_as_float("PendulumEnv", "y_init", options["y_init"])
        high = np.array([x, y])
        theta, theta_dot = self.np_random.uniform(low=-high, high=high).tolist()
        self._state = (theta, theta_dot)
        self.last_u = None
        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        return _fromiter((math.cos(theta), math.sin(theta), theta_dot), _FLOAT32), {}

    def step(
        self, action: NDArray[np.float32]
    ) -> tuple[NDArray[np.float32], np.float64, bool, bool, dict[str, Any]]:
        # Fast path: a float ndarray of shape (1,) unpacks to one Python float; anything else
        # (lists, other shapes, integer or object dtypes, NaN) goes through the full check.
        # Gymnasium multiplies a float32 torque in float32: `single` says to round as it does.
        u: float
        try:
            (u,) = action.tolist()
            single = action.dtype is _FLOAT32
        except (AttributeError, TypeError, ValueError):
            u = continuous_action("PendulumEnv", action, self.action_space)
            single = False
        if u.__class__ is not float or u != u:
            u = continuous_action("PendulumEnv", action, self.action_space)
            single = False
        state = self._state
        if state is None:
            raise reset_needed("PendulumEnv")
        theta, theta_dot = state

        raw = u
        max_torque = self.max_torque
        if u > max_torque:
            u = max_torque
        elif u < -max_torque:
            u = -max_torque
        self.last_u = u
        g, m, length, dt = self.g, self.m, self.l, self.dt
        gain = 3.0 / (m * length**2)
        if single:
            rounded = self._float32
            rounded[0] = gain
            rounded[0] = rounded[0] * u
            acceleration = rounded[0]
            # numpy's float32 scalar power is powf, which rounds some squares the other way
            rounded[0] = action[0] ** 2 if u == raw else u * u  # a bound's square is exact
            rounded[0] = _MILLI_AS_FLOAT32 * rounded[0]
            effort = rounded[0]
        else:
            acceleration = gain * u
            effort = 0.001 * u**2
        normalized = ((theta + _PI) % _TWO_PI) - _PI  # angle_normalize, inlined
        try:
            costs = normalized**2 + 0.1 * theta_dot**2 + effort
        except OverflowError:  # Python's ** raises where numpy's (Gymnasium's) gives inf
            costs = math.inf

        theta_dot = theta_dot + (3 * g / (2 * length) * _sin(theta) + acceleration) * dt
        max_speed = self.max_speed
        if theta_dot > max_speed:
            theta_dot = max_speed
        elif theta_dot < -max_speed:
            theta_dot = -max_speed
        theta = theta + theta_dot * dt
        self._state = (theta, theta_dot)

        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        observation = _fromiter((_cos(theta), _sin(theta), theta_dot), _FLOAT32)
        # numpy's float64, the type Gymnasium's reward has
        return observation, _float64(-costs), False, False, {}

    def render(self) -> NDArray[np.uint8] | None:
        """A (500, 500, 3) uint8 frame in `rgb_array` mode; draws the window in `human`.

        An arc arrow around the axle shows the last torque: its size is the magnitude, and it
        turns counter-clockwise for a positive torque.
        """
        if self.render_mode is None:
            warn_no_render_mode("PendulumEnv", self.spec.id if self.spec else "Pendulum-v1")
            return None
        if self._state is None:
            raise reset_needed("PendulumEnv")
        from protogym_classic_control import rendering

        if self._canvas is None:
            self._canvas = rendering.Canvas(
                self.screen_dim, self.screen_dim, self.render_mode, self.metadata["render_fps"]
            )
        canvas = self._canvas
        surface = canvas.begin()

        scale = canvas.width / (2.2 * 2)
        offset = canvas.width // 2
        rod_length = 1 * scale
        rod_width = 0.2 * scale
        angle = self._state[0] + math.pi / 2
        half = rod_width / 2
        rod = rendering.rotated(
            [(0, -half), (0, half), (rod_length, half), (rod_length, -half)], angle, offset, offset
        )
        red = (204, 77, 77)
        rendering.fill_polygon(surface, rod, red)
        rendering.fill_circle(surface, offset, offset, int(half), red)
        ((end_x, end_y),) = rendering.rotated([(rod_length, 0)], angle, offset, offset)
        rendering.fill_circle(surface, int(end_x), int(end_y), int(half), red)
        if self.last_u is not None and self.last_u != 0.0:
            rendering.draw_torque_arrow(
                surface, offset, offset, scale * abs(self.last_u) / 4, self.last_u > 0
            )
        rendering.fill_circle(surface, offset, offset, int(0.05 * scale), (0, 0, 0))
        return canvas.finish()

    def get_keys_to_action(self) -> dict[KeyCombination, NDArray[np.float32]]:
        """Keyboard play: arrows apply the full torque either way; no key applies none."""
        return {
            (): np.array([0.0], np.float32),
            (KEY_LEFT,): np.array([-2.0], np.float32),
            (KEY_RIGHT,): np.array([2.0], np.float32),
        }

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()
