"""MountainCarContinuous for many cars at once, step for step the single env's arithmetic."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.spaces import Box, batch_space
from protogym.vector.vector_env import AutoresetMode, ModeT_co
from protogym_classic_control.continuous_mountain_car import ContinuousMountainCarEnv
from protogym_classic_control.utils import parse_reset_bounds
from protogym_classic_control.vector._base import ClassicVectorEnv, IntArray
from protogym_classic_control.vector.mountain_car import car_dynamics

__all__ = ["ContinuousMountainCarVectorEnv", "continuous_actions"]


def continuous_actions(owner: str, actions: Any, num_envs: int) -> NDArray[np.float64]:
    """A (num_envs, 1) real action batch as float64 values (exact), or a `ValueError`."""
    action = np.asarray(actions)
    if action.shape != (num_envs, 1) or action.dtype.kind not in "iuf":
        raise ValueError(
            f"{owner}.step() needs a float array of shape ({num_envs}, 1), got "
            f"{action.dtype} of shape {action.shape}"
        )
    values = action[:, 0].astype(np.float64)
    if np.isnan(values).any():
        raise ValueError(f"{owner}.step() got NaN actions: {actions!r}")
    return values


class ContinuousMountainCarVectorEnv(ClassicVectorEnv[NDArray[np.float32], ModeT_co]):
    """`num_envs` continuous mountain cars; sub-env i matches the single env seeded `seed + i`.

    Actions are a float array of shape (num_envs, 1); values outside [-1, 1] are clipped for
    the push but, as in the single env, the energy cost uses the unclipped value.
    """

    draws_per_reset = 1
    render_fps = 30

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 999,
        render_mode: str | None = None,
        goal_velocity: float = 0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.min_action = -1.0
        self.max_action = 1.0
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = 0.45
        self.goal_velocity = goal_velocity
        self.power = 0.0015
        low = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        high = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.single_action_space = Box(self.min_action, self.max_action, shape=(1,),
                                       dtype=np.float32)
        self.single_observation_space = Box(low, high, dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.state = np.zeros((2, num_envs), dtype=np.float64)

    def _reset_rows(self, rows: IntArray, uniforms: NDArray[np.float64],
                    options: dict[str, Any] | None) -> None:
        low, high = parse_reset_bounds("ContinuousMountainCarVectorEnv", options, -0.6, -0.4)
        self.state[0, rows] = low + (high - low) * uniforms[:, 0]
        self.state[1, rows] = 0.0

    def _physics(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        value = continuous_actions("ContinuousMountainCarVectorEnv", actions, self.num_envs)
        force = np.clip(value, self.min_action, self.max_action)
        push = force * self.power - 0.0025 * np.cos(3 * self.state[0])
        terminated = car_dynamics(self, push)
        rewards = np.where(terminated, 100.0, 0.0) - value * value * 0.1
        return rewards, terminated

    def _observe(self, rows: IntArray | None) -> NDArray[np.float32]:
        state = self.state if rows is None else self.state[:, rows]
        return state.T.astype(np.float32)

    def _single_env(self, render_mode: str) -> Env[Any, Any]:
        return ContinuousMountainCarEnv(render_mode=render_mode)

    def _load_state(self, env: Any, row: int) -> None:
        position, velocity = self.state[:, row].tolist()
        env.state = (position, velocity)
