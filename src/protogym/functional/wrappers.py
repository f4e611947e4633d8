"""Time limits, batching and autoreset as wrappers of a `PureEnv`, each returning a `PureEnv`.

They compose (``autoreset(vectorize(time_limit(pure(env), 500), 1024), "same_step")``) and
keep everything in the state: the step count of `time_limit` and the done flag of
`autoreset` are fields of NamedTuple states wrapping the inner state, so the env itself
never hides a counter or a reset. No wrapper branches in Python on a value that may be
traced: choices are `where`-selections and `lax.switch`es. An autoreset of a jax batch
resets only the copies whose episodes ended (`protogym.functional._resets` has the ways it
can compute its resets, all with the same results).
"""

from __future__ import annotations

import operator
from typing import Any, Generic, NamedTuple, TypeVar, cast

import numpy as np

from protogym.functional import _backend
from protogym.functional._resets import SKIP_IDLE_RESET_BELOW, after_resets, strategy
from protogym.functional.pure import PureEnv, Reset, Step
from protogym.vector.vector_env import AutoresetMode, parse_autoreset_mode

__all__ = [
    "FINAL_KEYS",
    "SKIP_IDLE_RESET_BELOW",
    "AutoresetState",
    "TimeLimitState",
    "autoreset",
    "partial_reset",
    "time_limit",
    "vectorize",
]

S = TypeVar("S")
O = TypeVar("O")  # noqa: E741
A = TypeVar("A")
R = TypeVar("R")
T = TypeVar("T")
P = TypeVar("P")

FINAL_KEYS = ("final_obs", "final_info", "_final_obs", "_final_info")
"""The info keys a same-step autoreset adds for the episodes that ended."""

class TimeLimitState(NamedTuple, Generic[S]):
    """The inner state and the number of steps taken in its episode (an int32 array)."""

    inner: S
    elapsed: Any


class AutoresetState(NamedTuple, Generic[S]):
    """The inner state and whether its episode ended on the last step (a bool array)."""

    inner: S
    done: Any


def time_limit(
    env: PureEnv[S, O, A, R, T, P], max_episode_steps: int
) -> PureEnv[TimeLimitState[S], O, A, R, T, P]:
    """Truncate episodes after `max_episode_steps` steps (as Gymnasium's `TimeLimit`:
    `truncated` is set on that step whether or not it also terminates)."""
    if isinstance(max_episode_steps, bool) or not isinstance(max_episode_steps, int | np.integer):
        raise TypeError(f"max_episode_steps must be an int, got {max_episode_steps!r}")
    if max_episode_steps < 1:
        raise ValueError(f"max_episode_steps must be at least 1, got {max_episode_steps}")
    if env.batch_shape:
        raise ValueError("apply time_limit before vectorize: it counts one episode's steps")
    limit = int(max_episode_steps)

    def reset(key: Any, params: P | None = None) -> Reset[TimeLimitState[S], O]:
        inner = env.reset(key, params)
        xp = _backend.numpy_of(inner.state, inner.obs)
        return Reset(TimeLimitState(inner.state, xp.zeros((), xp.int32)), inner.obs, inner.info)

    def step(
        key: Any, state: TimeLimitState[S], action: A, params: P | None = None
    ) -> Step[TimeLimitState[S], O, R, T]:
        inner = env.step(key, state.inner, action, params)
        elapsed = state.elapsed + 1
        xp = _backend.numpy_of(elapsed, inner.truncated)
        truncated = xp.logical_or(inner.truncated, elapsed >= limit)
        return Step(TimeLimitState(inner.state, elapsed), inner.obs, inner.reward,
                    inner.terminated, truncated, inner.info)

    return PureEnv(reset, step)


