"""protogym's MuJoCo envs: Gymnasium 1.4's Ant, HalfCheetah, Hopper, Humanoid,
HumanoidStandup, InvertedPendulum, InvertedDoublePendulum, Pusher, Reacher, Swimmer and
Walker2d (v5 and v4), with the same dynamics to the bit on mujoco==4.0.0.

The modules follow `gymnasium.envs.mujoco`: `half_cheetah_v5.HalfCheetahEnv`,
`mujoco_env.MujocoEnv`, `mujoco_rendering.MujocoRenderer`, ... This package imports nothing on
its own, so plugin discovery never loads MuJoCo; `MujocoEnv` and `MujocoRenderer` are loaded
when first asked for, as in ``from protogym_mujoco import MujocoEnv``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from protogym_mujoco.mujoco_env import MujocoEnv
    from protogym_mujoco.mujoco_rendering import MujocoRenderer

__all__ = ["MujocoEnv", "MujocoRenderer"]
__version__ = "0.1.0"

_LAZY = {
    "MujocoEnv": "protogym_mujoco.mujoco_env",
    "MujocoRenderer": "protogym_mujoco.mujoco_rendering",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'protogym_mujoco' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
