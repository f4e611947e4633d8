"""Humanoid-v5: a 3D bipedal robot that walks forward without falling.

Gymnasium 1.4's `Humanoid-v5`, to the bit. Observation (348 float64 by default): the joint
positions without the torso's x and y, the joint velocities, and, each switchable by an
`include_*_in_observation` argument, the bodies' inertia (`cinert`, 10 per body) and velocity
(`cvel`, 6 per body) about the centre of mass, the actuator forces on the non-free joints
(`qfrc_actuator`) and the external contact forces (`cfrc_ext`, 6 per body), the world body
left out of each. Action: 17 float32 torques in [-0.4, 0.4]. Reward:
`forward_reward_weight * x_velocity` of the centre of mass plus `healthy_reward` while
healthy, minus `ctrl_cost_weight * sum(ctrl**2)` and `contact_cost_weight * sum(cfrc_ext**2)`
(clipped to `contact_cost_range`). Healthy: the torso height `qpos[2]` inside
`healthy_z_range` (open); unhealthy ends the episode when `terminate_when_unhealthy`.
`Humanoid-v5` truncates at 1000 steps.

The control cost reads the controls MuJoCo was given (float64), as Gymnasium's does, not the
float32 action.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import mujoco
import numpy as np
from numpy.typing import NDArray

from protogym.spaces import Box
from protogym_mujoco.mujoco_env import DEFAULT_SIZE, Action, DataGather, MujocoEnv, Observation
from protogym_mujoco.terms import (
    clip,
    control_cost,
    length,
    norm,
    planar_velocity,
    squared_sum,
)

__all__ = [
    "DEFAULT_CAMERA_CONFIG",
    "HumanoidEnv",
    "mass_center",
    "observation",
    "rewards",
]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = {
    "trackbodyid": 1,
    "distance": 4.0,
    "lookat": np.array((0.0, 0.0, 2.0)),
    "elevation": -20.0,
}

_concatenate = np.concatenate
_einsum = np.einsum
_add = np.add.reduce
_square = np.square
_multiply = np.multiply
_divide = np.divide
_mj_step = mujoco.mj_step
_rne_post_constraint = mujoco.mj_rnePostConstraint


def mass_center(body_mass: NDArray[np.float64], xipos: NDArray[np.float64]) -> Any:
    """The (x, y) of the centre of mass: the bodies' centres (`xipos`) weighted by mass."""
    weighted = _einsum("b,...bj->...j", body_mass, xipos)
    return (weighted / body_mass.sum())[..., 0:2].copy()


def _rows_after_world(values: NDArray[np.float64]) -> NDArray[np.float64]:
    rows = values[..., 1:, :]
    return rows.reshape(*rows.shape[:-2], -1)


def observation(
    qpos: NDArray[np.float64],
    qvel: NDArray[np.float64],
    cinert: NDArray[np.float64] | None,
    cvel: NDArray[np.float64] | None,
    qfrc_actuator: NDArray[np.float64] | None,
    cfrc_ext: NDArray[np.float64] | None,
    exclude_xy: bool = True,
) -> NDArray[np.float64]:
    """Positions (without x, y when `exclude_xy`) and velocities, then each of `cinert`,
    `cvel`, `qfrc_actuator` and `cfrc_ext` that is given, without the world body's row
    (and without the free joint's six actuator forces). HumanoidStandup's is the same."""
    parts = [qpos[..., 2:] if exclude_xy else qpos, qvel]
    if cinert is not None:
        parts.append(_rows_after_world(cinert))
    if cvel is not None:
        parts.append(_rows_after_world(cvel))
    if qfrc_actuator is not None:
        parts.append(qfrc_actuator[..., 6:])
    if cfrc_ext is not None:
        parts.append(_rows_after_world(cfrc_ext))
    return _concatenate(parts, axis=-1)


