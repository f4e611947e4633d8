"""protogym's Atari 2600 envs on the Arcade Learning Environment (ale-py), without Gymnasium.

Importing this package loads neither ale-py nor a ROM, so plugin discovery stays cheap:
`AtariEnv` and `ContinuousAtariEnv` are imported from `protogym_atari.atari_env` on first
access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protogym.utils.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from protogym_atari.atari_env import AtariEnv, ContinuousAtariEnv

__all__ = ["AtariEnv", "ContinuousAtariEnv"]
__version__ = "0.1.0"

__getattr__, __dir__ = lazy_exports(
    globals(), {"AtariEnv": "atari_env", "ContinuousAtariEnv": "atari_env"}
)
