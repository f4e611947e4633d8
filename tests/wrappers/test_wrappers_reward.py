"""TransformReward, ClipReward and NormalizeReward: exact values, Gymnasium parity, bad input."""

from __future__ import annotations

import math

import gymnasium
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protogym.error import InvalidBound
from protogym.wrappers import ClipReward, NormalizeReward, TimeLimit, TransformReward
from tests.wrappers.wrapper_test_envs import CountingEnv, gym_twin, run_actions


def rewards_of(env: object, steps: int) -> list[float]:
    env.reset(seed=0)  # type: ignore[attr-defined]
    return [float(env.step(0)[1]) for _ in range(steps)]  # type: ignore[attr-defined]


def test_wrappers_transform_reward_applies_func() -> None:
    env = TransformReward(CountingEnv(), lambda r: 2 * float(r) + 1)
    assert rewards_of(env, 3) == [3.0, 5.0, 7.0]


def test_wrappers_transform_reward_rejects_non_callable() -> None:
    with pytest.raises(TypeError, match="func must be callable, got 3"):
        TransformReward(CountingEnv(), 3)  # type: ignore[arg-type]


def test_wrappers_clip_reward_clips_both_sides() -> None:
    env = ClipReward(CountingEnv(rewards=[-5.0, 0.5, 9.0]), min_reward=-1.0, max_reward=1.0)
    assert rewards_of(env, 3) == [-1.0, 0.5, 1.0]


def test_wrappers_clip_reward_one_sided() -> None:
    env = ClipReward(CountingEnv(rewards=[-5.0, 0.5, 9.0]), max_reward=2)
    assert rewards_of(env, 3) == [-5.0, 0.5, 2.0]
    env = ClipReward(CountingEnv(rewards=[-5.0, 0.5, 9.0]), min_reward=0)
    assert rewards_of(env, 3) == [0.0, 0.5, 9.0]


def test_wrappers_clip_reward_array_bounds_clip_vector_rewards() -> None:
    inner = CountingEnv(rewards=[np.array([-3.0, 3.0])])  # type: ignore[list-item]
    env = ClipReward(inner, min_reward=np.array([-1.0, -2.0]), max_reward=np.array([1.0, 2.0]))
    env.reset()
    np.testing.assert_array_equal(env.step(0)[1], [-1.0, 2.0])


@given(st.floats(-1e6, 1e6), st.floats(-100, 100), st.floats(0, 100))
def test_wrappers_clip_reward_matches_numpy_clip(reward: float, low: float, width: float) -> None:
    env = ClipReward(CountingEnv(rewards=[reward]), min_reward=low, max_reward=low + width)
    env.reset()
    assert env.step(0)[1] == np.clip(reward, low, low + width)


def test_wrappers_clip_reward_rejects_bad_bounds() -> None:
    with pytest.raises(InvalidBound, match="needs min_reward, max_reward or both"):
        ClipReward(CountingEnv())
    with pytest.raises(InvalidBound, match=r"min_reward \(2\.0\) must be <= max_reward \(1\.0\)"):
        ClipReward(CountingEnv(), 2.0, 1.0)


def test_wrappers_normalize_reward_exact_values() -> None:
    env = NormalizeReward(CountingEnv(rewards=[1.0, 1.0]), gamma=0.5)
    env.reset()
    # G1 = 1: count 1e-4 -> 1.0001, mean = 1/1.0001, var = (1e-4 + 1e-4/1.0001) / 1.0001.
    count = 1e-4
    total = count + 1
    var = (1.0 * count + 1.0 * count / total) / total
    assert env.step(0)[1] == 1.0 / math.sqrt(var + 1e-8)
    assert env.discounted_reward == 1.0
    assert env.step(0)[1] != 1.0 / math.sqrt(var + 1e-8)
    assert env.discounted_reward == 1.5


def test_wrappers_normalize_reward_matches_gymnasium_exactly() -> None:
    rewards = [0.3, -1.2, 4.0, 0.0, 2.5, -0.7, 1.1, 3.3, -2.0, 0.9]
    actions = [0] * 9
    ours = run_actions(NormalizeReward(CountingEnv(terminate_at=5, rewards=rewards), 0.9),
                       actions)
    theirs = run_actions(
        gymnasium.wrappers.NormalizeReward(
            gym_twin(CountingEnv(terminate_at=5, rewards=rewards)), 0.9
        ),
        actions,
    )
    assert [step[1] for step in ours[1:]] == [float(step[1]) for step in theirs[1:]]


def test_wrappers_normalize_reward_can_be_frozen() -> None:
    env = NormalizeReward(TimeLimit(CountingEnv(), 100))
    env.reset()
    for _ in range(5):
        env.step(0)
    env.update_running_mean = False
    frozen = (env.return_rms.mean, env.return_rms.var, env.return_rms.count)
    scale = math.sqrt(env.return_rms.var + env.epsilon)
    reward = env.step(0)[1]
    assert reward == 6.0 / scale
    assert (env.return_rms.mean, env.return_rms.var, env.return_rms.count) == frozen
    assert not env.update_running_mean


@pytest.mark.parametrize(("gamma", "epsilon", "message"), [
    (1.5, 1e-8, r"gamma must be in \[0, 1\], got 1.5"),
    (-0.1, 1e-8, r"gamma must be in \[0, 1\], got -0.1"),
    (0.9, 0.0, "epsilon must be positive, got 0.0"),
])
def test_wrappers_normalize_reward_rejects_bad_arguments(
    gamma: float, epsilon: float, message: str
) -> None:
    with pytest.raises(InvalidBound, match=message):
        NormalizeReward(CountingEnv(), gamma=gamma, epsilon=epsilon)
