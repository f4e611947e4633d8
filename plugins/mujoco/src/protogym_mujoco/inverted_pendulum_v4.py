"""InvertedPendulum-v4: Gymnasium 1.4's earlier InvertedPendulum, to the bit.

As `InvertedPendulum-v5` (see `inverted_pendulum_v5`) with no arguments but the rendering
ones, a reward of 1.0 on every step (the falling one included) and an empty info.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from protogym.spaces import Box
from protogym_mujoco.inverted_pendulum_v5 import DEFAULT_CAMERA_CONFIG, observation, terminated
from protogym_mujoco.keys import Keys, one_axis
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation

__all__ = ["InvertedPendulumEnv"]

_isfinite = np.isfinite
_all = np.logical_and.reduce


class InvertedPendulumEnv(MujocoEnv):
    """Keep the pole up (v4)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 25}  # noqa: RUF012

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
        super().__init__(
            "inverted_pendulum.xml",
            2,
            Box(-np.inf, np.inf, (4,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=DEFAULT_CAMERA_CONFIG,
            max_geom=max_geom,
            visual_options=visual_options,
        )

    def step(self, action: Action) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not _all(_isfinite(action)):
            self._reject_non_finite(action)
        self.do_simulation(action, self.frame_skip)
        obs = self._get_obs()
        ended = bool(terminated(obs))
        if self.render_mode == "human":
            self.render()
        return obs, 1.0, ended, False, {}

    def get_keys_to_action(self) -> Keys:
        """`protogym play`: the arrows push the cart with the full force of 3."""
        return one_axis(3.0)

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel)

    def reset_model(self) -> Observation:
        qpos = self.init_qpos + self.np_random.uniform(size=self.model.nq, low=-0.01, high=0.01)
        qvel = self.init_qvel + self.np_random.uniform(size=self.model.nv, low=-0.01, high=0.01)
        self.set_state(qpos, qvel)
        return self._get_obs()
