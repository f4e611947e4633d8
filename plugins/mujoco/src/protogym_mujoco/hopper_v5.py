"""Hopper-v5: a one-legged planar robot that hops forward without falling.

Gymnasium 1.4's `Hopper-v5`, to the bit. Observation (11 float64, 12 with
`exclude_current_positions_from_observation=False`): the joint positions without the forward
position `qpos[0]` (height, torso angle, thigh, leg, foot), then the joint velocities clipped to
[-10, 10]. Action: 3 float32 torques in [-1, 1] (thigh, leg, foot). Reward:
`forward_reward_weight * x_velocity + healthy_reward` (while healthy) minus
`ctrl_cost_weight * sum(action**2)`. Healthy: every position after the height and angle, and
every velocity, inside `healthy_state_range`, the height `qpos[1]` inside `healthy_z_range`
and the angle `qpos[2]` inside `healthy_angle_range` (all open intervals); unhealthy ends the
episode when `terminate_when_unhealthy`. `Hopper-v5` truncates at 1000 steps.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import mujoco
import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, DataGather, MujocoEnv, Observation
from protogym_mujoco.terms import clip, control_cost, planar_velocity, squared_sum_of

__all__ = ["DEFAULT_CAMERA_CONFIG", "HopperEnv", "is_healthy", "observation", "rewards"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {
    "trackbodyid": 2,
    "distance": 3.0,
    "lookat": np.array((0.0, 0.0, 1.15)),
    "elevation": -20.0,
}

_concatenate = np.concatenate
_all = np.logical_and.reduce
_count_nonzero = np.count_nonzero
_less = np.less
_minimum = np.minimum
_maximum = np.maximum
_mj_step = mujoco.mj_step
_rne_post_constraint = mujoco.mj_rnePostConstraint


def observation(
    qpos: NDArray[np.float64], qvel: NDArray[np.float64], exclude_x: bool = True
) -> NDArray[np.float64]:
    """Positions (without the forward one when `exclude_x`), then velocities clipped to
    [-10, 10]. Walker2d's observation is built the same way."""
    return _concatenate((qpos[..., 1:] if exclude_x else qpos, clip(qvel, -10, 10)), axis=-1)


def is_healthy(
    qpos: NDArray[np.float64],
    qvel: NDArray[np.float64],
    healthy_state_range: tuple[float, float],
    healthy_z_range: tuple[float, float],
    healthy_angle_range: tuple[float, float],
) -> Any:
    """Whether the hopper is healthy (a numpy bool, or one per row of a batch)."""
    min_state, max_state = healthy_state_range
    min_z, max_z = healthy_z_range
    min_angle, max_angle = healthy_angle_range
    rest = qpos[..., 2:]
    state = _all((min_state < rest) & (rest < max_state), -1) & _all(
        (min_state < qvel) & (qvel < max_state), -1
    )
    z, angle = qpos[..., 1], qpos[..., 2]
    return state & (min_z < z) & (z < max_z) & (min_angle < angle) & (angle < max_angle)


def rewards(
    x_before: Any,
    x_after: Any,
    survive: Any,
    ctrl_cost: Any,
    dt: float,
    forward_reward_weight: float,
) -> tuple[Any, Any, Any]:
    """`(reward, x_velocity, forward_reward)` of a step that earned `survive` for staying
    healthy and cost `ctrl_cost`. Walker2d's reward is the same."""
    x_velocity = planar_velocity(x_before, x_after, dt)
    forward_reward = forward_reward_weight * x_velocity
    return (forward_reward + survive) - ctrl_cost, x_velocity, forward_reward


class HopperEnv(MujocoEnv):
    """Hop forward without falling; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "hopper.xml",
        frame_skip: int = 4,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
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
        self._velocities_from = self.model.nq - skipped  # where obs's velocities start
        self._gather_observation = DataGather((self._qpos[skipped:], self._qvel))
        self._gather_state = DataGather((self._qpos[2:], self._qvel))  # what must stay bounded
        self._squared_sum = squared_sum_of(self.model.nu)

    @property
    def healthy_reward(self) -> Any:
        return self.is_healthy * self._healthy_reward

    @property
    def is_healthy(self) -> bool:
        """`is_healthy` of the module, in fewer numpy calls: the single env's hot path."""
        min_state, max_state = self._healthy_state_range
        state = self._gather_state()
        inside = _less(min_state, state)
        inside &= _less(state, max_state)
        if _count_nonzero(inside) != inside.size:
            return False
        min_z, max_z = self._healthy_z_range
        min_angle, max_angle = self._healthy_angle_range
        qpos = self._qpos
        z, angle = qpos[1], qpos[2]
        return bool(min_z < z < max_z and min_angle < angle < max_angle)

    def control_cost(self, action: Any) -> Any:
        return control_cost(action, self._ctrl_cost_weight)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        # The hot path: terms.control_cost (see squared_sum_of) and do_simulation inlined.
        ctrl_cost = self._ctrl_cost_weight * self._squared_sum(action)
        if not isfinite(ctrl_cost):
            self._reject_non_finite(action)
        qpos, model, data, frame_skip = self._qpos, self.model, self.data, self.frame_skip
        x_before = qpos[0]
        self._ctrl[...] = action
        _mj_step(model, data, frame_skip)
        _rne_post_constraint(model, data)
        x_after = qpos[0]
        healthy = self.is_healthy
        survive = healthy * self._healthy_reward
        reward, x_velocity, forward_reward = rewards(
            x_before,
            x_after,
            survive,
            ctrl_cost,
            self._option.timestep * frame_skip,
            self._forward_reward_weight,
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
        """`observation`, gathered in one call and its velocities clipped in place."""
        obs = self._gather_observation()
        velocities = obs[self._velocities_from :]
        _maximum(velocities, -10, out=velocities)
        _minimum(velocities, 10, out=velocities)
        return obs

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + self.np_random.uniform(low=-scale, high=scale, size=self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()

    def _get_reset_info(self) -> dict[str, Any]:
        qpos = self._qpos
        return {"x_position": qpos[0], "z_distance_from_origin": qpos[1] - self.init_qpos[1]}
