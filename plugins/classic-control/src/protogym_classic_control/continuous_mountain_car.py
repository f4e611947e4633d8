"""MountainCarContinuous: the mountain car with a continuous engine force and an energy cost.

Gymnasium 1.4's `MountainCarContinuous-v0` (constants, spaces, rewards, seeding), step for step
to the bit. Gymnasium's state is a numpy array, float64 after `reset` and float32 after a step,
and numpy's promotion rules decide which operation rounds to float32: a float32 force makes
the push float32, a float64 one lifts the step to float64, and a clipped force (the Python
float bound) follows the state. Here the state is a pair of Python floats with a record of
which numpy type Gymnasium would hold each in, and a one-float buffer rounds to float32 exactly
where numpy would, so each step still allocates only the observation array.
"""

from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING, Any, ClassVar, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from protogym import Env
from protogym.spaces import Box
from protogym_classic_control.utils import (
    KEY_LEFT,
    KEY_RIGHT,
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

# The numpy type Gymnasium's step holds a number in. numpy promotes to the larger kind, and an
# operation whose result is KIND_F32 rounds to float32 (a Python operand is rounded to it first).
KIND_PY = 0  # a Python float or int: it takes the other operand's type
KIND_F32 = 1  # numpy float32
KIND_F64 = 2  # numpy float64, or an integer type (which meets float64 first)


def _round32(value: float) -> float:
    """`value` rounded to the nearest float32 (slow path only; `step` inlines this)."""
    return array("f", [value])[0]


def kind_of(value: object) -> int:
    """The kind numpy arithmetic gives `value` in Gymnasium's step."""
    if value.__class__ in (float, int):
        return KIND_PY
    return KIND_F32 if isinstance(value, np.float32) else KIND_F64


class _Constant:
    """A constant of the dynamics, under Gymnasium's attribute name.

    `step` reads the constants and their float32 roundings from two tuples, which setting the
    attribute updates, so a changed constant is rounded once rather than at every step.
    """

    def __init__(self, index: int) -> None:
        self.index = index

    @overload
    def __get__(self, env: None, owner: type[Any]) -> _Constant: ...

    @overload
    def __get__(self, env: ContinuousMountainCarEnv, owner: type[Any]) -> float: ...

    def __get__(self, env: ContinuousMountainCarEnv | None, owner: type[Any]) -> _Constant | float:
        return self if env is None else env._constants[self.index]

    def __set__(self, env: ContinuousMountainCarEnv, value: float) -> None:
        values = list(env._constants)
        values[self.index] = value
        env._constants = tuple(values)
        env._constants32 = tuple(array("f", values))


class _State:
    """The env's `state` as Gymnasium holds it: float64 after `reset`, float32 after a step.

    Reading gives a new array (None before `reset`); assigning a sequence of two real numbers
    sets the state, and each number keeps the type it has (a float32 array's are float32, a
    tuple's Python floats stay Python floats), which decides how the next step rounds.
    """

    @overload
    def __get__(self, env: None, owner: type[Any]) -> _State: ...

    @overload
    def __get__(
        self, env: ContinuousMountainCarEnv, owner: type[Any]
    ) -> NDArray[np.floating[Any]] | None: ...

    def __get__(
        self, env: ContinuousMountainCarEnv | None, owner: type[Any]
    ) -> _State | NDArray[np.floating[Any]] | None:
        if env is None:
            return self
        if env._state is None:
            return None
        dtype = np.float32 if env._kinds == (KIND_F32, KIND_F32) else np.float64
        return np.array(env._state, dtype=dtype)

    def __set__(self, env: ContinuousMountainCarEnv, value: ArrayLike | None) -> None:
        if value is None:
            env._state = None
            return
        items = list(value) if isinstance(value, list | tuple) else None
        try:
            array = np.asarray(value if items is None else [float(x) for x in items])
        except (TypeError, ValueError):
            array = np.asarray(None)
        if array.shape != (2,) or array.dtype.kind not in "iuf":
            raise ValueError(
                f"ContinuousMountainCarEnv.state must be 2 real numbers, got {value!r}"
            )
        if items is None:
            kind = KIND_F32 if array.dtype == np.float32 else KIND_F64
            env._kinds = (kind, kind)
        else:
            env._kinds = (kind_of(items[0]), kind_of(items[1]))
        position, velocity = array.astype(np.float64).tolist()
        env._state = (position, velocity)


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
    state = _State()
    power = _Constant(0)
    max_speed = _Constant(1)
    min_position = _Constant(2)
    max_position = _Constant(3)
    goal_position = _Constant(4)
    _constants: tuple[float, ...] = (0.0015, 0.07, -1.2, 0.6, 0.45)
    _constants32: tuple[float, ...] = tuple(array("f", _constants))

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

        self._state: tuple[float, float] | None = None
        self._kinds = (KIND_F64, KIND_F64)  # the kinds of position and velocity in Gymnasium's step
        # A one-float32 buffer: storing a float in it and reading it back rounds to float32.
        self._float32 = array("f", [0.0])
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
        self._kinds = (KIND_F64, KIND_F64)  # Gymnasium: a float64 array until the first step
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
            kind = KIND_F32 if action.dtype is _FLOAT32 else KIND_F64
        except (AttributeError, TypeError, ValueError):
            value, kind = self._slow_action(action)
        if value.__class__ is not float:
            value, kind = self._slow_action(action)
        state = self._state
        if state is None:
            raise reset_needed("ContinuousMountainCarEnv")
        position, velocity = state
        position_kind, velocity_kind = self._kinds
        rounded = self._float32  # rounded[0] = x; x = rounded[0] rounds x to float32

        # Gymnasium's min(max(force, low), high): a clipped force is the bound, a Python float.
        if self.min_action <= value <= self.max_action:
            force = value
        elif value > self.max_action:
            force, kind = self.max_action, KIND_PY
        elif value < self.min_action:
            force, kind = self.min_action, KIND_PY
        else:
            raise invalid_continuous_action("ContinuousMountainCarEnv", action, self.action_space)
        power, max_speed, low, high, goal = self._constants
        power32, max_speed32, low32, high32, goal32 = self._constants32

        # velocity += force * power - 0.0025 * cos(3 * position)
        angle = 3 * position
        if position_kind == KIND_F32:
            rounded[0] = angle
            angle = rounded[0]
        slope = 0.0025 * _cos(angle)  # a Python float
        if kind == KIND_F32:
            rounded[0] = force * power32
            push = rounded[0]
            rounded[0] = slope
            rounded[0] = push - rounded[0]
            push = rounded[0]
        else:
            push = force * power - slope
        # the sum's type is the larger kind; a Python operand of a float32 sum is rounded first
        if velocity_kind < kind:
            if velocity_kind == KIND_PY and kind == KIND_F32:
                rounded[0] = velocity
                velocity = rounded[0]
            velocity_kind = kind
        elif velocity_kind == KIND_F32 and kind == KIND_PY:
            rounded[0] = push
            push = rounded[0]
        if velocity_kind == KIND_F32:
            rounded[0] = velocity + push
            velocity = rounded[0]
            limit = max_speed32
        else:
            velocity = velocity + push
            limit = max_speed
        if velocity > limit:
            velocity, velocity_kind = max_speed, KIND_PY
        elif velocity < -limit:
            velocity, velocity_kind = -max_speed, KIND_PY

        # position += velocity, the same way; then the walls, compared in the position's type
        move = velocity
        if position_kind < velocity_kind:
            if position_kind == KIND_PY and velocity_kind == KIND_F32:
                rounded[0] = position
                position = rounded[0]
            position_kind = velocity_kind
        elif position_kind == KIND_F32 and velocity_kind == KIND_PY:
            rounded[0] = velocity
            move = rounded[0]
        if position_kind == KIND_F32:
            rounded[0] = position + move
            position = rounded[0]
            low_limit, high_limit, goal_limit = low32, high32, goal32
        else:
            position = position + velocity
            low_limit, high_limit, goal_limit = low, high, goal
        if position > high_limit:
            position, position_kind, goal_limit = high, KIND_PY, goal
        elif position < low_limit:
            position, position_kind, low_limit, goal_limit = low, KIND_PY, low, goal
        if position == low_limit and velocity < 0:  # the left wall stops the car
            velocity, velocity_kind = 0.0, KIND_PY

        terminated = position >= goal_limit and self._fast_enough(velocity, velocity_kind)
        # Gymnasium's math.pow(action[0], 2); a float32's square is exact, so that needs no pow
        square = value * value if kind == KIND_F32 else value**2
        reward = (100.0 if terminated else 0.0) - square * 0.1

        if position_kind != KIND_F32:
            rounded[0] = position
            position = rounded[0]
        if velocity_kind != KIND_F32:
            rounded[0] = velocity
            velocity = rounded[0]
        self._state = state = (position, velocity)
        self._kinds = (KIND_F32, KIND_F32)
        if self.render_mode is not None and self.render_mode == "human":
            self.render()
        return _fromiter(state, _FLOAT32), reward, terminated, False, {}

    def _slow_action(self, action: object) -> tuple[float, int]:
        """The force of any other valid action, and the kind Gymnasium's `action[0]` has."""
        value = continuous_action("ContinuousMountainCarEnv", action, self.action_space)
        if isinstance(action, np.ndarray):
            return value, KIND_F32 if action.dtype == np.float32 else KIND_F64
        return value, kind_of(action[0])  # type: ignore[index]

    def _fast_enough(self, velocity: float, velocity_kind: int) -> bool:
        """`velocity >= goal_velocity`, compared as numpy compares the two."""
        goal_velocity = self.goal_velocity
        if max(velocity_kind, kind_of(goal_velocity)) == KIND_F32:
            return _round32(velocity) >= _round32(float(goal_velocity))
        return bool(velocity >= goal_velocity)

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
