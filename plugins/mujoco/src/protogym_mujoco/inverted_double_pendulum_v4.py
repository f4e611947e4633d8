"""InvertedDoublePendulum-v4: Gymnasium 1.4's earlier InvertedDoublePendulum, to the bit.

As `InvertedDoublePendulum-v5` (see `inverted_double_pendulum_v5`) with no arguments but the
rendering ones, Gymnasium's camera, all three clipped constraint forces in the observation
(11 float64), the bonus of 10 (an int) on every step, the falling one included, and an empty
info.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from protogym.spaces import Box
from protogym_mujoco.inverted_double_pendulum_v5 import (
    DEFAULT_CAMERA_CONFIG,
    observation,
    penalties,
)
from protogym_mujoco.keys import Keys, one_axis
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation

__all__ = ["InvertedDoublePendulumEnv"]

_isfinite = np.isfinite
_all = np.logical_and.reduce


class InvertedDoublePendulumEnv(MujocoEnv):
    """Keep both poles up (v4)."""

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
        super().__init__(
            "inverted_double_pendulum.xml",
            5,
            Box(-np.inf, np.inf, (11,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=DEFAULT_CAMERA_CONFIG,
            max_geom=max_geom,
            visual_options=visual_options,
        )
        self._tip = self.data.site_xpos[0]

    def step(self, action: Action) -> tuple[Observation, Any, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not _all(_isfinite(action)):
            self._reject_non_finite(action)
        self.do_simulation(action, self.frame_skip)
        obs = self._get_obs()
        tip = self._tip.copy()
        distance_penalty, velocity_penalty = penalties(tip, self._qvel)
        reward = 10 - distance_penalty - velocity_penalty
        ended = bool(tip[2] <= 1)
        if self.render_mode == "human":
            self.render()
        return obs, reward, ended, False, {}

    def get_keys_to_action(self) -> Keys:
        """`protogym play`: the arrows push the cart with the full force of 1."""
        return one_axis(1.0)

    def _get_obs(self) -> Observation:
        data = self.data
        return observation(self._qpos, self._qvel, data.qfrc_constraint, data.qfrc_constraint.size)

    def reset_model(self) -> Observation:
        self.set_state(
            self.init_qpos + self.np_random.uniform(low=-0.1, high=0.1, size=self.model.nq),
            self.init_qvel + self.np_random.standard_normal(self.model.nv) * 0.1,
        )
        return self._get_obs()
