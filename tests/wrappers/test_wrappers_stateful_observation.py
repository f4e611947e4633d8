"""DelayObservation, TimeAwareObservation, FrameStackObservation, NormalizeObservation and
MaxAndSkipObservation: exact values across steps and resets, and Gymnasium parity."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym.error import InvalidBound
from protogym.registration.env_spec import EnvSpec
from protogym.spaces import Box, Dict
from protogym.wrappers import (
    DelayObservation,
    FrameStackObservation,
    MaxAndSkipObservation,
    NormalizeObservation,
    TimeAwareObservation,
    TimeLimit,
)
from tests.wrappers.wrapper_test_envs import (
    ArrayObsEnv,
    CountingEnv,
    DictObsEnv,
    assert_same_data,
    gym_twin,
    image_frames,
    run_actions,
    uint8_box,
)


def firsts(env: Any, steps: int) -> list[float]:
    """The first coordinate of the reset observation and of each step's observation."""
    out = [float(np.ravel(env.reset(seed=0)[0])[0])]
    out.extend(float(np.ravel(env.step(0)[0])[0]) for _ in range(steps))
    return out


# DelayObservation --------------------------------------------------------------------------


def test_wrappers_delay_observation_shifts_by_delay() -> None:
    env = DelayObservation(CountingEnv(), delay=2)
    assert firsts(env, 4) == [0.0, 0.0, 0.0, 1.0, 2.0]
    assert firsts(env, 2) == [0.0, 0.0, 0.0]  # the queue starts over at reset


def test_wrappers_delay_observation_zero_delay_is_identity() -> None:
    assert firsts(DelayObservation(CountingEnv(), 0), 3) == [0.0, 1.0, 2.0, 3.0]


def test_wrappers_delay_observation_pads_with_the_space_zero() -> None:
    space = Box(np.array([1.0, -5.0], np.float32), np.array([4.0, -2.0], np.float32))
    env = DelayObservation(ArrayObsEnv(space, [np.array([2.0, -3.0], np.float32)] * 3), 1)
    assert env.reset()[0].tolist() == [1.0, -2.0]


def test_wrappers_delay_observation_matches_gymnasium() -> None:
    ours = run_actions(DelayObservation(CountingEnv(), 3), [0] * 5)
    theirs = run_actions(gymnasium.wrappers.DelayObservation(gym_twin(CountingEnv()), 3), [0] * 5)
    assert_same_data(ours, theirs)


def test_wrappers_delay_observation_rejects_negative_delay() -> None:
    with pytest.raises(ValueError, match="delay must be at least 0, got -1"):
        DelayObservation(CountingEnv(), -1)


# TimeAwareObservation ----------------------------------------------------------------------


def test_wrappers_time_aware_observation_flat() -> None:
    env = TimeAwareObservation(TimeLimit(CountingEnv(), 10))
    obs = [env.reset()[0]] + [env.step(0)[0] for _ in range(2)]
    # flattened {"obs": [t, t, t], "time": [t]}
    assert [o.tolist() for o in obs] == [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2]]
    assert env.observation_space.shape == (4,)


def test_wrappers_time_aware_observation_normalized_dict() -> None:
    env = TimeAwareObservation(TimeLimit(CountingEnv(), 4), flatten=False, normalize_time=True)
    env.reset()
    obs = env.step(0)[0]
    assert obs["time"].tolist() == [0.25] and obs["time"].dtype == np.float32
    assert obs["obs"].tolist() == [1, 1, 1]
    space = env.observation_space
    assert isinstance(space, Dict) and space["time"] == Box(0.0, 1.0, (1,), np.float32)


def test_wrappers_time_aware_observation_dict_key_and_spec_limit() -> None:
    inner = DictObsEnv()
    inner.spec = EnvSpec(id="DictObs-v0", max_episode_steps=20)
    env = TimeAwareObservation(inner, flatten=False, dict_time_key="clock")
    assert isinstance(env.observation_space, Dict)
    assert list(env.observation_space.spaces) == ["clock", "mode", "pos"]
    env.reset()
    env.step(0)
    assert env.step(0)[0]["clock"].tolist() == [2]
    with pytest.raises(ValueError, match="dict_time_key 'pos' is already a key"):
        TimeAwareObservation(inner, dict_time_key="pos")


