"""Vector wrappers: what each does to batches, with exact values on the Countdown env."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import InvalidBound
from protogym.spaces import Box
from protogym.vector import SyncVectorEnv, VectorEnv
from protogym.vector.wrappers import (
    ClipAction,
    DtypeObservation,
    FlattenObservation,
    NormalizeObservation,
    NormalizeReward,
    RecordEpisodeStatistics,
    RescaleAction,
    TransformAction,
    TransformObservation,
    TransformReward,
    VectorWrapper,
)
from protogym.wrappers.utils import RunningMeanStd
from tests.vector.vector_helpers import DictEnv, countdowns


def ones(n: int) -> np.ndarray[Any, Any]:
    return np.ones(n, dtype=np.int64)


def pendulums(n: int) -> SyncVectorEnv[Any, Any, Any]:
    return SyncVectorEnv([lambda: protogym.make("Pendulum-v1", disable_env_checker=True)] * n)


def test_record_episode_statistics_same_step() -> None:
    env = RecordEpisodeStatistics(SyncVectorEnv(countdowns(2)))
    assert isinstance(env, VectorEnv)
    env.reset(seed=0)
    _, _, _, _, infos = env.step(ones(2))
    assert "episode" not in infos
    _, _, _, _, infos = env.step(ones(2))  # sub-env 0 ends: rewards 2 + 3
    assert infos["_episode"].tolist() == [True, False]
    assert infos["episode"]["r"].tolist() == [5.0, 0.0]
    assert infos["episode"]["l"].tolist() == [2, 0]
    assert set(infos["episode"]) == {"r", "l", "t"}  # Gymnasium's layout: no inner masks
    assert infos["episode"]["t"][0] >= 0.0
    _, _, _, _, infos = env.step(ones(2))  # sub-env 1 ends: 2 + 3 + 4
    assert infos["episode"]["r"].tolist() == [0.0, 9.0]
    assert infos["episode"]["l"].tolist() == [0, 3]
    _, _, _, _, infos = env.step(ones(2))  # sub-env 0's second episode: 2 + 3 again
    assert infos["episode"]["r"][0] == 5.0
    assert list(env.return_queue) == [5.0, 9.0, 5.0]
    assert list(env.length_queue) == [2, 3, 2]
    assert env.episode_count == 3


def test_record_episode_statistics_next_step_skips_the_reset_step() -> None:
    env = RecordEpisodeStatistics(SyncVectorEnv(countdowns(2), autoreset_mode="next_step"))
    env.reset(seed=0)
    env.step(ones(2))
    _, _, _, _, infos = env.step(ones(2))
    assert infos["episode"]["r"].tolist() == [5.0, 0.0]
    env.step(ones(2))  # sub-env 0 resets here (reward 0, not counted); sub-env 1 ends
    env.step(ones(2))
    _, _, _, _, infos = env.step(ones(2))
    assert infos["episode"]["l"][0] == 2
    assert infos["episode"]["r"][0] == 5.0


def test_record_episode_statistics_disabled_restarts_on_the_masked_reset() -> None:
    env = RecordEpisodeStatistics(SyncVectorEnv(countdowns(2), autoreset_mode="disabled"))
    env.reset(seed=0)
    env.step(ones(2))
    _, _, terminated, _, infos = env.step(ones(2))
    assert infos["episode"]["r"].tolist() == [5.0, 0.0]
    env.reset(options={"reset_mask": terminated})
    _, _, _, _, infos = env.step(ones(2))  # sub-env 1 ends (2 + 3 + 4); 0 starts again
    assert infos["episode"]["r"].tolist() == [0.0, 9.0]
    env.reset(options={"reset_mask": np.array([False, True])})
    _, _, _, _, infos = env.step(ones(2))
    assert infos["episode"]["r"].tolist() == [5.0, 0.0]
    assert env.episode_count == 3


def test_record_episode_statistics_rejects_a_bad_buffer_and_a_taken_key() -> None:
    with pytest.raises(ValueError, match="buffer_length >= 1, got 0"):
        RecordEpisodeStatistics(SyncVectorEnv(countdowns(1)), buffer_length=0)
    inner = SyncVectorEnv(countdowns(1), autoreset_mode="next_step")
    env = RecordEpisodeStatistics(inner, stats_key="count")  # every step's info has "count"
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"info\['count'\].*already has it"):
        for _ in range(3):
            env.step(ones(1))


def test_normalize_observation_uses_running_statistics_and_can_freeze() -> None:
    env = NormalizeObservation(SyncVectorEnv(countdowns(3, length=5)))
    assert env.single_observation_space == Box(-np.inf, np.inf, (3,), np.float32)
    assert env.observation_space == Box(-np.inf, np.inf, (3, 3), np.float32)
    raw = SyncVectorEnv(countdowns(3, length=5))
    expected = RunningMeanStd(shape=(3,), dtype=np.float32)

    def normalised(batch: Any) -> Any:
        return ((batch - expected.mean) / np.sqrt(expected.var + 1e-8)).astype(np.float32)

    obs, _ = env.reset(seed=1)
    raw_obs, _ = raw.reset(seed=1)
    expected.update(raw_obs)
    assert obs.dtype == np.float32
    np.testing.assert_array_equal(obs, normalised(raw_obs))
    for _ in range(2):
        obs, *_ = env.step(ones(3))
        raw_obs, *_ = raw.step(ones(3))
        expected.update(raw_obs)
        np.testing.assert_array_equal(obs, normalised(raw_obs))
    env.update_running_mean = False
    frozen_mean = env.obs_rms.mean.copy()
    env.step(ones(3))
    np.testing.assert_array_equal(env.obs_rms.mean, frozen_mean)


def test_normalize_observation_normalises_final_observations_without_updating() -> None:
    env = NormalizeObservation(SyncVectorEnv(countdowns(2)))
    env.reset(seed=0)
    env.step(ones(2))
    count_before = env.obs_rms.count
    _, _, _, _, infos = env.step(ones(2))
    assert env.obs_rms.count == count_before + 2  # one batch, not the final observations too
    assert infos["final_obs"][1] is None
    final = infos["final_obs"][0]
    assert final.dtype == np.float32
    raw_final = np.array([2.0, 0.0, 0.0])
    expected = (raw_final - env.obs_rms.mean) / np.sqrt(env.obs_rms.var + 1e-8)
    np.testing.assert_allclose(final[:2], expected[:2], rtol=1e-6)


def test_normalize_observation_checks_the_reset_mask_and_refuses_a_bad_epsilon() -> None:
    env = NormalizeObservation(SyncVectorEnv(countdowns(2), autoreset_mode="disabled"))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="no True entry"):
        env.reset(options={"reset_mask": np.array([False, False])})
    env.reset(options={"reset_mask": np.array([True, True])})
    with pytest.raises(InvalidBound, match="epsilon > 0"):
        NormalizeObservation(SyncVectorEnv(countdowns(1)), epsilon=0.0)


def test_normalize_reward_scales_by_the_discounted_return_deviation() -> None:
    env = NormalizeReward(SyncVectorEnv(countdowns(2, length=10)), gamma=0.5)
    env.reset(seed=0)
    returns = np.zeros(2)
    stats = RunningMeanStd(shape=())
    for step in range(1, 4):
        _, rewards, *_ = env.step(ones(2))
        raw = np.full(2, 1.0 + step)
        returns = returns * 0.5 + raw
        stats.update(returns)
        np.testing.assert_allclose(rewards, raw / np.sqrt(stats.var + 1e-8))
    with pytest.raises(ValueError, match="0 <= gamma <= 1, got 2"):
        NormalizeReward(SyncVectorEnv(countdowns(1)), gamma=2)


def test_transform_observation_action_and_reward() -> None:
    base = SyncVectorEnv(countdowns(2))
    env = TransformReward(
        TransformAction(
            TransformObservation(base, lambda obs: obs * 10),
            lambda actions: actions + 1,
        ),
        lambda rewards: rewards * 100,
    )
    obs, _ = env.reset(seed=0)
    assert obs[:, 1].tolist() == [0.0, 10.0]
    obs, rewards, _, _, _ = env.step(ones(2))  # action 1 becomes 2; reward 2 + 1 = 3
    assert rewards.tolist() == [300.0, 300.0]
    assert obs[:, 0].tolist() == [10.0, 10.0]
    obs, _, terminated, _, infos = env.step(ones(2))
    assert terminated.tolist() == [True, False]
    assert infos["final_obs"][0][0] == 20.0  # transformed like the batch
    assert infos["final_obs"][1] is None
    assert env.unwrapped is base
    assert env.get_attr("ident") == (0, 1)  # forwarded to the inner vector env


def test_transform_observation_with_a_new_space() -> None:
    base = SyncVectorEnv(countdowns(2))
    single = Box(-1e6, 1e6, shape=(1,), dtype=np.float32)
    env = TransformObservation(base, lambda obs: obs[:, :1], single_observation_space=single)
    assert env.single_observation_space == single
    assert env.observation_space.shape == (2, 1)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, 1)
    with pytest.raises(TypeError, match="needs a callable func"):
        TransformObservation(base, 3)  # type: ignore[arg-type]


def test_clip_action_clips_into_the_bounds() -> None:
    clipped = ClipAction(pendulums(2))
    plain = pendulums(2)
    assert clipped.single_action_space.shape == (1,)
    clipped.reset(seed=3)
    plain.reset(seed=3)
    _, r1, *_ = clipped.step(np.array([[5.0], [-7.0]], dtype=np.float32))
    _, r2, *_ = plain.step(np.array([[2.0], [-2.0]], dtype=np.float32))
    np.testing.assert_array_equal(r1, r2)
    with pytest.raises(TypeError, match="ClipAction needs a Box action space"):
        ClipAction(SyncVectorEnv(countdowns(1)))


def test_rescale_action_maps_the_range_linearly() -> None:
    rescaled = RescaleAction(pendulums(2), min_action=-1.0, max_action=1.0)
    assert rescaled.single_action_space == Box(-1.0, 1.0, shape=(1,), dtype=np.float32)
    plain = pendulums(2)
    rescaled.reset(seed=3)
    plain.reset(seed=3)
    _, r1, *_ = rescaled.step(np.array([[0.5], [-1.0]], dtype=np.float32))
    _, r2, *_ = plain.step(np.array([[1.0], [-2.0]], dtype=np.float32))
    np.testing.assert_array_equal(r1, r2)
    with pytest.raises(ValueError, match="must be strictly smaller than max_action"):
        RescaleAction(pendulums(1), min_action=1.0, max_action=1.0)


def test_flatten_observation_flattens_dict_rows() -> None:
    env = FlattenObservation(SyncVectorEnv([partial(DictEnv, ident=i) for i in range(2)]))
    assert env.single_observation_space.shape == (103,)  # one-hot Discrete(100) + Box(3)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, 103)
    assert obs[:, 0].tolist() == [1.0, 1.0]  # count 0, one-hot
    assert obs[1, 101] == 1.0  # ident of sub-env 1
    for _ in range(3):
        obs, _, _, _, infos = env.step(ones(2))
    assert infos["final_obs"][0].shape == (103,)
    assert infos["final_obs"][0][3] == 1.0  # count 3, one-hot


def test_dtype_observation_casts_batches_and_space() -> None:
    env = DtypeObservation(SyncVectorEnv(countdowns(2)), np.float64)
    assert env.single_observation_space.dtype == np.float64
    obs, _ = env.reset(seed=0)
    assert obs.dtype == np.float64
    with pytest.raises(TypeError, match="DtypeObservation needs a Box"):
        DtypeObservation(SyncVectorEnv([DictEnv]), np.float64)


def test_vector_wrapper_refuses_single_envs_and_forwards_close() -> None:
    with pytest.raises(TypeError, match="wraps a vector env"):
        VectorWrapper(protogym.make("CartPole-v1"))  # type: ignore[arg-type]
    base = SyncVectorEnv(countdowns(1))
    env = VectorWrapper(base)
    assert env.num_envs == 1 and env.autoreset_mode is base.autoreset_mode
    env.close()
    assert base.closed
