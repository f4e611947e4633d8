"""Reward wrappers that keep state across steps: `NormalizeReward`."""

from __future__ import annotations

import math
from typing import Any, SupportsFloat

from protogym.core import ActType, Env, ObsType, Wrapper
from protogym.error import InvalidBound
from protogym.wrappers.utils import ScalarRunningMeanStd

__all__ = ["NormalizeReward"]


class NormalizeReward(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Divides rewards by a running estimate of the standard deviation of the discounted return.

    The estimate follows the exponential moving return `G = gamma * G + r` (reset to `r` after
    a termination). Set `update_running_mean = False` to freeze it, e.g. for evaluation.
    Values match Gymnasium's `NormalizeReward` exactly.
    """

    def __init__(
        self, env: Env[ObsType, ActType], gamma: float = 0.99, epsilon: float = 1e-8
    ) -> None:
        if not 0 <= gamma <= 1:
            raise InvalidBound(f"NormalizeReward: gamma must be in [0, 1], got {gamma}")
        if not epsilon > 0:
            raise InvalidBound(f"NormalizeReward: epsilon must be positive, got {epsilon}")
        super().__init__(env)
        self.return_rms = ScalarRunningMeanStd()
        self.discounted_reward = 0.0
        self.gamma = gamma
        self.epsilon = epsilon
        self._update_running_mean = True

    @property
    def update_running_mean(self) -> bool:
        """Whether each step still updates the return statistics (False: frozen)."""
        return self._update_running_mean

    @update_running_mean.setter
    def update_running_mean(self, setting: bool) -> None:
        self._update_running_mean = setting

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        value = float(reward)
        rms = self.return_rms
        self.discounted_reward = self.discounted_reward * self.gamma * (1 - terminated) + value
        if self._update_running_mean:
            rms.update_one(self.discounted_reward)
        return obs, value / math.sqrt(rms.var + self.epsilon), terminated, truncated, info
