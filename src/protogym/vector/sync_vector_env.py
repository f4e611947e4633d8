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
from protogym.spaces import (
    Box,
    Discrete,
    MultiBinary,
    MultiDiscrete,
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)
from protogym.spaces.space import Space
from protogym.spaces.utils import is_space_dtype_shape_equiv
from protogym.vector.utils.infos import add_finals, add_info
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


ObservationMode = str | tuple[Space[Any], Space[Any]]
"""``"same"``, ``"different"``, or ``(observation_space, single_observation_space)``."""


def batched_observation_spaces(
    observation_mode: object, first: Space[Any], num_envs: int, owner: str
) -> tuple[Space[Any], Space[Any]] | None:
    """`(single, batched)` observation spaces for `observation_mode`, or None for
    ``"different"`` (batched from every sub-env's space, which the caller collects).

    ``"same"`` batches `first`, sub-env 0's space, `num_envs` times; a tuple gives both
    spaces, the batched one first (Gymnasium's order).
    """
    if isinstance(observation_mode, tuple) and len(observation_mode) == 2:
        batched, single = observation_mode
        if not (isinstance(batched, Space) and isinstance(single, Space)):
            raise TypeError(
                f"{owner}(observation_mode=(observation_space, single_observation_space)) "
                f"takes two spaces, got {type(batched).__name__} and {type(single).__name__}"
            )
        return single, batched
    if observation_mode == "same":
        return first, batch_space(first, num_envs)
    if observation_mode == "different":
        return None
    raise ValueError(
        f"{owner}: observation_mode must be 'same', 'different' or a tuple "
        f"(observation_space, single_observation_space), got {observation_mode!r}"
    )


def check_sub_env_spaces(
    owner: str,
    observation_mode: object,
    spaces: Sequence[tuple[Space[Any], Space[Any]]],
    single_obs: Space[Any],
    single_act: Space[Any],
) -> None:
    """Every sub-env's `(observation_space, action_space)` must fit the batched spaces:
    the same observation space (``"same"``) or one of the same shape and dtype (otherwise),
    and the same action space. A `RuntimeError` names the first that does not."""
    same = observation_mode == "same"
    for index, (obs_space, act_space) in enumerate(spaces):
        if same and obs_space != single_obs:
            raise RuntimeError(
                f"{owner}(..., observation_mode='same'): sub-env {index} has observation "
                f"space {obs_space}, but single_observation_space is {single_obs}; the "
                "sub-environments observation spaces are not equivalent. If this is "
                "intentional, use `observation_mode='different'` instead (spaces of one "
                "shape and dtype, different bounds)"
            )
        if not same and not is_space_dtype_shape_equiv(obs_space, single_obs):
            raise RuntimeError(
                f"{owner}: sub-env {index} has observation space {obs_space}, which differs "
                f"in shape or dtype from single_observation_space {single_obs}; "
                f"observation_mode={observation_mode!r} needs one shape and dtype"
            )
        if act_space != single_act:
            raise RuntimeError(
                f"{owner}: sub-env {index} has action space {act_space}, but sub-env 0 has "
                f"{single_act}; every sub-env of a vector env needs the same action space"
            )


def reset_mask_of(options: dict[str, Any] | None, num_envs: int) -> NDArray[np.bool_] | None:
    """The validated ``options["reset_mask"]``, or None to reset every sub-env.

    A mask that is not a bool array is a `TypeError`; one of the wrong shape, or with no
    True entry, a `ValueError` (Gymnasium's classes).
    """
    if not options or "reset_mask" not in options:
        return None
    mask = options["reset_mask"]
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
        got = f"dtype {mask.dtype}" if isinstance(mask, np.ndarray) else type(mask).__name__
        raise TypeError(
            f'options["reset_mask"] must be a numpy bool array of shape ({num_envs},), got '
            f"{got}: {mask!r}"
        )
    if mask.shape != (num_envs,):
        raise ValueError(
            f'options["reset_mask"] must have shape ({num_envs},), one entry per sub-env, '
            f"got shape {mask.shape}"
        )
    if not mask.any():
        raise ValueError(
            f'options["reset_mask"] has no True entry, so it would reset nothing: {mask}'
        )
    return mask


def without_reset_mask(options: dict[str, Any]) -> dict[str, Any]:
    """The reset options the sub-envs get: all but the vector env's own `reset_mask`."""
    return {key: value for key, value in options.items() if key != "reset_mask"}


