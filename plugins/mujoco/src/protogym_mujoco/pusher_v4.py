"""Pusher-v4, which needs mujoco < 3: making it raises an error that says to use Pusher-v5.

Gymnasium 1.4 refuses `Pusher-v4` on MuJoCo 3 and later, whose physics no longer reproduces
the model's behaviour (Gymnasium issue 950); `Pusher-v5` is the same task on a model fixed for
it. This plugin pins mujoco 4.0.0, so the v4 env is never built here.
"""

from __future__ import annotations

import mujoco

from protogym.error import DependencyNotInstalled
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, MujocoEnv

__all__ = ["PusherEnv"]


class PusherEnv(MujocoEnv):
    """Refuses to be made on mujoco >= 3; see the module docstring."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 20}  # noqa: RUF012

    def __init__(
        self,
        *,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        raise DependencyNotInstalled(
            f"Pusher-v4 runs only on mujoco < 3 and this is mujoco {mujoco.__version__}: "
            "its model does not behave the same on MuJoCo 3 and later (see "
            "https://github.com/Farama-Foundation/Gymnasium/issues/950). Make 'Pusher-v5' "
            "instead, the same task on a model fixed for current MuJoCo."
        )
