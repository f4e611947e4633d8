"""Acrobot: swing a two-link chain, actuated only at the middle joint, above a line.

Sutton's acrobot as in Gymnasium 1.4's `Acrobot-v1` ("book" dynamics, one RK4 step of 0.2 s
per action, constants, spaces and seeding). The RK4 step is written out in Python floats
with Gymnasium's order of operations, so trajectories equal Gymnasium's bit for bit on the
same platform even though the system is chaotic. Gymnasium squares numpy scalars with `** 2`,
which is the C library's `pow` and not always correctly rounded, so the squares here are
`** 2` too (Python's is the same `pow`), not `x * x`.
"""

from __future__ import annotations

import math
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

__all__ = ["AcrobotEnv"]

_FLOAT32 = np.dtype(np.float32)
# Builds the observation from Python floats; faster than np.array for a few elements.
_fromiter = np.fromiter
_PI = math.pi
_HALF_PI = math.pi / 2
_TORQUE_INDEX: dict[int | np.integer[Any], int] = {0: 0, 1: 1, 2: 2}

State = tuple[float, float, float, float]


def wrap(x: float, low: float, high: float) -> float:
    """`x` shifted by whole periods of `high - low` into [low, high]."""
    period = high - low
    while x > high:
        x = x - period
    while x < low:
        x = x + period
    return x


