"""A `FuncEnv` as a stateful `Env` or `VectorEnv`, whatever its array backend.

The adapters hold the state and the random key and call the pure functions of
`protogym.functional.pure` and `.wrappers`; a backend subclass says how to compile them,
where keys come from and how results reach the host (`FunctionalJaxEnv` jits and copies
from the device; `FunctionalNumpyEnv` does neither). The caller's `FuncEnv` is only read:
batching and compiling wrap its methods, never replace them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
from typing_extensions import TypeVar as DefaultTypeVar

from protogym import error
from protogym.core import Env
from protogym.functional import _backend
from protogym.functional.func_env import FUNC_ENV_MEMBERS, FuncEnv
from protogym.functional.pure import PureEnv, pure, pure_reset, pure_step
from protogym.functional.wrappers import (
    FINAL_KEYS,
    autoreset,
    partial_reset,
    time_limit,
    vectorize,
)
from protogym.registration.env_spec import EnvSpec
from protogym.spaces.space import Space
from protogym.spaces.vector_utils import batch_space
from protogym.vector.sync_vector_env import reset_mask_of
from protogym.vector.vector_env import (
    AutoresetMode,
    VectorEnvBase,
    VectorStepResult,
    parse_autoreset_mode,
)

__all__ = ["FunctionalEnvBase", "FunctionalVectorEnvBase"]

O = TypeVar("O")  # noqa: E741
A = TypeVar("A")
# A vector adapter's batched observation and action types (what reset/step return and take,
# on the host); Any unless a subclass names them, as an env package's adapter does.
BatchO = DefaultTypeVar("BatchO", default=Any)
BatchA = DefaultTypeVar("BatchA", default=Any)


def _checked(func_env: object) -> FuncEnv[Any, Any, Any, Any, Any, Any, Any]:
    if not isinstance(func_env, FuncEnv):
        missing = [name for name in FUNC_ENV_MEMBERS if not hasattr(func_env, name)]
        raise TypeError(
            f"func_env must be a FuncEnv, got {type(func_env).__name__} (missing: "
            f"{', '.join(missing)}). Subclass protogym.functional.FuncEnv for the defaults."
        )
    return func_env


class _Backend:
    """How an adapter compiles, keys and copies to the host; the base is plain numpy."""

    def _compile(self, func: Callable[..., Any]) -> Callable[..., Any]:
        return func

    def _to_host(self, tree: Any) -> Any:
        return tree

    def _array_dtype(self, dtype: Any) -> Any:
        """The dtype the compiled functions take for arrays of `dtype`."""
        return dtype

    def _key_for(self, seed: int | None) -> Any:
        """The key to use from now on, for an explicit `seed` or (None) a fresh one."""
        raise NotImplementedError(
            f"{type(self).__name__} needs a backend: use FunctionalJaxEnv/FunctionalJaxVectorEnv "
            "or FunctionalNumpyEnv/FunctionalNumpyVectorEnv, or define _key_for"
        )


class FunctionalEnvBase(_Backend, Env[O, A]):
    """One environment stepped through a `FuncEnv`'s pure reset and step.

    `step` returns the reward as a `float` and `terminated` as a `bool` (read from the
    device together, once per step); the observation and info stay as the env made them.
    It never truncates: `make` adds the time limit.
    """

    observation_space: Space[O]
    action_space: Space[A]
    metadata: dict[str, Any]
    render_mode: str | None
    spec: EnvSpec | None

    def __init__(
        self,
        func_env: FuncEnv[Any, O, A, Any, Any, Any, Any],
        metadata: dict[str, Any] | None = None,
        render_mode: str | None = None,
        spec: EnvSpec | None = None,
    ) -> None:
        self.func_env = _checked(func_env)
        self.observation_space = func_env.observation_space
        self.action_space = func_env.action_space
        self.metadata = {"render_modes": ["rgb_array"]} if metadata is None else metadata
        if render_mode not in (None, "rgb_array"):
            raise error.UnsupportedMode(
                f"render_mode must be None or 'rgb_array' for a functional env, got "
                f"{render_mode!r}"
            )
        self.render_mode = render_mode
        self.spec = spec
        self.render_state: Any = func_env.render_init() if render_mode == "rgb_array" else None
        self.state: Any = None
        self._reset_fn = self._compile(_split_first(pure_reset(func_env)))
        self._step_fn = self._compile(_split_first(_core_step(func_env)))
        self._key = self._key_for(None)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[O, dict[str, Any]]:
        """Draw an initial state; an int `seed` restarts the key stream from it."""
        super().reset(seed=seed)
        if seed is not None:
            self._key = self._key_for(seed)
        self._key, (self.state, obs, info) = self._reset_fn(self._key)
        return obs, info

    def step(self, action: A) -> tuple[O, float, bool, bool, dict[str, Any]]:
        """Advance the state by `action`."""
        if self.state is None:
            raise error.ResetNeeded("call reset() before step() on a functional env")
        self._key, (self.state, obs, outcome, info) = self._step_fn(
            self._key, self.state, action
        )
        reward, terminated = np.asarray(outcome).tolist()  # one copy from the device
        return obs, reward, bool(terminated), False, info

    def render(self) -> Any:
        """The current state drawn by the `FuncEnv`, for render_mode 'rgb_array'."""
        if self.render_mode != "rgb_array":
            return None
        if self.state is None:
            raise error.ResetNeeded("call reset() before render() on a functional env")
        self.render_state, image = self.func_env.render_image(self.state, self.render_state)
        return image

    def close(self) -> None:
        """Release the render state, once."""
        if self.render_state is not None:
            self.func_env.render_close(self.render_state)
            self.render_state = None


def _core_step(func_env: FuncEnv[Any, Any, Any, Any, Any, Any, Any]) -> Callable[..., Any]:
    """The pure step without `truncated` (a single adapter never sets it), with the reward
    and the terminated flag packed in one float array, for one copy to the host."""
    step = pure_step(func_env)

    def core(key: Any, state: Any, action: Any) -> Any:
        out = step(key, state, action)
        xp = _backend.numpy_of(out.reward, out.terminated)
        outcome = xp.stack(
            [xp.asarray(out.reward, dtype=float), xp.asarray(out.terminated, dtype=float)]
        )
        return out.state, out.obs, outcome, out.info

    return core


def _packed_step(step: Callable[..., Any]) -> Callable[..., Any]:
    """A batched step returning `(state, obs, outcome, info)`, with rewards, terminations
    and truncations stacked in one float array of shape `(3, num_envs)`: one copy to the
    host instead of three."""

    def packed(key: Any, state: Any, actions: Any) -> Any:
        out = step(key, state, actions)
        xp = _backend.numpy_of(out.reward, out.terminated)
        outcome = xp.stack(
            [xp.asarray(flag, dtype=float) for flag in (out.reward, out.terminated, out.truncated)]
        )
        return out.state, out.obs, outcome, out.info

    return packed


def _split_first(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` taking a key it splits: returns the key to keep and `func` of the other."""

    def keyed(key: Any, *args: Any) -> Any:
        kept, used = _backend.split(key, 2)
        return kept, func(used, *args)

    return keyed


