"""Acrobot for many robots at once: the single env's RK4 step, expression for expression.

The initial state is drawn in float64 and rounded to float32, and the first observation
takes float32 cosines of it, as the single env (and Gymnasium) does; later observations come
from the float64 state. The observation batch is therefore kept and patched row by row.
Squares are rounded as the single env's scalar `** 2` rounds them (`squares`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.spaces import Box, Discrete, batch_space
from protogym.vector.vector_env import AutoresetMode, ModeT_co
from protogym_classic_control.acrobot import AcrobotEnv
from protogym_classic_control.utils import parse_reset_bounds
from protogym_classic_control.vector._base import ClassicVectorEnv, IntArray
from protogym_classic_control.vector.mountain_car import discrete_actions
from protogym_classic_control.vector.squares import pow_squares

__all__ = ["AcrobotVectorEnv"]

_PI = math.pi
_HALF_PI = math.pi / 2
Array = NDArray[np.float64]
State = tuple[Array, Array, Array, Array]


def _wrap(x: Array, low: float, high: float) -> Array:
    """Shift each entry by whole periods into [low, high], one period at a time."""
    period = high - low
    while True:
        above = x > high
        if not above.any():
            break
        x[above] = x[above] - period
    while True:
        below = x < low
        if not below.any():
            break
        x[below] = x[below] + period
    return x


class AcrobotVectorEnv(ClassicVectorEnv[NDArray[np.integer[Any]], ModeT_co]):
    """`num_envs` acrobots; sub-env i matches `AcrobotEnv` seeded `seed + i`.

    Actions are an int array of shape (num_envs,): torque -1, 0 or +1 for 0, 1, 2.
    `max_episode_steps` (500, as Acrobot-v1) truncates. Torque noise draws from each
    sub-env's generator every step, so it is set here (`torque_noise_max`) and turns off
    the drawing ahead of reset noise that would reorder those draws.
    """

    draws_per_reset = 4
    render_fps = 15

    dt = AcrobotEnv.dt
    LINK_LENGTH_1 = AcrobotEnv.LINK_LENGTH_1
    LINK_LENGTH_2 = AcrobotEnv.LINK_LENGTH_2
    LINK_MASS_1 = AcrobotEnv.LINK_MASS_1
    LINK_MASS_2 = AcrobotEnv.LINK_MASS_2
    LINK_COM_POS_1 = AcrobotEnv.LINK_COM_POS_1
    LINK_COM_POS_2 = AcrobotEnv.LINK_COM_POS_2
    LINK_MOI = AcrobotEnv.LINK_MOI
    MAX_VEL_1 = AcrobotEnv.MAX_VEL_1
    MAX_VEL_2 = AcrobotEnv.MAX_VEL_2
    AVAIL_TORQUE = AcrobotEnv.AVAIL_TORQUE
    book_or_nips = AcrobotEnv.book_or_nips

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 500,
        render_mode: str | None = None,
        torque_noise_max: float = 0.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        if torque_noise_max > 0:
            self.buffered_resets = 1  # draws in the single env's order: reset, step, step...
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.torque_noise_max = float(torque_noise_max)
        high = np.array([1.0, 1.0, 1.0, 1.0, self.MAX_VEL_1, self.MAX_VEL_2], dtype=np.float32)
        self.single_observation_space = Box(-high, high, dtype=np.float32)
        self.single_action_space = Discrete(3)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.state = np.zeros((4, num_envs), dtype=np.float64)
        self._observations = np.zeros((num_envs, 6), dtype=np.float32)

    def _reset_rows(self, rows: IntArray, uniforms: NDArray[np.float64],
                    options: dict[str, Any] | None) -> None:
        low, high = parse_reset_bounds("AcrobotVectorEnv", options, -0.1, 0.1)
        start = (low + (high - low) * uniforms).astype(np.float32)  # (rows, 4)
        self.state[:, rows] = start.T
        angles = start[:, :2]
        cos, sin = np.cos(angles), np.sin(angles)
        self._observations[rows] = np.stack(
            (cos[:, 0], sin[:, 0], cos[:, 1], sin[:, 1], start[:, 2], start[:, 3]), axis=1
        )

    def _physics(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        if self.torque_noise_max > 0 and self.buffered_resets != 1:
            raise ValueError(
                "AcrobotVectorEnv draws torque noise from each sub-env's generator, so pass "
                "torque_noise_max to the constructor instead of setting it afterwards"
            )
        action = discrete_actions("AcrobotVectorEnv", actions, self.num_envs, 3)
        torque = np.take(np.array(self.AVAIL_TORQUE, dtype=np.float64), action)
        if self.torque_noise_max > 0:
            noise = self.torque_noise_max
            pending = self._pending  # about to be reset instead of stepped: no draw
            for row, generator in enumerate(self._generators):
                if not pending[row]:
                    torque[row] += float(generator.uniform(-noise, noise))
        s = self.state
        theta1, theta2, dtheta1, dtheta2 = self._rk4((s[0], s[1], s[2], s[3]), torque)
        theta1 = _wrap(theta1, -_PI, _PI)
        theta2 = _wrap(theta2, -_PI, _PI)
        dtheta1 = np.minimum(np.maximum(dtheta1, -self.MAX_VEL_1), self.MAX_VEL_1)
        dtheta2 = np.minimum(np.maximum(dtheta2, -self.MAX_VEL_2), self.MAX_VEL_2)
        s[0], s[1], s[2], s[3] = theta1, theta2, dtheta1, dtheta2
        cos1 = np.cos(theta1)
        terminated: NDArray[np.bool_] = -cos1 - np.cos(theta2 + theta1) > 1.0
        self._observations = np.stack(
            (cos1, np.sin(theta1), np.cos(theta2), np.sin(theta2), dtheta1, dtheta2), axis=1
        ).astype(np.float32)
        return np.where(terminated, 0.0, -1.0), terminated

    def _rk4(self, state: State, torque: Array) -> State:
        derivs = self._derivatives
        t1, t2, w1, w2 = state
        half = self.dt / 2.0
        a1, a2, a3, a4 = derivs(t1, t2, w1, w2, torque)
        b1, b2, b3, b4 = derivs(
            t1 + half * a1, t2 + half * a2, w1 + half * a3, w2 + half * a4, torque
        )
        c1, c2, c3, c4 = derivs(
            t1 + half * b1, t2 + half * b2, w1 + half * b3, w2 + half * b4, torque
        )
        dt = self.dt
        d1, d2, d3, d4 = derivs(t1 + dt * c1, t2 + dt * c2, w1 + dt * c3, w2 + dt * c4, torque)
        sixth = dt / 6.0
        return (
            t1 + sixth * (a1 + 2 * b1 + 2 * c1 + d1),
            t2 + sixth * (a2 + 2 * b2 + 2 * c2 + d2),
            w1 + sixth * (a3 + 2 * b3 + 2 * c3 + d3),
            w2 + sixth * (a4 + 2 * b4 + 2 * c4 + d4),
        )

    def _derivatives(
        self, theta1: Array, theta2: Array, dtheta1: Array, dtheta2: Array, torque: Array
    ) -> State:
        # The single env's constant folding, kept so every float operation matches it.
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

        cos2 = np.cos(theta2)
        sin2 = np.sin(theta2)
        d1 = d1_const + m2 * (d1_sum + d1_cos * cos2) + i1 + i2
        d2 = m2 * (d2_const + d2_cos * cos2) + i2
        dtheta2_squared, dtheta1_squared, d2_squared = pow_squares(
            np.stack((dtheta2, dtheta1, d2))
        )
        phi2 = phi2_const * np.cos(theta1 + theta2 - _HALF_PI)
        phi1 = (
            phi1_a * dtheta2_squared * sin2
            - phi1_b * dtheta2 * dtheta1 * sin2
            + phi1_c * np.cos(theta1 - _HALF_PI)
            + phi2
        )
        if self.book_or_nips != "nips":
            ddtheta2 = (
                torque + d2 / d1 * phi1 - centripetal * dtheta1_squared * sin2 - phi2
            ) / (inertia - d2_squared / d1)
        else:
            ddtheta2 = (torque + d2 / d1 * phi1 - phi2) / (inertia - d2_squared / d1)
        ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
        return dtheta1, dtheta2, ddtheta1, ddtheta2

    def _observe(self, rows: IntArray | None) -> NDArray[np.float32]:
        if rows is None:
            return self._observations.copy()
        return self._observations[rows]

    def _single_env(self, render_mode: str) -> Env[Any, Any]:
        return AcrobotEnv(render_mode=render_mode)

    def _load_state(self, env: Any, row: int) -> None:
        theta1, theta2, dtheta1, dtheta2 = self.state[:, row].tolist()
        env.state = (theta1, theta2, dtheta1, dtheta2)
