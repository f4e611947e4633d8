"""`SyncVectorEnv`: sub-envs stepped one after another in this process.

The hot loop writes each observation straight into a preallocated batch (no per-step list
or concatenate for array spaces) and only builds infos when a sub-env reports one.
"""

from __future__ import annotations

import copy as copy_module
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, overload

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env, Wrapper
from protogym.error import ClosedEnvironmentError
from protogym.spaces import batch_space, concatenate, create_empty_array, iterate
from protogym.spaces.space import Space
from protogym.vector.utils import add_finals, add_info
from protogym.vector.vector_env import (
    ActT,
    AutoresetMode,
    Disabled,
    ModeT_co,
    NextStep,
    ObsT_co,
    SameStep,
    VectorEnvBase,
    VectorStepResult,
    parse_autoreset_mode,
    seeds_for,
)

__all__ = ["SyncVectorEnv"]


def check_sub_env_spaces(
    envs: Sequence[Env[Any, Any]], single_obs: Space[Any], single_act: Space[Any]
) -> None:
    """Every sub-env must share the first one's spaces, or batching is meaningless."""
    for index, env in enumerate(envs):
        if env.observation_space != single_obs:
            raise ValueError(
                f"sub-env {index} has observation space {env.observation_space}, but sub-env "
                f"0 has {single_obs}; every sub-env of a vector env needs the same spaces"
            )
        if env.action_space != single_act:
            raise ValueError(
                f"sub-env {index} has action space {env.action_space}, but sub-env 0 has "
                f"{single_act}; every sub-env of a vector env needs the same spaces"
            )


def reset_mask_of(options: dict[str, Any] | None, num_envs: int) -> NDArray[np.bool_] | None:
    """The validated ``options["reset_mask"]``, or None to reset every sub-env."""
    if not options or "reset_mask" not in options:
        return None
    mask = np.asarray(options["reset_mask"])
    if mask.dtype != np.bool_ or mask.shape != (num_envs,):
        raise ValueError(
            f'options["reset_mask"] must be a bool array of shape ({num_envs},), got '
            f"{mask.dtype} of shape {mask.shape}"
        )
    return mask


