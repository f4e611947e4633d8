"""HalfCheetah-v4: Gymnasium 1.4's earlier HalfCheetah, to the bit.

As `HalfCheetah-v5` (see `half_cheetah_v5`) with a fixed model and frame skip, no reset info,
and the forward reward in the step's info as `reward_run`.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np

from protogym.spaces import Box
from protogym_mujoco.half_cheetah_v5 import DEFAULT_CAMERA_CONFIG, observation, rewards
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation
from protogym_mujoco.terms import control_cost

__all__ = ["HalfCheetahEnv"]


class HalfCheetahEnv(MujocoEnv):
    """Run forward as fast as possible (v4)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 20}  # noqa: RUF012

    def __init__(
        self,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 0.1,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        *,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation
        )
        size = 17 if exclude_current_positions_from_observation else 18
        super().__init__(
            "half_cheetah.xml",
            5,
            Box(-np.inf, np.inf, (size,), np.float64),
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=DEFAULT_CAMERA_CONFIG,
            max_geom=max_geom,
            visual_options=visual_options,
        )

    def control_cost(self, action: Any) -> Any:
        return control_cost(action, self._ctrl_cost_weight)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        ctrl_cost = control_cost(action, self._ctrl_cost_weight)
        if not isfinite(ctrl_cost):
            self._reject_non_finite(action)
        qpos = self._qpos
        x_before = qpos[0]
        self.do_simulation(action, self.frame_skip)
        x_after = qpos[0]
        reward, x_velocity, forward_reward = rewards(
            x_before, x_after, ctrl_cost, self.dt, self._forward_reward_weight
        )
        info = {
            "x_position": x_after,
            "x_velocity": x_velocity,
            "reward_run": forward_reward,
            "reward_ctrl": -ctrl_cost,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, False, False, info

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel, self._exclude_current_positions_from_observation)

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + scale * self.np_random.standard_normal(self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()
