"""Partial resets in disabled-autoreset mode: ``reset(options={"reset_mask": mask})`` resets
only the masked sub-envs, and every stateful wrapper keeps the state of the others (their
running episode, return, frame stack, elapsed steps), where Gymnasium's wrappers wipe it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from protogym import Env
from protogym.vector import AsyncVectorEnv, SyncVectorEnv
from protogym.vector.wrappers import (
    NormalizeObservation,
    NormalizeReward,
    RecordEpisodeStatistics,
)
from protogym.wrappers import FrameStackObservation, TimeLimit
from protogym.wrappers.utils import RunningMeanStd
from tests.vector.vector_helpers import Countdown

KINDS: dict[str, Callable[[list[Any]], Any]] = {
    "sync": lambda fns: SyncVectorEnv(fns, autoreset_mode="disabled"),
    "async": lambda fns: AsyncVectorEnv(fns, num_workers=2, autoreset_mode="disabled"),
}


def long_countdowns(num: int, wrap: Callable[[Env[Any, Any]], Env[Any, Any]] | None = None
                    ) -> list[Callable[[], Env[Any, Any]]]:
    def build(ident: int) -> Env[Any, Any]:
        env: Env[Any, Any] = Countdown(ident=ident, length=100)
        return env if wrap is None else wrap(env)

    return [functools.partial(build, i) for i in range(num)]


def ones(n: int) -> np.ndarray[Any, Any]:
    return np.ones(n, dtype=np.int64)


MIDDLE = np.array([False, True, False])


@pytest.mark.parametrize("kind", KINDS)
def test_a_masked_reset_resets_only_the_masked_sub_envs(kind: str) -> None:
    with KINDS[kind](long_countdowns(3)) as env:
        first, _ = env.reset(seed=10)
        for _ in range(3):
            env.step(ones(3))
        obs, infos = env.reset(seed=[None, 7, None], options={"reset_mask": MIDDLE})
        assert obs[:, 0].tolist() == [3, 0, 3]  # steps taken since each one's reset
        assert obs[0, 2] == first[0, 2] and obs[2, 2] == first[2, 2]  # same episodes
        assert infos["_reset_seed"].tolist() == [False, True, False]
        assert infos["reset_seed"][1] == 7
        obs, *_ = env.step(ones(3))
        assert obs[:, 0].tolist() == [4, 1, 4]


@pytest.mark.parametrize("kind", KINDS)
def test_record_episode_statistics_keeps_the_other_episodes_running(kind: str) -> None:
    env = RecordEpisodeStatistics(KINDS[kind](long_countdowns(3)))
    env.reset(seed=0)
    for _ in range(3):
        env.step(ones(3))  # rewards 2, 3, 4
    starts = env.episode_start_times.copy()
    env.reset(options={"reset_mask": MIDDLE})
    assert env.episode_returns.tolist() == [9.0, 0.0, 9.0]
    assert env.episode_lengths.tolist() == [3, 0, 3]
    assert env.episode_start_times[0] == starts[0] and env.episode_start_times[2] == starts[2]
    assert env.episode_start_times[1] > starts[1]
    env.step(ones(3))  # sub-env 1 takes reward 2, the others 5
    assert env.episode_returns.tolist() == [14.0, 2.0, 14.0]
    assert env.episode_lengths.tolist() == [4, 1, 4]
    env.close()


@pytest.mark.parametrize("kind", KINDS)
def test_normalize_reward_keeps_the_other_sub_envs_returns(kind: str) -> None:
    env = NormalizeReward(KINDS[kind](long_countdowns(3)), gamma=0.5)
    env.reset(seed=0)
    env.step(ones(3))
    env.step(ones(3))  # returns 2 * 0.5 + 3 = 4
    assert env.accumulated_reward.tolist() == [4.0, 4.0, 4.0]
    count = env.return_rms.count
    env.reset(options={"reset_mask": MIDDLE})
    assert env.accumulated_reward.tolist() == [4.0, 0.0, 4.0]
    assert env.return_rms.count == count  # a reset adds nothing to the statistics
    env.step(ones(3))  # sub-env 1 starts over with reward 2; the others take 4
    assert env.accumulated_reward.tolist() == [6.0, 2.0, 6.0]
    env.close()


@pytest.mark.parametrize("kind", KINDS)
def test_normalize_observation_counts_only_the_reset_sub_envs(kind: str) -> None:
    env = NormalizeObservation(KINDS[kind](long_countdowns(3)))
    raw = KINDS[kind](long_countdowns(3))
    expected = RunningMeanStd(shape=(3,), dtype=np.float32)
    raw_obs, _ = raw.reset(seed=4)
    env.reset(seed=4)
    expected.update(raw_obs)
    for _ in range(2):
        raw_obs, *_ = raw.step(ones(3))
        env.step(ones(3))
        expected.update(raw_obs)
    obs, _ = env.reset(seed=[None, 9, None], options={"reset_mask": MIDDLE})
    raw_obs, _ = raw.reset(seed=[None, 9, None], options={"reset_mask": MIDDLE})
    expected.update(raw_obs[MIDDLE])  # the new row only: the others were counted last step
    assert env.obs_rms.count == expected.count == 1e-4 + 3 * 3 + 1
    np.testing.assert_array_equal(env.obs_rms.mean, expected.mean)
    normalised = (raw_obs - expected.mean) / np.sqrt(expected.var + 1e-8)
    np.testing.assert_array_equal(obs, normalised.astype(np.float32))
    env.close()
    raw.close()


@pytest.mark.parametrize("kind", KINDS)
def test_sub_env_frame_stacks_of_the_others_are_kept(kind: str) -> None:
    def stacked(env: Env[Any, Any]) -> Env[Any, Any]:
        return FrameStackObservation(env, 3)

    with KINDS[kind](long_countdowns(3, stacked)) as env:
        env.reset(seed=0)
        for _ in range(2):
            obs, *_ = env.step(ones(3))
        assert obs[:, :, 0].tolist() == [[0, 1, 2]] * 3
        obs, _ = env.reset(options={"reset_mask": MIDDLE})
        assert obs[:, :, 0].tolist() == [[0, 1, 2], [0, 0, 0], [0, 1, 2]]
        obs, *_ = env.step(ones(3))
        assert obs[:, :, 0].tolist() == [[1, 2, 3], [0, 0, 1], [1, 2, 3]]


@pytest.mark.parametrize("kind", KINDS)
def test_sub_env_time_limits_of_the_others_keep_counting(kind: str) -> None:
    def limited(env: Env[Any, Any]) -> Env[Any, Any]:
        return TimeLimit(env, max_episode_steps=4)

    with KINDS[kind](long_countdowns(3, limited)) as env:
        env.reset(seed=0)
        env.step(ones(3))
        env.step(ones(3))
        env.reset(options={"reset_mask": MIDDLE})
        env.step(ones(3))
        _, _, _, truncated, _ = env.step(ones(3))
        assert truncated.tolist() == [True, False, True]  # 4 steps, 2 steps, 4 steps
        env.reset(options={"reset_mask": truncated})
        env.step(ones(3))
        _, _, _, truncated, _ = env.step(ones(3))
        assert truncated.tolist() == [False, True, False]
