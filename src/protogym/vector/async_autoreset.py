"""Autoreset bookkeeping of `AsyncVectorEnv`, on both sides of the pipe.

In the worker, `AutoresetBlock` steps and resets its sub-envs under the vector env's autoreset
mode (next-step's pending resets, same-step's final observations) and writes each result
into its shared rows; what does not fit shared memory goes in a report. In the parent,
`merge_reports` folds the workers' reports into one batched info dict.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.vector.async_shared import write_row
from protogym.vector.sync_vector_env import detached
from protogym.vector.utils.infos import add_finals, add_info
from protogym.vector.vector_env import AutoresetMode

__all__ = ["Report", "AutoresetBlock", "merge_reports"]

Report = dict[str, list[Any]]
"""A worker's reply beyond shared memory: ``"infos"`` (index, info), ``"finals"`` (index,
final observation, final info) and ``"obs"`` (index, observation), each only if any."""


class AutoresetBlock:
    """Sub-envs `first..first+len(envs)-1` of a vector env, as one worker runs them.

    `observations` is the shared batch (an array, dicts/tuples of arrays) or None when
    observations travel in the report; `rewards`, `terminations` and `truncations` are the
    shared per-sub-env arrays. Rows are indexed by the sub-env's index in the vector env.
    """

    def __init__(
        self,
        envs: list[Env[Any, Any]],
        first: int,
        mode: AutoresetMode,
        observations: Any,
        rewards: NDArray[np.float64],
        terminations: NDArray[np.bool_],
        truncations: NDArray[np.bool_],
    ) -> None:
        self.envs = envs
        self.first = first
        self.same_step = mode is AutoresetMode.SAME_STEP
        self.next_step = mode is AutoresetMode.NEXT_STEP
        self.pending = [False] * len(envs)  # next-step: reset on the next step
        self.current = first  # the sub-env being stepped or reset (the one that failed)
        self.observations = observations
        self.array_obs = isinstance(observations, np.ndarray)
        self.rewards = rewards
        self.terminations = terminations
        self.truncations = truncations

    def step(self, locals_: Iterable[int], actions: Any, report: Report) -> None:
        """Step (or, next-step mode after an episode's end, reset) sub-envs `locals_` in
        turn, sub-env `locals_[i]` with `actions[i]`. One loop with everything in locals:
        it runs for every sub-env of every step."""
        first, envs, pending = self.first, self.envs, self.pending
        same_step, next_step = self.same_step, self.next_step
        rewards, terminations, truncations = self.rewards, self.terminations, self.truncations
        observations, array_obs = self.observations, self.array_obs
        for local, action in zip(locals_, actions, strict=True):
            self.current = index = first + local
            env = envs[local]
            if next_step and pending[local]:
                obs, info = env.reset()
                pending[local] = False
                rewards[index] = 0.0
                terminations[index] = False
                truncations[index] = False
            else:
                obs, reward, terminated, truncated, info = env.step(action)
                rewards[index] = reward
                terminations[index] = terminated
                truncations[index] = truncated
                if terminated or truncated:
                    if same_step:
                        report.setdefault("finals", []).append((index, detached(obs), info))
                        obs, info = env.reset()
                    elif next_step:
                        pending[local] = True
            if array_obs:
                observations[index] = obs
            else:
                self._store(index, obs, report)
            if info:
                report.setdefault("infos", []).append((index, info))

    def reset(
        self, local: int, seed: int | None, options: dict[str, Any] | None, report: Report
    ) -> None:
        """Reset sub-env `local` with `seed` and `options`; cancels a pending autoreset."""
        self.current = index = self.first + local
        obs, info = self.envs[local].reset(seed=seed, options=options)
        self.pending[local] = False
        self._store(index, obs, report)
        if info:
            report.setdefault("infos", []).append((index, info))

    def _store(self, index: int, obs: Any, report: Report) -> None:
        observations = self.observations
        if self.array_obs:
            observations[index] = obs
        elif observations is not None:
            write_row(observations, index, obs)
        else:
            report.setdefault("obs", []).append((index, obs))


def merge_reports(
    reports: Iterable[Report | None], num_envs: int, rows: dict[int, int] | None = None
) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
    """The batched infos (with same-step finals) of the workers' reports, and the
    observations that came by pipe as (index, observation), in the workers' order.

    `rows` maps a sub-env's index to its row in a partial batch of `num_envs` rows; without
    it, a sub-env's row is its index."""
    infos: dict[str, Any] = {}
    obs_rows: list[tuple[int, Any]] = []
    finals: list[tuple[int, Any, Any]] = []
    for report in reports:
        if not report:
            continue
        for index, obs, info in report.get("finals", ()):
            finals.append((index if rows is None else rows[index], obs, info))
        for index, info in report.get("infos", ()):
            add_info(infos, info, index if rows is None else rows[index], num_envs)
        obs_rows.extend(report.get("obs", ()))
    if finals:
        add_finals(infos, finals, num_envs)
    return infos, obs_rows