class AcrobotEnv(Env[NDArray[np.float32], int | np.integer[Any]]):
    """Raise the free end above the line one link length over the base: -1 reward per step.

    Observation (float32): cos and sin of both joint angles, then both angular velocities
    (bounded by 4 pi and 9 pi). Actions: torque -1, 0 or +1 on the middle joint. The episode
    terminates when `-cos(theta1) - cos(theta1 + theta2) > 1` (reward 0 on that step);
    `Acrobot-v1` truncates at 500 steps through `make`'s time limit.

    `reset(options={"low": .., "high": ..})` changes the uniform range of all four initial
    state variables (default -0.1..0.1). The class attributes (link lengths, masses,
    `torque_noise_max`, `book_or_nips`) can be changed on an instance, as in Gymnasium.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "rgb_array"], "render_fps": 15}

    action_space: Discrete
    observation_space: Box
    render_mode: str | None
    state = StateArray(4)

    dt = 0.2
    LINK_LENGTH_1 = 1.0
    LINK_LENGTH_2 = 1.0
    LINK_MASS_1 = 1.0
    LINK_MASS_2 = 1.0
    LINK_COM_POS_1 = 0.5
    LINK_COM_POS_2 = 0.5
    LINK_MOI = 1.0
    MAX_VEL_1 = 4 * math.pi
    MAX_VEL_2 = 9 * math.pi
    AVAIL_TORQUE = (-1.0, 0.0, 1.0)
    torque_noise_max = 0.0
    book_or_nips = "book"  # "nips" uses the paper's equation for the second joint
    SCREEN_DIM = 500
    actions_num = 3  # the number of torques, as Gymnasium names it

    def __init__(self, render_mode: str | None = None) -> None:
        check_render_mode("AcrobotEnv", render_mode)
        self.render_mode = render_mode
        high = np.array([1.0, 1.0, 1.0, 1.0, self.MAX_VEL_1, self.MAX_VEL_2], dtype=np.float32)
        self.observation_space = Box(-high, high, dtype=np.float32)
        self.action_space = Discrete(3)
        self._state: tuple[float, ...] | None = None
        self._canvas: Canvas | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        low, high = parse_reset_bounds("AcrobotEnv", options, -0.1, 0.1)
        start = self.np_random.uniform(low=low, high=high, size=(4,)).astype(np.float32)
        theta1, theta2, dtheta1, dtheta2 = start.tolist()
        self._state = (theta1, theta2, dtheta1, dtheta2)
        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        # The initial state is float32, and so are the cos/sin of the first observation.
        angles = start[:2]
        cos, sin = np.cos(angles), np.sin(angles)
        observation = np.array([cos[0], sin[0], cos[1], sin[1], start[2], start[3]], _FLOAT32)
        return observation, {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        index = _TORQUE_INDEX.get(action) if action.__class__ in INT_SCALAR_TYPES else None
        if index is None:
            index = discrete_action("AcrobotEnv", action, self.action_space)
        state = self._state
        if state is None:
            raise reset_needed("AcrobotEnv")
        torque = self.AVAIL_TORQUE[index]
        if self.torque_noise_max > 0:
            torque += float(self.np_random.uniform(-self.torque_noise_max, self.torque_noise_max))

        theta1, theta2, dtheta1, dtheta2 = self._rk4(state, torque)
        theta1 = wrap(theta1, -_PI, _PI)
        theta2 = wrap(theta2, -_PI, _PI)
        dtheta1 = min(max(dtheta1, -self.MAX_VEL_1), self.MAX_VEL_1)
        dtheta2 = min(max(dtheta2, -self.MAX_VEL_2), self.MAX_VEL_2)
        self._state = (theta1, theta2, dtheta1, dtheta2)
        cos1 = math.cos(theta1)
        terminated = -cos1 - math.cos(theta2 + theta1) > 1.0

        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        observation = _fromiter(
            (cos1, math.sin(theta1), math.cos(theta2), math.sin(theta2), dtheta1, dtheta2),
            dtype=_FLOAT32,
        )
        return observation, 0.0 if terminated else -1.0, terminated, False, {}

    def _rk4(self, state: tuple[float, ...], torque: float) -> State:
        """One classical Runge-Kutta step of length `dt` of the joint dynamics."""
        derivs = self._derivatives_function(torque)
        t1, t2, w1, w2 = state
        half = self.dt / 2.0
        a1, a2, a3, a4 = derivs(t1, t2, w1, w2)
        b1, b2, b3, b4 = derivs(t1 + half * a1, t2 + half * a2, w1 + half * a3, w2 + half * a4)
        c1, c2, c3, c4 = derivs(t1 + half * b1, t2 + half * b2, w1 + half * b3, w2 + half * b4)
        dt = self.dt
        d1, d2, d3, d4 = derivs(t1 + dt * c1, t2 + dt * c2, w1 + dt * c3, w2 + dt * c4)
        sixth = dt / 6.0
        return (
            t1 + sixth * (a1 + 2 * b1 + 2 * c1 + d1),
            t2 + sixth * (a2 + 2 * b2 + 2 * c2 + d2),
            w1 + sixth * (a3 + 2 * b3 + 2 * c3 + d3),
            w2 + sixth * (a4 + 2 * b4 + 2 * c4 + d4),
        )

    def _derivatives_function(self, torque: float) -> Any:
        """The time derivative of the state under `torque`, with this env's constants bound.

        Constant sub-expressions are folded only where the reference evaluates them first, so
        every float operation happens in the reference's order.
        """
        m1, m2 = self.LINK_MASS_1, self.LINK_MASS_2
        l1 = self.LINK_LENGTH_1
        lc1, lc2 = self.LINK_COM_POS_1, self.LINK_COM_POS_2
        i1 = i2 = self.LINK_MOI
        g = 9.8
        d1_const = m1 * lc1**2
        d1_sum = l1**2 + lc2**2
        d1_cos = 2 * l1 * lc2
        d2_const = lc2**2
        d2_cos = l1 * lc2
        phi2_const = m2 * lc2 * g
        phi1_a = -m2 * l1 * lc2
        phi1_b = 2 * m2 * l1 * lc2
        phi1_c = (m1 * lc1 + m2 * l1) * g
        centripetal = m2 * l1 * lc2
        inertia = m2 * lc2**2 + i2
        book = self.book_or_nips != "nips"

        def derivatives(theta1: float, theta2: float, dtheta1: float, dtheta2: float) -> State:
            cos2 = math.cos(theta2)
            sin2 = math.sin(theta2)
            d1 = d1_const + m2 * (d1_sum + d1_cos * cos2) + i1 + i2
            d2 = m2 * (d2_const + d2_cos * cos2) + i2
            try:
                dtheta1_squared, dtheta2_squared, d2_squared = dtheta1**2, dtheta2**2, d2**2
            except OverflowError:  # Python's ** raises where numpy's (Gymnasium's) gives inf
                dtheta1_squared, dtheta2_squared, d2_squared = (
                    float(np.float64(x) ** 2) for x in (dtheta1, dtheta2, d2)
                )
            phi2 = phi2_const * math.cos(theta1 + theta2 - _HALF_PI)
            phi1 = (
                phi1_a * dtheta2_squared * sin2
                - phi1_b * dtheta2 * dtheta1 * sin2
                + phi1_c * math.cos(theta1 - _HALF_PI)
                + phi2
            )
            if book:
                ddtheta2 = (
                    torque + d2 / d1 * phi1 - centripetal * dtheta1_squared * sin2 - phi2
                ) / (inertia - d2_squared / d1)
            else:
                ddtheta2 = (torque + d2 / d1 * phi1 - phi2) / (inertia - d2_squared / d1)
            ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
            return dtheta1, dtheta2, ddtheta1, ddtheta2

        return derivatives

    def render(self) -> NDArray[np.uint8] | None:
        """A (500, 500, 3) uint8 frame in `rgb_array` mode; draws the window in `human`."""
        if self.render_mode is None:
            warn_no_render_mode("AcrobotEnv", self.spec.id if self.spec else "Acrobot-v1")
            return None
        if self._state is None:
            raise reset_needed("AcrobotEnv")
        from protogym_classic_control import rendering

        if self._canvas is None:
            self._canvas = rendering.Canvas(
                self.SCREEN_DIM, self.SCREEN_DIM, self.render_mode, self.metadata["render_fps"]
            )
        canvas = self._canvas
        surface = canvas.begin()
        theta1, theta2 = self._state[0], self._state[1]
        reach = self.LINK_LENGTH_1 + self.LINK_LENGTH_2 + 0.2
        scale = canvas.width / (reach * 2)
        offset = canvas.width / 2

        rendering.draw_line(
            surface,
            (-2.2 * scale + offset, 1 * scale + offset),
            (2.2 * scale + offset, 1 * scale + offset),
            (0, 0, 0),
        )
        elbow = (
            self.LINK_LENGTH_1 * math.sin(theta1) * scale,
            -self.LINK_LENGTH_1 * math.cos(theta1) * scale,
        )
        links = [
            ((0.0, 0.0), theta1 - _HALF_PI, self.LINK_LENGTH_1 * scale),
            (elbow, theta1 + theta2 - _HALF_PI, self.LINK_LENGTH_2 * scale),
        ]
        width = 0.1 * scale
        for (x, y), angle, length in links:
            x, y = x + offset, y + offset
            link = rendering.rotated(
                [(0, -width), (0, width), (length, width), (length, -width)], angle, x, y
            )
            rendering.fill_polygon(surface, link, (0, 204, 204))
            rendering.fill_circle(surface, int(x), int(y), int(width), (204, 204, 0))
        return canvas.finish()

    def get_keys_to_action(self) -> dict[KeyCombination, int]:
        """Keyboard play: arrows apply -1 or +1 torque; no key applies none."""
        return {(): 1, (KEY_LEFT,): 0, (KEY_RIGHT,): 2}

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()
