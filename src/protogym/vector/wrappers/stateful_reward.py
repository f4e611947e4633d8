"""`NormalizeReward` for vector envs: rewards scaled by the spread of discounted returns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from protogym.error import InvalidBound
from protogym.vector.sync_vector_env import reset_mask_of
from protogym.vector.vector_env import AutoresetMode, VectorEnv, VectorStepResult
from protogym.vector.wrappers.base import ActT, ObsT, VectorWrapper
from protogym.wrappers.utils import RunningMeanStd

__all__ = ["NormalizeReward"]


class NormalizeReward(VectorWrapper[ObsT, ActT, ObsT, ActT]):
    """Divides rewards by the running standard deviation of each sub-env's discounted return.

    Each sub-env's return accumulates ``return * gamma * (1 - terminated) + reward`` (the
    old convention the single-env wrapper keeps), and the statistics follow the autoreset
    mode as Gymnasium 1.4 does: in next-step and disabled mode the step that only resets a
    sub-env is left out of them; in same-step mode every step counts, and a sub-env's return
    restarts at 0 after its episode ends, since the next step already belongs to a new one.
    Statistics are updated every step unless `update_running_mean` is set to False. A
    partial reset (``reset_mask``) restarts the returns of the sub-envs it reset only.
    """

    def __init__(
        self, env: VectorEnv[ObsT, ActT, Any], gamma: float = 0.99, epsilon: float = 1e-8
    ) -> None:
        super().__init__(env)
        if not 0.0 <= gamma <= 1.0:
            raise InvalidBound(f"NormalizeReward needs 0 <= gamma <= 1, got {gamma!r}")
        if not epsilon > 0:
            raise InvalidBound(f"NormalizeReward needs epsilon > 0, got {epsilon!r}")
        self.return_rms = RunningMeanStd(shape=())
        self.accumulated_reward = np.zeros(self.num_envs, dtype=np.float32)
        self.gamma = gamma
        self.epsilon = epsilon
        self.update_running_mean = True
        self._same_step = env.autoreset_mode == AutoresetMode.SAME_STEP
        self._prev_dones = np.zeros(self.num_envs, dtype=np.bool_)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT, dict[str, Any]]:
        mask = reset_mask_of(options, self.num_envs)
        result = self.env.reset(seed=seed, options=options)
        rows = slice(None) if mask is None else mask
        self.accumulated_reward[rows] = 0.0
        self._prev_dones[rows] = False
        return result

    def step(self, actions: ActT) -> VectorStepResult[ObsT]:
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        returns = self.accumulated_reward
        if self._same_step or not self._prev_dones.any():
            returns[:] = returns * self.gamma * (1 - terminations) + rewards
            if self.update_running_mean:
                self.return_rms.update(returns)
        else:
            counted = ~self._prev_dones
            returns[counted] = (
                returns[counted] * self.gamma * (1 - terminations[counted]) + rewards[counted]
            )
            if self.update_running_mean and counted.any():
                self.return_rms.update(returns[counted])
        self._prev_dones = dones = np.logical_or(terminations, truncations)
        if self._same_step and dones.any():
            returns[dones] = 0.0
        scaled = rewards / np.sqrt(self.return_rms.var + self.epsilon)
        return observations, scaled, terminations, truncations, infos
