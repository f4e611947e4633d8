"""HumanoidStandup-v5: the humanoid, lying on the ground, learns to stand up.

Gymnasium 1.4's `HumanoidStandup-v5`, to the bit. Observation (348 float64 by default):
Humanoid-v5's, switched by the same `exclude_*`/`include_*` arguments. Action: 17 float32
torques in [-0.4, 0.4]. Reward, each step: the torso height `qpos[2]` divided by the model's
timestep (not the step's `dt`), minus `ctrl_cost_weight * sum(ctrl**2)` and
`impact_cost_weight * sum(cfrc_ext**2)` (clipped to `impact_cost_range`), plus 1.
`uph_cost_weight` is accepted and, as in Gymnasium 1.4, weighs nothing. It never terminates;
`HumanoidStandup-v5` truncates at 1000 steps.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym_mujoco.humanoid_v5 import (
    DEFAULT_CAMERA_CONFIG as _HUMANOID_CAMERA,
)
from protogym_mujoco.humanoid_v5 import (
    _keep_views,
    _set_humanoid_spaces,
    humanoid_observation,
    observation,
)
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, MujocoEnv, Observation
from protogym_mujoco.terms import clip, control_cost, squared_sum

__all__ = ["DEFAULT_CAMERA_CONFIG", "HumanoidStandupEnv", "observation", "rewards"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {
    **_HUMANOID_CAMERA,
    "lookat": np.array((0.0, 0.0, 0.8925)),
}


def rewards(
    z_after: Any,
    ctrl: NDArray[np.float64],
    cfrc_ext: NDArray[np.float64],
    timestep: float,
    ctrl_cost_weight: float,
    impact_cost_weight: float,
    impact_cost_range: tuple[float, float],
) -> tuple[Any, Any, Any, Any]:
    """`(reward, uph_cost, quad_ctrl_cost, quad_impact_cost)` of a step, from the torso
    height after it and MuJoCo's `ctrl` and `cfrc_ext`."""
    uph_cost = (z_after - 0) / timestep
    quad_ctrl_cost = control_cost(ctrl, ctrl_cost_weight)
    low, high = impact_cost_range
    flat = cfrc_ext.reshape(*cfrc_ext.shape[:-2], -1)
    quad_impact_cost = clip(impact_cost_weight * squared_sum(flat), low, high)
    reward = uph_cost - quad_ctrl_cost - quad_impact_cost + 1
    return reward, uph_cost, quad_ctrl_cost, quad_impact_cost


class HumanoidStandupEnv(MujocoEnv):
    """Stand up from lying down; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "humanoidstandup.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        uph_cost_weight: float = 1,
        ctrl_cost_weight: float = 0.1,
        impact_cost_weight: float = 0.5e-6,
        impact_cost_range: tuple[float, float] = (-np.inf, 10.0),
        reset_noise_scale: float = 1e-2,
        exclude_current_positions_from_observation: bool = True,
        include_cinert_in_observation: bool = True,
        include_cvel_in_observation: bool = True,
        include_qfrc_actuator_in_observation: bool = True,
        include_cfrc_ext_in_observation: bool = True,
        *,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self._uph_cost_weight = uph_cost_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._impact_cost_weight = impact_cost_weight
        self._impact_cost_range = impact_cost_range
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation
        )
        self._include_cinert_in_observation = include_cinert_in_observation
        self._include_cvel_in_observation = include_cvel_in_observation
        self._include_qfrc_actuator_in_observation = include_qfrc_actuator_in_observation
        self._include_cfrc_ext_in_observation = include_cfrc_ext_in_observation
        super().__init__(
            xml_file,
            frame_skip,
            None,
            render_mode=render_mode,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            default_camera_config=default_camera_config,
            max_geom=max_geom,
            visual_options=visual_options,
        )
        _set_humanoid_spaces(self)
        _keep_views(self)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not isfinite(squared_sum(action)):
            self._reject_non_finite(action)
        self.do_simulation(action, self.frame_skip)
        qpos, data = self._qpos, self.data
        reward, uph_cost, quad_ctrl_cost, quad_impact_cost = rewards(
            qpos[2],
            self._ctrl,
            data.cfrc_ext,
            self._option.timestep,
            self._ctrl_cost_weight,
            self._impact_cost_weight,
            self._impact_cost_range,
        )
        info = {
            "x_position": qpos[0],
            "y_position": qpos[1],
            "z_distance_from_origin": qpos[2] - self.init_qpos[2],
            "tendon_length": data.ten_length.copy(),
            "tendon_velocity": data.ten_velocity.copy(),
            "reward_linup": uph_cost,
            "reward_quadctrl": -quad_ctrl_cost,
            "reward_impact": -quad_impact_cost,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, False, False, info

    def _get_obs(self) -> Observation:
        return humanoid_observation(self)

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + self.np_random.uniform(low=-scale, high=scale, size=self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()

    def _get_reset_info(self) -> dict[str, Any]:
        qpos, data = self._qpos, self.data
        return {
            "x_position": qpos[0],
            "y_position": qpos[1],
            "z_distance_from_origin": qpos[2] - self.init_qpos[2],
            "tendon_length": data.ten_length.copy(),
            "tendon_velocity": data.ten_velocity.copy(),
        }
