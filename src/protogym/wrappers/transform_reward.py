"""Stateless reward wrappers: apply a function to every reward, or clip it."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, SupportsFloat

import numpy as np
from numpy.typing import NDArray

from protogym.core import ActType, Env, ObsType, RewardWrapper
from protogym.error import InvalidBound

__all__ = ["ClipReward", "TransformReward"]


class TransformReward(RewardWrapper[ObsType, ActType]):
    """Replaces every reward `r` with `func(r)`."""

    def __init__(
        self, env: Env[ObsType, ActType], func: Callable[[SupportsFloat], SupportsFloat]
    ) -> None:
        if not callable(func):
            raise TypeError(f"TransformReward: func must be callable, got {func!r}")
        super().__init__(env)
        self.func = func

    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        return self.func(reward)


class ClipReward(TransformReward[ObsType, ActType]):
    """Clips every reward into `[min_reward, max_reward]`; either bound may be None (open).

    Scalar bounds clip with float comparisons (the reward stays a number); array bounds,
    for vector-valued rewards, clip with numpy.
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        min_reward: float | NDArray[Any] | None = None,
        max_reward: float | NDArray[Any] | None = None,
    ) -> None:
        if min_reward is None and max_reward is None:
            raise InvalidBound(
                "ClipReward needs min_reward, max_reward or both; with neither it clips nothing"
            )
        if (
            min_reward is not None
            and max_reward is not None
            and np.any(np.asarray(max_reward) < np.asarray(min_reward))
        ):
            raise InvalidBound(
                f"ClipReward: min_reward ({min_reward}) must be <= max_reward ({max_reward})"
            )
        self.min_reward = min_reward
        self.max_reward = max_reward
        func: Callable[[SupportsFloat], SupportsFloat]
        if isinstance(min_reward, np.ndarray) or isinstance(max_reward, np.ndarray):
            low_arr, high_arr = min_reward, max_reward

            def func(reward: SupportsFloat) -> SupportsFloat:
                clipped: SupportsFloat = np.clip(np.asarray(reward), low_arr, high_arr)
                return clipped

        else:
            low = -math.inf if min_reward is None else float(min_reward)
            high = math.inf if max_reward is None else float(max_reward)

            def func(reward: SupportsFloat) -> SupportsFloat:
                value = float(reward)
                return low if value < low else high if value > high else reward

        super().__init__(env, func)
