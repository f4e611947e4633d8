"""The native vector env of every MuJoCo id: MuJoCo's threads step the physics, numpy the rest.

`MujocoVectorEnv` keeps one `MjModel` and the sub-envs' states in a `mujoco.batch.Batch`
(mujoco 4's batch API): one `step` call runs `mj_step` with the frame skip on every sub-env,
spread over MuJoCo's own C++ thread pool with the GIL released, then copies out the derived
fields the observations read (`xpos`, `cinert`, ...). The batch is bit-identical to a loop of
`mj_step` over one `MjData` per sub-env at any thread count (MuJoCo documents it, and
tests/test_mujoco_vector.py checks it against the single envs); `mujoco.rollout` steps the
same physics but records only states and sensors, not the derived fields the observations
need, so it would cost an `mj_forward` per sub-env and step, whose fields are a sub-step
newer than the single env's.

The ids that read the contact forces `cfrc_ext` (Ant, Humanoid, HumanoidStandup) need
`mj_rnePostConstraint` after the physics, as the single env calls it; the batch then keeps
one `MjData` per sub-env (``persistent=True``) and each sub-env's data is copied out and
finished in turn, a few microseconds beside the physics.

Observations, rewards and infos come from each id's batched step in `batched_steps`, whose
arithmetic is the single env's row by row. Resets run the single env's own `reset_model` on
a template env holding the sub-env's generator, then load the state into the batch, so
sub-env i under seed `s` follows the single env under seed `s + i` to the bit, in every
autoreset mode, and its infos are laid out as `SyncVectorEnv` lays out the single envs'.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, ClassVar

import mujoco
import numpy as np
from mujoco import batch as mujoco_batch
from numpy.typing import NDArray

from protogym.error import ClosedEnvironmentError, InvalidAction, ResetNeeded
from protogym.spaces import Box, batch_space
from protogym.spaces.space import Space
from protogym.utils.seeding import np_random
from protogym.vector.sync_vector_env import reset_mask_of, values_per_env
from protogym.vector.utils import add_finals, add_info, info_of
from protogym.vector.vector_env import (
    AutoresetMode,
    ModeT_co,
    VectorEnvBase,
    VectorStepResult,
    parse_autoreset_mode,
    seeds_for,
)
from protogym_mujoco import batched_steps
from protogym_mujoco.batched_steps import Fields, Kernel

__all__ = ["MujocoVectorEnv"]

Observations = NDArray[np.float64]
Actions = NDArray[np.float32]

_NEXT_STEP = AutoresetMode.NEXT_STEP
_SAME_STEP = AutoresetMode.SAME_STEP
_INTEGRATION = mujoco.mjtState.mjSTATE_INTEGRATION
_FRAME_MODES = ("rgb_array", "depth_array", "rgbd_tuple")
_isfinite = np.isfinite
_all = np.logical_and.reduce


class MujocoVectorEnv(VectorEnvBase[Observations, Actions, ModeT_co]):
    """copies of one MuJoCo env, stepped together on `num_threads` threads.

    The env's own arguments (``forward_reward_weight=...``, ``xml_file=...``) are keyword
    arguments, as for `make`; `num_threads` is MuJoCo's thread count including the calling
    thread (0, the default, takes one per CPU, never more than `num_envs`). Actions are a
    float array of shape ``(num_envs, nu)``; observations a float64 array of shape
    ``(num_envs, obs_dim)``; infos carry the single env's keys, batched with ``_key`` masks.
    `max_episode_steps` truncates episodes as `make`'s `TimeLimit` does.

    Subclasses name the id's batched step (`kernel`); `make_vec` builds them from the ids'
    `vector_entry_point`.
    """

    kernel: ClassVar[type[Kernel]]

    single_observation_space: Box
    single_action_space: Box
    observation_space: Space[Observations]
    action_space: Space[Actions]

    def __init__(
        self,
        num_envs: int = 1,
        *,
        max_episode_steps: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        num_threads: int = 0,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        name = type(self).__name__
        self.num_envs = _positive_int(name, "num_envs", num_envs)
        if max_episode_steps is not None:
            max_episode_steps = _positive_int(name, "max_episode_steps", max_episode_steps)
        self.max_episode_steps = max_episode_steps
        if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 0:
            raise ValueError(
                f"{name} needs num_threads to be an int >= 0 (0: one per CPU), got {num_threads!r}"
            )
        if render_mode is not None and render_mode not in _FRAME_MODES:
            raise ValueError(
                f"{name} supports render_mode None or one of {list(_FRAME_MODES)} (one frame per "
                f"sub-env); got {render_mode!r}. For a window, render a single env made with "
                "protogym.make(id, render_mode='human')"
            )
        self._autoreset_mode = parse_autoreset_mode(autoreset_mode)
        # The template: the single env built from the same arguments (which it checks). Its
        # model is the batch's, its spaces and settings are the sub-envs', and its data is
        # where a sub-env's reset runs and where a sub-env's frame is drawn.
        template = self.kernel.env_class(render_mode=render_mode, **kwargs)
        self.env = template
        self.render_mode = render_mode
        self.model = template.model
        self.metadata = {
            "render_modes": list(_FRAME_MODES),
            "render_fps": template.metadata["render_fps"],
            "autoreset_mode": self._autoreset_mode,
        }
        self.single_observation_space = template.observation_space
        self.single_action_space = template.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

        self.kernel_instance = kernel = self.kernel(template, self.num_envs)
        threads = num_threads or os.cpu_count() or 1
        self.num_threads = min(threads, self.num_envs)
        # One MjData per sub-env when something reads a sub-env's whole data after a step:
        # mj_rnePostConstraint (the contact forces) or the renderer.
        self._persistent = kernel.contact_forces or render_mode is not None
        self._batch = mujoco_batch.Batch(
            template.model, self.num_envs, nthread=self.num_threads, persistent=self._persistent
        )
        self._fields = fields = Fields(self._batch, kernel.outputs, kernel.contact_forces)
        kernel.bind(fields)
        self._ctrl = fields.ctrl
        self._scratch = mujoco.MjData(template.model) if kernel.contact_forces else None

        # Each sub-env's own generator, seed and reset attributes (Reacher's goal, ...).
        self._generators: list[np.random.Generator] = []
        self._seeds: list[int] = []
        self._own: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if kernel.own_init_qpos:  # Pusher's reset writes into its init_qpos
            for own in self._own:
                own["init_qpos"] = template.init_qpos.copy()
        # Episode lengths as ticks: sub-env i's episode began at vector step _started_at[i].
        self._tick = 0
        self._started_at = np.zeros(self.num_envs, dtype=np.int64)
        self._pending = np.zeros(self.num_envs, dtype=np.bool_)  # next-step mode: to reset
        self._fresh = np.zeros(self.num_envs, dtype=np.bool_)  # reset since the last step
        self._last_obs = np.zeros((self.num_envs, *self.single_observation_space.shape))
        self._started = False
        self.closed = False

    @property
    def autoreset_mode(self) -> ModeT_co:
        return self._autoreset_mode  # type: ignore[return-value]

    @property
    def np_random_seed(self) -> tuple[int, ...]:  # type: ignore[override]
        """Every sub-env's seed, as `SyncVectorEnv.np_random_seed` gives them (each sub-env
        has its own generator, as the single env it follows); empty before `reset`."""
        return tuple(self._seeds)

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The sub-envs' generators, in order (as `SyncVectorEnv.np_random`)."""
        return tuple(self._generators)

    # -- the protocol ------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observations, dict[str, Any]]:
        """Reset every sub-env, or those in ``options["reset_mask"]``; an int seed gives
        sub-env i the seed ``seed + i``, None continues each sub-env's stream."""
        self._check_open()
        seeds = seeds_for(seed, self.num_envs)
        mask = reset_mask_of(options, self.num_envs)
        if mask is not None:
            if not self._started and not mask.all():
                raise ValueError(
                    f"the first reset of {type(self).__name__} must reset every sub-env; "
                    'drop options["reset_mask"] or make it all True'
                )
            rows = np.flatnonzero(mask)
        else:
            rows = np.arange(self.num_envs)
        if not self._generators:  # the first reset (of every row, checked above)
            pairs = [np_random(seeds[row]) for row in range(self.num_envs)]
            self._generators = [generator for generator, _ in pairs]
            self._seeds = [used for _, used in pairs]
        else:
            for row in rows.tolist():
                if seeds[row] is not None:
                    self._generators[row], self._seeds[row] = np_random(seeds[row])
        observations = self._last_obs.copy()
        infos: dict[str, Any] = {}
        for row in rows.tolist():
            observation, info = self._reset_row(row)
            observations[row] = observation
            if info:
                add_info(infos, info, row, self.num_envs)
        self._started_at[rows] = self._tick
        self._pending[rows] = False
        self._started = True
        self._last_obs = observations
        return observations.copy(), infos

    def step(self, actions: Actions) -> VectorStepResult[Observations]:
        if not self._started:
            self._check_open()
            raise ResetNeeded(f"{type(self).__name__}: call reset() before step()")
        num_envs = self.num_envs
        actions = self._checked_actions(actions)
        mode = self._autoreset_mode
        pending = self._pending
        restarting = mode is _NEXT_STEP and bool(pending.any())
        stepped = np.flatnonzero(~pending).astype(np.int32) if restarting else None
        checked = actions[~pending] if restarting else actions
        if not _all(_isfinite(checked), None):
            self._reject_non_finite(actions, pending if restarting else None)

        observations, rewards, terminated, values = self.kernel_instance.step(
            actions, lambda: self._simulate(actions, stepped)
        )
        rewards = np.asarray(rewards, dtype=np.float64)
        if terminated is None:
            terminated = np.zeros(num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        masks = np.ones((len(values), num_envs), dtype=np.bool_)
        for (key, value), mask in zip(values.items(), masks, strict=True):
            infos[key] = value
            infos[f"_{key}"] = mask
        self._fresh[:] = False
        self._tick = tick = self._tick + 1

        if restarting:  # the sub-envs whose episodes ended last step restart instead
            rows = np.flatnonzero(pending)
            self._restart(rows, observations, infos)
            self._started_at[rows] = tick
            rewards[rows] = 0.0
            terminated[rows] = False
        truncated = self._truncations(tick)
        if mode is _NEXT_STEP:
            np.logical_or(terminated, truncated, out=pending)
        elif mode is _SAME_STEP:
            done = np.logical_or(terminated, truncated)
            if done.any():
                rows = np.flatnonzero(done)
                # The ended episodes' last observations and infos, recorded (by the shared
                # helper, in Gymnasium's layout) before the resets replace them.
                ended = [
                    (row, observations[row].copy(), info_of(infos, row)) for row in rows.tolist()
                ]
                finals: dict[str, Any] = {}
                add_finals(finals, ended, num_envs)
                self._restart(rows, observations, infos)
                self._started_at[rows] = tick
                infos.update(finals)
        self._last_obs = observations
        return observations.copy(), rewards, terminated, truncated, infos

    def render(self) -> tuple[Any, ...] | None:
        """One frame per sub-env, drawn by the template env from that sub-env's data."""
        self._check_open()
        if self.render_mode is None:
            return None
        if not self._started:
            raise ResetNeeded(f"{type(self).__name__}: call reset() before render()")
        template = self.env
        frames = []
        for row in range(self.num_envs):
            self._load(row, template.data)
            frames.append(template.mujoco_renderer.render(self.render_mode))
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        """Close the template env's renderer (`close` calls it once)."""
        self._started = False
        self.env.close()

    # -- the Sync/Async interface --------------------------------------------------------

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute `name` of each sub-env, as `SyncVectorEnv.get_attr` gives it.

        Each sub-env's own generator (`np_random`, `np_random_seed`), reset attributes
        (Reacher's `goal`, Pusher's `init_qpos`, ...) and `data` (a copy of its `MjData`);
        any other attribute is a setting all sub-envs share (the template env's).
        """
        self._check_open()
        if name == "data":
            return tuple(self._load(row, mujoco.MjData(self.model)) for row in range(self.num_envs))
        if name in ("np_random", "np_random_seed"):
            if not self._generators:
                raise ResetNeeded(f"{type(self).__name__}: call reset() before get_attr({name!r})")
            return self.np_random if name == "np_random" else self.np_random_seed
        if any(name in own for own in self._own):
            return tuple(own.get(name) for own in self._own)
        value = getattr(self.env, name)
        return (value,) * self.num_envs

    def set_attr(self, name: str, values: Any) -> None:
        """Set `name` like `SyncVectorEnv.set_attr` (one value, or a list of one per sub-env).

        A sub-env's own attribute (its generator, reset attributes) takes its value row by
        row; a shared setting takes a value only if every sub-env gets the same one.
        """
        self._check_open()
        per_env = values_per_env(values, self.num_envs)
        if name == "np_random":
            self._generators = list(per_env)
            self._seeds = [-1] * self.num_envs
            return
        if any(name in own for own in self._own):
            for own, value in zip(self._own, per_env, strict=True):
                own[name] = value
            return
        first = per_env[0]
        if any(not _same(value, first) for value in per_env[1:]):
            raise ValueError(
                f"{type(self).__name__} keeps one {name!r} for all its sub-envs, so they cannot "
                "take different values; set one value, or use make_vec(..., "
                "vectorization_mode='sync') for per-sub-env values"
            )
        setattr(self.env, name, first)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method `name` of each sub-env, as `SyncVectorEnv.call` does: `render` gives
        the sub-envs' frames; a single env's method runs on a copy of each sub-env's data
        (so `state_vector`, `get_body_com`, ... answer per sub-env; what a method changes is
        not carried back). A non-callable attribute is read as `get_attr` reads it."""
        self._check_open()
        if name == "render":
            frames = self.render()
            return frames if frames is not None else (None,) * self.num_envs
        member = getattr(self.env, name)
        if not callable(member):
            return self.get_attr(name)
        results = []
        for row in range(self.num_envs):
            self._load(row, self.env.data)
            result = member(*args, **kwargs)
            # An array may be a view of the template's data, which the next sub-env overwrites.
            results.append(result.copy() if isinstance(result, np.ndarray) else result)
        return tuple(results)

    # -- internals -----------------------------------------------------------------------

    def _reset_row(self, row: int) -> tuple[Observations, dict[str, Any]]:
        """Run sub-env `row`'s reset on the template, as the single env's `reset` runs it,
        and load the state it drew into the batch."""
        template = self.env
        own = self._own[row]
        template.np_random = self._generators[row]
        if "init_qpos" in own:
            template.init_qpos = own["init_qpos"]
        mujoco.mj_resetData(template.model, template.data)
        template._control_shape = (template.model.nu,)
        observation = template.reset_model()
        info = template._get_reset_info()
        mujoco.mj_getState(template.model, template.data, self._batch.state[row], _INTEGRATION)
        for attribute in self.kernel.reset_attributes:
            own[attribute] = getattr(template, attribute)
        self.kernel_instance.reset_row(row, template.data)
        self._fresh[row] = True
        return observation, info

    def _restart(
        self, rows: NDArray[np.intp], observations: Observations, infos: dict[str, Any]
    ) -> None:
        """Autoreset sub-envs `rows`: their reset observations replace theirs in the batch,
        and their reset infos replace their step infos (as SyncVectorEnv merges them)."""
        num_envs = self.num_envs
        for key in [key for key in infos if not key.startswith("_")]:
            infos[f"_{key}"][rows] = False
            values = infos[key]
            if isinstance(values, np.ndarray):
                values[rows] = 0
        for row in rows.tolist():
            observation, info = self._reset_row(row)
            observations[row] = observation
            if info:
                add_info(infos, info, row, num_envs)
        for key in [key for key in infos if not key.startswith("_")]:
            if not infos[f"_{key}"].any():
                del infos[key], infos[f"_{key}"]

    def _simulate(self, actions: NDArray[Any], stepped: NDArray[np.int32] | None) -> None:
        """Apply the controls and step the physics (of the `stepped` sub-envs, or all)."""
        template = self.env
        self._ctrl[...] = actions
        self._batch.step(stepped, nstep=template.frame_skip)
        scratch = self._scratch
        if scratch is not None:
            batch, model, forces = self._batch, template.model, self._fields.cfrc_ext
            rows = range(self.num_envs) if stepped is None else stepped.tolist()
            for row in rows:
                batch.get_data(row, scratch)
                mujoco.mj_rnePostConstraint(model, scratch)
                forces[row] = scratch.cfrc_ext

    def _load(self, row: int, data: mujoco.MjData) -> mujoco.MjData:
        """Copy sub-env `row` into `data` as the single env's data would hold it: with a
        persistent batch the whole `MjData` after its last step, else its state with the
        derived fields recomputed (`mj_forward`); a sub-env just reset is recomputed too,
        as the single env's reset leaves it."""
        self._batch.get_data(row, data)
        if not self._persistent or self._fresh[row]:
            mujoco.mj_forward(self.model, data)
        return data

    def _truncations(self, tick: int) -> NDArray[np.bool_]:
        limit = self.max_episode_steps
        if limit is None:
            return np.zeros(self.num_envs, dtype=np.bool_)
        truncated: NDArray[np.bool_] = np.less_equal(self._started_at, tick - limit)
        return truncated

    def _checked_actions(self, actions: Any) -> NDArray[Any]:
        """`actions` as an array of shape (num_envs, nu) of real numbers, or `InvalidAction`."""
        shape = (self.num_envs, self.model.nu)
        if (
            actions.__class__ is np.ndarray
            and actions.shape == shape
            and actions.dtype.kind in "fiu"
        ):
            return actions
        try:
            array = np.asarray(actions)
        except (TypeError, ValueError):
            array = np.asarray(None)
        if array.dtype.kind not in "fiu" or array.shape != shape:
            raise InvalidAction(
                f"{type(self).__name__}.step() needs an array of shape {shape} of real numbers "
                f"(one row of {self.model.nu} controls per sub-env), got {actions!r} (shape "
                f"{array.shape}, dtype {array.dtype}); e.g. env.action_space.sample()"
            )
        return array

    def _reject_non_finite(self, actions: NDArray[Any], skipped: NDArray[np.bool_] | None) -> None:
        bad = ~_all(_isfinite(actions), -1)
        if skipped is not None:
            bad &= ~skipped
        raise InvalidAction(
            f"{type(self).__name__}.step() got actions holding NaN or an infinity for sub-envs "
            f"{np.flatnonzero(bad).tolist()}; MuJoCo cannot simulate them. Pass finite numbers "
            "(values outside the action space are clamped to the actuators' ranges)."
        )

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(
                f"this {type(self).__name__} is closed; make a new one to keep going"
            )


def _positive_int(owner: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{owner} needs {name} to be a positive int, got {value!r}")
    return int(value)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return bool(a == b)


class AntV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Ant-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.AntV5


class AntV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Ant-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.AntV4


class HalfCheetahV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """HalfCheetah-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.HalfCheetahV5


class HalfCheetahV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """HalfCheetah-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.HalfCheetahV4


class HopperV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Hopper-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.HopperV5


class HopperV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Hopper-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.HopperV4


class HumanoidV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Humanoid-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.HumanoidV5


class HumanoidV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Humanoid-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.HumanoidV4


class HumanoidStandupV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """HumanoidStandup-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.HumanoidStandupV5


class HumanoidStandupV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """HumanoidStandup-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.HumanoidStandupV4


class InvertedDoublePendulumV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """InvertedDoublePendulum-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.InvertedDoublePendulumV5


class InvertedDoublePendulumV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """InvertedDoublePendulum-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.InvertedDoublePendulumV4


class InvertedPendulumV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """InvertedPendulum-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.InvertedPendulumV5


class InvertedPendulumV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """InvertedPendulum-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.InvertedPendulumV4


class PusherV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Pusher-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.PusherV5


class ReacherV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Reacher-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.ReacherV5


class ReacherV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Reacher-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.ReacherV4


class SwimmerV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Swimmer-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.SwimmerV5


class SwimmerV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Swimmer-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.SwimmerV4


class Walker2dV5VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Walker2d-v5, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.Walker2dV5


class Walker2dV4VectorEnv(MujocoVectorEnv[ModeT_co]):
    """Walker2d-v4, vectorized: sub-env i under seed s is the env under seed s + i."""

    kernel = batched_steps.Walker2dV4