class SyncVectorEnv(VectorEnvBase[ObsT_co, ActT, ModeT_co]):
    """Steps `len(env_fns)` sub-envs in sequence in the calling process.

    `copy=False` returns the internal observation batch, which the next step overwrites.
    """

    single_observation_space: Space[Any]
    single_action_space: Space[Any]
    observation_space: Space[ObsT_co]
    action_space: Space[ActT]
    render_mode: str | None

    @overload
    def __init__(
        self: SyncVectorEnv[Any, Any, SameStep],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        *,
        copy: bool = True,
        autoreset_mode: SameStep | Literal["same_step"] = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: SyncVectorEnv[Any, Any, NextStep],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        *,
        copy: bool = True,
        autoreset_mode: NextStep | Literal["next_step"],
    ) -> None: ...
    @overload
    def __init__(
        self: SyncVectorEnv[Any, Any, Disabled],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        *,
        copy: bool = True,
        autoreset_mode: Disabled | Literal["disabled"],
    ) -> None: ...
    @overload
    def __init__(
        self: SyncVectorEnv[Any, Any, AutoresetMode],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        *,
        copy: bool = True,
        autoreset_mode: AutoresetMode | str,
    ) -> None: ...
    def __init__(
        self,
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        *,
        copy: bool = True,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        fns = list(env_fns)
        if not fns:
            raise ValueError("SyncVectorEnv needs at least one env function, got none")
        not_callable = [i for i, fn in enumerate(fns) if not callable(fn)]
        if not_callable:
            raise TypeError(
                f"SyncVectorEnv takes functions that build envs (e.g. `lambda: make(id)`), but "
                f"entries {not_callable} are not callable"
            )
        self._autoreset_mode = parse_autoreset_mode(autoreset_mode)
        self.envs: list[Env[Any, Any]] = [fn() for fn in fns]
        self.num_envs = len(self.envs)
        self.copy = copy
        first = self.envs[0]
        self.metadata = {**first.metadata, "autoreset_mode": self._autoreset_mode}
        self.render_mode = first.render_mode
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        check_sub_env_spaces(self.envs, self.single_observation_space, self.single_action_space)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._observations: Any = create_empty_array(self.single_observation_space, self.num_envs)
        self._array_obs = isinstance(self._observations, np.ndarray)
        self._needs_autoreset = np.zeros(self.num_envs, dtype=np.bool_)
        self.closed = False

    @property
    def autoreset_mode(self) -> ModeT_co:
        return self._autoreset_mode  # type: ignore[return-value]

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT_co, dict[str, Any]]:
        self._check_open()
        seeds = seeds_for(seed, self.num_envs)
        mask = reset_mask_of(options, self.num_envs)
        if mask is not None:
            options = {k: v for k, v in options.items() if k != "reset_mask"}  # type: ignore[union-attr]
        infos: dict[str, Any] = {}
        obs_list: list[Any] = []
        if mask is not None and not self._array_obs:
            obs_list = list(iterate(self.observation_space, self._observations))
        for index, env in enumerate(self.envs):
            if mask is not None and not mask[index]:
                continue
            try:
                obs, info = env.reset(seed=seeds[index], options=options)
            except Exception as exc:
                exc.add_note(f"raised by sub-env {index} of {type(self).__name__}.reset")
                raise
            self._needs_autoreset[index] = False
            if self._array_obs:
                self._observations[index] = obs
            elif mask is not None:
                obs_list[index] = obs
            else:
                obs_list.append(obs)
            if info:
                add_info(infos, info, index, self.num_envs)
        return self._batch(obs_list), infos

    def step(self, actions: ActT) -> VectorStepResult[ObsT_co]:
        self._check_open()
        num_envs = self.num_envs
        rewards = np.zeros(num_envs, dtype=np.float64)
        terminations = np.zeros(num_envs, dtype=np.bool_)
        truncations = np.zeros(num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        mode = self._autoreset_mode
        needs_autoreset = self._needs_autoreset
        array_obs = self._array_obs
        observations = self._observations
        obs_list: list[Any] = []
        finals: list[tuple[int, Any, Any]] = []
        rows: Any = actions
        if not isinstance(actions, np.ndarray):
            try:
                rows = list(iterate(self.action_space, actions))
            except TypeError:
                rows = ()
        count = len(rows) if not isinstance(rows, np.ndarray) or rows.ndim else 0
        if count != num_envs:
            raise ValueError(
                f"step() needs one action per sub-env ({num_envs}), got {count}: {actions!r}"
            )
        index = 0
        try:
            for index, (env, action) in enumerate(zip(self.envs, rows, strict=False)):
                if mode is AutoresetMode.NEXT_STEP and needs_autoreset[index]:
                    obs, info = env.reset()
                    needs_autoreset[index] = False
                else:
                    obs, reward, terminated, truncated, info = env.step(action)
                    rewards[index] = reward
                    if terminated or truncated:
                        terminations[index] = terminated
                        truncations[index] = truncated
                        if mode is AutoresetMode.SAME_STEP:
                            finals.append((index, detached(obs), info))
                            obs, info = env.reset()
                        elif mode is AutoresetMode.NEXT_STEP:
                            needs_autoreset[index] = True
                if array_obs:
                    observations[index] = obs
                else:
                    obs_list.append(obs)
                if info:
                    add_info(infos, info, index, num_envs)
        except Exception as exc:
            exc.add_note(f"raised by sub-env {index} of {type(self).__name__}.step")
            raise
        batch = self._batch(obs_list)
        if finals:
            add_finals(infos, finals, batch, self.observation_space,
                       self.single_observation_space, num_envs)
        return batch, rewards, terminations, truncations, infos

    def _batch(self, obs_list: list[Any]) -> ObsT_co:
        if not self._array_obs:
            self._observations = concatenate(
                self.single_observation_space, obs_list, self._observations
            )
        observations = self._observations
        if not self.copy:
            return observations  # type: ignore[no-any-return]
        if isinstance(observations, np.ndarray):
            return observations.copy()  # type: ignore[return-value]
        return copy_module.deepcopy(observations)  # type: ignore[no-any-return]

    def render(self) -> tuple[Any, ...] | None:
        self._check_open()
        if self.render_mode is None:
            return None
        return tuple(env.render() for env in self.envs)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method `name` of every sub-env (or read attribute `name` if not callable)."""
        self._check_open()
        results = []
        for env in self.envs:
            member = sub_env_attr(env, name)
            results.append(member(*args, **kwargs) if callable(member) else member)
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute `name` of every sub-env (looked up through its wrappers)."""
        self._check_open()
        return tuple(sub_env_attr(env, name) for env in self.envs)

    def set_attr(self, name: str, values: Any) -> None:
        """Set attribute `name` on every sub-env: a list/tuple gives one value each.

        The value goes to the outermost layer (wrapper or env) that has the attribute, or to
        the innermost env if none has it.
        """
        self._check_open()
        for env, value in zip(self.envs, values_per_env(values, self.num_envs), strict=True):
            set_sub_env_attr(env, name, value)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for env in self.envs:
            env.close()

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(
                f"this {type(self).__name__} is closed; make a new one to keep going"
            )


def detached(observation: Any) -> Any:
    """A copy of a final observation, safe from an env that reuses its buffer on reset."""
    if isinstance(observation, np.ndarray):
        return observation.copy()
    return copy_module.deepcopy(observation)


def values_per_env(values: Any, num_envs: int) -> list[Any]:
    """`set_attr` values: a list/tuple must have one per sub-env; anything else is shared."""
    if isinstance(values, list | tuple):
        if len(values) != num_envs:
            raise ValueError(
                f"set_attr got {len(values)} values for {num_envs} sub-envs; pass one value "
                "per sub-env, or a single non-list value to give all of them"
            )
        return list(values)
    return [values] * num_envs


def set_sub_env_attr(env: Env[Any, Any], name: str, value: Any) -> None:
    """Set `name` on the outermost layer of `env` that has it, else on the innermost env."""
    layer: Any = env
    while not hasattr(layer, name) and isinstance(layer, Wrapper):
        layer = layer.env
    setattr(layer, name, value)


def sub_env_attr(env: Env[Any, Any], name: str) -> Any:
    getter = getattr(env, "get_wrapper_attr", None)
    if getter is not None:
        return getter(name)
    return getattr(env, name)
