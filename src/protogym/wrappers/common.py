"""The wrappers that `make` and most training loops put around every env.

* `TimeLimit` truncates an episode after a fixed number of steps.
* `Autoreset` resets the env on the step after an episode ends.
* `OrderEnforcing` refuses `step` (and `render`) before the first `reset`.
* `RecordEpisodeStatistics` adds the return, length and duration of each finished episode to
  its last `info`.

`PassiveEnvChecker` is importable from here too, where Gymnasium defines it; it lives in
`protogym.wrappers.env_checker` and is loaded only when asked for, so importing these cheap
wrappers does not import the checker.

These sit on the hot path of every step, so their `step` methods do as little as possible:
no tuple rebuilding unless a value changes, counters kept as plain instance attributes.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any, SupportsFloat

from protogym.core import ActType, Env, ObsType, Wrapper
from protogym.error import ResetNeeded

if TYPE_CHECKING:
    from protogym.registration.env_spec import EnvSpec
    from protogym.wrappers.env_checker import PassiveEnvChecker

__all__ = [
    "Autoreset",
    "OrderEnforcing",
    "PassiveEnvChecker",
    "RecordEpisodeStatistics",
    "TimeLimit",
]


def __getattr__(name: str) -> Any:
    if name == "PassiveEnvChecker":
        from protogym.wrappers.env_checker import PassiveEnvChecker

        return PassiveEnvChecker
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _evolved_spec(env: Env[Any, Any], **changes: Any) -> EnvSpec | None:
    """The inner env's spec with `changes` applied, or None if it has no `EnvSpec`."""
    import attrs

    from protogym.registration.env_spec import EnvSpec

    inner = getattr(env, "spec", None)
    if not isinstance(inner, EnvSpec):
        return None
    if all(getattr(inner, name) == value for name, value in changes.items()):
        return inner
    return attrs.evolve(inner, **changes)


