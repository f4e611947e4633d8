"""MountainCar: drive an underpowered car up a hill by first rocking it back and forth.

Moore's (1990) mountain car with Gymnasium 1.4's discrete actions, constants, rewards and
seeding: under the same seed and actions the trajectory equals Gymnasium's. The state lives
in Python floats and each step allocates only the observation array.
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

__all__ = ["MountainCarEnv"]

_FLOAT32 = np.dtype(np.float32)
# Builds the observation from Python floats; faster than np.array for a few elements.
_fromiter = np.fromiter
_DIRECTIONS: dict[int | np.integer[Any], int] = {0: -1, 1: 0, 2: 1}
class MountainCarEnv(Env[NDArray[np.float32], int | np.integer[Any]]):
    """Reach the flag at position 0.5; -1 reward per step until then.

    Observation (float32): position in [-1.2, 0.6] and velocity in [-0.07, 0.07]. Actions:
    0 accelerates left, 1 does nothing, 2 accelerates right. The episode terminates when the
    car reaches `goal_position` with at least `goal_velocity`; `MountainCar-v0` truncates at
    200 steps through `make`'s time limit.

    `reset(options={"low": .., "high": ..})` changes the uniform range of the initial position
    (default -0.6..-0.4); the initial velocity is always 0.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    action_space: Discrete
    observation_space: Box
    render_mode: str | None
    state = StateArray(2)

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        check_render_mode("MountainCarEnv", render_mode)
        self.render_mode = render_mode
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = 0.5
        self.goal_velocity = goal_velocity
        self.force = 0.001
        self.gravity = 0.0025

        self.low = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.action_space = Discrete(3)
        self.observation_space = Box(self.low, self.high, dtype=np.float32)

        self._state: tuple[float, ...] | None = None
        # the frame size in pixels; set before the first render() for another size
        self.screen_width = 600
        self.screen_height = 400
        self._canvas: Canvas | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        low, high = parse_reset_bounds("MountainCarEnv", options, -0.6, -0.4)
        self._state = (float(self.np_random.uniform(low=low, high=high)), 0.0)
        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        return _fromiter(self._state, _FLOAT32), {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        direction = _DIRECTIONS.get(action) if action.__class__ in INT_SCALAR_TYPES else None
        if direction is None:
            direction = _DIRECTIONS[discrete_action("MountainCarEnv", action, self.action_space)]
        state = self._state
        if state is None:
            raise reset_needed("MountainCarEnv")
        position, velocity = state

        max_speed = self.max_speed
        min_position = self.min_position
        velocity += direction * self.force + math.cos(3 * position) * (-self.gravity)
        if velocity > max_speed:
            velocity = max_speed
        elif velocity < -max_speed:
            velocity = -max_speed
        position += velocity
        if position > self.max_position:
            position = self.max_position
        elif position < min_position:
            position = min_position
        if position == min_position and velocity < 0:
            velocity = 0.0
        self._state = state = (position, velocity)
        terminated = position >= self.goal_position and velocity >= self.goal_velocity

        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        return _fromiter(state, _FLOAT32), -1.0, terminated, False, {}

    def render(self) -> NDArray[np.uint8] | None:
        """A (400, 600, 3) uint8 frame in `rgb_array` mode; draws the window in `human`."""
        if self.render_mode is None:
            warn_no_render_mode("MountainCarEnv", self.spec.id if self.spec else "MountainCar-v0")
            return None
        if self._state is None:
            raise reset_needed("MountainCarEnv")
        from protogym_classic_control import rendering

        if self._canvas is None:
            self._canvas = rendering.Canvas(
                self.screen_width, self.screen_height, self.render_mode,
                self.metadata["render_fps"],
            )
        surface = self._canvas.begin()
        rendering.draw_mountain_car(
            self._canvas,
            surface,
            self._state[0],
            self.min_position,
            self.max_position,
            self.goal_position,
        )
        return self._canvas.finish()

    def get_keys_to_action(self) -> dict[KeyCombination, int]:
        """Keyboard play: left arrow pushes left, right arrow right, neither or both coast."""
        return {(): 1, (KEY_LEFT,): 0, (KEY_RIGHT,): 2, (KEY_RIGHT, KEY_LEFT): 1}

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()
