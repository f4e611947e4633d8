"""Checks shared by the classic-control envs: reset options and actions.

The envs validate actions on their hot path with one type test and one dict or float check;
the functions here are the slow path that accepts every other valid spelling of an action
(numpy integer scalars, 0-d arrays, lists) and turns everything else into a `ValueError`
that names the action and the action space.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any, Protocol, SupportsIndex, cast, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from protogym.error import ResetNeeded, UnsupportedMode
from protogym.spaces import Box, Discrete

__all__ = [
    "INT_SCALAR_TYPES",
    "StateArray",
    "continuous_action",
    "discrete_action",
    "invalid_continuous_action",
    "maybe_parse_reset_bounds",
    "option_as_float",
    "parse_reset_bounds",
    "reset_needed",
    "verify_number_and_cast",
    "warn_no_render_mode",
]

INT_SCALAR_TYPES: frozenset[type] = frozenset(
    {
        int,
        np.int8,
        np.int16,
        np.int32,
        np.int64,
        np.uint8,
        np.uint16,
        np.uint32,
        np.uint64,
    }
)
"""Exact types that the envs' fast path accepts as a discrete action without `contains`."""


class _HasState(Protocol):
    _state: tuple[float, ...] | None


class StateArray:
    """The env's `state` as Gymnasium shows it: a float64 array (None before `reset`).

    The envs keep their state as a tuple of Python floats in ``_state``, which their `step`
    reads and writes directly; this descriptor converts on access only. Reading gives a new
    array (changing it in place does not move the env); assigning any sequence of the right
    length of real numbers sets the state, as assigning ``env.unwrapped.state`` does in
    Gymnasium.
    """

    def __init__(self, size: int) -> None:
        self.size = size

    @overload
    def __get__(self, env: None, owner: type[Any]) -> StateArray: ...

    @overload
    def __get__(self, env: _HasState, owner: type[Any]) -> NDArray[np.float64] | None: ...

    def __get__(
        self, env: _HasState | None, owner: type[Any]
    ) -> StateArray | NDArray[np.float64] | None:
        if env is None:
            return self
        state = env._state
        return None if state is None else np.array(state, dtype=np.float64)

    def __set__(self, env: _HasState, value: ArrayLike | None) -> None:
        if value is None:
            env._state = None
            return
        try:
            array = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            array = np.asarray(None)
        if array.shape != (self.size,):
            raise ValueError(
                f"{type(env).__name__}.state must be {self.size} real numbers, got {value!r}"
            )
        env._state = tuple(array.tolist())


def check_render_mode(owner: str, render_mode: str | None) -> None:
    """Every classic-control env renders to 'human' and 'rgb_array'; refuse anything else."""
    if render_mode is not None and render_mode not in ("human", "rgb_array"):
        raise UnsupportedMode(
            f"{owner} supports render_mode 'human', 'rgb_array' or None, got {render_mode!r}"
        )


def verify_number_and_cast(x: object) -> float:
    """`x` as a float, if it is one real number: a Python or numpy int or float, or a
    0-d array of one; otherwise a `ValueError` (Gymnasium's name for this check)."""
    return _real_number(x, "the value")


def maybe_parse_reset_bounds(
    options: Mapping[str, Any] | None, default_low: float, default_high: float
) -> tuple[float, float]:
    """The `(low, high)` range of an initial state: ``options["low"/"high"]`` where given,
    the defaults elsewhere (Gymnasium's name for `parse_reset_bounds`)."""
    return parse_reset_bounds("env", options, default_low, default_high)


def option_as_float(owner: str, name: str, value: object) -> float:
    """`value` as a float, or a `ValueError` naming the reset option that held it."""
    return _real_number(value, f"{owner}.reset() option {name!r}")


def _real_number(value: object, what: str) -> float:
    """`value` as a float when it is one real number (not a bool, a string or NaN)."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        value = value[()]
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(
            f"{what} must be a real number, got {value!r} ({type(value).__name__}); pass an "
            "int, a float or a 0-d numeric array"
        )
    number = float(value)
    if number != number:
        raise ValueError(f"{what} must be a real number, got nan")
    return number


def parse_reset_bounds(
    owner: str,
    options: Mapping[str, Any] | None,
    default_low: float,
    default_high: float,
) -> tuple[float, float]:
    """The `(low, high)` range of the initial state: `options["low"/"high"]` or the defaults.

    Like Gymnasium, custom bounds may put the initial state outside the observation space.
    """
    if options is None:
        return default_low, default_high
    low = option_as_float(owner, "low", options["low"]) if "low" in options else default_low
    high = option_as_float(owner, "high", options["high"]) if "high" in options else default_high
    if low > high:
        raise ValueError(
            f"{owner}.reset() got options low={low!r} > high={high!r}; "
            "the initial-state range needs low <= high"
        )
    return low, high


def discrete_action(owner: str, action: object, space: Discrete) -> int:
    """The index (from 0) of a `Discrete` action, or a `ValueError` naming action and space."""
    if space.contains(action):
        return int(cast("SupportsIndex", action)) - int(space.start)
    first = int(space.start)
    raise ValueError(
        f"{owner}.step() got the invalid action {action!r} ({type(action).__name__}): it is "
        f"not in the action space {space!r}; pass an integer in [{first}, {first + int(space.n)})"
    )


def continuous_action(owner: str, action: object, space: Box) -> float:
    """The single value of a shape-(1,) `Box` action, as a float.

    Values outside the bounds are accepted and clipped by the env, as Gymnasium does; a wrong
    shape, a non-numeric dtype or NaN raise a `ValueError` naming the action and the space.
    """
    try:
        array = np.asarray(action)
    except (TypeError, ValueError):
        array = np.asarray(None)
    if array.shape == (1,) and array.dtype.kind in "iuf":
        value = float(array[0])
        if value == value:
            return value
    raise invalid_continuous_action(owner, action, space)


def invalid_continuous_action(owner: str, action: object, space: Box) -> ValueError:
    """The error for an action that is not a shape-(1,) real number array."""
    return ValueError(
        f"{owner}.step() got the invalid action {action!r} ({type(action).__name__}): the "
        f"action space is {space!r}; pass a float array of shape (1,) with no NaN, e.g. "
        "np.array([0.5], dtype=np.float32) (values outside the bounds are clipped)"
    )


def reset_needed(owner: str) -> ResetNeeded:
    """The error for `step` or `render` before the first `reset`."""
    return ResetNeeded(
        f"{owner} has no state yet: call env.reset() before env.step() or env.render()"
    )


def warn_no_render_mode(owner: str, env_id: str) -> None:
    """Tells a user who calls `render()` on an env made without a render mode how to ask."""
    warnings.warn(
        f"{owner}.render() was called but the env has no render_mode; make it with one, "
        f'e.g. protogym.make("{env_id}", render_mode="rgb_array")',
        UserWarning,
        stacklevel=3,
    )


# pygame 2 (SDL2) key codes of the arrow keys, for the envs' `get_keys_to_action`: the
# numbers, so that asking for the mapping does not import pygame.
KEY_LEFT = 0x40000050
KEY_RIGHT = 0x4000004F
