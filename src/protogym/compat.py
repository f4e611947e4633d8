"""The legacy `done` step API: converters both ways, and an adapter for old-API envs.

How the two APIs map onto each other:

* new -> old: ``done = terminated or truncated``; when the episode ended,
  ``info["TimeLimit.truncated"] = truncated and not terminated``. The old API cannot say
  "terminated and truncated at once"; termination wins, because an agent must not bootstrap
  from a terminal state, so both at once reads as a plain termination.
* old -> new: ``truncated = done and info.get("TimeLimit.truncated", False)``,
  ``terminated = done and not truncated``; the ``"TimeLimit.truncated"`` key is dropped from
  the new-API info (it is deprecated there, and the checker flags it).

The info dict is copied whenever a key is added or removed, so the env's own dict is never
changed behind its back.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any, Literal, Protocol, SupportsFloat, TypeVar, overload, runtime_checkable

from protogym.core import ActType, Env, ObsType
from protogym.spaces.space import Space

__all__ = [
    "LegacyEnv",
    "LegacyEnvAdapter",
    "LegacyStepResult",
    "convert_to_done_step_api",
    "convert_to_terminated_truncated_step_api",
    "step_api_compatibility",
]

TRUNCATED_KEY = "TimeLimit.truncated"

_ObsT_co = TypeVar("_ObsT_co", covariant=True)
_ActT = TypeVar("_ActT")

LegacyStepResult = tuple[ObsType, SupportsFloat, bool, dict[str, Any]]
"""`(observation, reward, done, info)`, the value of a legacy `step`."""


@runtime_checkable
class LegacyEnv(Protocol[_ObsT_co, _ActT]):
    """What an agent written for the old API sees: a 4-tuple `step` and
    `reset(return_info=...)` that returns the observation alone unless asked for the info."""

    @property
    def action_space(self) -> Space[_ActT]: ...

    @property
    def observation_space(self) -> Space[_ObsT_co]: ...

    @overload
    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        return_info: Literal[False] = False,
    ) -> _ObsT_co: ...

    @overload
    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        return_info: Literal[True],
    ) -> tuple[_ObsT_co, dict[str, Any]]: ...

    def step(self, action: _ActT) -> tuple[_ObsT_co, SupportsFloat, bool, dict[str, Any]]: ...

    def render(self) -> Any: ...

    def close(self) -> None: ...


def convert_to_done_step_api(
    step_returns: tuple[Any, ...], is_vector_env: bool = False
) -> tuple[Any, ...]:
    """A 5-tuple step result as the legacy 4-tuple (a 4-tuple is returned unchanged).

    For a vector env (`is_vector_env`, or flags that are arrays with an axis) the flags are
    arrays and the info is either a dict of arrays, which gets one
    ``"TimeLimit.truncated"`` array when any sub-env ended, or a list of per-env dicts, each
    of which gets the key when its sub-env ended.
    """
    if len(step_returns) == 4:
        return step_returns
    obs, reward, terminated, truncated, info = _five(step_returns)
    if not (is_vector_env or _is_batch(terminated)):
        done = bool(terminated) or bool(truncated)
        if done:
            info = {**info, TRUNCATED_KEY: bool(truncated) and not bool(terminated)}
        return obs, reward, done, info
    import numpy as np

    terminated_a = np.asarray(terminated, dtype=bool)
    truncated_a = np.asarray(truncated, dtype=bool)
    done_a = terminated_a | truncated_a
    if isinstance(info, list):
        info = [
            {**sub_info, TRUNCATED_KEY: bool(cut) and not bool(ended)} if ended or cut
            else sub_info
            for sub_info, ended, cut in zip(info, terminated_a, truncated_a, strict=True)
        ]
    elif isinstance(info, Mapping):
        if done_a.any():
            info = {**info, TRUNCATED_KEY: truncated_a & ~terminated_a}
    else:
        raise TypeError(_vector_info_error(info))
    return obs, reward, done_a, info


def convert_to_terminated_truncated_step_api(
    step_returns: tuple[Any, ...], is_vector_env: bool = False
) -> tuple[Any, ...]:
    """A legacy 4-tuple step result as the 5-tuple (a 5-tuple is returned unchanged).

    For a vector env (`is_vector_env`, or a `done` array with an axis) the info is a dict of
    arrays or a list of per-env dicts, as `convert_to_done_step_api` makes them.
    """
    if len(step_returns) == 5:
        return step_returns
    if len(step_returns) != 4:
        raise ValueError(
            f"a step result has 4 (legacy) or 5 values, got {len(step_returns)}: "
            f"{step_returns!r}"
        )
    obs, reward, done, info = step_returns
    if not (is_vector_env or _is_batch(done)):
        if not isinstance(info, Mapping):
            raise TypeError(
                f"the info of a legacy step must be a dict, got {type(info).__name__}"
            )
        truncated = bool(done) and bool(info.get(TRUNCATED_KEY, False))
        terminated = bool(done) and not truncated
        return obs, reward, terminated, truncated, _without_flag(info)
    import numpy as np

    done_a = np.asarray(done, dtype=bool)
    if isinstance(info, list):
        flags = np.array([bool(sub.get(TRUNCATED_KEY, False)) for sub in info], dtype=bool)
        info = [_without_flag(sub) for sub in info]
    elif isinstance(info, Mapping):
        flag = info.get(TRUNCATED_KEY)
        flags = np.zeros_like(done_a) if flag is None else np.asarray(flag, dtype=bool)
        info = {k: v for k, v in info.items() if k not in (TRUNCATED_KEY, f"_{TRUNCATED_KEY}")}
    else:
        raise TypeError(_vector_info_error(info))
    truncated_a = done_a & flags
    return obs, reward, done_a & ~truncated_a, truncated_a, info


def step_api_compatibility(
    step_returns: tuple[Any, ...],
    output_truncation_bool: bool = True,
    is_vector_env: bool = False,
) -> tuple[Any, ...]:
    """Convert a step result of either API to the one asked for: the 5-tuple when
    `output_truncation_bool`, else the legacy 4-tuple."""
    if output_truncation_bool:
        return convert_to_terminated_truncated_step_api(step_returns, is_vector_env)
    return convert_to_done_step_api(step_returns, is_vector_env)


def _is_batch(flag: object) -> bool:
    """Whether a flag is one per sub-env (an array with an axis), not one bool."""
    return getattr(flag, "ndim", 0) > 0


def _without_flag(info: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in info.items() if key != TRUNCATED_KEY}


def _vector_info_error(info: object) -> str:
    return (
        "the info of a vector step must be a dict of arrays or a list of per-env dicts, "
        f"got {type(info).__name__}"
    )


def _five(step_returns: tuple[Any, ...]) -> tuple[Any, Any, Any, Any, Any]:
    if len(step_returns) != 5:
        raise ValueError(
            f"a step result has 5 values (obs, reward, terminated, truncated, info), got "
            f"{len(step_returns)}"
        )
    obs, reward, terminated, truncated, info = step_returns
    return obs, reward, terminated, truncated, info


class LegacyEnvAdapter(Env[ObsType, ActType]):
    """Presents an env written for the old API (`step` -> 4-tuple) as a new-API env.

    `make` applies it to envs registered with ``api="done"``. It reads the old env's `reset`
    signature once to know how to seed it and whether it can return an info dict. It keeps
    the old env as `env`, like a wrapper, so `unwrapped` reaches the old env itself.
    """

    action_space: Space[ActType]
    observation_space: Space[ObsType]
    render_mode: str | None
    metadata: dict[str, Any]

    def __init__(self, env: Any, render_mode: str | None = None) -> None:
        for member in ("reset", "step", "action_space", "observation_space"):
            if not hasattr(env, member):
                raise TypeError(
                    f"{type(env).__name__} cannot be adapted from the legacy API: it has no "
                    f"{member!r}"
                )
        self.env = env
        self.action_space = env.action_space
        self.observation_space = env.observation_space
        self.metadata = dict(getattr(env, "metadata", {}) or {})
        self.render_mode = render_mode or getattr(env, "render_mode", None)
        parameters = _parameters(env.reset)
        self._reset_takes_seed = "seed" in parameters
        self._reset_takes_options = "options" in parameters
        self._reset_takes_return_info = "return_info" in parameters
        self._render_takes_mode = "mode" in _parameters(getattr(env, "render", None))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        kwargs: dict[str, Any] = {}
        if self._reset_takes_seed:
            kwargs["seed"] = seed
        elif seed is not None and hasattr(self.env, "seed"):
            self.env.seed(seed)
        if self._reset_takes_options:
            kwargs["options"] = options
        elif options:
            raise TypeError(
                f"{type(self.env).__name__}.reset takes no options; got options={options!r}"
            )
        if self._reset_takes_return_info:
            obs, info = self.env.reset(return_info=True, **kwargs)
            return obs, dict(info)
        result = self.env.reset(**kwargs)
        if (
            isinstance(result, tuple)
            and len(result) == 2
            and isinstance(result[1], dict)
            and not self.observation_space.contains(result)
        ):
            return result[0], dict(result[1])
        return result, {}

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self.env.step(action)
        if len(result) == 5:
            raise ValueError(
                f"{type(self.env).__name__}.step returned 5 values, so it already uses the "
                "terminated/truncated API; register it with api='terminated_truncated'"
            )
        obs, reward, terminated, truncated, info = convert_to_terminated_truncated_step_api(
            result
        )
        return obs, reward, terminated, truncated, info

    @property
    def unwrapped(self) -> Any:
        """The old-API env itself, as for a wrapper."""
        return getattr(self.env, "unwrapped", self.env)

    def render(self) -> Any:
        if self._render_takes_mode and self.render_mode is not None:
            return self.env.render(mode=self.render_mode)
        return self.env.render()

    def close(self) -> None:
        close = getattr(self.env, "close", None)
        if close is not None:
            close()

    def __str__(self) -> str:
        return f"<LegacyEnvAdapter<{type(self.env).__name__}>>"


def _parameters(function: Any) -> Mapping[str, inspect.Parameter]:
    if function is None:
        return {}
    try:
        return inspect.signature(function).parameters
    except (TypeError, ValueError):
        return {}
