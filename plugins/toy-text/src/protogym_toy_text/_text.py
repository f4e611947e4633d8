"""Text rendering helpers for the ``ansi`` render mode (no pygame needed)."""

from __future__ import annotations

__all__ = ["ansi"]


def ansi(text: str, code: str) -> str:
    """Wrap `text` in the ANSI SGR escape `code`, e.g. ``"41"`` for a red background.

    The codes match Gymnasium's toy-text output, so ansi frames compare equal.
    """
    return f"\x1b[{code}m{text}\x1b[0m"
