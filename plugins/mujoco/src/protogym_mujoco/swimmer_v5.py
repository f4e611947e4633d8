"""Swimmer-v5: a three-segment snake in a viscous fluid that swims forward.

Gymnasium 1.4's `Swimmer-v5`, to the bit. Observation (8 float64, 10 with
`exclude_current_positions_from_observation=False`): the joint positions without the tip's x
and y, then the joint velocities. Action: 2 float32 torques in [-1, 1] on the two rotors.
Reward: `forward_reward_weight * x_velocity - ctrl_cost_weight * sum(action**2)`, with the
velocity of the front tip (`qpos[0:2]`) over the step's `dt`. It never terminates;
`Swimmer-v5` truncates at 1000 steps.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.keys import Keys, two_axes
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, MujocoEnv, Observation
from protogym_mujoco.terms import control_cost, norm, planar_velocity

__all__ = ["SwimmerEnv", "observation", "rewards"]

_concatenate = np.concatenate


def observation(
    qpos: NDArray[np.float64], qvel: NDArray[np.float64], exclude_xy: bool = True
) -> NDArray[np.float64]:
    """Positions (without the tip's x and y when `exclude_xy`), then velocities."""
    return _concatenate((qpos[..., 2:] if exclude_xy else qpos, qvel), axis=-1)


def rewards(
    xy_before: NDArray[np.float64],
    xy_after: NDArray[np.float64],
    ctrl_cost: Any,
    dt: float,
    forward_reward_weight: float,
) -> tuple[Any, Any, Any]:
    """`(reward, xy_velocity, forward_reward)` of a step that cost `ctrl_cost`."""
    xy_velocity = planar_velocity(xy_before, xy_after, dt)
    forward_reward = forward_reward_weight * xy_velocity[..., 0]
    return forward_reward - ctrl_cost, xy_velocity, forward_reward


class SwimmerEnv(MujocoEnv):
    """Swim forward as fast as possible; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "swimmer.xml",
        frame_skip: int = 4,
        default_camera_config: dict[str, Any] | None = None,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-4,
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
        skipped = 2 * bool(exclude_current_positions_from_observation)
        size = self.model.nq + self.model.nv - skipped
        self.observation_space = Box(-np.inf, np.inf, (size,), np.float64)
        self.observation_structure = {
            "skipped_qpos": skipped,
            "qpos": self.model.nq - skipped,
            "qvel": self.model.nv,
        }

    def control_cost(self, action: Any) -> Any:
        return control_cost(action, self._ctrl_cost_weight)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        ctrl_cost = control_cost(action, self._ctrl_cost_weight)
        if not isfinite(ctrl_cost):
            self._reject_non_finite(action)
        qpos = self._qpos
        xy_before = qpos[0:2].copy()
        self.do_simulation(action, self.frame_skip)
        xy_after = qpos[0:2].copy()
        reward, xy_velocity, forward_reward = rewards(
            xy_before, xy_after, ctrl_cost, self.dt, self._forward_reward_weight
        )
        x_velocity, y_velocity = xy_velocity
        info = {
            "x_position": xy_after[0],
            "y_position": xy_after[1],
            "distance_from_origin": norm(xy_after),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, False, False, info

    def get_keys_to_action(self) -> Keys:
        """`protogym play`: left/right turn the first rotor, down/up the second."""
        return two_axes(1.0, 1.0)

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
        return {
            "x_position": qpos[0],
            "y_position": qpos[1],
            "distance_from_origin": norm(qpos[0:2]),
        }
