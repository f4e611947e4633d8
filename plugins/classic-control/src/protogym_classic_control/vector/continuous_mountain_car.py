"""MountainCarContinuous for many cars at once, step for step the single env's arithmetic.

The single env rounds to float32 where Gymnasium's numpy types would (see its module): the
state is float64 until a sub-env's first step and float32 after; a float32 force batch pushes
in float32, a float64 one lifts the step to float64, and a clipped force follows the state.
Here each of those choices is a mask over the batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.spaces import Box, batch_space
from protogym.vector.vector_env import AutoresetMode, ModeT_co
from protogym_classic_control.continuous_mountain_car import (
    KIND_F64,
    KIND_PY,
    ContinuousMountainCarEnv,
    kind_of,
)
from protogym_classic_control.utils import parse_reset_bounds
from protogym_classic_control.vector._base import ClassicVectorEnv, IntArray
from protogym_classic_control.vector.squares import pow_squares


def _round32(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each value rounded to the nearest float32, kept as float64."""
    return values.astype(np.float32).astype(np.float64)


def _round32_where(narrow: NDArray[np.bool_], values: NDArray[np.float64]) -> NDArray[np.float64]:
    """`values` rounded to float32 in the rows where `narrow` holds."""
    if narrow.all():
        return _round32(values)
    return np.where(narrow, _round32(values), values) if narrow.any() else values


def _bound(narrow: NDArray[np.bool_], bound: float) -> NDArray[np.float64]:
    """`bound` as each row compares with it: rounded to float32 where the row is float32."""
    return np.where(narrow, float(np.float32(bound)), bound)

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
        # Whether each sub-env's state is float32 (after a step) or float64 (after reset).
        self._narrow = np.zeros(num_envs, dtype=np.bool_)

    def _reset_rows(self, rows: IntArray, uniforms: NDArray[np.float64],
                    options: dict[str, Any] | None) -> None:
        low, high = parse_reset_bounds("ContinuousMountainCarVectorEnv", options, -0.6, -0.4)
        self.state[0, rows] = low + (high - low) * uniforms[:, 0]
        self.state[1, rows] = 0.0
        self._narrow[rows] = False

    def _physics(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        value = continuous_actions("ContinuousMountainCarVectorEnv", actions, self.num_envs)
        if np.asarray(actions).dtype == np.float32:
            if self._narrow.all():  # every step but a sub-env's first
                terminated = self._move_in_float32(value)
            else:
                terminated = self._move(value, single=True)
            square = value * value  # a float32's square is exact: what math.pow gives
        else:
            terminated = self._move(value, single=False)
            square = pow_squares(value)  # math.pow, as Gymnasium's energy cost
        self._narrow[:] = True
        return np.where(terminated, 100.0, 0.0) - square * 0.1, terminated

    def _move_in_float32(self, value: NDArray[np.float64]) -> NDArray[np.bool_]:
        """The step of float32 cars under float32 forces: numpy's float32 arithmetic itself,
        but for a clipped force's push and a clipped velocity, which are Python floats."""
        f32 = np.float32
        position = self.state[0].astype(f32)
        velocity = self.state[1].astype(f32)
        force = np.clip(value, self.min_action, self.max_action)
        clipped = force != value
        slope = 0.0025 * np.cos((3 * position).astype(np.float64))
        push = force.astype(f32) * f32(self.power) - slope.astype(f32)
        if clipped.any():
            push = np.where(clipped, (force * self.power - slope).astype(f32), push)
        velocity = velocity + push
        limit = f32(self.max_speed)
        velocity_python = np.abs(velocity) > limit
        velocity = np.clip(velocity, -limit, limit)  # the Python bound, rounded for the sum
        position = np.clip(position + velocity, f32(self.min_position), f32(self.max_position))
        stopped = (position == f32(self.min_position)) & (velocity < 0)
        velocity = np.where(stopped, f32(0.0), velocity)
        terminated: NDArray[np.bool_] = position >= f32(self.goal_position)  # clipped: alike
        self.state[0] = position
        self.state[1] = velocity
        if terminated.any():
            velocity_python |= stopped
            exact = np.where(velocity_python & ~stopped, np.copysign(self.max_speed, velocity),
                             velocity)
            terminated &= self._fast_enough(exact, ~velocity_python, velocity_python)
        return terminated

    def _move(self, value: NDArray[np.float64], single: bool) -> NDArray[np.bool_]:
        """Any other step: each operation in the type numpy gives it in the row, as masks."""
        narrow = self._narrow
        position, velocity = self.state[0], self.state[1]
        force = np.clip(value, self.min_action, self.max_action)
        clipped = force != value

        # velocity += force * power - 0.0025 * cos(3 * position)
        slope = 0.0025 * np.cos(_round32_where(narrow, 3 * position))
        push = force * self.power - slope  # a float64 or a clipped force pushes in float64
        if single:
            push32 = _round32(_round32(force * float(np.float32(self.power))) - _round32(slope))
            push = np.where(clipped, push, push32)
            velocity_narrow = narrow  # a float32 or a clipped push keeps the state's type
        else:
            velocity_narrow = narrow & clipped  # a float64 push makes the row float64
        velocity = _round32_where(velocity_narrow, velocity + _round32_where(velocity_narrow, push))

        # clip the velocity (to a Python float, which takes the other operand's type), move
        limit = _bound(velocity_narrow, self.max_speed)
        velocity_python = (velocity > limit) | (velocity < -limit)
        velocity = np.where(velocity_python, np.copysign(self.max_speed, velocity), velocity)
        position_narrow = narrow & (velocity_narrow | velocity_python)
        position = _round32_where(
            position_narrow, position + _round32_where(position_narrow, velocity)
        )

        # the walls, compared in the position's type; the left one stops the car
        low = _bound(position_narrow, self.min_position)
        at_low = position < low
        at_high = position > _bound(position_narrow, self.max_position)
        position = np.where(at_low, self.min_position, position)
        position = np.where(at_high, self.max_position, position)
        position_narrow &= ~(at_low | at_high)
        stopped = (at_low | (position == low)) & (velocity < 0)
        velocity = np.where(stopped, 0.0, velocity)
        velocity_python |= stopped

        terminated = position >= _bound(position_narrow, self.goal_position)
        if terminated.any():
            terminated &= self._fast_enough(
                velocity, velocity_narrow & ~velocity_python, velocity_python
            )
        self.state[0] = _round32(position)
        self.state[1] = _round32(velocity)
        return terminated

    def _fast_enough(
        self,
        velocity: NDArray[np.float64],
        velocity32: NDArray[np.bool_],
        velocity_python: NDArray[np.bool_],
    ) -> NDArray[np.bool_]:
        """`velocity >= goal_velocity`, compared in float32 where numpy would."""
        goal = self.goal_velocity
        kind = kind_of(goal)
        in_float32 = velocity32 if kind == KIND_PY else velocity32 | velocity_python
        if kind == KIND_F64:
            in_float32 = np.zeros_like(in_float32)
        compared = np.where(in_float32, _round32(velocity), velocity)
        return compared >= np.where(in_float32, float(np.float32(goal)), float(goal))

    def _observe(self, rows: IntArray | None) -> NDArray[np.float32]:
        state = self.state if rows is None else self.state[:, rows]
        return state.T.astype(np.float32)

    def _single_env(self, render_mode: str) -> Env[Any, Any]:
        return ContinuousMountainCarEnv(render_mode=render_mode)

    def _load_state(self, env: Any, row: int) -> None:
        position, velocity = self.state[:, row].tolist()
        env.state = (position, velocity)
