"""Reacher-v4: Gymnasium 1.4's earlier Reacher, to the bit.

As `Reacher-v5` (see `reacher_v5`) with no arguments but the rendering ones, unit weights, all
three coordinates from the target to the fingertip in the observation (11 float64), and v4's
reward, computed from the positions before the step's physics (Gymnasium's order).
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np

from protogym.spaces import Box
from protogym_mujoco.keys import Keys, two_axes
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation
from protogym_mujoco.reacher_v5 import DEFAULT_CAMERA_CONFIG, observation
from protogym_mujoco.terms import norm, squared_sum

__all__ = ["ReacherEnv"]


class ReacherEnv(MujocoEnv):
    """Reach the target (v4)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 50}  # noqa: RUF012

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
            "reacher.xml",
            2,
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
        self._fingertip = self.get_body_com("fingertip")
        self._target = self.get_body_com("target")

    def step(self, action: Action) -> tuple[Observation, Any, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        squares = squared_sum(action)
        if not isfinite(squares):
            self._reject_non_finite(action)
        reward_dist = -norm(self._fingertip - self._target)
        reward_ctrl = -squares
        reward = reward_dist + reward_ctrl
        self.do_simulation(action, self.frame_skip)
        if self.render_mode == "human":
            self.render()
        obs = self._get_obs()
        return obs, reward, False, False, {"reward_dist": reward_dist, "reward_ctrl": reward_ctrl}

    def get_keys_to_action(self) -> Keys:
        """`protogym play`: left/right turn the shoulder, down/up the elbow."""
        return two_axes(1.0, 1.0)

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel, self._fingertip, self._target, offset_axes=3)

    def reset_model(self) -> Observation:
        qpos = self.np_random.uniform(low=-0.1, high=0.1, size=self.model.nq) + self.init_qpos
        while True:
            self.goal = self.np_random.uniform(low=-0.2, high=0.2, size=2)
            if norm(self.goal) < 0.2:
                break
        qpos[-2:] = self.goal
        qvel = self.init_qvel + self.np_random.uniform(low=-0.005, high=0.005, size=self.model.nv)
        qvel[-2:] = 0
        self.set_state(qpos, qvel)
        return self._get_obs()
