"""Checks shared by the classic-control envs: reset options and actions.

The envs validate actions on their hot path with one type test and one dict or float check;
the functions here are the slow path that accepts every other valid spelling of an action
(numpy integer scalars, 0-d arrays, lists) and turns everything else into a `ValueError`
that names the action and the action space.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any, SupportsIndex, cast

import numpy as np

from protogym.error import ResetNeeded
from protogym.spaces import Box, Discrete

__all__ = [
    "INT_SCALAR_TYPES",
    "continuous_action",
    "discrete_action",
    "invalid_continuous_action",
    "option_as_float",
    "parse_reset_bounds",
    "reset_needed",
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


def check_render_mode(owner: str, render_mode: str | None) -> None:
    """Every classic-control env renders to 'human' and 'rgb_array'; refuse anything else."""
    if render_mode is not None and render_mode not in ("human", "rgb_array"):
        raise ValueError(
            f"{owner} supports render_mode 'human', 'rgb_array' or None, got {render_mode!r}"
        )


def option_as_float(owner: str, name: str, value: object) -> float:
    """`value` as a float, or a `ValueError` naming the reset option that held it."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(
            f"{owner}.reset() option {name!r} must be a real number, got {value!r} "
            f"({type(value).__name__})"
        )
    number = float(value)
    if number != number:
        raise ValueError(f"{owner}.reset() option {name!r} must be a real number, got nan")
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
