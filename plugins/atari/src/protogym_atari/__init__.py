"""protogym's Atari 2600 envs on the Arcade Learning Environment (ale-py), without Gymnasium.

Importing this package loads neither ale-py nor a ROM, so plugin discovery stays cheap:
`AtariEnv` and `ContinuousAtariEnv` are imported from `protogym_atari.atari_env` on first
access.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from protogym_atari.atari_env import AtariEnv, ContinuousAtariEnv

__all__ = ["AtariEnv", "ContinuousAtariEnv"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("protogym_atari.atari_env"), name)
    raise AttributeError(f"module 'protogym_atari' has no attribute {name!r}")
