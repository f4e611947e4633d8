"""Humanoid-v4: Gymnasium 1.4's earlier Humanoid, to the bit.

As `Humanoid-v5` (see `humanoid_v5`) with a fixed model and frame skip, no contact cost, no
reset info, v4's info names (`reward_linvel`, `reward_quadctrl`, `reward_alive`; `x_position`
and `y_position` of the centre of mass), a survival reward earned every step while
`terminate_when_unhealthy`, and an observation (376 float64) that keeps the world body's rows
and the free joint's actuator forces.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np

from protogym.spaces import Box
from protogym_mujoco.humanoid_v5 import DEFAULT_CAMERA_CONFIG, mass_center
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation
from protogym_mujoco.terms import control_cost, norm, planar_velocity, squared_sum

__all__ = ["HumanoidEnv", "full_observation"]

_concatenate = np.concatenate


def full_observation(data: Any, exclude_xy: bool = True) -> Observation:
    """v4's observation: positions (without x, y when `exclude_xy`), velocities, and every
    row of `cinert`, `cvel`, `qfrc_actuator` and `cfrc_ext`, flattened."""
    qpos = data.qpos
    return _concatenate(
        (
            qpos[2:] if exclude_xy else qpos,
            data.qvel,
            data.cinert.reshape(-1),
            data.cvel.reshape(-1),
            data.qfrc_actuator,
            data.cfrc_ext.reshape(-1),
        )
    )


class HumanoidEnv(MujocoEnv):
    """Walk forward without falling (v4)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 67}  # noqa: RUF012

    def __init__(
        self,
        forward_reward_weight: float = 1.25,
        ctrl_cost_weight: float = 0.1,
        healthy_reward: float = 5.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (1.0, 2.0),
        reset_noise_scale: float = 1e-2,
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
        self._healthy_z_range = healthy_z_range
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation
        )
        size = 376 if exclude_current_positions_from_observation else 378
        super().__init__(
            "humanoid.xml",
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

    @property
    def healthy_reward(self) -> float:
        return float(self.is_healthy or self._terminate_when_unhealthy) * self._healthy_reward

    @property
    def is_healthy(self) -> Any:
        min_z, max_z = self._healthy_z_range
        z = self._qpos[2]
        return (min_z < z) & (z < max_z)

    @property
    def terminated(self) -> bool:
        return not self.is_healthy if self._terminate_when_unhealthy else False

    def control_cost(self, action: Any) -> Any:
        return control_cost(self._ctrl, self._ctrl_cost_weight)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not isfinite(squared_sum(action)):
            self._reject_non_finite(action)
        model, data = self.model, self.data
        xy_before = mass_center(model.body_mass, data.xipos)
        self.do_simulation(action, self.frame_skip)
        xy_after = mass_center(model.body_mass, data.xipos)
        x_velocity, y_velocity = planar_velocity(xy_before, xy_after, self.dt)
        ctrl_cost = control_cost(self._ctrl, self._ctrl_cost_weight)
        forward_reward = self._forward_reward_weight * x_velocity
        healthy = self.is_healthy
        survive = float(healthy or self._terminate_when_unhealthy) * self._healthy_reward
        reward = (forward_reward + survive) - ctrl_cost
        terminated = not healthy if self._terminate_when_unhealthy else False
        info = {
            "reward_linvel": forward_reward,
            "reward_quadctrl": -ctrl_cost,
            "reward_alive": survive,
            "x_position": xy_after[0],
            "y_position": xy_after[1],
            "distance_from_origin": norm(xy_after),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "forward_reward": forward_reward,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, terminated, False, info

    def _get_obs(self) -> Observation:
        return full_observation(self.data, self._exclude_current_positions_from_observation)

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + self.np_random.uniform(low=-scale, high=scale, size=self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()
