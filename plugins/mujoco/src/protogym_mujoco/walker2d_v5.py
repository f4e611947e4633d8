"""Walker2d-v5: a two-legged planar robot that walks forward without falling.

Gymnasium 1.4's `Walker2d-v5` (on its model `walker2d_v5.xml`, whose two feet have the same
friction), to the bit. Observation (17 float64, 18 with
`exclude_current_positions_from_observation=False`): the joint positions without the forward
position `qpos[0]`, then the joint velocities clipped to [-10, 10]. Action: 6 float32 torques
in [-1, 1] (thigh, leg, foot of the right leg, then of the left). Reward:
`forward_reward_weight * x_velocity + healthy_reward` (while healthy) minus
`ctrl_cost_weight * sum(action**2)`. Healthy: the height `qpos[1]` inside `healthy_z_range`
and the torso angle `qpos[2]` inside `healthy_angle_range` (open intervals); unhealthy ends the
episode when `terminate_when_unhealthy`. `Walker2d-v5` truncates at 1000 steps.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.hopper_v5 import observation, rewards
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, MujocoEnv, Observation
from protogym_mujoco.terms import control_cost

__all__ = ["DEFAULT_CAMERA_CONFIG", "Walker2dEnv", "is_healthy", "observation", "rewards"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {
    "trackbodyid": 2,
    "distance": 4.0,
    "lookat": np.array((0.0, 0.0, 1.15)),
    "elevation": -20.0,
}


def is_healthy(
    qpos: NDArray[np.float64],
    healthy_z_range: tuple[float, float],
    healthy_angle_range: tuple[float, float],
) -> Any:
    """Whether the walker is healthy (a numpy bool, or one per row of a batch)."""
    min_z, max_z = healthy_z_range
    min_angle, max_angle = healthy_angle_range
    z, angle = qpos[..., 1], qpos[..., 2]
    return (min_z < z) & (z < max_z) & (min_angle < angle) & (angle < max_angle)


class Walker2dEnv(MujocoEnv):
    """Walk forward without falling; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "walker2d_v5.xml",
        frame_skip: int = 4,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-3,
        healthy_reward: float = 1.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (0.8, 2.0),
        healthy_angle_range: tuple[float, float] = (-1.0, 1.0),
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
        self._healthy_z_range = healthy_z_range
        self._healthy_angle_range = healthy_angle_range
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation
        )
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
        skipped = 1 * bool(exclude_current_positions_from_observation)
        size = self.model.nq + self.model.nv - skipped
        self.observation_space = Box(-np.inf, np.inf, (size,), np.float64)
        self.observation_structure = {
            "skipped_qpos": skipped,
            "qpos": self.model.nq - skipped,
            "qvel": self.model.nv,
        }

    @property
    def healthy_reward(self) -> Any:
        return self.is_healthy * self._healthy_reward

    @property
    def is_healthy(self) -> Any:
        return is_healthy(self._qpos, self._healthy_z_range, self._healthy_angle_range)

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
        survive = healthy * self._healthy_reward
        reward, x_velocity, forward_reward = rewards(
            x_before, x_after, survive, ctrl_cost, self.dt, self._forward_reward_weight
        )
        terminated = not healthy and self._terminate_when_unhealthy
        info = {
            "x_position": x_after,
            "z_distance_from_origin": qpos[1] - self.init_qpos[1],
            "x_velocity": x_velocity,
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "reward_survive": survive,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, terminated, False, info

    def _get_obs(self) -> Observation:
        return observation(self._qpos, self._qvel, self._exclude_current_positions_from_observation)

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + self.np_random.uniform(low=-scale, high=scale, size=self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()

    def _get_reset_info(self) -> dict[str, Any]:
        qpos = self._qpos
        return {"x_position": qpos[0], "z_distance_from_origin": qpos[1] - self.init_qpos[1]}
