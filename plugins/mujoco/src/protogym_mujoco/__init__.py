"""protogym's MuJoCo envs: Gymnasium 1.4's Ant, HalfCheetah, Hopper, Humanoid,
HumanoidStandup, InvertedPendulum, InvertedDoublePendulum, Pusher, Reacher, Swimmer and
Walker2d (v5 and v4), with the same dynamics to the bit on mujoco==4.0.0.

The modules follow `gymnasium.envs.mujoco`: `half_cheetah_v5.HalfCheetahEnv`,
`mujoco_env.MujocoEnv`, `mujoco_rendering.MujocoRenderer`, ... This package imports none of
them on its own, so plugin discovery never loads MuJoCo; `MujocoEnv` and `MujocoRenderer` are
loaded when first asked for, as in ``from protogym_mujoco import MujocoEnv``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protogym.utils.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from protogym_mujoco.mujoco_env import MujocoEnv
    from protogym_mujoco.mujoco_rendering import MujocoRenderer

__all__ = ["MujocoEnv", "MujocoRenderer"]
__version__ = "0.1.0"

__getattr__, __dir__ = lazy_exports(
    globals(), {"MujocoEnv": "mujoco_env", "MujocoRenderer": "mujoco_rendering"}
)
