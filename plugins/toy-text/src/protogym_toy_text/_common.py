"""Small pieces every toy-text env shares: the action type, argument checks, ANSI colour."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from protogym.error import UnsupportedMode

__all__ = ["Action", "ansi", "check_render_mode", "warn_without_render_mode"]

Action = int | np.integer[Any]
"""What a `Discrete` action space accepts: a Python int or a numpy integer."""


def check_render_mode(env_name: str, render_mode: str | None, modes: Sequence[str]) -> None:
    """Reject an unknown render mode at construction rather than at the first `render()`."""
    if render_mode is not None and render_mode not in modes:
        raise UnsupportedMode(
            f"{env_name} does not support render_mode={render_mode!r}; "
            f"choose one of {list(modes)} or None"
        )


def warn_without_render_mode(env_id: str) -> None:
    """What `render()` does when the env was made without a render mode: warn, as Gymnasium."""
    warnings.warn(
        f"render() was called on {env_id} without a render_mode; pass one when making the "
        f'env, e.g. protogym.make("{env_id}", render_mode="rgb_array")',
        UserWarning,
        stacklevel=3,
    )


def ansi(text: str, code: str) -> str:
    """Wrap `text` in the ANSI SGR escape `code`, e.g. ``"41"`` for a red background.

    The codes match Gymnasium's toy-text output, so ansi frames compare equal.
    """
    return f"\x1b[{code}m{text}\x1b[0m"
