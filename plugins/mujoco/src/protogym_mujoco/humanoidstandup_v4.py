"""HumanoidStandup-v4: Gymnasium 1.4's earlier HumanoidStandup, to the bit.

As `HumanoidStandup-v5` (see `humanoidstandup_v5`) with no arguments but the rendering ones,
no reset info, Humanoid-v4's 376-float observation, and the impact cost capped with Python's
`min(cost, 10)`, so a capped step reports `reward_impact` as the int -10, as in Gymnasium.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np

from protogym.spaces import Box
from protogym_mujoco.humanoid_v4 import full_observation
from protogym_mujoco.humanoidstandup_v5 import DEFAULT_CAMERA_CONFIG
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation
from protogym_mujoco.terms import control_cost, squared_sum

__all__ = ["HumanoidStandupEnv"]


class HumanoidStandupEnv(MujocoEnv):
    """Stand up from lying down (v4)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 67}  # noqa: RUF012

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
            "humanoidstandup.xml",
            5,
            Box(-np.inf, np.inf, (376,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=DEFAULT_CAMERA_CONFIG,
            max_geom=max_geom,
            visual_options=visual_options,
        )

    def step(self, action: Action) -> tuple[Observation, Any, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not isfinite(squared_sum(action)):
            self._reject_non_finite(action)
        self.do_simulation(action, self.frame_skip)
        data = self.data
        uph_cost = (self._qpos[2] - 0) / self._option.timestep
        quad_ctrl_cost = control_cost(self._ctrl, 0.1)
        quad_impact_cost = min(5e-7 * squared_sum(data.cfrc_ext.reshape(-1)), 10)
        reward = uph_cost - quad_ctrl_cost - quad_impact_cost + 1
        info = {
            "reward_linup": uph_cost,
            "reward_quadctrl": -quad_ctrl_cost,
            "reward_impact": -quad_impact_cost,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, False, False, info

    def _get_obs(self) -> Observation:
        return full_observation(self.data)

    def reset_model(self) -> Observation:
        c = 0.01
        self.set_state(
            self.init_qpos + self.np_random.uniform(low=-c, high=c, size=self.model.nq),
            self.init_qvel + self.np_random.uniform(low=-c, high=c, size=self.model.nv),
        )
        return self._get_obs()
