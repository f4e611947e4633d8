"""The protogym plugin of the Box2D envs: registers their ids and nothing more.

protogym imports this module during plugin discovery, so it imports no env module (and so
neither Box2D nor pygame): entry points are strings that `make` resolves on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protogym

if TYPE_CHECKING:
    from protogym.registration import Registry

_ENVS = "protogym_box2d"


@protogym.hookimpl
def protogym_register_envs(registry: Registry) -> None:
    """Registers the Box2D ids with Gymnasium 1.4's limits and thresholds."""