class TimeLimit(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Sets `truncated=True` on the `max_episode_steps`-th step of every episode.

    This is where a time limit that is not part of the MDP belongs: the env itself reports
    only `terminated`. The step counter restarts at each `reset`.
    """

    def __init__(self, env: Env[ObsType, ActType], max_episode_steps: int) -> None:
        if isinstance(max_episode_steps, bool) or not isinstance(max_episode_steps, int):
            raise TypeError(
                f"TimeLimit: max_episode_steps must be a positive int, got {max_episode_steps!r}"
            )
        if max_episode_steps <= 0:
            raise ValueError(
                f"TimeLimit: max_episode_steps must be positive, got {max_episode_steps}; "
                "drop the wrapper for episodes without a time limit"
            )
        super().__init__(env)
        self._max_episode_steps = max_episode_steps
        self._elapsed_steps = 0
        self._spec: EnvSpec | None = None

    @property
    def max_episode_steps(self) -> int:
        return self._max_episode_steps

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self.env.step(action)
        self._elapsed_steps = elapsed = self._elapsed_steps + 1
        if elapsed >= self._max_episode_steps:
            obs, reward, terminated, _, info = result
            return obs, reward, terminated, True, info
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        self._elapsed_steps = 0
        return self.env.reset(seed=seed, options=options)

    @property
    def spec(self) -> EnvSpec | None:
        """The inner spec with this wrapper's `max_episode_steps` (or the spec `make` set)."""
        if self._spec is not None:
            return self._spec
        return _evolved_spec(self.env, max_episode_steps=self._max_episode_steps)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        self._spec = value


class Autoreset(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Resets the env on the `step` after an episode ends ("next-step" autoreset).

    That step ignores its action and returns the reset observation and info with reward 0
    and both flags False, as Gymnasium's vector envs do in their next-step mode.
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        super().__init__(env)
        self.autoreset = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        self.autoreset = False
        return self.env.reset(seed=seed, options=options)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.autoreset:
            obs, info = self.env.reset()
            self.autoreset = False
            return obs, 0.0, False, False, info
        result = self.env.step(action)
        self.autoreset = result[2] or result[3]
        return result


_RESET_NEEDED_STEP = (
    "Cannot call env.step() before calling env.reset(): call reset() once to start the "
    "first episode"
)
_RESET_NEEDED_RENDER = (
    "Cannot call env.render() before calling env.reset(); if rendering before the first "
    "reset is intended, pass disable_render_order_enforcing=True to OrderEnforcing"
)


class OrderEnforcing(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Raises `ResetNeeded` if `step` (or `render`) is called before the first `reset`.

    After the first step it costs nothing: the inner env's bound `step` is stored as this
    instance's `step`, which shadows the checking method, so a call through this wrapper
    goes straight to the inner env.
    """

    def __init__(
        self, env: Env[ObsType, ActType], disable_render_order_enforcing: bool = False
    ) -> None:
        super().__init__(env)
        self._has_reset = False
        self._disable_render_order_enforcing = disable_render_order_enforcing
        self._spec: EnvSpec | None = None

    @property
    def has_reset(self) -> bool:
        """Whether `reset` has been called at least once."""
        return self._has_reset

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        # Only reached before the first reset: reset shadows this method on the instance.
        raise ResetNeeded(_RESET_NEEDED_STEP)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        result = self.env.reset(seed=seed, options=options)
        self._has_reset = True
        # object.__setattr__, not self.__dict__: touching __dict__ makes CPython move the
        # instance's attributes into a real dict, which slows every later attribute load.
        object.__setattr__(self, "step", self._step_then_bind)
        return result

    def _step_then_bind(
        self, action: ActType
    ) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """The first step after a reset: binds the inner `step` only once it has run.

        Waiting one step lets an inner wrapper that replaces its own `step` after checking
        the first one (as the passive checker does) be bound in its final, direct form.
        """
        result = self.env.step(action)
        object.__setattr__(self, "step", self.env.step)
        return result

    def render(self) -> Any:
        if not self._has_reset and not self._disable_render_order_enforcing:
            raise ResetNeeded(_RESET_NEEDED_RENDER)
        return self.env.render()

    @property
    def spec(self) -> EnvSpec | None:
        """The inner spec with `order_enforce=True` (or the spec `make` set)."""
        if self._spec is not None:
            return self._spec
        return _evolved_spec(self.env, order_enforce=True)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        self._spec = value


class RecordEpisodeStatistics(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Adds `info[stats_key] = {"r": return, "l": length, "t": seconds}` at each episode end.

    The last `buffer_length` episodes' returns, lengths and durations are also kept in
    `return_queue`, `length_queue` and `time_queue` for logging.
    """

    def __init__(
        self, env: Env[ObsType, ActType], buffer_length: int = 100, stats_key: str = "episode"
    ) -> None:
        if isinstance(buffer_length, bool) or not isinstance(buffer_length, int):
            raise TypeError(
                f"RecordEpisodeStatistics: buffer_length must be an int, got {buffer_length!r}"
            )
        if buffer_length < 1:
            raise ValueError(
                f"RecordEpisodeStatistics: buffer_length must be at least 1, got {buffer_length}"
            )
        super().__init__(env)
        self._stats_key = stats_key
        self.episode_count = 0
        self.episode_start_time = -1.0
        self.episode_returns = 0.0
        self.episode_lengths = 0
        self.time_queue: deque[float] = deque(maxlen=buffer_length)
        self.return_queue: deque[float] = deque(maxlen=buffer_length)
        self.length_queue: deque[int] = deque(maxlen=buffer_length)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self.env.step(action)
        self.episode_returns += float(result[1])
        self.episode_lengths += 1
        if result[2] or result[3]:
            self._end_episode(result[4])
        return result

    def _end_episode(self, info: dict[str, Any]) -> None:
        key = self._stats_key
        if key in info:
            raise ValueError(
                f"RecordEpisodeStatistics: the env's info already has the key {key!r}; "
                "pass another stats_key"
            )
        now = time.perf_counter()
        duration = round(now - self.episode_start_time, 6)
        info[key] = {"r": self.episode_returns, "l": self.episode_lengths, "t": duration}
        self.time_queue.append(duration)
        self.return_queue.append(self.episode_returns)
        self.length_queue.append(self.episode_lengths)
        self.episode_count += 1
        self.episode_start_time = now

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        result = self.env.reset(seed=seed, options=options)
        self.episode_start_time = time.perf_counter()
        self.episode_returns = 0.0
        self.episode_lengths = 0
        return result
