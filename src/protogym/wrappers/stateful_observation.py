"""Observation wrappers that keep state across steps: delay, time, frame stacks, normalisation
and max-pooling over skipped frames."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Literal, SupportsFloat, overload

import numpy as np
from numpy.typing import NDArray

from protogym.core import ActType, Env, ObservationWrapper, ObsType, Wrapper, WrapperObsType
from protogym.error import InvalidBound
from protogym.wrappers.utils import RunningMeanStd, check_positive_int, create_zero_array

if TYPE_CHECKING:
    from protogym.spaces.space import Space

__all__ = [
    "DelayObservation",
    "FrameStackObservation",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "TimeAwareObservation",
]


class DelayObservation(ObservationWrapper[ObsType, ActType, ObsType]):
    """Returns the observation from `delay` steps ago (a zero observation until there is one)."""

    def __init__(self, env: Env[ObsType, ActType], delay: int) -> None:
        self.delay = check_positive_int("DelayObservation", "delay", delay, minimum=0)
        super().__init__(env)
        self.observation_queue: deque[ObsType] = deque()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        self.observation_queue.clear()
        return super().reset(seed=seed, options=options)

    def observation(self, observation: ObsType) -> ObsType:
        queue = self.observation_queue
        queue.append(observation)
        if len(queue) > self.delay:
            return queue.popleft()
        # A new zero observation each time: an agent that keeps observations must not see
        # them change when a later one is modified.
        zero: ObsType = create_zero_array(self.env.observation_space)
        return zero


def _find_time_limit(env: Env[Any, Any]) -> int | None:
    from protogym.wrappers.common import TimeLimit

    spec = getattr(env, "spec", None)
    limit = getattr(spec, "max_episode_steps", None)
    if isinstance(limit, int):
        return limit
    layer: Any = env
    while isinstance(layer, Wrapper):
        if isinstance(layer, TimeLimit):
            return layer.max_episode_steps
        layer = layer.env
    return None


class TimeAwareObservation(ObservationWrapper[WrapperObsType, ActType, ObsType]):
    """Adds the number of steps taken in the episode to the observation.

    The time is `[t]` as int32, or `[t / max_episode_steps]` as float32 with
    `normalize_time=True`. A `Dict` observation gains the key `dict_time_key`, a `Tuple` one
    a last element, any other becomes `{"obs": obs, "time": time}`; `flatten=True` (the
    default) then flattens the result into one array. The limit comes from the env's spec
    or a `TimeLimit` wrapper below this one.
    """

    @overload
    def __init__(
        self: TimeAwareObservation[NDArray[Any], ActType, ObsType],
        env: Env[ObsType, ActType],
        flatten: Literal[True] = True,
        normalize_time: bool = False,
        *,
        dict_time_key: str = "time",
    ) -> None: ...

    @overload
    def __init__(
        self: TimeAwareObservation[Any, ActType, ObsType],
        env: Env[ObsType, ActType],
        flatten: bool,
        normalize_time: bool = False,
        *,
        dict_time_key: str = "time",
    ) -> None: ...

    def __init__(
        self,
        env: Env[Any, ActType],
        flatten: bool = True,
        normalize_time: bool = False,
        *,
        dict_time_key: str = "time",
    ) -> None:
        from protogym import spaces

        limit = _find_time_limit(env)
        if limit is None:
            raise ValueError(
                "TimeAwareObservation needs a time limit: wrap the env in TimeLimit first or "
                "make it from a spec with max_episode_steps"
            )
        super().__init__(env)
        self.max_timesteps = limit
        self.flatten = flatten
        self.normalize_time = normalize_time
        self.timesteps = 0
        time_space = (
            spaces.Box(0.0, 1.0, shape=(1,), dtype=np.float32)
            if normalize_time
            else spaces.Box(0, limit, shape=(1,), dtype=np.int32)
        )
        inner = env.observation_space
        joined: Space[Any]
        if isinstance(inner, spaces.Dict):
            if dict_time_key in inner.spaces:
                raise ValueError(
                    f"TimeAwareObservation: dict_time_key {dict_time_key!r} is already a key of "
                    "the observation space; choose another dict_time_key"
                )
            joined = spaces.Dict(
                {dict_time_key: time_space, **inner.spaces}, sort_keys=inner.sort_keys
            )
            self._kind = "dict"
        elif isinstance(inner, spaces.Tuple):
            joined = spaces.Tuple((*inner.spaces, time_space))
            self._kind = "tuple"
        else:
            joined = spaces.Dict(obs=inner, time=time_space)
            self._kind = "other"
        self._dict_time_key = dict_time_key
        self._joined_space = joined
        new_space: Space[Any] = spaces.flatten_space(joined) if flatten else joined
        self.observation_space = new_space

    def _time(self) -> NDArray[Any]:
        if self.normalize_time:
            return np.array([self.timesteps / self.max_timesteps], dtype=np.float32)
        return np.array([self.timesteps], dtype=np.int32)

    def observation(self, observation: ObsType) -> WrapperObsType:
        from protogym import spaces

        time = self._time()
        joined: Any
        if self._kind == "dict":
            joined = {self._dict_time_key: time, **observation}  # type: ignore[dict-item]
        elif self._kind == "tuple":
            joined = (*observation, time)  # type: ignore[misc]
        else:
            joined = {"obs": observation, "time": time}
        result: WrapperObsType = (
            spaces.flatten(self._joined_space, joined) if self.flatten else joined
        )
        return result

    def step(
        self, action: ActType
    ) -> tuple[WrapperObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        self.timesteps += 1
        return super().step(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        self.timesteps = 0
        return super().reset(seed=seed, options=options)


class FrameStackObservation(Wrapper[WrapperObsType, ActType, ObsType, ActType]):
    """Returns the last `stack_size` observations stacked on a new first axis.

    At reset the stack is padded: with the reset observation (`padding_type="reset"`), with
    the space's zero (`"zero"`), or with a given observation of the space. `Box` stacks use
    a doubled ring buffer, so a step costs two row writes and one contiguous copy.
    """

    @overload
    def __init__(
        self: FrameStackObservation[NDArray[Any], ActType, NDArray[Any]],
        env: Env[NDArray[Any], ActType],
        stack_size: int,
        *,
        padding_type: str | NDArray[Any] = "reset",
    ) -> None: ...

    @overload
    def __init__(
        self: FrameStackObservation[Any, ActType, ObsType],
        env: Env[ObsType, ActType],
        stack_size: int,
        *,
        padding_type: str | ObsType = "reset",
    ) -> None: ...

    def __init__(
        self,
        env: Env[Any, ActType],
        stack_size: int,
        *,
        padding_type: Any = "reset",
    ) -> None:
        from protogym import spaces

        self.stack_size = check_positive_int("FrameStackObservation", "stack_size", stack_size)
        inner = env.observation_space
        if isinstance(padding_type, str) and padding_type in ("reset", "zero"):
            self.padding_value: ObsType = create_zero_array(inner)
            self.padding_type = padding_type
        elif not isinstance(padding_type, str) and inner.contains(padding_type):
            self.padding_value = padding_type
            self.padding_type = "_custom"
        else:
            raise ValueError(
                "FrameStackObservation: padding_type must be 'reset', 'zero' or an observation "
                f"of {inner!r}, got {padding_type!r}"
            )
        super().__init__(env)
        self.observation_space = spaces.batch_space(inner, self.stack_size)
        n = self.stack_size
        self._box = isinstance(inner, spaces.Box)
        if self._box:
            assert isinstance(inner, spaces.Box)
            # Row i and row i + n hold the same frame, so the last n frames are always the
            # contiguous window [pos, pos + n).
            self._ring: NDArray[Any] = np.zeros((2 * n, *inner.shape), dtype=inner.dtype)
            self._pos = 0
        else:
            self.obs_queue: deque[ObsType] = deque(maxlen=n)
            self._stacked = spaces.create_empty_array(inner, n=n)

    def _push(self, obs: Any) -> None:
        ring, pos = self._ring, self._pos
        ring[pos] = obs
        ring[pos + self.stack_size] = obs
        self._pos = pos + 1 if pos + 1 < self.stack_size else 0

    def _stack(self) -> WrapperObsType:
        from copy import deepcopy

        from protogym import spaces

        stacked = spaces.concatenate(self.env.observation_space, self.obs_queue, self._stacked)
        return deepcopy(stacked)  # type: ignore[no-any-return]

    def step(
        self, action: ActType
    ) -> tuple[WrapperObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if self._box:
            ring, pos, n = self._ring, self._pos, self.stack_size
            ring[pos] = obs
            ring[pos + n] = obs
            pos = pos + 1 if pos + 1 < n else 0
            self._pos = pos
            stacked: Any = ring[pos : pos + n].copy()
            return stacked, reward, terminated, truncated, info
        self.obs_queue.append(obs)
        return self._stack(), reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        if self.padding_type == "reset":
            self.padding_value = obs
        n = self.stack_size
        if self._box:
            self._ring[:] = self.padding_value
            self._pos = 0
            self._push(obs)
            pos = self._pos
            return self._ring[pos : pos + n].copy(), info  # type: ignore[return-value]
        for _ in range(n - 1):
            self.obs_queue.append(self.padding_value)
        self.obs_queue.append(obs)
        return self._stack(), info


class NormalizeObservation(ObservationWrapper[NDArray[np.float32], ActType, ObsType]):
    """Standardises observations with a running mean and variance, as float32.

    Every observation updates the statistics unless `update_running_mean` is set to False
    (freeze them for evaluation). Values match Gymnasium's `NormalizeObservation` exactly.
    """

    def __init__(self, env: Env[ObsType, ActType], epsilon: float = 1e-8) -> None:
        from protogym.spaces import Box

        if not epsilon > 0:
            raise InvalidBound(f"NormalizeObservation: epsilon must be positive, got {epsilon}")
        shape = env.observation_space.shape
        if shape is None:
            raise ValueError(
                "NormalizeObservation needs an observation space with a shape, got "
                f"{env.observation_space!r}"
            )
        super().__init__(env)
        self.observation_space = Box(-np.inf, np.inf, shape=shape, dtype=np.float32)
        self.obs_rms = RunningMeanStd(shape=shape, dtype=np.float32)
        self.epsilon = epsilon
        self._update_running_mean = True

    @property
    def update_running_mean(self) -> bool:
        """Whether each observation still updates the statistics (False: frozen)."""
        return self._update_running_mean

    @update_running_mean.setter
    def update_running_mean(self, setting: bool) -> None:
        self._update_running_mean = setting

    def observation(self, observation: ObsType) -> NDArray[np.float32]:
        rms = self.obs_rms
        if self._update_running_mean:
            rms.update_one(observation)  # type: ignore[arg-type]
        scaled = (observation - rms.mean) / np.sqrt(rms.var + self.epsilon)
        return np.asarray(scaled, dtype=np.float32)


class MaxAndSkipObservation(Wrapper[NDArray[Any], ActType, NDArray[Any], ActType]):
    """Repeats each action `skip` times and returns the pixel-wise max of the last two frames.

    Rewards are summed; the loop stops early when the episode ends. This removes the
    flicker of Atari sprites drawn on alternate frames.
    """

    def __init__(self, env: Env[NDArray[Any], ActType], skip: int = 4) -> None:
        self._skip = check_positive_int("MaxAndSkipObservation", "skip", skip, minimum=2)
        shape = env.observation_space.shape
        if shape is None:
            raise ValueError(
                "MaxAndSkipObservation needs an observation space with a shape, got "
                f"{env.observation_space!r}"
            )
        super().__init__(env)
        self._obs_buffer = np.zeros((2, *shape), dtype=env.observation_space.dtype)

    def step(
        self, action: ActType
    ) -> tuple[NDArray[Any], SupportsFloat, bool, bool, dict[str, Any]]:
        total = 0.0
        terminated = truncated = False
        info: dict[str, Any] = {}
        buffer, skip, step = self._obs_buffer, self._skip, self.env.step
        for i in range(skip):
            obs, reward, terminated, truncated, info = step(action)
            if i == skip - 2:
                buffer[0] = obs
            elif i == skip - 1:
                buffer[1] = obs
            total += float(reward)
            if terminated or truncated:
                break
        return np.max(buffer, axis=0), total, terminated, truncated, info