def vectorize(env: PureEnv[S, O, A, R, T, P], num_envs: int) -> PureEnv[S, O, A, R, T, P]:
    """`num_envs` copies of `env` stepped together: states, actions and results gain a
    leading axis, each copy gets its own subkey, `params` are shared.

    With a jax key it is `jax.vmap`; with any other key (a numpy generator) a loop whose
    results are stacked. Its `reset_rows` resets chosen copies with the keys `reset`
    would give them.
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
    count = int(num_envs)

    def reset(key: Any, params: P | None = None) -> Reset[S, O]:
        keys = _backend.split(key, count)
        if _backend.is_jax(keys):
            import jax

            return jax.vmap(env.reset, in_axes=(0, None))(keys, params)
        return _stack([env.reset(keys[index], params) for index in range(count)])

    def step(key: Any, state: S, action: A, params: P | None = None) -> Step[S, O, R, T]:
        keys = _backend.split(key, count)
        if _backend.is_jax(keys):
            import jax

            step_all = jax.vmap(env.step, in_axes=(0, 0, 0, None))
            return step_all(keys, state, action, params)
        rows = [
            env.step(keys[index], _row(state, index), _row(action, index), params)
            for index in range(count)
        ]
        return _stack(rows)

    def reset_rows(key: Any, rows: Any, params: P | None = None) -> Reset[S, O]:
        if _backend.is_jax(key):
            import jax

            keys = _backend.split_rows(key, count, rows)
            return jax.vmap(env.reset, in_axes=(0, None))(keys, params)
        # a numpy generator is a stream: the chosen copies draw from it in order
        return _stack([env.reset(key, params) for _ in np.asarray(rows).tolist()])

    return PureEnv(reset, step, (count,), reset_rows)


def _row(tree: Any, index: int) -> Any:
    return _backend.tree_map(operator.itemgetter(index), tree)


_Tree = TypeVar("_Tree")


def _stack(rows: list[_Tree]) -> _Tree:
    return cast(_Tree, _backend.tree_map(lambda *leaves: np.stack(leaves), *rows))


def autoreset(
    env: PureEnv[S, O, A, R, T, P],
    mode: AutoresetMode | str,
    *,
    skip_idle_reset: bool | None = None,
) -> PureEnv[AutoresetState[S], O, A, R, T, P]:
    """Reset episodes that end, in one of Gymnasium's three autoreset modes.

    - next-step: the step after the end returns the reset observation and info, reward 0
      and both flags false, and ignores the action;
    - same-step: the step that ends returns the reset observation and state, with the
      ended episode's last observation and info in ``info["final_obs"]`` and
      ``info["final_info"]`` (always present, so the info's structure never changes);
    - disabled: never; reset chosen copies with `partial_reset`.

    Info keys from the step and from the reset are merged: a key both report takes the
    reset's value where a reset happened. On a batched env (`vectorize` first) each key
    gets Gymnasium's ``_key`` mask of the copies that reported it.

    `skip_idle_reset` chooses how the resets are computed; the results are the same, only
    the speed differs. ``None``: a jax batch made by `vectorize` resets only the copies that
    ended (the whole batch on a step where more than one in eight ended); numpy envs and
    other batches reset the whole batch on steps where some copy ended (jax batches of
    `SKIP_IDLE_RESET_BELOW` copies or more: every step). ``True``: the whole batch on steps
    where some copy ended. ``False``: the whole batch every step. Under an outer
    `jax.vmap` the branches become selections and all are computed.
    """
    chosen = parse_autoreset_mode(mode)
    batched = bool(env.batch_shape)
    if skip_idle_reset is not None and not isinstance(skip_idle_reset, bool):
        raise TypeError(
            f"skip_idle_reset must be True, False or None (choose by batch size), got "
            f"{skip_idle_reset!r}"
        )

    def reset(key: Any, params: P | None = None) -> Reset[AutoresetState[S], O]:
        inner = env.reset(key, params)
        xp = _backend.numpy_of(inner.state, inner.obs)
        done = xp.zeros(env.batch_shape, dtype=bool)
        info = inner.info
        if batched:
            info = _with_masks(info, xp.ones(env.batch_shape, dtype=bool))
        return Reset(AutoresetState(inner.state, done), inner.obs, info)

    def step(
        key: Any, state: AutoresetState[S], action: A, params: P | None = None
    ) -> Step[AutoresetState[S], O, R, T]:
        step_key, reset_key = _backend.split(key, 2)
        stepped = env.step(step_key, state.inner, action, params)
        xp = _backend.numpy_of(stepped.terminated, stepped.truncated)
        if chosen is AutoresetMode.NEXT_STEP:
            resetting = state.done
        else:
            resetting = xp.logical_or(stepped.terminated, stepped.truncated)
        new_state, obs, reset_info = stepped.state, stepped.obs, None
        if chosen is not AutoresetMode.DISABLED:
            how = strategy(env, skip_idle_reset, _backend.is_jax(resetting))
            new_state, obs, reset_info = after_resets(env, how, reset_key, params, resetting,
                                                      stepped)
        info = _merge_info(resetting, reset_info, stepped.info, batched)
        reward, terminated, truncated = stepped.reward, stepped.terminated, stepped.truncated
        if chosen is AutoresetMode.NEXT_STEP:
            # The step after an end only resets: it has no reward and ends nothing.
            reward = _backend.select(resetting, _backend.tree_map(xp.zeros_like, reward), reward)
            terminated = xp.logical_and(terminated, xp.logical_not(resetting))
            truncated = xp.logical_and(truncated, xp.logical_not(resetting))
        elif chosen is AutoresetMode.SAME_STEP:
            info["final_obs"] = stepped.obs
            info["final_info"] = stepped.info
            if batched:
                info["_final_obs"] = info["_final_info"] = resetting
        done = xp.logical_or(terminated, truncated)
        return Step(AutoresetState(new_state, done), obs, reward, terminated, truncated, info)

    return PureEnv(reset, step, env.batch_shape)


def _with_masks(info: dict[str, Any], mask: Any) -> dict[str, Any]:
    merged = dict(info)
    for key in info:
        merged[f"_{key}"] = mask
    return merged


def _merge_info(
    resetting: Any, reset_info: dict[str, Any] | None, step_info: dict[str, Any], batched: bool
) -> dict[str, Any]:
    """The step's info with the reset's merged in where `resetting` (masks if batched)."""
    xp = _backend.numpy_of(resetting)
    everyone = xp.ones_like(resetting, dtype=bool)
    merged: dict[str, Any] = {}
    masks: dict[str, Any] = {}
    for key, value in step_info.items():
        merged[key] = value
        masks[key] = everyone if reset_info is None else xp.logical_not(resetting)
    for key, value in (reset_info or {}).items():
        if key in merged:
            merged[key] = _backend.select(resetting, value, merged[key])
            masks[key] = everyone
        else:
            merged[key] = value
            masks[key] = resetting
    if batched:
        merged.update({f"_{key}": mask for key, mask in masks.items()})
    return merged


def partial_reset(
    env: PureEnv[S, O, A, R, T, P],
    key: Any,
    state: S,
    obs: O,
    mask: Any,
    params: P | None = None,
) -> Reset[S, O]:
    """Reset the copies of a batched env where `mask` is true; the others keep `state`
    and `obs`. Every copy's reset is computed and selected, so shapes never depend on
    `mask`; the info is the reset's with each key's ``_key`` mask set to `mask`."""
    if not env.batch_shape:
        raise ValueError("partial_reset needs a batched env: apply vectorize first")
    fresh = env.reset(key, params)
    info = {key_: value for key_, value in fresh.info.items() if not key_.startswith("_")}
    return Reset(
        _backend.select(mask, fresh.state, state),
        _backend.select(mask, fresh.obs, obs),
        _with_masks(info, mask),
    )
