"""Stateless vector wrappers: transform, clip, rescale, flatten and cast whole batches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray

from protogym.spaces import Box, batch_space, flatten, flatten_space, iterate
from protogym.spaces.space import Space
from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers.base import (
    ActT,
    ObsT,
    VectorActionWrapper,
    VectorObservationWrapper,
    VectorRewardWrapper,
    WActT,
    WObsT,
)

__all__ = [
    "ClipAction",
    "DtypeObservation",
    "FlattenObservation",
    "RescaleAction",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
]


class TransformObservation(VectorObservationWrapper[WObsT, ActT, ObsT]):
    """Applies `func` to every observation batch; pass the new spaces if it changes them."""

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        func: Callable[[ObsT], WObsT],
        observation_space: Space[WObsT] | None = None,
        single_observation_space: Space[Any] | None = None,
    ) -> None:
        super().__init__(env)
        if not callable(func):
            raise TypeError(f"TransformObservation needs a callable func, got {func!r}")
        self.func = func
        if single_observation_space is not None:
            self.single_observation_space = single_observation_space
            if observation_space is None:
                observation_space = batch_space(single_observation_space, self.num_envs)
        if observation_space is not None:
            self.observation_space = observation_space

    def observations(self, observations: ObsT) -> WObsT:
        return self.func(observations)


class TransformAction(VectorActionWrapper[ObsT, WActT, ActT]):
    """Applies `func` to every action batch before the inner env sees it."""

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        func: Callable[[WActT], ActT],
        action_space: Space[WActT] | None = None,
        single_action_space: Space[Any] | None = None,
    ) -> None:
        super().__init__(env)
        if not callable(func):
            raise TypeError(f"TransformAction needs a callable func, got {func!r}")
        self.func = func
        if single_action_space is not None:
            self.single_action_space = single_action_space
            if action_space is None:
                action_space = batch_space(single_action_space, self.num_envs)
        if action_space is not None:
            self.action_space = action_space

    def actions(self, actions: WActT) -> ActT:
        return self.func(actions)


class TransformReward(VectorRewardWrapper[ObsT, ActT]):
    """Applies `func` to every reward batch (an array of `num_envs` floats)."""

    def __init__(
        self, env: VectorEnv[ObsT, ActT, Any], func: Callable[[NDArray[np.float64]], Any]
    ) -> None:
        super().__init__(env)
        if not callable(func):
            raise TypeError(f"TransformReward needs a callable func, got {func!r}")
        self.func = func

    def rewards(self, rewards: Any) -> Any:
        return self.func(rewards)


def _box_actions(wrapper: str, env: VectorEnv[Any, Any, Any]) -> Box:
    space = env.single_action_space
    if not isinstance(space, Box):
        raise ValueError(
            f"{wrapper} needs a Box action space, but the env's single action space is "
            f"{space}; it only makes sense for continuous actions"
        )
    return space


class ClipAction(VectorActionWrapper[ObsT, NDArray[Any], NDArray[Any]]):
    """Clips every action into the single action space's bounds; accepts any real action."""

    def __init__(self, env: VectorEnv[ObsT, NDArray[Any], Any]) -> None:
        super().__init__(env)
        space = _box_actions("ClipAction", env)
        self._low = np.broadcast_to(space.low, (self.num_envs, *space.shape))
        self._high = np.broadcast_to(space.high, (self.num_envs, *space.shape))
        self.single_action_space = Box(-np.inf, np.inf, shape=space.shape, dtype=space.dtype)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def actions(self, actions: NDArray[Any]) -> NDArray[Any]:
        clipped: NDArray[Any] = np.clip(actions, self._low, self._high)
        return clipped


class RescaleAction(VectorActionWrapper[ObsT, NDArray[Any], NDArray[Any]]):
    """Maps actions from `[min_action, max_action]` linearly onto the env's action bounds."""

    def __init__(
        self,
        env: VectorEnv[ObsT, NDArray[Any], Any],
        min_action: float | NDArray[Any],
        max_action: float | NDArray[Any],
    ) -> None:
        super().__init__(env)
        space = _box_actions("RescaleAction", env)
        low = np.broadcast_to(np.asarray(min_action, dtype=space.dtype), space.shape)
        high = np.broadcast_to(np.asarray(max_action, dtype=space.dtype), space.shape)
        if not np.all(low < high):
            raise ValueError(
                f"RescaleAction needs min_action < max_action everywhere, got "
                f"min_action={min_action!r}, max_action={max_action!r}"
            )
        if not (np.all(np.isfinite(space.low)) and np.all(np.isfinite(space.high))):
            raise ValueError(
                f"RescaleAction needs finite action bounds, but the env's are {space}"
            )
        self.single_action_space = Box(low, high, shape=space.shape, dtype=space.dtype)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._scale = (space.high.astype(np.float64) - space.low) / (high.astype(np.float64) - low)
        self._min = low.astype(np.float64)
        self._low = space.low.astype(np.float64)
        self._dtype = space.dtype

    def actions(self, actions: NDArray[Any]) -> NDArray[Any]:
        scaled: NDArray[Any] = self._low + (
            np.asarray(actions, dtype=np.float64) - self._min
        ) * self._scale
        return scaled.astype(self._dtype, copy=False)


class FlattenObservation(VectorObservationWrapper[NDArray[Any], ActT, Any]):
    """Flattens each sub-env's observation into one row: a (num_envs, flatdim) array."""

    def __init__(self, env: VectorEnv[Any, ActT, Any]) -> None:
        super().__init__(env)
        self._inner_single = env.single_observation_space
        flat = flatten_space(self._inner_single)
        if not isinstance(flat, Box):
            raise ValueError(
                f"FlattenObservation needs an observation space that flattens to a Box, got "
                f"{self._inner_single}"
            )
        self.single_observation_space = flat
        self.observation_space = batch_space(flat, self.num_envs)
        self._plain_box = isinstance(self._inner_single, Box)

    def observations(self, observations: Any) -> NDArray[Any]:
        if self._plain_box:
            flat: NDArray[Any] = np.reshape(observations, (self.num_envs, -1))
            return flat
        rows = [flatten(self._inner_single, row)
                for row in iterate(self.env.observation_space, observations)]
        return np.stack(rows)


class DtypeObservation(VectorObservationWrapper[NDArray[Any], ActT, NDArray[Any]]):
    """Casts every observation batch to `dtype` (a Box observation space is required)."""

    def __init__(self, env: VectorEnv[NDArray[Any], ActT, Any], dtype: DTypeLike) -> None:
        super().__init__(env)
        space = env.single_observation_space
        if not isinstance(space, Box):
            raise ValueError(
                f"DtypeObservation needs a Box observation space, got {space}"
            )
        self.dtype = np.dtype(dtype)
        self.single_observation_space = Box(
            space.low.astype(self.dtype), space.high.astype(self.dtype),
            shape=space.shape, dtype=self.dtype,
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

    def observations(self, observations: NDArray[Any]) -> NDArray[Any]:
        cast: NDArray[Any] = np.asarray(observations).astype(self.dtype)
        return cast