@pytest.mark.parametrize(("flatten", "normalize"), [(True, False), (True, True), (False, False)])
def test_wrappers_time_aware_observation_matches_gymnasium(flatten: bool, normalize: bool) -> None:
    ours = run_actions(TimeAwareObservation(TimeLimit(CountingEnv(), 5), flatten, normalize),
                       [0] * 4)
    theirs = run_actions(gymnasium.wrappers.TimeAwareObservation(
        gymnasium.wrappers.TimeLimit(gym_twin(CountingEnv()), 5), flatten, normalize), [0] * 4)
    assert_same_data(ours, theirs)


def test_wrappers_time_aware_observation_needs_a_limit() -> None:
    with pytest.raises(ValueError, match="wrap the env in TimeLimit first"):
        TimeAwareObservation(CountingEnv())


# FrameStackObservation ---------------------------------------------------------------------


def test_wrappers_frame_stack_pads_with_reset_observation() -> None:
    env = FrameStackObservation(TimeLimit(CountingEnv(), 100), stack_size=3)
    assert env.observation_space == Box(-1000.0, 1000.0, (3, 3), np.float32)
    assert env.reset()[0][:, 0].tolist() == [0, 0, 0]
    assert env.step(0)[0][:, 0].tolist() == [0, 0, 1]
    assert env.step(0)[0][:, 0].tolist() == [0, 1, 2]
    assert env.step(0)[0][:, 0].tolist() == [1, 2, 3]
    assert env.step(0)[0][:, 0].tolist() == [2, 3, 4]
    assert env.reset()[0][:, 0].tolist() == [0, 0, 0]


def test_wrappers_frame_stack_zero_and_custom_padding() -> None:
    zero = FrameStackObservation(CountingEnv(), 3, padding_type="zero")
    zero.reset()
    assert zero.step(0)[0][:, 0].tolist() == [0, 0, 1]
    custom = FrameStackObservation(
        CountingEnv(), 3, padding_type=np.full(3, -7.0, np.float32)
    )
    assert custom.reset()[0][:, 0].tolist() == [-7, -7, 0]
    assert custom.step(0)[0][:, 0].tolist() == [-7, 0, 1]


def test_wrappers_frame_stack_returns_independent_arrays() -> None:
    env = FrameStackObservation(CountingEnv(), 2)
    first = env.reset()[0]
    second = env.step(0)[0]
    env.step(0)
    assert first[:, 0].tolist() == [0, 0] and second[:, 0].tolist() == [0, 1]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.lists(st.booleans(), min_size=1, max_size=25),
       st.sampled_from(["reset", "zero"]))
def test_wrappers_frame_stack_matches_gymnasium(size: int, resets: list[bool],
                                                padding: str) -> None:
    ours = FrameStackObservation(CountingEnv(), size, padding_type=padding)
    theirs = gymnasium.wrappers.FrameStackObservation(
        gym_twin(CountingEnv()), size, padding_type=padding
    )
    assert_same_data(ours.reset(seed=1), theirs.reset(seed=1))
    for reset in resets:
        if reset:
            assert_same_data(ours.reset(), theirs.reset())
        else:
            assert_same_data(ours.step(0), theirs.step(0))


def test_wrappers_frame_stack_dict_observations() -> None:
    env = FrameStackObservation(DictObsEnv(), 2)
    env.reset()
    obs = env.step(0)[0]
    assert obs["pos"].tolist() == [[0, 0], [1, -1]]
    assert obs["mode"].tolist() == [0, 1]
    ours = run_actions(FrameStackObservation(DictObsEnv(), 3), [0] * 4)
    theirs = run_actions(gymnasium.wrappers.FrameStackObservation(gym_twin(DictObsEnv()), 3),
                         [0] * 4)
    assert_same_data(ours, theirs)


