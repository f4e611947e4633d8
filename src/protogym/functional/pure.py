"""Pure `reset` and `step` functions derived from a `FuncEnv`, for compiled training loops.

``reset(key, params) -> Reset(state, obs, info)`` and
``step(key, state, action, params) -> Step(state, obs, reward, terminated, truncated, info)``
touch nothing outside their arguments, so they can be put under `jax.jit`, `jax.vmap`,
`jax.lax.scan` and `jax.grad`. Each call splits its key and gives every function of the
env its own subkey (`initial`, `transition`, `observation`, `reward`, `terminal`), so no
key is ever used twice; a subkey the env never reads costs nothing once compiled
(`_backend.subkeys`). For a numpy env the key is a `numpy.random.Generator`, a stream
that every draw advances.

The bare step never truncates and never resets: time limits and autoreset are the
composable wrappers of `protogym.functional.wrappers`, applied to the `PureEnv` made here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from protogym.functional import _backend
from protogym.functional.func_env import FuncEnv

__all__ = [
    "PureEnv",
    "Reset",
    "ResetFn",
    "RowsResetFn",
    "Step",
    "StepFn",
    "pure",
    "pure_reset",
    "pure_step",
]

S = TypeVar("S")
O = TypeVar("O")  # noqa: E741
A = TypeVar("A")
R = TypeVar("R")
T = TypeVar("T")
P = TypeVar("P")
_A_contra = TypeVar("_A_contra", contravariant=True)
_P_contra = TypeVar("_P_contra", contravariant=True)


class Reset(NamedTuple, Generic[S, O]):
    """What a pure reset returns."""

    state: S
    obs: O
    info: dict[str, Any]


class Step(NamedTuple, Generic[S, O, R, T]):
    """What a pure step returns; `truncated` has the type of `terminated`."""

    state: S
    obs: O
    reward: R
    terminated: T
    truncated: T
    info: dict[str, Any]


class ResetFn(Protocol[S, O, _P_contra]):
    """``reset(key, params=None) -> Reset(state, obs, info)``."""

    def __call__(self, key: Any, params: _P_contra | None = None) -> Reset[S, O]: ...


class RowsResetFn(Protocol[S, O, _P_contra]):
    """``reset_rows(key, rows, params=None) -> Reset(state, obs, info)``: the copies `rows`
    of a batched reset, each leaf with a leading axis of ``len(rows)``."""

    def __call__(self, key: Any, rows: Any, params: _P_contra | None = None) -> Reset[S, O]: ...


class StepFn(Protocol[S, O, _A_contra, R, T, _P_contra]):
    """``step(key, state, action, params=None) -> Step(...)``."""

    def __call__(
        self, key: Any, state: S, action: _A_contra, params: _P_contra | None = None
    ) -> Step[S, O, R, T]: ...


class PureEnv(NamedTuple, Generic[S, O, A, R, T, P]):
    """A pure reset and step of one environment, or of a batch of `batch_shape`.

    A batch may also offer `reset_rows`, the reset of chosen copies only: on jax it equals
    those rows of `reset` under the same key, and `autoreset` uses it to reset only the
    copies whose episodes ended.
    """

    reset: ResetFn[S, O, P]
    step: StepFn[S, O, A, R, T, P]
    batch_shape: tuple[int, ...] = ()
    reset_rows: RowsResetFn[S, O, P] | None = None


def _call(func: Callable[..., Any], *args: Any, params: Any) -> Any:
    # Gymnasium's envs may leave `params` out of their signatures; pass it only when given.
    return func(*args) if params is None else func(*args, params)


def pure_reset(env: FuncEnv[S, O, Any, Any, Any, Any, P]) -> ResetFn[S, O, P]:
    """The pure reset of `env`: `initial`, then `observation` and `state_info`."""

    def reset(key: Any, params: P | None = None) -> Reset[S, O]:
        initial_key, obs_key = _backend.subkeys(key, 2)
        state = _call(env.initial, initial_key, params=params)
        obs = _call(env.observation, state, obs_key, params=params)
        return Reset(state, obs, _call(env.state_info, state, params=params))

    return reset


def pure_step(env: FuncEnv[S, O, A, R, T, Any, P]) -> StepFn[S, O, A, R, T, P]:
    """The pure step of `env`: `transition`, then `observation`, `reward`, `terminal` and
    `transition_info` of the transition; `truncated` is always false."""

    def step(key: Any, state: S, action: A, params: P | None = None) -> Step[S, O, R, T]:
        transition_key, obs_key, reward_key, terminal_key = _backend.subkeys(key, 4)
        next_state = _call(env.transition, state, action, transition_key, params=params)
        obs = _call(env.observation, next_state, obs_key, params=params)
        reward = _call(env.reward, state, action, next_state, reward_key, params=params)
        terminated = _call(env.terminal, next_state, terminal_key, params=params)
        xp = _backend.numpy_of(terminated)
        truncated = xp.zeros_like(xp.asarray(terminated), dtype=bool)
        info = _call(env.transition_info, state, action, next_state, params=params)
        return Step(next_state, obs, reward, terminated, truncated, info)

    return step


def pure(env: FuncEnv[S, O, A, R, T, Any, P]) -> PureEnv[S, O, A, R, T, P]:
    """`env`'s pure reset and step together, ready for the wrappers."""
    return PureEnv(pure_reset(env), pure_step(env))
