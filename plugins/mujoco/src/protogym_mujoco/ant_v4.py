"""Ant-v4: Gymnasium 1.4's earlier Ant, to the bit.

As `Ant-v5` (see `ant_v5`) with a fixed frame skip and forward weight, the torso's
`get_body_com` for the velocity, no reset info, and v4's choices: the contact forces (all 14
bodies, the world included) are observed and cost only with `use_contact_forces=True`, and
then the step's `reward_ctrl` holds minus the contact cost, not the control cost (as in
Gymnasium); `healthy_reward` is earned every step while `terminate_when_unhealthy`.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.ant_v5 import DEFAULT_CAMERA_CONFIG, is_healthy
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, RENDER_MODES, Action, MujocoEnv, Observation
from protogym_mujoco.terms import clip, control_cost, norm, planar_velocity, squared_sum

__all__ = ["AntEnv"]

_concatenate = np.concatenate


class AntEnv(MujocoEnv):
    """Walk forward without falling over (v4)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 20}  # noqa: RUF012

    def __init__(
        self,
        xml_file: str = "ant.xml",
        ctrl_cost_weight: float = 0.5,
        use_contact_forces: bool = False,
        contact_cost_weight: float = 5e-4,
        healthy_reward: float = 1.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (0.2, 1.0),
        contact_force_range: tuple[float, float] = (-1.0, 1.0),
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
        self._ctrl_cost_weight = ctrl_cost_weight
        self._contact_cost_weight = contact_cost_weight
        self._healthy_reward = healthy_reward
        self._terminate_when_unhealthy = terminate_when_unhealthy
        self._healthy_z_range = healthy_z_range
        self._contact_force_range = contact_force_range
        self._reset_noise_scale = reset_noise_scale
        self._use_contact_forces = use_contact_forces
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation
        )
        size = 27 + (0 if exclude_current_positions_from_observation else 2)
        size += 84 if use_contact_forces else 0
        super().__init__(
            xml_file,
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
        self._torso = self.get_body_com("torso")

    @property
    def healthy_reward(self) -> float:
        return float(self.is_healthy or self._terminate_when_unhealthy) * self._healthy_reward

    @property
    def is_healthy(self) -> Any:
        return is_healthy(self._qpos, self._qvel, self._healthy_z_range)

    @property
    def terminated(self) -> bool:
        return not self.is_healthy if self._terminate_when_unhealthy else False

    @property
    def contact_forces(self) -> NDArray[np.float64]:
        low, high = self._contact_force_range
        return clip(self.data.cfrc_ext, low, high)

    @property
    def contact_cost(self) -> Any:
        return self._contact_cost_weight * squared_sum(self.contact_forces.reshape(-1))

    def control_cost(self, action: Any) -> Any:
        return control_cost(action, self._ctrl_cost_weight)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        ctrl_cost = control_cost(action, self._ctrl_cost_weight)
        if not isfinite(ctrl_cost):
            self._reject_non_finite(action)
        xy_before = self._torso[:2].copy()
        self.do_simulation(action, self.frame_skip)
        xy_after = self._torso[:2].copy()
        x_velocity, y_velocity = planar_velocity(xy_before, xy_after, self.dt)
        forward_reward = x_velocity
        healthy = self.is_healthy
        survive = float(healthy or self._terminate_when_unhealthy) * self._healthy_reward
        rewards = forward_reward + survive
        costs = ctrl_cost
        terminated = not healthy if self._terminate_when_unhealthy else False
        observation = self._get_obs()
        info = {
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "reward_survive": survive,
            "x_position": xy_after[0],
            "y_position": xy_after[1],
            "distance_from_origin": norm(xy_after),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "forward_reward": forward_reward,
        }
        if self._use_contact_forces:
            contact_cost = self.contact_cost
            costs += contact_cost
            info["reward_ctrl"] = -contact_cost
        reward = rewards - costs
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, False, info

    def _get_obs(self) -> Observation:
        qpos = self._qpos
        position = qpos[2:] if self._exclude_current_positions_from_observation else qpos
        if self._use_contact_forces:
            return _concatenate((position, self._qvel, self.contact_forces.reshape(-1)))
        return _concatenate((position, self._qvel))

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + scale * self.np_random.standard_normal(self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()
