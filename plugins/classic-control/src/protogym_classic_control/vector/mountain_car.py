"""MountainCar for many cars at once: the single env's arithmetic, in its order, on arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.spaces import Box, Discrete, batch_space
from protogym.vector.vector_env import AutoresetMode, ModeT_co
from protogym_classic_control.mountain_car import MountainCarEnv
from protogym_classic_control.utils import parse_reset_bounds
from protogym_classic_control.vector._base import UNSIGNED, ClassicVectorEnv, IntArray

__all__ = ["MountainCarVectorEnv", "car_dynamics"]


def car_dynamics(
    env: Any, velocity_change: NDArray[np.float64]
) -> NDArray[np.bool_]:
    """Apply a velocity change, clip, move, stop at the left wall; return `terminated`.

    Shared by the discrete and continuous cars, whose steps differ only in the push.
    """
    state = env.state
    position, velocity = state[0], state[1]
    np.add(velocity, velocity_change, velocity)
    np.clip(velocity, -env.max_speed, env.max_speed, velocity)
    np.add(position, velocity, position)
    np.clip(position, env.min_position, env.max_position, position)
    velocity[(position == env.min_position) & (velocity < 0)] = 0.0
    terminated: NDArray[np.bool_] = (position >= env.goal_position) & (
        velocity >= env.goal_velocity
    )
    return terminated


class MountainCarVectorEnv(ClassicVectorEnv[NDArray[np.integer[Any]], ModeT_co]):
    """`num_envs` mountain cars; sub-env i matches `MountainCarEnv` seeded `seed + i`.

    Actions are an int array of shape (num_envs,): 0 pushes left, 1 coasts, 2 pushes right.
    `max_episode_steps` (200, as MountainCar-v0) truncates episodes.
    """

    draws_per_reset = 1
    render_fps = 30

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 200,
        render_mode: str | None = None,
        goal_velocity: float = 0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = 0.5
        self.goal_velocity = goal_velocity
        self.force = 0.001
        self.gravity = 0.0025
        low = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        high = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.single_action_space = Discrete(3)
        self.single_observation_space = Box(low, high, dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.state = np.zeros((2, num_envs), dtype=np.float64)

    def _reset_rows(self, rows: IntArray, uniforms: NDArray[np.float64],
                    options: dict[str, Any] | None) -> None:
        low, high = parse_reset_bounds("MountainCarVectorEnv", options, -0.6, -0.4)
        self.state[0, rows] = low + (high - low) * uniforms[:, 0]
        self.state[1, rows] = 0.0

    def _physics(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        action = discrete_actions("MountainCarVectorEnv", actions, self.num_envs, 3)
        direction = action.astype(np.float64) - 1.0  # -1, 0, 1 exactly, as the single env's
        push = direction * self.force + np.cos(3 * self.state[0]) * (-self.gravity)
        terminated = car_dynamics(self, push)
        return np.full(self.num_envs, -1.0), terminated

    def _observe(self, rows: IntArray | None) -> NDArray[np.float32]:
        state = self.state if rows is None else self.state[:, rows]
        return state.T.astype(np.float32)

    def _single_env(self, render_mode: str) -> Env[Any, Any]:
        return MountainCarEnv(render_mode=render_mode)

    def _load_state(self, env: Any, row: int) -> None:
        position, velocity = self.state[:, row].tolist()
        env.state = (position, velocity)


def discrete_actions(owner: str, actions: Any, num_envs: int, n: int) -> NDArray[Any]:
    """`actions` as an int array of shape (num_envs,) in [0, n), or a `ValueError`."""
    action = np.asarray(actions)
    if action.shape != (num_envs,) or action.dtype.kind not in "iu":
        raise ValueError(
            f"{owner}.step() needs an int array of shape ({num_envs},) with values in "
            f"[0, {n}), got {action.dtype} of shape {action.shape}"
        )
    if action.dtype.kind == "i":
        action = action.view(UNSIGNED[action.dtype.itemsize])
    if action.max() >= n:
        raise ValueError(f"{owner}.step() got actions outside [0, {n}): {actions!r}")
    return action
