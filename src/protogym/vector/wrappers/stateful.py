"""Vector wrappers that keep state across steps: episode statistics and running normalisers."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.vector.sync_vector_env import reset_mask_of
from protogym.vector.vector_env import AutoresetMode, VectorEnv, VectorStepResult
from protogym.vector.wrappers.base import (
    ActT,
    ObsT,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)
from protogym.wrappers.utils import RunningMeanStd

__all__ = ["NormalizeObservation", "NormalizeReward", "RecordEpisodeStatistics"]


class RecordEpisodeStatistics(VectorWrapper[ObsT, ActT, ObsT, ActT]):
    """Adds each ended episode's return, length and duration to the infos.

    On the step an episode ends, ``info[stats_key]`` holds arrays `r` (return), `l`
    (length) and `t` (seconds since its start), valid where ``info["_" + stats_key]`` is
    True; `return_queue`, `length_queue` and `time_queue` keep the last `buffer_length`
    episodes. All three autoreset modes are followed.
    """

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        buffer_length: int = 100,
        stats_key: str = "episode",
    ) -> None:
        super().__init__(env)
        if isinstance(buffer_length, bool) or not isinstance(buffer_length, int) or (
            buffer_length < 1
        ):
            raise ValueError(
                f"RecordEpisodeStatistics needs buffer_length >= 1, got {buffer_length!r}"
            )
        self.stats_key = stats_key
        self.episode_returns = np.zeros(self.num_envs, dtype=np.float64)
        self.episode_lengths = np.zeros(self.num_envs, dtype=np.int64)
        self.episode_start_times = np.full(self.num_envs, time.perf_counter())
        self._reset_next = np.zeros(self.num_envs, dtype=np.bool_)
        self.return_queue: deque[float] = deque(maxlen=buffer_length)
        self.length_queue: deque[int] = deque(maxlen=buffer_length)
        self.time_queue: deque[float] = deque(maxlen=buffer_length)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT, dict[str, Any]]:
        observations, infos = self.env.reset(seed=seed, options=options)
        mask = reset_mask_of(options, self.num_envs)
        rows = slice(None) if mask is None else mask
        self.episode_returns[rows] = 0.0
        self.episode_lengths[rows] = 0
        self.episode_start_times[rows] = time.perf_counter()
        self._reset_next[rows] = False
        return observations, infos

    def step(self, actions: ActT) -> VectorStepResult[ObsT]:
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        fresh = self._reset_next
        if fresh.any():  # next-step autoreset: this step only reset those sub-envs
            self.episode_returns[fresh] = 0.0
            self.episode_lengths[fresh] = 0
            self.episode_start_times[fresh] = time.perf_counter()
            counted = ~fresh
            self.episode_returns[counted] += rewards[counted]
            self.episode_lengths[counted] += 1
        else:
            self.episode_returns += rewards
            self.episode_lengths += 1
        done = terminations | truncations
        if done.any():
            now = time.perf_counter()
            elapsed = np.round(now - self.episode_start_times, 6)
            infos = dict(infos)
            infos[self.stats_key] = {
                "r": np.where(done, self.episode_returns, 0.0),
                "l": np.where(done, self.episode_lengths, 0),
                "t": np.where(done, elapsed, 0.0),
                "_r": done,
                "_l": done,
                "_t": done,
            }
            infos[f"_{self.stats_key}"] = done
            for index in np.flatnonzero(done).tolist():
                self.return_queue.append(float(self.episode_returns[index]))
                self.length_queue.append(int(self.episode_lengths[index]))
                self.time_queue.append(float(elapsed[index]))
            mode = self.env.autoreset_mode
            if mode is AutoresetMode.NEXT_STEP:
                self._reset_next = done
            elif mode is AutoresetMode.SAME_STEP:
                self.episode_returns[done] = 0.0
                self.episode_lengths[done] = 0
                self.episode_start_times[done] = now
            # DISABLED: counters restart when the user resets those sub-envs.
        elif fresh.any():
            self._reset_next = np.zeros(self.num_envs, dtype=np.bool_)
        return observations, rewards, terminations, truncations, infos


class NormalizeObservation(VectorObservationWrapper[NDArray[np.float64], ActT, NDArray[Any]]):
    """Normalises observations to about zero mean and unit variance with running statistics.

    Statistics are updated from every batch unless `update_running_mean` is set to False
    (freeze them for evaluation).
    """

    def __init__(self, env: VectorEnv[NDArray[Any], ActT, Any], epsilon: float = 1e-8) -> None:
        super().__init__(env)
        shape = env.single_observation_space.shape
        if shape is None:
            raise ValueError(
                "NormalizeObservation needs an array observation space (with a shape), got "
                f"{env.single_observation_space}"
            )
        self.obs_rms = RunningMeanStd(shape=shape)
        self.epsilon = epsilon
        self.update_running_mean = True

    def observations(self, observations: NDArray[Any]) -> NDArray[np.float64]:
        if self.update_running_mean:
            self.obs_rms.update(observations)
        normalised: NDArray[np.float64] = (observations - self.obs_rms.mean) / np.sqrt(
            self.obs_rms.var + self.epsilon
        )
        return normalised

    def _transform_finals(self, infos: dict[str, Any]) -> dict[str, Any]:
        """Normalise the final observations without counting them in the statistics again
        (every row that did not end is an observation the batch already counted)."""
        scale = np.sqrt(self.obs_rms.var + self.epsilon)
        finals = (infos["final_observation"] - self.obs_rms.mean) / scale
        return {**infos, "final_observation": finals}


class NormalizeReward(VectorRewardWrapper[ObsT, ActT]):
    """Scales rewards by the running standard deviation of each sub-env's discounted return.

    Statistics are updated every step unless `update_running_mean` is set to False.
    """

    def __init__(
        self, env: VectorEnv[ObsT, ActT, Any], gamma: float = 0.99, epsilon: float = 1e-8
    ) -> None:
        super().__init__(env)
        if not 0.0 <= gamma <= 1.0:
            raise ValueError(f"NormalizeReward needs 0 <= gamma <= 1, got {gamma!r}")
        self.return_rms = RunningMeanStd(shape=())
        self.accumulated_reward = np.zeros(self.num_envs, dtype=np.float64)
        self.gamma = gamma
        self.epsilon = epsilon
        self.update_running_mean = True

    def step(self, actions: ActT) -> VectorStepResult[ObsT]:
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        self.accumulated_reward = (
            self.accumulated_reward * self.gamma * (1 - terminations) + rewards
        )
        if self.update_running_mean:
            self.return_rms.update(self.accumulated_reward)
        scaled = rewards / np.sqrt(self.return_rms.var + self.epsilon)
        return observations, scaled, terminations, truncations, infos
