"""The protogym plugin of the Atari envs: registers their ids and nothing more.

protogym imports this module during plugin discovery, so it imports neither ale-py nor any
env module: entry points are strings that `make` resolves on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protogym

if TYPE_CHECKING:
    from protogym.registration import Registry


@protogym.hookimpl
def protogym_register_envs(registry: Registry) -> None:
    """Registers the Atari ids (filled in as the envs land)."""
