"""Reward wrappers for vector envs: a function over the reward array (`TransformReward`), a
single-env reward wrapper applied to every sub-env's reward (`VectorizeTransformReward`),
and `ClipReward`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers._single import SpacesOnlyEnv
from protogym.vector.wrappers.base import ActT, ObsT, VectorRewardWrapper
from protogym.wrappers import transform_reward as single

__all__ = ["ClipReward", "TransformReward", "VectorizeTransformReward"]


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


class VectorizeTransformReward(VectorRewardWrapper[ObsT, ActT]):
    """Applies a single-env reward wrapper (`wrapper`, a `TransformReward` subclass, built
    with `kwargs`) to every sub-env's reward; the result is a new float64 array."""

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        wrapper: type[single.TransformReward[Any, Any]],
        **kwargs: Any,
    ) -> None:
        super().__init__(env)
        stand_in = SpacesOnlyEnv(env.single_observation_space, env.single_action_space,
                                 env.metadata)
        self.wrapper = wrapper(stand_in, **kwargs)

    def rewards(self, rewards: Any) -> Any:
        func = self.wrapper.func
        return np.array([func(reward) for reward in rewards], dtype=np.float64)


class ClipReward(VectorizeTransformReward[ObsT, ActT]):
    """Clips every reward into `[min_reward, max_reward]`; either bound may be None."""

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        min_reward: float | NDArray[Any] | None = None,
        max_reward: float | NDArray[Any] | None = None,
    ) -> None:
        super().__init__(env, single.ClipReward, min_reward=min_reward, max_reward=max_reward)
        self.min_reward = min_reward
        self.max_reward = max_reward

    def rewards(self, rewards: Any) -> Any:
        return np.clip(rewards, self.min_reward, self.max_reward)