def rewards(
    xy_before: Any,
    xy_after: Any,
    healthy: Any,
    ctrl: NDArray[np.float64],
    cfrc_ext: NDArray[np.float64],
    dt: float,
    forward_reward_weight: float,
    healthy_reward: float,
    ctrl_cost_weight: float,
    contact_cost_weight: float,
    contact_cost_range: tuple[float, float],
) -> tuple[Any, Any, Any, Any, Any, Any]:
    """`(reward, xy_velocity, forward_reward, healthy_reward, ctrl_cost, contact_cost)` of a
    step, from the centre of mass before and after it and MuJoCo's `ctrl` and `cfrc_ext`."""
    xy_velocity = planar_velocity(xy_before, xy_after, dt)
    forward_reward = forward_reward_weight * xy_velocity[..., 0]
    survive = healthy * healthy_reward
    ctrl_cost = control_cost(ctrl, ctrl_cost_weight)
    low, high = contact_cost_range
    contact_cost = clip(
        contact_cost_weight * squared_sum(cfrc_ext.reshape(*cfrc_ext.shape[:-2], -1)), low, high
    )
    reward = (forward_reward + survive) - (ctrl_cost + contact_cost)
    return reward, xy_velocity, forward_reward, survive, ctrl_cost, contact_cost


class HumanoidEnv(MujocoEnv):
    """Walk forward without falling; see the module docstring."""

    # Set by `_keep_views`.
    _mass_center_xy: _MassCenter
    _cfrc_ext: NDArray[np.float64]
    _ten_length: NDArray[np.float64]
    _ten_velocity: NDArray[np.float64]
    _qpos_xy: NDArray[np.float64]
    _gather_observation: DataGather

    def __init__(
        self,
        xml_file: str = "humanoid.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1.25,
        ctrl_cost_weight: float = 0.1,
        contact_cost_weight: float = 5e-7,
        contact_cost_range: tuple[float, float] = (-np.inf, 10.0),
        healthy_reward: float = 5.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (1.0, 2.0),
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
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._contact_cost_weight = contact_cost_weight
        self._contact_cost_range = contact_cost_range
        self._healthy_reward = healthy_reward
        self._terminate_when_unhealthy = terminate_when_unhealthy
        self._healthy_z_range = healthy_z_range
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

    @property
    def healthy_reward(self) -> Any:
        return self.is_healthy * self._healthy_reward

    @property
    def is_healthy(self) -> Any:
        min_z, max_z = self._healthy_z_range
        z = self._qpos[2]
        return (min_z < z) & (z < max_z)

    def control_cost(self, action: Any) -> Any:
        return control_cost(self._ctrl, self._ctrl_cost_weight)

    @property
    def contact_cost(self) -> Any:
        low, high = self._contact_cost_range
        cfrc_ext = self.data.cfrc_ext
        return clip(self._contact_cost_weight * squared_sum(cfrc_ext.reshape(-1)), low, high)

    def step(self, action: Action) -> tuple[Observation, np.float64, bool, bool, dict[str, Any]]:
        if action.__class__ is not np.ndarray or action.shape != self._control_shape:
            action = self._checked_action(action)
        if not isfinite(action.dot(action)):  # NaN or infinity in, not so out (or overflow)
            self._reject_non_finite(action)
        # The hot path: do_simulation and `rewards` inlined, MjData's arrays read through
        # views kept since construction (fetching them from the bindings costs more).
        model, data, frame_skip = self.model, self.data, self.frame_skip
        xy_before = self._mass_center_xy()
        self._ctrl[...] = action
        _mj_step(model, data, frame_skip)
        _rne_post_constraint(model, data)
        xy_after = self._mass_center_xy()
        qpos = self._qpos
        min_z, max_z = self._healthy_z_range
        z = qpos[2]
        healthy = (min_z < z) & (z < max_z)
        xy_velocity = (xy_after - xy_before) / (self._option.timestep * frame_skip)
        x_velocity, y_velocity = xy_velocity
        forward_reward = self._forward_reward_weight * x_velocity
        survive = healthy * self._healthy_reward
        ctrl_cost = self._ctrl_cost_weight * _add(_square(self._ctrl))
        low, high = self._contact_cost_range
        contact_cost = self._contact_cost_weight * _add(_square(self._cfrc_ext), None)
        if not low <= contact_cost <= high:  # clip's result; NaN stays NaN, as there
            contact_cost = clip(contact_cost, low, high)
        reward = (forward_reward + survive) - (ctrl_cost + contact_cost)
        terminated = not healthy and self._terminate_when_unhealthy
        info = {
            "x_position": qpos[0],
            "y_position": qpos[1],
            "tendon_length": self._ten_length.copy(),
            "tendon_velocity": self._ten_velocity.copy(),
            "distance_from_origin": length(self._qpos_xy),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "reward_survive": survive,
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "reward_contact": -contact_cost,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, terminated, False, info

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
            "tendon_length": data.ten_length.copy(),
            "tendon_velocity": data.ten_velocity.copy(),
            "distance_from_origin": norm(qpos[0:2]),
        }


def _set_humanoid_spaces(env: Any) -> None:
    """The observation space and structure of a v5 Humanoid or HumanoidStandup env, from its
    `exclude_*`/`include_*` arguments."""
    data = env.data
    skipped = 2 * bool(env._exclude_current_positions_from_observation)
    structure = {
        "skipped_qpos": skipped,
        "qpos": data.qpos.size - skipped,
        "qvel": data.qvel.size,
        "cinert": data.cinert[1:].size * bool(env._include_cinert_in_observation),
        "cvel": data.cvel[1:].size * bool(env._include_cvel_in_observation),
        "qfrc_actuator": (data.qvel.size - 6) * bool(env._include_qfrc_actuator_in_observation),
        "cfrc_ext": data.cfrc_ext[1:].size * bool(env._include_cfrc_ext_in_observation),
        "ten_length": 0,
        "ten_velocity": 0,
    }
    size = sum(count for key, count in structure.items() if key != "skipped_qpos")
    env.observation_space = Box(-np.inf, np.inf, (size,), np.float64)
    env.observation_structure = structure


class _MassCenter:
    """`mass_center` of one env, remembering its last result.

    It reads views of the model's `body_mass` and of the data's `xipos[:, :2]` (the
    columns it returns; each is summed down the bodies as `mass_center` sums it), and
    answers from memory while both hold the same bytes as when it last computed: the centre
    before a step is usually the one after the step before. The masses' sum is kept the
    same way.
    """

    def __init__(self, body_mass: NDArray[np.float64], xipos: NDArray[np.float64]) -> None:
        self._mass = body_mass[:, None]
        self._xy = xipos[:, :2]
        self._mass_bytes = b""
        self._xy_bytes = b""
        self._total: Any = None
        self._center: Any = None

    def __call__(self) -> Any:
        mass_bytes, xy_bytes = self._mass.tobytes(), self._xy.tobytes()
        if mass_bytes != self._mass_bytes:
            self._mass_bytes, self._xy_bytes = mass_bytes, b""
            self._total = _add(self._mass, None)
        elif xy_bytes == self._xy_bytes:
            return self._center
        weighted = _add(_multiply(self._mass, self._xy), 0)
        self._center = center = _divide(weighted, self._total)
        self._xy_bytes = xy_bytes
        return center


def _keep_views(env: Any) -> None:
    """Views of the MjData and MjModel arrays a v5 Humanoid's or HumanoidStandup's step
    reads, and the gathering of its observation, kept for the env's life."""
    data = env.data
    env._mass_center_xy = _MassCenter(env.model.body_mass, data.xipos)
    env._cfrc_ext = data.cfrc_ext
    env._ten_length = data.ten_length
    env._ten_velocity = data.ten_velocity
    env._qpos_xy = env._qpos[0:2]
    skipped = 2 if env._exclude_current_positions_from_observation else 0
    parts = [env._qpos[skipped:], env._qvel]
    included = (
        (env._include_cinert_in_observation, data.cinert[1:]),
        (env._include_cvel_in_observation, data.cvel[1:]),
        (env._include_qfrc_actuator_in_observation, data.qfrc_actuator[6:]),
        (env._include_cfrc_ext_in_observation, data.cfrc_ext[1:]),
    )
    parts += [part for include, part in included if include]
    env._gather_observation = DataGather(tuple(parts))


def humanoid_observation(env: Any) -> Observation:
    """The observation of a v5 Humanoid or HumanoidStandup env from its MjData."""
    return env._gather_observation()  # type: ignore[no-any-return]
