"""ANSI colours for terminal text, under Gymnasium's names (`colorize`, `color2num`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["color2num", "colorize"]

color2num: Mapping[str, int] = MappingProxyType(
    {
        "gray": 30,
        "red": 31,
        "green": 32,
        "yellow": 33,
        "blue": 34,
        "magenta": 35,
        "cyan": 36,
        "white": 37,
        "crimson": 38,
    }
)
"""Colour name -> the ANSI foreground code; the background code is 10 more."""


def colorize(string: str, color: str, bold: bool = False, highlight: bool = False) -> str:
    """`string` wrapped in the escape codes that show it in `color` on a terminal.

    `highlight` colours the background instead of the text; `bold` adds bold.
    """
    try:
        code = color2num[color]
    except KeyError:
        raise KeyError(
            f"unknown colour {color!r}; the colours are {', '.join(color2num)}"
        ) from None
    codes = [str(code + 10 if highlight else code)]
    if bold:
        codes.append("1")
    return f"\x1b[{';'.join(codes)}m{string}\x1b[0m"
