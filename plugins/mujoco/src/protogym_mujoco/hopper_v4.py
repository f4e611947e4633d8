"""Hopper-v4: Gymnasium 1.4's earlier Hopper, to the bit.

As `Hopper-v5` (see `hopper_v5`) with a fixed model and frame skip, no reset info, only the
position and velocity in the step's info, and v4's survival reward: `healthy_reward` every
step, even an unhealthy one, while `terminate_when_unhealthy` (which ends that episode
anyway); without termination only healthy steps earn it.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np

from protogym.spaces import Box
from protogym_mujoco.hopper_v5 import DEFAULT_CAMERA_CONFIG, is_healthy, observation, rewards
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation
from protogym_mujoco.terms import control_cost

__all__ = ["HopperEnv"]


class HopperEnv(MujocoEnv):
    """Hop forward without falling (v4)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 125}  # noqa: RUF012

    def __init__(
        self,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-3,
        healthy_reward: float = 1.0,
        terminate_when_unhealthy: bool = True,
        healthy_state_range: tuple[float, float] = (-100.0, 100.0),
        healthy_z_range: tuple[float, float] = (0.7, float("inf")),
        healthy_angle_range: tuple[float, float] = (-0.2, 0.2),
        reset_noise_scale: float = 5e-3,
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
        self._healthy_reward = healthy_reward
        self._terminate_when_unhealthy = terminate_when_unhealthy
        self._healthy_state_range = healthy_state_range
        self._healthy_z_range = healthy_z_range
        self._healthy_angle_range = healthy_angle_range
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation
        )
        size = 11 if exclude_current_positions_from_observation else 12
        super().__init__(
            "hopper.xml",
            4,
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

    @property
    def healthy_reward(self) -> float:
        return float(self.is_healthy or self._terminate_when_unhealthy) * self._healthy_reward

    @property
    def is_healthy(self) -> bool:
        return bool(
            is_healthy(
                self._qpos,
                self._qvel,
                self._healthy_state_range,
                self._healthy_z_range,
                self._healthy_angle_range,
            )
        )

    @property
    def terminated(self) -> bool:
        return not self.is_healthy if self._terminate_when_unhealthy else False

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
        healthy = self.is_healthy
        survive = float(healthy or self._terminate_when_unhealthy) * self._healthy_reward
        reward, x_velocity, _ = rewards(
            x_before, x_after, survive, ctrl_cost, self.dt, self._forward_reward_weight
        )
        terminated = not healthy if self._terminate_when_unhealthy else False
        if self.render_mode == "human":
            self.render()
        info = {"x_position": x_after, "x_velocity": x_velocity}
        return self._get_obs(), reward, terminated, False, info

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel, self._exclude_current_positions_from_observation)

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + self.np_random.uniform(low=-scale, high=scale, size=self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()
