"""The spaces: what observations and actions look like, with seedable samplers.

The classes load on first access, so ``import protogym`` (which needs only the `Space`
protocol from here) does not pay for numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from protogym.spaces.space import Space

if TYPE_CHECKING:
    from protogym.spaces.base import SpaceBase
    from protogym.spaces.box import Box
    from protogym.spaces.discrete import Discrete

_LAZY: dict[str, str] = {
    "SpaceBase": "protogym.spaces.base",
    "Box": "protogym.spaces.box",
    "Discrete": "protogym.spaces.discrete",
}

__all__ = ["Box", "Discrete", "Space", "SpaceBase"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'protogym.spaces' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
