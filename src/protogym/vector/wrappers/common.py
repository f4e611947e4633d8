"""`RecordEpisodeStatistics` for vector envs: each ended episode's return, length and time."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np

from protogym.vector.sync_vector_env import reset_mask_of
from protogym.vector.vector_env import AutoresetMode, VectorEnv, VectorStepResult
from protogym.vector.wrappers.base import ActT, ObsT, VectorWrapper

__all__ = ["RecordEpisodeStatistics"]


class RecordEpisodeStatistics(VectorWrapper[ObsT, ActT, ObsT, ActT]):
    """Adds each ended episode's return, length and duration to the infos.

    On the step an episode ends, ``info[stats_key]`` holds arrays `r` (return), `l`
    (length) and `t` (seconds since its start), valid where ``info["_" + stats_key]`` is
    True (Gymnasium's layout: no masks inside). `return_queue`, `length_queue` and
    `time_queue` keep the last `buffer_length` episodes and `episode_count` counts them all.
    Every autoreset mode is followed: a next-step reset step belongs to no episode, and in
    disabled mode an ended sub-env's counters restart when ``reset(options=...)`` resets it.
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
        self._same_step = env.autoreset_mode == AutoresetMode.SAME_STEP
        self.episode_count = 0
        self.episode_returns = np.zeros(self.num_envs, dtype=np.float64)
        self.episode_lengths = np.zeros(self.num_envs, dtype=np.int64)
        self.episode_start_times = np.full(self.num_envs, time.perf_counter())
        self.prev_dones = np.zeros(self.num_envs, dtype=np.bool_)
        self.return_queue: deque[float] = deque(maxlen=buffer_length)
        self.length_queue: deque[int] = deque(maxlen=buffer_length)
        self.time_queue: deque[float] = deque(maxlen=buffer_length)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT, dict[str, Any]]:
        mask = reset_mask_of(options, self.num_envs)
        observations, infos = self.env.reset(seed=seed, options=options)
        rows = slice(None) if mask is None else mask
        self._restart(rows, time.perf_counter())
        self.prev_dones[rows] = False
        return observations, infos

    def step(self, actions: ActT) -> VectorStepResult[ObsT]:
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        restarted = self.prev_dones
        if not self._same_step and restarted.any():
            # Next-step mode: this step only reset those sub-envs; it belongs to no episode.
            self._restart(restarted, time.perf_counter())
            counted = ~restarted
            self.episode_returns[counted] += rewards[counted]
            self.episode_lengths[counted] += 1
        else:
            self.episode_returns += rewards
            self.episode_lengths += 1
        dones = np.logical_or(terminations, truncations)
        self.prev_dones = dones
        if dones.any():
            key = self.stats_key
            if key in infos or f"_{key}" in infos:
                raise ValueError(
                    f"RecordEpisodeStatistics would write info[{key!r}], but the env's info "
                    f"already has it (keys {sorted(infos)}); pass another stats_key"
                )
            now = time.perf_counter()
            elapsed = np.round(now - self.episode_start_times, 6)
            infos = {
                **infos,
                key: {
                    "r": np.where(dones, self.episode_returns, 0.0),
                    "l": np.where(dones, self.episode_lengths, 0),
                    "t": np.where(dones, elapsed, 0.0),
                },
                f"_{key}": dones,
            }
            ended = np.flatnonzero(dones)
            self.episode_count += len(ended)
            self.return_queue.extend(self.episode_returns[ended].tolist())
            self.length_queue.extend(self.episode_lengths[ended].tolist())
            self.time_queue.extend(elapsed[ended].tolist())
            if self._same_step:  # those sub-envs have already started their next episode
                self._restart(dones, now)
        return observations, rewards, terminations, truncations, infos

    def _restart(self, rows: Any, now: float) -> None:
        self.episode_returns[rows] = 0.0
        self.episode_lengths[rows] = 0
        self.episode_start_times[rows] = now
