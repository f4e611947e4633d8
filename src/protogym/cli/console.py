"""The rich console the sub-commands print through; rich comes with the `cli` extra."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def console() -> Console:
    try:
        from rich.console import Console
    except ImportError:
        raise SystemExit(
            "the protogym command prints with rich: pip install 'protogym[cli]'"
        ) from None
    return Console(highlight=False)