class FunctionalVectorEnvBase(
    _Backend, VectorEnvBase[BatchO, BatchA, AutoresetMode], Generic[O, A, BatchO, BatchA]
):
    """`num_envs` copies of a `FuncEnv`, batched, with a time limit and autoreset.

    The autoreset mode comes from ``metadata["autoreset_mode"]`` (next-step when absent,
    as Gymnasium's adapter); `max_episode_steps` > 0 truncates episodes. A step is one
    call of one compiled function over the whole batch; infos follow Gymnasium 1.4's
    layout (``_key`` masks; ``final_obs``/``final_info`` in same-step mode).
    """

    single_observation_space: Space[O]
    single_action_space: Space[A]
    observation_space: Space[Any]
    action_space: Space[Any]

    def __init__(
        self,
        func_env: FuncEnv[Any, O, A, Any, Any, Any, Any],
        num_envs: int,
        max_episode_steps: int = 0,
        metadata: dict[str, Any] | None = None,
        render_mode: str | None = None,
        spec: EnvSpec | None = None,
    ) -> None:
        super().__init__()
        self.func_env = _checked(func_env)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if (
            isinstance(max_episode_steps, bool)
            or not isinstance(max_episode_steps, int | np.integer)
            or max_episode_steps < 0
        ):
            raise ValueError(
                f"max_episode_steps must be an int >= 0 (0: no time limit), got "
                f"{max_episode_steps!r}"
            )
        if render_mode not in (None, "rgb_array"):
            raise error.UnsupportedMode(
                f"render_mode must be None or 'rgb_array' for a functional vector env, got "
                f"{render_mode!r}"
            )
        self.num_envs = int(num_envs)
        self.metadata = (
            {"autoreset_mode": AutoresetMode.NEXT_STEP} if metadata is None else metadata
        )
        mode = parse_autoreset_mode(self.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP))
        self.render_mode = render_mode
        self.render_state: Any = func_env.render_init() if render_mode == "rgb_array" else None
        self.spec = spec
        self.time_limit = int(max_episode_steps)
        self.single_observation_space = func_env.observation_space
        self.single_action_space = func_env.action_space
        self.observation_space = batch_space(func_env.observation_space, self.num_envs)
        self.action_space = batch_space(func_env.action_space, self.num_envs)

        single: PureEnv[Any, Any, Any, Any, Any, Any] = pure(func_env)
        if self.time_limit:
            single = time_limit(single, self.time_limit)
        program: PureEnv[Any, Any, Any, Any, Any, Any] = autoreset(
            vectorize(single, self.num_envs), mode
        )
        self._program = program
        self._reset_fn = self._compile(_split_first(program.reset))
        self._step_fn = self._compile(_split_first(_packed_step(program.step)))
        self._partial_reset_fn = self._compile(_split_first(self._partial_reset))
        self._same_step = mode is AutoresetMode.SAME_STEP
        dtype = getattr(self.single_action_space, "dtype", None)
        self._action_dtype = None if dtype is None else self._array_dtype(dtype)
        self._key = self._key_for(None)
        self.state: Any = None
        self._obs: Any = None

    def _partial_reset(self, key: Any, state: Any, obs: Any, mask: Any) -> Any:
        return partial_reset(self._program, key, state, obs, mask)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[BatchO, dict[str, Any]]:
        """Reset every copy, or those in ``options["reset_mask"]``; an int `seed` restarts
        the key stream from it (one key for the batch, split per copy)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)):
            raise error.InvalidSeed(
                f"a functional vector env takes one int seed for the whole batch (each copy "
                f"gets its own split key), got {seed!r}"
            )
        super().reset(seed=seed)
        if seed is not None:
            self._key = self._key_for(int(seed))
        mask = reset_mask_of(options, self.num_envs)
        if mask is not None and self.state is None:
            raise error.ResetNeeded('reset() every copy once before a "reset_mask" reset')
        if mask is None:
            self._key, (self.state, self._obs, info) = self._reset_fn(self._key)
        else:
            self._key, (self.state, self._obs, info) = self._partial_reset_fn(
                self._key, self.state, self._obs, mask
            )
        obs, info = self._to_host((self._obs, info)) if info else (self._to_host(self._obs), {})
        return obs, info

    def step(self, actions: BatchA) -> VectorStepResult[BatchO]:
        """Step every copy with its row of `actions`, autoresetting as the mode says."""
        if self.state is None:
            raise error.ResetNeeded("call reset() before step() on a functional vector env")
        actions = self._batched_actions(actions)
        self._key, (self.state, self._obs, outcome, info) = self._step_fn(
            self._key, self.state, actions
        )
        obs, outcome = self._to_host((self._obs, outcome))
        terminated, truncated = outcome[1] != 0, outcome[2] != 0
        infos = self._host_infos(info, terminated | truncated)
        return obs, outcome[0].astype(np.float64), terminated, truncated, infos

    def _batched_actions(self, actions: Any) -> Any:
        """`actions` with the action space's dtype (as the compiled step takes it, so the
        call converts nothing), checked to have one row per copy."""
        dtype = self._action_dtype
        on_device = _backend.is_jax(actions)  # jax arrays stay on the device as they are
        if dtype is not None and not on_device and not isinstance(actions, Mapping | tuple):
            actions = np.asarray(actions, dtype=dtype)
        for leaf in _backend.tree_leaves(actions):
            shape = np.shape(leaf)
            if not shape or shape[0] != self.num_envs:
                raise ValueError(
                    f"actions must have one row per sub-env: a leading dimension of "
                    f"{self.num_envs}, got shape {shape}"
                )
        return actions

    def _host_infos(self, info: dict[str, Any], ended: np.ndarray[Any, Any]) -> dict[str, Any]:
        """The step's infos on the host, copied only if there are any; the final
        observations only on steps where an episode ended."""
        plain = {key: value for key, value in info.items() if key not in FINAL_KEYS}
        infos: dict[str, Any] = dict(self._to_host(plain)) if plain else {}
        if self._same_step and ended.any():
            final_obs, final_info = self._to_host((info["final_obs"], info["final_info"]))
            objects = np.empty(self.num_envs, dtype=object)
            plain_array = isinstance(final_obs, np.ndarray)
            for row in np.flatnonzero(ended).tolist():
                objects[row] = (
                    final_obs[row]
                    if plain_array
                    else _backend.tree_map(lambda leaf, row=row: leaf[row], final_obs)
                )
            infos["final_obs"] = objects
            infos["_final_obs"] = ended
            infos["final_info"] = dict(final_info)
            for key in final_info:
                infos["final_info"][f"_{key}"] = ended
            infos["_final_info"] = ended.copy()
        return infos

    def render(self) -> tuple[Any, ...] | None:
        """One frame per copy for render_mode 'rgb_array' (as `SyncVectorEnv`), drawn by
        the `FuncEnv` from each copy's state; `None` without a render mode."""
        if self.render_mode is None:
            return None
        if self.state is None:
            raise error.ResetNeeded("call reset() before render() on a functional vector env")
        batch = self.state.inner  # inside the autoreset flag
        if self.time_limit:
            batch = batch.inner  # inside the step count
        frames = []
        for row in range(self.num_envs):
            state = _backend.tree_map(lambda leaf, row=row: leaf[row], batch)
            self.render_state, frame = self.func_env.render_image(state, self.render_state)
            frames.append(frame)
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        """Release the render state."""
        if self.render_state is not None:
            self.func_env.render_close(self.render_state)
            self.render_state = None
