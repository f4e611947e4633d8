"""CartPole for many carts at once: the single env's arithmetic, in the same order, on arrays.

The state is a (4, num_envs) float64 array so each variable is one contiguous row; every
step works in preallocated buffers (`out=`) and the Euler update of all four variables is
one multiply and one add over the whole state.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.spaces import Box, Discrete, batch_space
from protogym.vector.vector_env import AutoresetMode, ModeT_co
from protogym_classic_control.cartpole import CartPoleEnv
from protogym_classic_control.utils import parse_reset_bounds
from protogym_classic_control.vector._base import ClassicVectorEnv, IntArray

__all__ = ["CartPoleVectorEnv"]


class CartPoleVectorEnv(ClassicVectorEnv[NDArray[np.integer[Any]], ModeT_co]):
    """`num_envs` CartPoles; sub-env i matches `CartPoleEnv` seeded `seed + i`.

    Actions are an int array of shape (num_envs,) with values 0 (push left) or 1 (right).
    `max_episode_steps` (500, as CartPole-v1) truncates episodes like `make`'s time limit.
    """

    draws_per_reset = 4

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 500,
        render_mode: str | None = None,
        sutton_barto_reward: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.sutton_barto_reward = bool(sutton_barto_reward)
        self.gravity = 9.8
        self.masscart = 1.0
        self.masspole = 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5
        self.polemass_length = self.masspole * self.length
        self.force_mag = 10.0
        self.tau = 0.02
        self.kinematics_integrator = "euler"
        self.theta_threshold_radians = 12 * 2 * math.pi / 360
        self.x_threshold = 2.4
        high = np.array(
            [self.x_threshold * 2, np.inf, self.theta_threshold_radians * 2, np.inf],
            dtype=np.float32,
        )
        self.single_action_space = Discrete(2)
        self.single_observation_space = Box(-high, high, dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)

        self.state = np.zeros((4, num_envs), dtype=np.float64)
        self._beyond = np.zeros(num_envs, dtype=np.bool_)  # terminated earlier, not reset
        self._deriv = np.empty((4, num_envs), dtype=np.float64)
        self._temps = np.empty((5, num_envs), dtype=np.float64)
        self._abs = np.empty((2, num_envs), dtype=np.float64)
        self._flags = np.empty((2, num_envs), dtype=np.bool_)
        self._thresholds = np.empty((2, 1), dtype=np.float64)

    def _reset_rows(self, rows: IntArray, uniforms: NDArray[np.float64],
                    options: dict[str, Any] | None) -> None:
        low, high = parse_reset_bounds("CartPoleVectorEnv", options, -0.05, 0.05)
        self.state[:, rows] = (low + (high - low) * uniforms).T
        if self._autoreset_mode is AutoresetMode.DISABLED:
            self._beyond[rows] = False

    def _physics(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        # Every operation below is the single env's, in its order, so results are bitwise
        # equal; positional `out` arguments and locals keep the per-call overhead low.
        action = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        num_envs = self.num_envs
        if action.shape != (num_envs,) or action.dtype.kind not in "iu":
            raise ValueError(
                f"CartPoleVectorEnv.step() needs an int array of shape ({num_envs},) with "
                f"values 0 or 1, got {action.dtype} of shape {action.shape}"
            )
        if action.dtype.kind == "i":  # negatives become huge, so one max() checks both ends
            action = action.view(f"u{action.dtype.itemsize}")
        if action.max() > 1:
            raise ValueError(f"CartPoleVectorEnv.step() got actions outside {{0, 1}}: {actions!r}")
        state = self.state
        theta, theta_dot = state[2], state[3]
        deriv = self._deriv
        cos, sin, temp, t1, t2 = self._temps
        multiply, divide, subtract = np.multiply, np.divide, np.subtract
        force = deriv[0]  # scratch until the Euler update
        force_mag = self.force_mag
        multiply(action, 2.0 * force_mag, force)  # 0 -> -force_mag, 1 -> +force_mag exactly
        subtract(force, force_mag, force)

        total_mass = self.total_mass
        polemass_length = self.polemass_length
        np.cos(theta, cos)
        np.sin(theta, sin)
        # temp = (force + polemass_length * theta_dot**2 * sin) / total_mass
        multiply(theta_dot, theta_dot, t1)
        multiply(polemass_length, t1, t1)
        multiply(t1, sin, t1)
        np.add(force, t1, t1)
        divide(t1, total_mass, temp)
        # thetaacc = (g * sin - cos * temp) / (length * (4/3 - masspole * cos**2 / total_mass))
        multiply(cos, cos, t1)
        multiply(self.masspole, t1, t1)
        divide(t1, total_mass, t1)
        subtract(4.0 / 3.0, t1, t1)
        multiply(self.length, t1, t1)
        multiply(self.gravity, sin, t2)
        multiply(cos, temp, sin)
        subtract(t2, sin, t2)
        thetaacc = deriv[3]
        divide(t2, t1, thetaacc)
        # xacc = temp - polemass_length * thetaacc * cos / total_mass
        multiply(polemass_length, thetaacc, t1)
        multiply(t1, cos, t1)
        divide(t1, total_mass, t1)
        subtract(temp, t1, deriv[1])

        tau = self.tau
        if self.kinematics_integrator == "euler":
            deriv[0::2] = state[1::2]
            multiply(tau, deriv, deriv)
            np.add(state, deriv, state)
        else:  # semi-implicit Euler: velocities first, then positions from the new ones
            velocities = deriv[1::2]
            multiply(tau, velocities, velocities)
            np.add(state[1::2], velocities, state[1::2])
            positions = deriv[0::2]
            multiply(tau, state[1::2], positions)
            np.add(state[0::2], positions, state[0::2])

        # |x| > x_threshold is x < -x_threshold or x > x_threshold, NaN included.
        magnitudes = self._abs
        np.abs(state[0::2], magnitudes)
        thresholds = self._thresholds
        thresholds[0, 0] = self.x_threshold
        thresholds[1, 0] = self.theta_threshold_radians
        flags = self._flags
        np.greater(magnitudes, thresholds, flags)
        terminated = flags[0] | flags[1]

        if self.sutton_barto_reward:
            rewards = np.where(terminated, -1.0, 0.0)
        else:
            rewards = np.ones(num_envs, dtype=np.float64)
        if self._autoreset_mode is AutoresetMode.DISABLED:
            # Only without autoreset can a sub-env step on after termination; the single
            # env then pays 0 (not 1) for every further terminated step.
            beyond = self._beyond
            if not self.sutton_barto_reward:
                np.logical_and(terminated, beyond, flags[0])
                rewards[flags[0]] = 0.0
            np.logical_or(beyond, terminated, beyond)
        return rewards, terminated

    def _observe(self, rows: IntArray | None) -> NDArray[np.float32]:
        if rows is None:
            return self.state.T.astype(np.float32)
        return self.state[:, rows].T.astype(np.float32)

    def _single_env(self, render_mode: str) -> Env[Any, Any]:
        return CartPoleEnv(render_mode=render_mode)

    def _load_state(self, env: Any, row: int) -> None:
        x, x_dot, theta, theta_dot = self.state[:, row].tolist()
        env.state = (x, x_dot, theta, theta_dot)
