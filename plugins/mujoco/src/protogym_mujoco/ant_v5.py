"""Ant-v5: a four-legged robot on a plane that earns its forward speed while staying up.

Gymnasium 1.4's `Ant-v5`, to the bit. Observation (105 float64 by default): the joint
positions without the torso's x and y (`exclude_current_positions_from_observation`), every
joint velocity, and the external contact forces of the 13 bodies after the world, clipped to
`contact_force_range` (`include_cfrc_ext_in_observation`). Action: 8 float32 hip and ankle
torques in [-1, 1]. Reward: `forward_reward_weight * x_velocity` of `main_body` plus
`healthy_reward` while healthy, minus `ctrl_cost_weight * sum(action**2)` and
`contact_cost_weight * sum(clipped contact forces**2)`. Healthy: every `qpos`/`qvel` finite and
the torso's height within `healthy_z_range`; unhealthy ends the episode when
`terminate_when_unhealthy`. `Ant-v5` truncates at 1000 steps.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import mujoco
import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, DataGather, MujocoEnv, Observation
from protogym_mujoco.terms import clip, control_cost, norm, planar_velocity, squared_sum

__all__ = ["DEFAULT_CAMERA_CONFIG", "AntEnv", "is_healthy", "observation", "rewards"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"distance": 4.0}

_concatenate = np.concatenate
_isfinite = np.isfinite
_all = np.logical_and.reduce
_add = np.add.reduce
_square = np.square
_count_nonzero = np.count_nonzero
_mj_step = mujoco.mj_step
_rne_post_constraint = mujoco.mj_rnePostConstraint
_TRUE, _FALSE = np.True_, np.False_


def is_healthy(
    qpos: NDArray[np.float64], qvel: NDArray[np.float64], healthy_z_range: tuple[float, float]
) -> Any:
    """Every position and velocity finite, and the torso's height `qpos[2]` in the range."""
    min_z, max_z = healthy_z_range
    z = qpos[..., 2]
    finite = _all(_isfinite(qpos), -1) & _all(_isfinite(qvel), -1)
    return finite & (min_z <= z) & (z <= max_z)


def observation(
    qpos: NDArray[np.float64],
    qvel: NDArray[np.float64],
    contact_forces: NDArray[np.float64] | None,
    exclude_xy: bool = True,
) -> NDArray[np.float64]:
    """Positions (without x, y when `exclude_xy`), velocities, then the clipped contact forces
    of every body but the world (when given)."""
    position = qpos[..., 2:] if exclude_xy else qpos
    if contact_forces is None:
        return _concatenate((position, qvel), axis=-1)
    forces = contact_forces[..., 1:, :]
    flat = forces.reshape(*forces.shape[:-2], -1)
    return _concatenate((position, qvel, flat), axis=-1)


def rewards(
    xy_before: NDArray[np.float64],
    xy_after: NDArray[np.float64],
    healthy: Any,
    ctrl_cost: Any,
    contact_forces: NDArray[np.float64],
    dt: float,
    forward_reward_weight: float,
    healthy_reward: float,
    contact_cost_weight: float,
) -> tuple[Any, Any, Any, Any, Any]:
    """`(reward, xy_velocity, forward_reward, healthy_reward, contact_cost)` of a step that
    cost `ctrl_cost`, from the main body's (x, y) before and after it and the clipped contact
    forces after it."""
    xy_velocity = planar_velocity(xy_before, xy_after, dt)
    forward_reward = xy_velocity[..., 0] * forward_reward_weight
    survive = healthy * healthy_reward
    flat = contact_forces.reshape(*contact_forces.shape[:-2], -1)
    contact_cost = contact_cost_weight * squared_sum(flat)
    reward = (forward_reward + survive) - (ctrl_cost + contact_cost)
    return reward, xy_velocity, forward_reward, survive, contact_cost


