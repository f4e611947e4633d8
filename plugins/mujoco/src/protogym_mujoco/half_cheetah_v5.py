"""HalfCheetah-v5: a planar two-legged runner that earns its forward speed.

Gymnasium 1.4's `HalfCheetah-v5`, to the bit. Observation (17 float64, 18 with
`exclude_current_positions_from_observation=False`): the joint positions without the
forward position `qpos[0]`, then every joint velocity. Action: 6 float32 torques in [-1, 1]
(thigh, shin, foot of the back leg, then of the front leg). Reward:
`forward_reward_weight * x_velocity - ctrl_cost_weight * sum(action**2)`, with the forward
velocity measured over the step's `dt` (0.05 s by default: 5 MuJoCo steps of 0.01 s). It never
terminates; `HalfCheetah-v5` truncates at 1000 steps.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import mujoco
import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, DataGather, MujocoEnv, Observation
from protogym_mujoco.terms import control_cost, planar_velocity, squared_sum_of

__all__ = ["DEFAULT_CAMERA_CONFIG", "HalfCheetahEnv", "observation", "rewards"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"distance": 4.0}

_concatenate = np.concatenate
_mj_step = mujoco.mj_step
_rne_post_constraint = mujoco.mj_rnePostConstraint


def observation(
    qpos: NDArray[np.float64], qvel: NDArray[np.float64], exclude_x: bool = True
) -> NDArray[np.float64]:
    """The positions (without the forward one when `exclude_x`) then the velocities."""
    return _concatenate((qpos[..., 1:] if exclude_x else qpos, qvel), axis=-1)


def rewards(
    x_before: Any, x_after: Any, ctrl_cost: Any, dt: float, forward_reward_weight: float
) -> tuple[Any, Any, Any]:
    """`(reward, x_velocity, forward_reward)` of a step that cost `ctrl_cost`
    (`terms.control_cost` of its action)."""
    x_velocity = planar_velocity(x_before, x_after, dt)
    forward_reward = forward_reward_weight * x_velocity
    return forward_reward - ctrl_cost, x_velocity, forward_reward


class HalfCheetahEnv(MujocoEnv):
    """Run forward as fast as possible; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "half_cheetah.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
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
        self._gather_observation = DataGather((self._qpos[skipped:], self._qvel))
        self._squared_sum = squared_sum_of(self.model.nu)

    def control_cost(self, action: Any) -> Any:
        return control_cost(action, self._ctrl_cost_weight)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        # This step is the hot path: terms.control_cost (see squared_sum_of), do_simulation
        # and `rewards` are inlined, and the observation is gathered in one call.
        ctrl_cost = self._ctrl_cost_weight * self._squared_sum(action)
        if not isfinite(ctrl_cost):
            self._reject_non_finite(action)
        qpos, model, data, frame_skip = self._qpos, self.model, self.data, self.frame_skip
        x_before = qpos[0]
        self._ctrl[...] = action
        _mj_step(model, data, frame_skip)
        _rne_post_constraint(model, data)
        x_after = qpos[0]
        # `rewards`, inlined.
        x_velocity = (x_after - x_before) / (self._option.timestep * frame_skip)
        forward_reward = self._forward_reward_weight * x_velocity
        reward = forward_reward - ctrl_cost
        info = {
            "x_position": x_after,
            "x_velocity": x_velocity,
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
        }
        if self.render_mode == "human":
            self.render()
        return self._gather_observation(), reward, False, False, info

    def _get_obs(self) -> Observation:
        return self._gather_observation()

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + scale * self.np_random.standard_normal(self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()

    def _get_reset_info(self) -> dict[str, Any]:
        return {"x_position": self._qpos[0]}
