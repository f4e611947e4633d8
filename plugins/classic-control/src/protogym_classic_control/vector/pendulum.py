"""Pendulum for many pendulums at once, step for step the single env's arithmetic.

A float32 torque batch is multiplied in float32, as the single env (and Gymnasium) does for
a float32 torque; a float64 batch in float64. Squares are rounded as the single env's scalar
`** 2` rounds them (`squares`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.spaces import Box, batch_space
from protogym.vector.vector_env import AutoresetMode, ModeT_co
from protogym_classic_control.pendulum import DEFAULT_X, DEFAULT_Y, PendulumEnv
from protogym_classic_control.utils import option_as_float
from protogym_classic_control.vector._base import ClassicVectorEnv, IntArray
from protogym_classic_control.vector.continuous_mountain_car import continuous_actions
from protogym_classic_control.vector.squares import pow_squares, powf_squares

__all__ = ["PendulumVectorEnv"]

_PI = math.pi
_TWO_PI = 2 * math.pi


class PendulumVectorEnv(ClassicVectorEnv[NDArray[np.float32], ModeT_co]):
    """`num_envs` pendulums; sub-env i matches `PendulumEnv` seeded `seed + i`.

    Actions are a float array of shape (num_envs, 1) of torques, clipped to [-2, 2]. There
    is no termination; `max_episode_steps` (200, as Pendulum-v1) truncates.
    """

    draws_per_reset = 2
    render_fps = 30

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 200,
        render_mode: str | None = None,
        g: float = 10.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.max_speed = 8.0
        self.max_torque = 2.0
        self.dt = 0.05
        self.g = g
        self.m = 1.0
        self.l = 1.0
        high = np.array([1.0, 1.0, self.max_speed], dtype=np.float32)
        self.single_action_space = Box(-self.max_torque, self.max_torque, shape=(1,),
                                       dtype=np.float32)
        self.single_observation_space = Box(-high, high, dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.state = np.zeros((2, num_envs), dtype=np.float64)
        self.last_u = np.full(num_envs, np.nan)  # NaN: no torque since the last reset

    def _reset_rows(self, rows: IntArray, uniforms: NDArray[np.float64],
                    options: dict[str, Any] | None) -> None:
        x, y = DEFAULT_X, DEFAULT_Y
        if options is not None:
            if "x_init" in options:
                x = option_as_float("PendulumVectorEnv", "x_init", options["x_init"])
            if "y_init" in options:
                y = option_as_float("PendulumVectorEnv", "y_init", options["y_init"])
        high = np.array([x, y])
        low = -high
        self.state[:, rows] = (low + (high - low) * uniforms).T
        self.last_u[rows] = np.nan

    def _physics(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        u = continuous_actions("PendulumVectorEnv", actions, self.num_envs)
        single = np.asarray(actions).dtype == np.float32
        u = np.clip(u, -self.max_torque, self.max_torque)
        self.last_u = u
        theta, theta_dot = self.state[0], self.state[1]
        g, m, length, dt = self.g, self.m, self.l, self.dt
        gain = 3.0 / (m * length**2)
        normalized = ((theta + _PI) % _TWO_PI) - _PI
        if single:
            u32 = u.astype(np.float32)
            acceleration = (np.float32(gain) * u32).astype(np.float64)
            effort = (np.float32(0.001) * powf_squares(u32)).astype(np.float64)
            angle_squared, speed_squared = pow_squares(np.stack((normalized, theta_dot)))
        else:
            acceleration = gain * u
            angle_squared, speed_squared, torque_squared = pow_squares(
                np.stack((normalized, theta_dot, u))
            )
            effort = 0.001 * torque_squared
        costs = angle_squared + 0.1 * speed_squared + effort
        new_theta_dot = theta_dot + (3 * g / (2 * length) * np.sin(theta) + acceleration) * dt
        np.clip(new_theta_dot, -self.max_speed, self.max_speed, new_theta_dot)
        self.state[0] = theta + new_theta_dot * dt
        self.state[1] = new_theta_dot
        return -costs, np.zeros(self.num_envs, dtype=np.bool_)

    def _observe(self, rows: IntArray | None) -> NDArray[np.float32]:
        state = self.state if rows is None else self.state[:, rows]
        theta = state[0]
        return np.stack((np.cos(theta), np.sin(theta), state[1]), axis=1).astype(np.float32)

    def _single_env(self, render_mode: str) -> Env[Any, Any]:
        return PendulumEnv(render_mode=render_mode, g=self.g)

    def _load_state(self, env: Any, row: int) -> None:
        theta, theta_dot = self.state[:, row].tolist()
        env.state = (theta, theta_dot)
        last_u = float(self.last_u[row])
        env.last_u = None if last_u != last_u else last_u
