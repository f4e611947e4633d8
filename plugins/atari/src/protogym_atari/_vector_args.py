"""Checks of `AtariVectorEnv`'s arguments and the continuous-action table, kept out of its
module so that the env reads as the step and reset it is.

ale-py's C++ vector interface takes plain ints and floats and either throws from a worker
thread or misbehaves on bad ones, so each argument is checked here first and a bad one
gets a `ValueError` that names it and what it may be.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym_atari.games import ROMS, suggest_games

__all__ = [
    "check_game", "check_int", "check_probability", "check_threshold", "direction_table",
]

_OWNER = "AtariVectorEnv"


def check_int(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    """`value` as an int in ``[minimum, maximum]``, or a ValueError naming `name`."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{_OWNER}: {name} must be an int, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f"at least {minimum}" if maximum is None else f"in [{minimum}, {maximum}]"
        raise ValueError(f"{_OWNER}: {name} must be {bounds}, got {value}")
    return int(value)


def check_probability(name: str, value: object) -> float:
    """`value` as a float in [0, 1], or a ValueError naming `name`."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{_OWNER}: {name} must be a number in [0, 1], got {value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{_OWNER}: {name} must be in [0, 1], got {value}")
    return float(value)


def check_game(game: object) -> str:
    """`game` if it is one of ale-py's ROM names (snake_case), else a ValueError with the
    closest names: ids say ``SpaceInvaders``, the ROM is ``space_invaders``."""
    if isinstance(game, str) and game in ROMS:
        return game
    hint = ""
    if isinstance(game, str):
        close = suggest_games(game)
        hint = f"; did you mean {', '.join(repr(name) for name in close)}?" if close else ""
    raise ValueError(
        f"{_OWNER}: game must be an ale-py ROM name in snake_case (e.g. 'pong', "
        f"'space_invaders'), got {game!r}{hint}"
    )


def direction_table(action_names: list[str]) -> NDArray[np.int32]:
    """Index into the full action set of each (horizontal, vertical, fire) unit action.

    Entry ``[h + 1, v + 1, f]`` is the action for horizontal ``h`` (-1 left, 1 right),
    vertical ``v`` (-1 down, 1 up) and fire ``f``: its name is the vertical word, the
    horizontal word and FIRE joined (``UPLEFTFIRE``), or NOOP when all are empty.
    """
    index = {name: position for position, name in enumerate(action_names)}
    table = np.zeros((3, 3, 2), dtype=np.int32)
    for h, horizontal in enumerate(("LEFT", "", "RIGHT")):
        for v, vertical in enumerate(("DOWN", "", "UP")):
            for fire, pressed in enumerate(("", "FIRE")):
                table[h, v, fire] = index[vertical + horizontal + pressed or "NOOP"]
    return table


def check_threshold(value: Any) -> float:
    """The continuous-action threshold: a finite number."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(
            f"{_OWNER}: continuous_action_threshold must be a number, got {value!r}"
        )
    if not math.isfinite(float(value)):
        raise ValueError(
            f"{_OWNER}: continuous_action_threshold must be finite, got {value!r}"
        )
    return float(value)