class AntEnv(MujocoEnv):
    """Walk forward without falling over; see the module docstring."""

    def __init__(
        self,
        xml_file: str = "ant.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1,
        ctrl_cost_weight: float = 0.5,
        contact_cost_weight: float = 5e-4,
        healthy_reward: float = 1.0,
        main_body: int | str = 1,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (0.2, 1.0),
        contact_force_range: tuple[float, float] = (-1.0, 1.0),
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
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
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._contact_cost_weight = contact_cost_weight
        self._healthy_reward = healthy_reward
        self._terminate_when_unhealthy = terminate_when_unhealthy
        self._healthy_z_range = healthy_z_range
        self._contact_force_range = contact_force_range
        self._main_body = main_body
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation
        )
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
        skipped = 2 * bool(exclude_current_positions_from_observation)
        forces = self.data.cfrc_ext[1:].size * bool(include_cfrc_ext_in_observation)
        size = self.model.nq + self.model.nv - skipped + forces
        self.observation_space = Box(-np.inf, np.inf, (size,), np.float64)
        self.observation_structure = {
            "skipped_qpos": skipped,
            "qpos": self.model.nq - skipped,
            "qvel": self.model.nv,
            "cfrc_ext": forces,
        }
        self._main_xpos = _body_xpos(self, main_body)
        self._qpos_xy = self._qpos[0:2]
        self._cfrc_ext = self.data.cfrc_ext
        self._gather_state = DataGather((self._qpos, self._qvel))
        self._gather_positions = DataGather((self._qpos[skipped:], self._qvel))

    @property
    def healthy_reward(self) -> Any:
        return self.is_healthy * self._healthy_reward

    @property
    def is_healthy(self) -> Any:
        """`is_healthy` of the module (a numpy bool), in fewer numpy calls."""
        finite = _isfinite(self._gather_state())
        if _count_nonzero(finite) != finite.size:
            return _FALSE
        min_z, max_z = self._healthy_z_range
        return _TRUE if min_z <= self._qpos[2] <= max_z else _FALSE

    @property
    def contact_forces(self) -> NDArray[np.float64]:
        low, high = self._contact_force_range
        return clip(self._cfrc_ext, low, high)

    @property
    def contact_cost(self) -> Any:
        return self._contact_cost_weight * squared_sum(self.contact_forces.reshape(-1))

    def control_cost(self, action: Any) -> Any:
        return control_cost(action, self._ctrl_cost_weight)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        # The hot path: terms.control_cost, do_simulation and `rewards` inlined.
        ctrl_cost = self._ctrl_cost_weight * _add(_square(action))
        if not isfinite(ctrl_cost):
            self._reject_non_finite(action)
        model, data, frame_skip, main = self.model, self.data, self.frame_skip, self._main_xpos
        x_before, y_before = main[0], main[1]
        self._ctrl[...] = action
        _mj_step(model, data, frame_skip)
        _rne_post_constraint(model, data)
        qpos = self._qpos
        healthy = self.is_healthy
        low, high = self._contact_force_range
        contact_forces = clip(self._cfrc_ext, low, high)
        dt = self._option.timestep * frame_skip
        x_velocity = (main[0] - x_before) / dt  # planar_velocity, one coordinate at a time
        y_velocity = (main[1] - y_before) / dt
        forward_reward = x_velocity * self._forward_reward_weight
        survive = healthy * self._healthy_reward
        contact_cost = self._contact_cost_weight * _add(_square(contact_forces), None)
        reward = (forward_reward + survive) - (ctrl_cost + contact_cost)
        terminated = not healthy and self._terminate_when_unhealthy
        info = {
            "x_position": qpos[0],
            "y_position": qpos[1],
            "distance_from_origin": norm(self._qpos_xy),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "reward_contact": -contact_cost,
            "reward_survive": survive,
        }
        if self.render_mode == "human":
            self.render()
        return self._observe(contact_forces), reward, terminated, False, info

    def _get_obs(self) -> Observation:
        return self._observe(self.contact_forces)

    def _observe(self, contact_forces: NDArray[np.float64]) -> Observation:
        """`observation`, with the positions and velocities gathered in one call."""
        if not self._include_cfrc_ext_in_observation:
            return self._gather_positions()
        return _concatenate((self._gather_positions(), contact_forces[1:].reshape(-1)))

    def reset_model(self) -> Observation:
        scale = self._reset_noise_scale
        qpos = self.init_qpos + self.np_random.uniform(low=-scale, high=scale, size=self.model.nq)
        qvel = self.init_qvel + scale * self.np_random.standard_normal(self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()

    def _get_reset_info(self) -> dict[str, Any]:
        qpos = self._qpos
        return {
            "x_position": qpos[0],
            "y_position": qpos[1],
            "distance_from_origin": norm(qpos[0:2]),
        }


def _body_xpos(env: MujocoEnv, body: int | str) -> NDArray[np.float64]:
    """The `xpos` row (a view) of `body`, a body index or name of the env's model."""
    names = [env.model.body(i).name for i in range(env.model.nbody)]
    try:
        return env.data.body(body).xpos
    except (KeyError, IndexError, TypeError):
        raise ValueError(
            f"main_body={body!r} is not a body of {env.fullpath}; pass an index below "
            f"{env.model.nbody} or one of the names {names}"
        ) from None
