"""Each MuJoCo id's step over a batch of sub-envs: the single env's arithmetic, row by row.

A `Kernel` computes, for all sub-envs at once, what the single env's `step` computes for one:
the same pure functions of the env modules (`half_cheetah_v5.rewards`, ...) applied to
``(num_envs, ...)`` arrays, in the same order around the physics, so that each row has the
single env's bits and dtypes. It reads its settings from the template env (the single env
built from the vector env's arguments) at every step, as the single env reads its own.

What a step needs from before the physics that the state does not hold (Ant's main body and
Humanoid's centre of mass as MuJoCo last computed them, Reacher-v4's fingertip) the kernel
keeps per sub-env: taken from the batch after each step, and from the template's data when a
sub-env resets (`reset_row`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym_mujoco import (
    ant_v4,
    ant_v5,
    half_cheetah_v4,
    half_cheetah_v5,
    hopper_v4,
    hopper_v5,
    humanoid_v4,
    humanoid_v5,
    humanoidstandup_v4,
    humanoidstandup_v5,
    inverted_double_pendulum_v4,
    inverted_double_pendulum_v5,
    inverted_pendulum_v4,
    inverted_pendulum_v5,
    pusher_v5,
    reacher_v4,
    reacher_v5,
    swimmer_v4,
    swimmer_v5,
    walker2d_v4,
    walker2d_v5,
)
from protogym_mujoco.mujoco_env import MujocoEnv
from protogym_mujoco.terms import clip, control_cost, norm, planar_velocity, squared_sum

__all__ = ["Fields", "Kernel", "StepResult"]

Array = NDArray[Any]
StepResult = tuple[NDArray[np.float64], Any, NDArray[np.bool_] | None, dict[str, Any]]
"""`(observations, rewards, terminated or None for never, infos)` of a batched step."""

_concatenate = np.concatenate
_logical_or = np.logical_or
_logical_and = np.logical_and
_int64 = np.int64


class Fields:
    """The batch's arrays a kernel reads, each ``(num_envs, ...)``: `qpos`, `qvel` and
    `ctrl` (views of the sub-envs' states), the derived MjData fields named in `outputs`
    (as MuJoCo left them after the last step, refreshed by every step), and `cfrc_ext`
    (filled by the vector env after each step) when `contact_forces`."""

    qpos: Array
    qvel: Array
    ctrl: Array
    cfrc_ext: Array

    def __init__(self, batch: Any, outputs: tuple[str, ...], contact_forces: bool) -> None:
        self.qpos = batch.bind("qpos")
        self.qvel = batch.bind("qvel")
        self.ctrl = batch.bind("ctrl")
        for name in outputs:
            setattr(self, name, batch.bind(name))
        if contact_forces:
            self.cfrc_ext = np.zeros((batch.nsim, batch.model.nbody, 6))

    def __getattr__(self, name: str) -> Array:  # only reached for fields never bound
        raise AttributeError(f"the batch has no field {name!r}: add it to the kernel's `outputs`")


class Kernel:
    """The batched step of one env class; see the module docstring.

    `outputs` are the derived fields the step reads, `contact_forces` whether it reads
    `cfrc_ext`, `reset_attributes` what the env's reset sets on itself (kept per sub-env),
    and `own_init_qpos` whether that reset writes into `init_qpos` (so each sub-env needs
    its own).
    """

    env_class: ClassVar[type[MujocoEnv]]
    outputs: ClassVar[tuple[str, ...]] = ()
    reset_attributes: ClassVar[tuple[str, ...]] = ()
    own_init_qpos: ClassVar[bool] = False
    contact_forces: bool = False

    fields: Fields

    def __init__(self, env: Any, num_envs: int) -> None:
        self.env = env
        self.num_envs = num_envs

    def bind(self, fields: Fields) -> None:
        """Read the batch through `fields` from now on."""
        self.fields = fields

    def reset_row(self, row: int, data: Any) -> None:
        """Sub-env `row` was reset; `data` is its MjData as the reset left it."""

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        """One step of every sub-env; `simulate` applies `actions` and runs the physics."""
        raise NotImplementedError(f"{type(self).__name__} must define step()")


def _body_id(env: Any, body: int | str) -> int:
    return int(env.model.body(body).id)


# -- the planar runners ------------------------------------------------------------------


class HalfCheetahV5(Kernel):
    env_class: ClassVar[type[MujocoEnv]] = half_cheetah_v5.HalfCheetahEnv
    forward_key = "reward_forward"

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        ctrl_cost = control_cost(actions, env._ctrl_cost_weight)
        x_before = fields.qpos[:, 0].copy()
        simulate()
        qpos, qvel = fields.qpos, fields.qvel
        x_after = qpos[:, 0].copy()
        reward, x_velocity, forward_reward = half_cheetah_v5.rewards(
            x_before, x_after, ctrl_cost, env.dt, env._forward_reward_weight
        )
        infos = {
            "x_position": x_after,
            "x_velocity": x_velocity,
            self.forward_key: forward_reward,
            "reward_ctrl": -ctrl_cost,
        }
        exclude = env._exclude_current_positions_from_observation
        return half_cheetah_v5.observation(qpos, qvel, exclude), reward, None, infos


class HalfCheetahV4(HalfCheetahV5):
    env_class = half_cheetah_v4.HalfCheetahEnv
    forward_key = "reward_run"


class HopperV5(Kernel):
    env_class: ClassVar[type[MujocoEnv]] = hopper_v5.HopperEnv

    def healthy(self, qpos: Array, qvel: Array) -> Array:
        env = self.env
        return hopper_v5.is_healthy(  # type: ignore[no-any-return]
            qpos,
            qvel,
            env._healthy_state_range,
            env._healthy_z_range,
            env._healthy_angle_range,
        )

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        ctrl_cost = control_cost(actions, env._ctrl_cost_weight)
        x_before = fields.qpos[:, 0].copy()
        simulate()
        qpos, qvel = fields.qpos, fields.qvel
        x_after = qpos[:, 0].copy()
        healthy = self.healthy(qpos, qvel)
        survive = healthy * env._healthy_reward
        reward, x_velocity, forward_reward = hopper_v5.rewards(
            x_before, x_after, survive, ctrl_cost, env.dt, env._forward_reward_weight
        )
        terminated = _logical_and(~healthy, bool(env._terminate_when_unhealthy))
        infos = {
            "x_position": x_after,
            "z_distance_from_origin": qpos[:, 1] - env.init_qpos[1],
            "x_velocity": x_velocity,
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "reward_survive": survive,
        }
        exclude = env._exclude_current_positions_from_observation
        return hopper_v5.observation(qpos, qvel, exclude), reward, terminated, infos


class HopperV4(HopperV5):
    """v4's survival reward: earned every step while `terminate_when_unhealthy`."""

    env_class: ClassVar[type[MujocoEnv]] = hopper_v4.HopperEnv

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        ctrl_cost = control_cost(actions, env._ctrl_cost_weight)
        x_before = fields.qpos[:, 0].copy()
        simulate()
        qpos, qvel = fields.qpos, fields.qvel
        x_after = qpos[:, 0].copy()
        healthy = self.healthy(qpos, qvel)
        terminate = bool(env._terminate_when_unhealthy)
        survive = _logical_or(healthy, terminate).astype(np.float64) * env._healthy_reward
        reward, x_velocity, _ = hopper_v5.rewards(
            x_before, x_after, survive, ctrl_cost, env.dt, env._forward_reward_weight
        )
        terminated = _logical_and(~healthy, terminate)
        infos = {"x_position": x_after, "x_velocity": x_velocity}
        exclude = env._exclude_current_positions_from_observation
        return hopper_v5.observation(qpos, qvel, exclude), reward, terminated, infos


class Walker2dV5(HopperV5):
    env_class = walker2d_v5.Walker2dEnv

    def healthy(self, qpos: Array, qvel: Array) -> Array:
        env = self.env
        return walker2d_v5.is_healthy(  # type: ignore[no-any-return]
            qpos, env._healthy_z_range, env._healthy_angle_range
        )


class Walker2dV4(HopperV4):
    env_class = walker2d_v4.Walker2dEnv

    def healthy(self, qpos: Array, qvel: Array) -> Array:
        env = self.env
        return walker2d_v5.is_healthy(  # type: ignore[no-any-return]
            qpos, env._healthy_z_range, env._healthy_angle_range
        )


class SwimmerV5(Kernel):
    env_class: ClassVar[type[MujocoEnv]] = swimmer_v5.SwimmerEnv

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        ctrl_cost = control_cost(actions, env._ctrl_cost_weight)
        xy_before = fields.qpos[:, 0:2].copy()
        simulate()
        qpos, qvel = fields.qpos, fields.qvel
        xy_after = qpos[:, 0:2].copy()
        reward, xy_velocity, forward_reward = swimmer_v5.rewards(
            xy_before, xy_after, ctrl_cost, env.dt, env._forward_reward_weight
        )
        exclude = env._exclude_current_positions_from_observation
        infos = self.infos(xy_after, xy_velocity, forward_reward, ctrl_cost)
        return swimmer_v5.observation(qpos, qvel, exclude), reward, None, infos

    def infos(self, xy: Array, velocity: Array, forward: Array, ctrl_cost: Array) -> dict[str, Any]:
        return {
            "x_position": xy[:, 0].copy(),
            "y_position": xy[:, 1].copy(),
            "distance_from_origin": norm(xy),
            "x_velocity": velocity[:, 0].copy(),
            "y_velocity": velocity[:, 1].copy(),
            "reward_forward": forward,
            "reward_ctrl": -ctrl_cost,
        }


class SwimmerV4(SwimmerV5):
    env_class = swimmer_v4.SwimmerEnv

    def infos(self, xy: Array, velocity: Array, forward: Array, ctrl_cost: Array) -> dict[str, Any]:
        return {
            "reward_fwd": forward,
            "reward_ctrl": -ctrl_cost,
            "x_position": xy[:, 0].copy(),
            "y_position": xy[:, 1].copy(),
            "distance_from_origin": norm(xy),
            "x_velocity": velocity[:, 0].copy(),
            "y_velocity": velocity[:, 1].copy(),
            "forward_reward": forward.copy(),
        }


# -- Ant ---------------------------------------------------------------------------------


class AntV5(Kernel):
    """Ant-v5: the main body's (x, y) as MuJoCo last computed it is kept between steps."""

    env_class = ant_v5.AntEnv
    outputs = ("xpos",)
    contact_forces = True

    def __init__(self, env: Any, num_envs: int) -> None:
        super().__init__(env, num_envs)
        self.main_body = _body_id(env, env._main_body)
        self.xy = np.zeros((num_envs, 2))

    def reset_row(self, row: int, data: Any) -> None:
        self.xy[row] = data.xpos[self.main_body, :2]

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        ctrl_cost = control_cost(actions, env._ctrl_cost_weight)
        xy_before = self.xy
        simulate()
        qpos, qvel = fields.qpos, fields.qvel
        self.xy = xy_after = fields.xpos[:, self.main_body, :2].copy()
        healthy = ant_v5.is_healthy(qpos, qvel, env._healthy_z_range)
        low, high = env._contact_force_range
        contact_forces = clip(fields.cfrc_ext, low, high)
        reward, xy_velocity, forward_reward, survive, contact_cost = ant_v5.rewards(
            xy_before,
            xy_after,
            healthy,
            ctrl_cost,
            contact_forces,
            env.dt,
            env._forward_reward_weight,
            env._healthy_reward,
            env._contact_cost_weight,
        )
        terminated = _logical_and(~healthy, bool(env._terminate_when_unhealthy))
        infos = {
            "x_position": qpos[:, 0].copy(),
            "y_position": qpos[:, 1].copy(),
            "distance_from_origin": norm(qpos[:, 0:2]),
            "x_velocity": xy_velocity[:, 0].copy(),
            "y_velocity": xy_velocity[:, 1].copy(),
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "reward_contact": -contact_cost,
            "reward_survive": survive,
        }
        observation = ant_v5.observation(
            qpos,
            qvel,
            contact_forces if env._include_cfrc_ext_in_observation else None,
            env._exclude_current_positions_from_observation,
        )
        return observation, reward, terminated, infos


class AntV4(Kernel):
    """Ant-v4: the torso's (x, y) is kept between steps; contact forces only if used."""

    env_class = ant_v4.AntEnv
    outputs = ("xpos",)

    def __init__(self, env: Any, num_envs: int) -> None:
        super().__init__(env, num_envs)
        self.contact_forces = bool(env._use_contact_forces)
        self.torso = _body_id(env, "torso")
        self.xy = np.zeros((num_envs, 2))

    def reset_row(self, row: int, data: Any) -> None:
        self.xy[row] = data.xpos[self.torso, :2]

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        ctrl_cost = control_cost(actions, env._ctrl_cost_weight)
        xy_before = self.xy
        simulate()
        qpos, qvel = fields.qpos, fields.qvel
        self.xy = xy_after = fields.xpos[:, self.torso, :2].copy()
        velocity = planar_velocity(xy_before, xy_after, env.dt)
        x_velocity = velocity[:, 0].copy()
        forward_reward = x_velocity
        healthy = ant_v5.is_healthy(qpos, qvel, env._healthy_z_range)
        terminate = bool(env._terminate_when_unhealthy)
        survive = _logical_or(healthy, terminate).astype(np.float64) * env._healthy_reward
        rewards = forward_reward + survive
        costs = ctrl_cost
        terminated = _logical_and(~healthy, terminate)
        position = qpos[:, 2:] if env._exclude_current_positions_from_observation else qpos
        infos = {
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "reward_survive": survive,
            "x_position": xy_after[:, 0].copy(),
            "y_position": xy_after[:, 1].copy(),
            "distance_from_origin": norm(xy_after),
            "x_velocity": x_velocity.copy(),
            "y_velocity": velocity[:, 1].copy(),
            "forward_reward": forward_reward.copy(),
        }
        if self.contact_forces:
            low, high = env._contact_force_range
            forces = clip(fields.cfrc_ext, low, high).reshape(self.num_envs, -1)
            contact_cost = env._contact_cost_weight * squared_sum(forces)
            costs = costs + contact_cost
            infos["reward_ctrl"] = -contact_cost
            observation = _concatenate((position, qvel, forces), axis=-1)
        else:
            observation = _concatenate((position, qvel), axis=-1)
        return observation, rewards - costs, terminated, infos


# -- the humanoids -----------------------------------------------------------------------


class HumanoidV5(Kernel):
    """Humanoid-v5: the centre of mass as MuJoCo last computed it is kept between steps."""

    env_class: ClassVar[type[MujocoEnv]] = humanoid_v5.HumanoidEnv
    outputs = ("xipos", "cinert", "cvel", "qfrc_actuator", "ten_length", "ten_velocity")
    contact_forces = True

    def __init__(self, env: Any, num_envs: int) -> None:
        super().__init__(env, num_envs)
        self.center = np.zeros((num_envs, 2))

    def reset_row(self, row: int, data: Any) -> None:
        self.center[row] = humanoid_v5.mass_center(self.env.model.body_mass, data.xipos)

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        xy_before = self.center
        simulate()
        qpos = fields.qpos
        self.center = xy_after = humanoid_v5.mass_center(env.model.body_mass, fields.xipos)
        min_z, max_z = env._healthy_z_range
        z = qpos[:, 2]
        healthy = (min_z < z) & (z < max_z)
        reward, xy_velocity, forward_reward, survive, ctrl_cost, contact_cost = humanoid_v5.rewards(
            xy_before,
            xy_after,
            healthy,
            fields.ctrl,
            fields.cfrc_ext,
            env.dt,
            env._forward_reward_weight,
            env._healthy_reward,
            env._ctrl_cost_weight,
            env._contact_cost_weight,
            env._contact_cost_range,
        )
        terminated = _logical_and(~healthy, bool(env._terminate_when_unhealthy))
        infos = {
            "x_position": qpos[:, 0].copy(),
            "y_position": qpos[:, 1].copy(),
            "tendon_length": fields.ten_length.copy(),
            "tendon_velocity": fields.ten_velocity.copy(),
            "distance_from_origin": norm(qpos[:, 0:2]),
            "x_velocity": xy_velocity[:, 0].copy(),
            "y_velocity": xy_velocity[:, 1].copy(),
            "reward_survive": survive,
            "reward_forward": forward_reward,
            "reward_ctrl": -ctrl_cost,
            "reward_contact": -contact_cost,
        }
        return _humanoid_observation(env, fields), reward, terminated, infos


class HumanoidV4(HumanoidV5):
    env_class = humanoid_v4.HumanoidEnv

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        xy_before = self.center
        simulate()
        qpos = fields.qpos
        self.center = xy_after = humanoid_v5.mass_center(env.model.body_mass, fields.xipos)
        velocity = planar_velocity(xy_before, xy_after, env.dt)
        x_velocity = velocity[:, 0].copy()
        ctrl_cost = control_cost(fields.ctrl, env._ctrl_cost_weight)
        forward_reward = env._forward_reward_weight * x_velocity
        min_z, max_z = env._healthy_z_range
        z = qpos[:, 2]
        healthy = (min_z < z) & (z < max_z)
        terminate = bool(env._terminate_when_unhealthy)
        survive = _logical_or(healthy, terminate).astype(np.float64) * env._healthy_reward
        reward = (forward_reward + survive) - ctrl_cost
        infos = {
            "reward_linvel": forward_reward,
            "reward_quadctrl": -ctrl_cost,
            "reward_alive": survive,
            "x_position": xy_after[:, 0].copy(),
            "y_position": xy_after[:, 1].copy(),
            "distance_from_origin": norm(xy_after),
            "x_velocity": x_velocity,
            "y_velocity": velocity[:, 1].copy(),
            "forward_reward": forward_reward.copy(),
        }
        exclude = env._exclude_current_positions_from_observation
        observation = _full_observation(fields, exclude)
        return observation, reward, _logical_and(~healthy, terminate), infos


class HumanoidStandupV5(Kernel):
    env_class = humanoidstandup_v5.HumanoidStandupEnv
    outputs = ("cinert", "cvel", "qfrc_actuator", "ten_length", "ten_velocity")
    contact_forces = True

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        simulate()
        qpos = fields.qpos
        reward, uph_cost, quad_ctrl_cost, quad_impact_cost = humanoidstandup_v5.rewards(
            qpos[:, 2],
            fields.ctrl,
            fields.cfrc_ext,
            env._option.timestep,
            env._ctrl_cost_weight,
            env._impact_cost_weight,
            env._impact_cost_range,
        )
        infos = {
            "x_position": qpos[:, 0].copy(),
            "y_position": qpos[:, 1].copy(),
            "z_distance_from_origin": qpos[:, 2] - env.init_qpos[2],
            "tendon_length": fields.ten_length.copy(),
            "tendon_velocity": fields.ten_velocity.copy(),
            "reward_linup": uph_cost,
            "reward_quadctrl": -quad_ctrl_cost,
            "reward_impact": -quad_impact_cost,
        }
        return _humanoid_observation(env, fields), reward, None, infos


class HumanoidStandupV4(Kernel):
    """HumanoidStandup-v4; its impact cost, capped at 10 by Python's `min` in the single env
    (an int when capped), is a float64 here."""

    env_class = humanoidstandup_v4.HumanoidStandupEnv
    outputs = ("cinert", "cvel", "qfrc_actuator")
    contact_forces = True

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        simulate()
        uph_cost = (fields.qpos[:, 2] - 0) / env._option.timestep
        quad_ctrl_cost = control_cost(fields.ctrl, 0.1)
        forces = fields.cfrc_ext.reshape(self.num_envs, -1)
        quad_impact_cost = np.minimum(5e-7 * squared_sum(forces), 10)
        reward = uph_cost - quad_ctrl_cost - quad_impact_cost + 1
        infos = {
            "reward_linup": uph_cost,
            "reward_quadctrl": -quad_ctrl_cost,
            "reward_impact": -quad_impact_cost,
        }
        return _full_observation(fields, True), reward, None, infos


def _humanoid_observation(env: Any, fields: Fields) -> NDArray[np.float64]:
    """A v5 Humanoid's or HumanoidStandup's observation batch, as `humanoid_observation`."""
    return humanoid_v5.observation(
        fields.qpos,
        fields.qvel,
        fields.cinert if env._include_cinert_in_observation else None,
        fields.cvel if env._include_cvel_in_observation else None,
        fields.qfrc_actuator if env._include_qfrc_actuator_in_observation else None,
        fields.cfrc_ext if env._include_cfrc_ext_in_observation else None,
        env._exclude_current_positions_from_observation,
    )


def _full_observation(fields: Fields, exclude_xy: bool) -> NDArray[np.float64]:
    """v4's humanoid observation batch, as `humanoid_v4.full_observation`."""
    qpos = fields.qpos
    count = len(qpos)
    return _concatenate(
        (
            qpos[:, 2:] if exclude_xy else qpos,
            fields.qvel,
            fields.cinert.reshape(count, -1),
            fields.cvel.reshape(count, -1),
            fields.qfrc_actuator,
            fields.cfrc_ext.reshape(count, -1),
        ),
        axis=-1,
    )


# -- the pendulums -----------------------------------------------------------------------


class InvertedPendulumV5(Kernel):
    env_class = inverted_pendulum_v5.InvertedPendulumEnv

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        simulate()
        fields = self.fields
        observation = inverted_pendulum_v5.observation(fields.qpos, fields.qvel)
        ended = inverted_pendulum_v5.terminated(observation)
        survive = (~ended).astype(_int64)
        return observation, survive, ended, {"reward_survive": survive}


class InvertedPendulumV4(Kernel):
    env_class = inverted_pendulum_v4.InvertedPendulumEnv

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        simulate()
        fields = self.fields
        observation = inverted_pendulum_v5.observation(fields.qpos, fields.qvel)
        ended = inverted_pendulum_v5.terminated(observation)
        return observation, np.ones(self.num_envs), ended, {}


class InvertedDoublePendulumV5(Kernel):
    env_class = inverted_double_pendulum_v5.InvertedDoublePendulumEnv
    outputs = ("site_xpos", "qfrc_constraint")

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        simulate()
        fields = self.fields
        tip = fields.site_xpos[:, 0].copy()
        observation = inverted_double_pendulum_v5.observation(
            fields.qpos, fields.qvel, fields.qfrc_constraint
        )
        ended = tip[:, 2] <= 1
        distance_penalty, velocity_penalty = inverted_double_pendulum_v5.penalties(tip, fields.qvel)
        alive_bonus = self.env._healthy_reward * (~ended).astype(_int64)
        reward = alive_bonus - distance_penalty - velocity_penalty
        infos = {
            "reward_survive": alive_bonus,
            "distance_penalty": -distance_penalty,
            "velocity_penalty": -velocity_penalty,
        }
        return observation, reward, ended, infos


class InvertedDoublePendulumV4(Kernel):
    env_class = inverted_double_pendulum_v4.InvertedDoublePendulumEnv
    outputs = ("site_xpos", "qfrc_constraint")

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        simulate()
        fields = self.fields
        constraint = fields.qfrc_constraint
        observation = inverted_double_pendulum_v5.observation(
            fields.qpos, fields.qvel, constraint, constraint.shape[-1]
        )
        tip = fields.site_xpos[:, 0].copy()
        distance_penalty, velocity_penalty = inverted_double_pendulum_v5.penalties(tip, fields.qvel)
        return observation, 10 - distance_penalty - velocity_penalty, tip[:, 2] <= 1, {}


# -- the arms ----------------------------------------------------------------------------


class ReacherV5(Kernel):
    env_class: ClassVar[type[MujocoEnv]] = reacher_v5.ReacherEnv
    outputs = ("xpos",)
    reset_attributes = ("goal",)

    def __init__(self, env: Any, num_envs: int) -> None:
        super().__init__(env, num_envs)
        self.fingertip = _body_id(env, "fingertip")
        self.target = _body_id(env, "target")

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        simulate()
        xpos = fields.xpos
        fingertip, target = xpos[:, self.fingertip], xpos[:, self.target]
        observation = reacher_v5.observation(fields.qpos, fields.qvel, fingertip, target)
        reward, reward_dist, reward_ctrl = reacher_v5.rewards(
            fingertip, target, actions, env._reward_dist_weight, env._reward_control_weight
        )
        return observation, reward, None, {"reward_dist": reward_dist, "reward_ctrl": reward_ctrl}


class ReacherV4(ReacherV5):
    """Reacher-v4 rewards the positions before the physics, kept between steps."""

    env_class = reacher_v4.ReacherEnv

    def __init__(self, env: Any, num_envs: int) -> None:
        super().__init__(env, num_envs)
        self.positions = np.zeros((num_envs, 2, 3))

    def reset_row(self, row: int, data: Any) -> None:
        self.positions[row] = data.xpos[[self.fingertip, self.target]]

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        fields = self.fields
        squares = squared_sum(actions)
        fingertip, target = self.positions[:, 0], self.positions[:, 1]
        reward_dist = -norm(fingertip - target)
        reward_ctrl = -squares
        reward = reward_dist + reward_ctrl
        simulate()
        self.positions = fields.xpos[:, [self.fingertip, self.target]]
        fingertip, target = self.positions[:, 0], self.positions[:, 1]
        observation = reacher_v5.observation(
            fields.qpos, fields.qvel, fingertip, target, offset_axes=3
        )
        return observation, reward, None, {"reward_dist": reward_dist, "reward_ctrl": reward_ctrl}


class PusherV5(Kernel):
    env_class = pusher_v5.PusherEnv
    outputs = ("xpos",)
    reset_attributes = ("goal_pos", "cylinder_pos")
    own_init_qpos = True

    def __init__(self, env: Any, num_envs: int) -> None:
        super().__init__(env, num_envs)
        self.bodies = [_body_id(env, name) for name in ("tips_arm", "object", "goal")]

    def step(self, actions: Array, simulate: Callable[[], None]) -> StepResult:
        env, fields = self.env, self.fields
        simulate()
        fingertip, target, goal = (fields.xpos[:, body] for body in self.bodies)
        observation = pusher_v5.observation(fields.qpos, fields.qvel, fingertip, target, goal)
        reward, reward_near, reward_dist, reward_ctrl = pusher_v5.rewards(
            fingertip,
            target,
            goal,
            actions,
            env._reward_near_weight,
            env._reward_dist_weight,
            env._reward_control_weight,
        )
        infos = {"reward_dist": reward_dist, "reward_ctrl": reward_ctrl, "reward_near": reward_near}
        return observation, reward, None, infos
