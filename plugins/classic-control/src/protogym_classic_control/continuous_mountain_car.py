"""MountainCarContinuous: the mountain car with a continuous engine force and an energy cost.

Gymnasium 1.4's `MountainCarContinuous-v0` (constants, spaces, rewards, seeding). Gymnasium
steps this env in float32 arithmetic (its state is a float32 array); here the state is a pair
of Python floats, so the trajectories agree with Gymnasium's to float32 precision (about 1e-5
over a 999-step episode) while each step allocates only the observation array.
"""

from __future__ import annotations

import math
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
    invalid_continuous_action,
    parse_reset_bounds,
    reset_needed,
    warn_no_render_mode,
)

if TYPE_CHECKING:
    from protogym.utils.play import KeyCombination
    from protogym_classic_control.rendering import Canvas

__all__ = ["ContinuousMountainCarEnv", "Continuous_MountainCarEnv"]

_FLOAT32 = np.dtype(np.float32)
# Builds the observation from Python floats; faster than np.array for a few elements.
_fromiter = np.fromiter
_cos = math.cos


class ContinuousMountainCarEnv(Env[NDArray[np.float32], NDArray[np.float32]]):
    """Reach the flag at position 0.45: +100 on arrival, minus 0.1 * force**2 every step.

    Observation (float32): position in [-1.2, 0.6] and velocity in [-0.07, 0.07]. Action: a
    shape-(1,) float32 engine force in [-1, 1]; larger forces are clipped to the bounds, as in
    Gymnasium, while the energy cost uses the force as given. The episode terminates at the
    goal; `MountainCarContinuous-v0` truncates at 999 steps through `make`'s time limit.

    `reset(options={"low": .., "high": ..})` changes the uniform range of the initial position
    (default -0.6..-0.4); the initial velocity is always 0.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    action_space: Box
    observation_space: Box
    render_mode: str | None
    state = StateArray(2)

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        check_render_mode("ContinuousMountainCarEnv", render_mode)
        self.render_mode = render_mode
        self.min_action = -1.0
        self.max_action = 1.0
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = 0.45
        self.goal_velocity = goal_velocity
        self.power = 0.0015

        self.low_state = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high_state = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.action_space = Box(self.min_action, self.max_action, shape=(1,), dtype=np.float32)
        self.observation_space = Box(self.low_state, self.high_state, dtype=np.float32)

        self._state: tuple[float, ...] | None = None
        # the frame size in pixels; set before the first render() for another size
        self.screen_width = 600
        self.screen_height = 400
        self._canvas: Canvas | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        low, high = parse_reset_bounds("ContinuousMountainCarEnv", options, -0.6, -0.4)
        self._state = (float(self.np_random.uniform(low=low, high=high)), 0.0)
        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        return _fromiter(self._state, _FLOAT32), {}

    def step(
        self, action: NDArray[np.float32]
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        # Fast path: a float ndarray of shape (1,) unpacks to one Python float; anything else
        # (lists, other shapes, integer or object dtypes) goes through the full check, and
        # NaN, which fails both bounds tests below, raises before anything changes.
        value: float
        try:
            (value,) = action.tolist()
        except (AttributeError, TypeError, ValueError):
            value = continuous_action("ContinuousMountainCarEnv", action, self.action_space)
        if value.__class__ is not float:
            value = continuous_action("ContinuousMountainCarEnv", action, self.action_space)
        state = self._state
        if state is None:
            raise reset_needed("ContinuousMountainCarEnv")
        position, velocity = state

        min_action = self.min_action
        max_action = self.max_action
        if min_action <= value <= max_action:
            force = value
        elif value > max_action:
            force = max_action
        elif value < min_action:
            force = min_action
        else:
            raise invalid_continuous_action("ContinuousMountainCarEnv", action, self.action_space)
        max_speed = self.max_speed
        min_position = self.min_position
        velocity += force * self.power - 0.0025 * _cos(3 * position)
        if velocity > max_speed:
            velocity = max_speed
        elif velocity < -max_speed:
            velocity = -max_speed
        position += velocity
        if position > self.max_position:
            position = self.max_position
        elif position <= min_position:  # the left wall stops the car
            position = min_position
            if velocity < 0:
                velocity = 0.0

        self._state = state = (position, velocity)
        terminated = position >= self.goal_position and velocity >= self.goal_velocity
        reward = (100.0 if terminated else 0.0) - value * value * 0.1

        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        return _fromiter(state, _FLOAT32), reward, terminated, False, {}

    def render(self) -> NDArray[np.uint8] | None:
        """A (400, 600, 3) uint8 frame in `rgb_array` mode; draws the window in `human`."""
        if self.render_mode is None:
            warn_no_render_mode(
                "ContinuousMountainCarEnv",
                self.spec.id if self.spec else "MountainCarContinuous-v0",
            )
            return None
        if self._state is None:
            raise reset_needed("ContinuousMountainCarEnv")
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

    def get_keys_to_action(self) -> dict[KeyCombination, NDArray[np.float32]]:
        """Keyboard play: arrows apply the full force either way; no key applies none."""
        return {
            (): np.array([0.0], np.float32),
            (KEY_LEFT,): np.array([-1.0], np.float32),
            (KEY_RIGHT,): np.array([1.0], np.float32),
        }

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()


Continuous_MountainCarEnv = ContinuousMountainCarEnv
"""Gymnasium's name for the class."""