class SyncVectorEnv(VectorEnvBase[ObsT_co, ActT, ModeT_co]):
    """Steps `len(env_fns)` sub-envs in sequence in the calling process.

    `copy=False` returns the internal observation batch, which the next step overwrites.
    `observation_mode` says how the batched observation space is formed: ``"same"`` (every
    sub-env has sub-env 0's space), ``"different"`` (spaces of one shape and dtype with
    different bounds, batched with `batch_differing_spaces`), or a tuple
    ``(observation_space, single_observation_space)`` given outright.
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
        copy: bool = True,
        observation_mode: ObservationMode = "same",
        autoreset_mode: SameStep | Literal["SameStep", "same_step"] = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: SyncVectorEnv[Any, Any, NextStep],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        copy: bool = True,
        observation_mode: ObservationMode = "same",
        *,
        autoreset_mode: NextStep | Literal["NextStep", "next_step"],
    ) -> None: ...
    @overload
    def __init__(
        self: SyncVectorEnv[Any, Any, Disabled],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        copy: bool = True,
        observation_mode: ObservationMode = "same",
        *,
        autoreset_mode: Disabled | Literal["Disabled", "disabled"],
    ) -> None: ...
    @overload
    def __init__(
        self: SyncVectorEnv[Any, Any, AutoresetMode],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        copy: bool = True,
        observation_mode: ObservationMode = "same",
        autoreset_mode: AutoresetMode | str = ...,
    ) -> None: ...
    def __init__(
        self,
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        copy: bool = True,
        observation_mode: ObservationMode = "same",
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
        self.env_fns = fns
        self.observation_mode = observation_mode
        self.envs: list[Env[Any, Any]] = [fn() for fn in fns]
        self.num_envs = len(self.envs)
        self.copy = copy
        first = self.envs[0]
        self.metadata = {**first.metadata, "autoreset_mode": self._autoreset_mode}
        self.render_mode = first.render_mode
        spaces = batched_observation_spaces(
            observation_mode, first.observation_space, self.num_envs, "SyncVectorEnv"
        )
        if spaces is None:
            self.single_observation_space = first.observation_space
            self.observation_space = batch_differing_spaces(
                [env.observation_space for env in self.envs]
            )
        else:
            self.single_observation_space, self.observation_space = spaces
        self.single_action_space = first.action_space
        check_sub_env_spaces(
            "SyncVectorEnv",
            observation_mode,
            [(env.observation_space, env.action_space) for env in self.envs],
            self.single_observation_space,
            self.single_action_space,
        )
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._action_shape = array_batch_shape(self.action_space)
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
            options = without_reset_mask(options)  # type: ignore[arg-type]
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
        if not (isinstance(actions, np.ndarray) and actions.shape == self._action_shape):
            rows = action_rows(actions, self.action_space, num_envs)
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
        if finals:
            add_finals(infos, finals, num_envs)
        return self._batch(obs_list), rewards, terminations, truncations, infos

    @property
    def np_random_seed(self) -> tuple[int | None, ...]:  # type: ignore[override]
        """The sub-envs' `np_random_seed`s, in order (Gymnasium's meaning for a vector env)."""
        return self.get_attr("np_random_seed")

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The sub-envs' generators, in order."""
        return self.get_attr("np_random")

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

    def close_extras(self, **kwargs: Any) -> None:
        """Close every sub-env."""
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


def array_batch_shape(action_space: Space[Any]) -> tuple[int, ...] | None:
    """The shape every action batch of `action_space` (a batched space) must have when its
    batches are plain arrays (batched `Box`, `Discrete`, `MultiDiscrete`, `MultiBinary`),
    else None (dicts, tuples, custom spaces: their rows are counted instead)."""
    if isinstance(action_space, Box | Discrete | MultiDiscrete | MultiBinary):
        return action_space.shape
    return None


def wrong_action_batch(
    actions: Any, expected: tuple[int, ...], num_envs: int, call: str = "step()"
) -> ValueError:
    """The error for an action batch whose shape is not `expected`: what was wanted, what
    came, and how to build a right one."""
    if isinstance(actions, np.ndarray):
        got = f"an array of shape {actions.shape}"
    else:
        try:
            got = f"{type(actions).__name__} of shape {np.shape(actions)}"
        except ValueError:
            got = f"a ragged {type(actions).__name__} (its rows differ in length)"
    single = expected[1:]
    each = f"an action of shape {single}" if single else "one action"
    return ValueError(
        f"{call} needs a batch of {num_envs} actions, an array of shape {expected} "
        f"({each} per sub-env), got {got}; stack one action per sub-env along the first "
        "axis (env.action_space.sample() has the right shape)"
    )


def action_rows(
    actions: Any, action_space: Space[Any], num_envs: int, call: str = "step()"
) -> Any:
    """`actions` as something to zip with the sub-envs: an array, or a list of one action
    each. One action per sub-env is required: a scalar is a `TypeError`, a batch of the
    wrong length, or an array of the wrong shape for an array space, a `ValueError` (raised
    before any sub-env is stepped)."""
    if isinstance(actions, np.ndarray):
        if actions.ndim == 0:
            raise TypeError(
                f"{call} takes a batch of {num_envs} actions (one per sub-env), got the "
                f"single action {actions!r}"
            )
        expected = array_batch_shape(action_space)
        if expected is not None and actions.dtype != object and actions.shape != expected:
            raise wrong_action_batch(actions, expected, num_envs, call)
        count = len(actions)
        rows: Any = actions
    else:
        try:
            rows = list(iterate(action_space, actions))
        except TypeError:
            raise TypeError(
                f"{call} takes a batch of {num_envs} actions (one per sub-env) in "
                f"{action_space}, got {actions!r}"
            ) from None
        count = len(rows)
    if count != num_envs:
        raise ValueError(
            f"{call} needs one action per sub-env ({num_envs}), got {count}: {actions!r}"
        )
    return rows


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
