"""Gymnasium's small logger: level-filtered warnings, under the same names.

Messages go through `warnings.warn`, so pytest's `warns`, `-W error` and warning filters
see them as they see any warning. `set_level(ERROR)` (or ``min_level = 40``) silences the
warnings and keeps the errors; `DISABLED` silences both.
"""

from __future__ import annotations

import warnings

__all__ = [
    "DEBUG",
    "DISABLED",
    "ERROR",
    "INFO",
    "WARN",
    "deprecation",
    "error",
    "min_level",
    "set_level",
    "warn",
]

DEBUG = 10
INFO = 20
WARN = 30
ERROR = 40
DISABLED = 50

min_level = WARN
"""Messages below this level are dropped; read at every call, so assigning it works too."""


def set_level(level: int) -> None:
    """Drop every later message below `level` (one of DEBUG, INFO, WARN, ERROR, DISABLED)."""
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError(
            f"set_level takes an int level such as logger.WARN (30) or logger.ERROR (40), "
            f"got {level!r}"
        )
    global min_level
    min_level = level


def warn(
    msg: str, *args: object, category: type[Warning] | None = None, stacklevel: int = 1
) -> None:
    """Warn with ``msg % args`` if warnings are not silenced; `stacklevel` counts from the
    caller, as in `warnings.warn`."""
    if min_level <= WARN:
        text = msg % args if args else msg
        warnings.warn(f"WARN: {text}", category=category, stacklevel=stacklevel + 1)


def deprecation(msg: str, *args: object) -> None:
    """Warn with a `DeprecationWarning` pointing at the caller's caller."""
    warn(msg, *args, category=DeprecationWarning, stacklevel=2)


def error(msg: str, *args: object) -> None:
    """Report an error as a warning if errors are not silenced (nothing is raised)."""
    if min_level <= ERROR:
        text = msg % args if args else msg
        warnings.warn(f"ERROR: {text}", stacklevel=3)