@pytest.mark.parametrize(("size", "padding", "error", "message"), [
    (0, "reset", ValueError, "stack_size must be at least 1, got 0"),
    (-2, "reset", ValueError, "stack_size must be at least 1, got -2"),
    (2.5, "reset", TypeError, r"stack_size must be an int, got 2\.5"),
    (2, "ones", ValueError, "padding_type must be 'reset', 'zero' or an observation"),
    (2, np.zeros(4, np.float32), ValueError,
     "padding_type must be 'reset', 'zero' or an observation"),
])
def test_wrappers_frame_stack_rejects_bad_arguments(
    size: Any, padding: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        FrameStackObservation(CountingEnv(), size, padding_type=padding)


# NormalizeObservation ----------------------------------------------------------------------


def normal_frames(count: int, dtype: Any = np.float32) -> list[Any]:
    rng = np.random.default_rng(11)
    return [rng.normal(3.0, 2.0, size=3).astype(dtype) for _ in range(count)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_wrappers_normalize_observation_matches_gymnasium_exactly(dtype: Any) -> None:
    space = Box(-np.inf, np.inf, (3,), dtype)
    frames = normal_frames(30, dtype)
    ours = run_actions(NormalizeObservation(ArrayObsEnv(space, frames)), [0] * 28)
    theirs = run_actions(
        gymnasium.wrappers.NormalizeObservation(gym_twin(ArrayObsEnv(space, frames))), [0] * 28
    )
    assert_same_data([o[0] for o in ours], [o[0] for o in theirs])


def test_wrappers_normalize_observation_first_value_and_freeze() -> None:
    space = Box(-np.inf, np.inf, (3,), np.float32)
    frames = normal_frames(10)
    env = NormalizeObservation(ArrayObsEnv(space, frames))
    assert env.observation_space == Box(-np.inf, np.inf, (3,), np.float32)
    first = env.reset()[0]
    # After one sample the mean is x / 1.0001, so the result is tiny but not zero.
    expected = (frames[0] - frames[0] / np.float32(1.0001)) / np.sqrt(
        env.obs_rms.var + np.float32(1e-8)
    )
    np.testing.assert_allclose(first, expected, rtol=1e-5)
    env.step(0)
    env.update_running_mean = False
    mean, var = env.obs_rms.mean.copy(), env.obs_rms.var.copy()
    obs = env.step(0)[0]
    np.testing.assert_array_equal(env.obs_rms.mean, mean)
    np.testing.assert_array_equal(obs, np.float32((frames[2] - mean) / np.sqrt(var + 1e-8)))


def test_wrappers_normalize_observation_rejects_bad_epsilon() -> None:
    with pytest.raises(InvalidBound, match="epsilon must be positive, got 0"):
        NormalizeObservation(CountingEnv(), epsilon=0)


# MaxAndSkipObservation ---------------------------------------------------------------------


def test_wrappers_max_and_skip_takes_max_of_last_two_frames() -> None:
    frames = image_frames(9, (4, 5, 3), seed=4)
    inner = ArrayObsEnv(uint8_box((4, 5, 3)), frames)
    env = MaxAndSkipObservation(inner, skip=4)
    env.reset()
    obs, reward, terminated, truncated, info = env.step(2)
    np.testing.assert_array_equal(obs, np.maximum(frames[3], frames[4]))
    assert (reward, terminated, info) == (4.0, False, {"i": 4})
    assert inner.actions == [2, 2, 2, 2]
    obs, reward, terminated, *_ = env.step(1)
    assert (reward, terminated) == (4.0, True)


def test_wrappers_max_and_skip_matches_gymnasium() -> None:
    frames = image_frames(12, (3, 3), seed=2)
    ours = run_actions(MaxAndSkipObservation(ArrayObsEnv(uint8_box((3, 3)), frames), 3),
                       [0] * 4)
    theirs = run_actions(gymnasium.wrappers.MaxAndSkipObservation(
        gym_twin(ArrayObsEnv(uint8_box((3, 3)), frames)), 3), [0] * 4)
    assert_same_data(ours, theirs)


def test_wrappers_max_and_skip_rejects_small_skip() -> None:
    with pytest.raises(ValueError, match="skip must be at least 2, got 1"):
        MaxAndSkipObservation(CountingEnv(), skip=1)


def test_delay_observation_returns_a_fresh_zero_each_step() -> None:
    env = DelayObservation(CountingEnv(), delay=2)
    first, _ = env.reset(seed=0)
    second = env.step(env.action_space.sample())[0]
    assert first is not second
    first[...] = 7
    assert not np.any(second)
