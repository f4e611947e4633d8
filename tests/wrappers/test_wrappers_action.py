"""Action wrappers: TransformAction, ClipAction, RescaleAction, DiscretizeAction, StickyAction,
RepeatAction. Exact values, Gymnasium parity and the errors for bad arguments."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from protogym import spaces
from protogym.error import InvalidBound, InvalidProbability
from protogym.spaces import Box, Discrete
from protogym.wrappers import (
    ClipAction,
    DiscretizeAction,
    RepeatAction,
    RescaleAction,
    StickyAction,
    TimeLimit,
    TransformAction,
)
from tests.wrappers.wrapper_test_envs import BoxActionEnv, CountingEnv, gym_twin


def sent(env: Any, action: Any) -> Any:
    """What the innermost env received for `action`."""
    env.reset(seed=0)
    env.step(action)
    return env.unwrapped.actions[-1]


def test_wrappers_transform_action_maps_and_sets_space() -> None:
    space = Box(-2.0, 2.0, shape=(2,), dtype=np.float32)
    env = TransformAction(BoxActionEnv(), lambda a: a / 2, space)
    assert env.action_space is space
    np.testing.assert_array_equal(sent(env, np.array([2.0, -1.0])), [1.0, -0.5])
    keep = TransformAction(BoxActionEnv(), lambda a: a, None)
    assert keep.action_space is keep.env.action_space


def test_wrappers_clip_action_clips_into_the_box() -> None:
    env = ClipAction(BoxActionEnv(low=[-1.0, 0.0], high=[1.0, 0.5]))
    assert env.action_space == Box(-np.inf, np.inf, shape=(2,), dtype=np.float32)
    np.testing.assert_array_equal(sent(env, np.array([3.0, -2.0])), [1.0, 0.0])
    np.testing.assert_array_equal(sent(env, np.array([0.25, 0.25])), [0.25, 0.25])


def test_wrappers_clip_action_matches_gymnasium() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        action = rng.normal(scale=3, size=2).astype(np.float32)
        ours = sent(ClipAction(BoxActionEnv(low=-1, high=0.5)), action)
        twin = gym_twin(BoxActionEnv(low=-1, high=0.5))
        theirs_env = gymnasium.wrappers.ClipAction(twin)
        theirs_env.reset(seed=0)
        theirs_env.step(action)
        np.testing.assert_array_equal(ours, twin.inner.actions[-1])


def test_wrappers_clip_action_rejects_discrete_space() -> None:
    with pytest.raises(TypeError, match=r"ClipAction needs a Box action space, got Discrete\(2\)"):
        ClipAction(CountingEnv())  # type: ignore[arg-type]


def test_wrappers_rescale_action_maps_bounds_onto_bounds() -> None:
    env = RescaleAction(BoxActionEnv(low=[-1.0, 0.0], high=[1.0, 4.0]), 0.0, 1.0)
    assert env.action_space == Box(0.0, 1.0, shape=(2,), dtype=np.float32)
    np.testing.assert_allclose(sent(env, np.array([0.0, 1.0], np.float32)), [-1.0, 4.0])
    np.testing.assert_allclose(sent(env, np.array([0.5, 0.25], np.float32)), [0.0, 1.0])


def test_wrappers_rescale_action_matches_gymnasium() -> None:
    low, high = np.array([-2.0, -1.0], np.float32), np.array([3.0, 1.0], np.float32)
    inner = BoxActionEnv(low=[-1, 0], high=[1, 4])
    ours = RescaleAction(inner, low, high)
    twin = gym_twin(BoxActionEnv(low=[-1, 0], high=[1, 4]))
    theirs = gymnasium.wrappers.RescaleAction(twin, low, high)
    ours.reset(seed=0)
    theirs.reset(seed=0)
    for action in ([-2.0, -1.0], [3.0, 1.0], [0.1, 0.7], [1.5, -0.3]):
        arr = np.array(action, dtype=np.float32)
        ours.step(arr)
        theirs.step(arr)
        np.testing.assert_array_equal(inner.actions[-1], twin.inner.actions[-1])


def test_wrappers_rescale_action_rejects_bad_arguments() -> None:
    with pytest.raises(TypeError, match="RescaleAction needs a Box action space"):
        RescaleAction(CountingEnv(), 0.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidBound, match="must be strictly smaller than max_action"):
        RescaleAction(BoxActionEnv(), 1.0, 1.0)
    with pytest.raises(ValueError, match=r"the new minimum .* must be <= the new maximum"):
        RescaleAction(BoxActionEnv(), 2.0, 1.0)
    with pytest.raises(ValueError, match=r"scalar or have shape \(2,\), got shape \(3,\)"):
        RescaleAction(BoxActionEnv(), np.zeros(3), 1.0)


def test_wrappers_discretize_action_flat_index() -> None:
    env = DiscretizeAction(BoxActionEnv(low=[-1.0, 0.0], high=[1.0, 3.0]), bins=(2, 3))
    assert env.action_space == Discrete(6)
    # index 5 = (1, 2): centres 0.5 and 2.5
    np.testing.assert_array_equal(sent(env, 5), np.array([0.5, 2.5], np.float32))
    np.testing.assert_array_equal(sent(env, 1), np.array([-0.5, 1.5], np.float32))
    assert env.revert_action(np.array([0.4, 2.9])) == 5


def test_wrappers_discretize_action_multidiscrete() -> None:
    env = DiscretizeAction(BoxActionEnv(), bins=4, multidiscrete=True)
    assert env.action_space == spaces.MultiDiscrete([4, 4])
    np.testing.assert_array_equal(sent(env, np.array([0, 3])), np.array([-0.75, 0.75], np.float32))
    np.testing.assert_array_equal(env.revert_action(np.array([-0.7, 0.8])), [0, 3])


def test_wrappers_discretize_action_matches_gymnasium() -> None:
    inner = BoxActionEnv(low=[-1, 0], high=[1, 3])
    ours = DiscretizeAction(inner, bins=(3, 5))
    twin = gym_twin(BoxActionEnv(low=[-1, 0], high=[1, 3]))
    theirs = gymnasium.wrappers.DiscretizeAction(twin, bins=(3, 5))
    ours.reset(seed=0)
    theirs.reset(seed=0)
    for index in range(15):
        ours.step(index)
        theirs.step(index)
        np.testing.assert_array_equal(inner.actions[-1], twin.inner.actions[-1])


def test_wrappers_discretize_action_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="needs a bounded action space"):
        DiscretizeAction(BoxActionEnv(low=-np.inf, high=np.inf), bins=3)
    with pytest.raises(ValueError, match=r"bins has 3 entries; give one per dimension \(2\)"):
        DiscretizeAction(BoxActionEnv(), bins=(3, 3, 3))
    with pytest.raises(TypeError, match=r"bins must be an int or a tuple of 2 ints"):
        DiscretizeAction(BoxActionEnv(), bins="3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bins must be at least 1, got 0"):
        DiscretizeAction(BoxActionEnv(), bins=0)


def test_wrappers_sticky_action_matches_gymnasium_under_a_seed() -> None:
    actions = [0, 1] * 20
    inner, twin = CountingEnv(), gym_twin(CountingEnv())
    ours = StickyAction(inner, 0.4, repeat_action_duration=(1, 3))
    theirs = gymnasium.wrappers.StickyAction(twin, 0.4, repeat_action_duration=(1, 3))
    for env in (ours, theirs):
        env.reset(seed=7)
        for action in actions:
            env.step(action)
    received = inner.actions
    assert received == twin.inner.actions
    assert received != actions  # some actions were repeated


def test_wrappers_sticky_action_never_repeats_first_action_of_episode() -> None:
    inner = CountingEnv()
    env = StickyAction(inner, 0.99)
    env.reset(seed=0)
    env.step(1)
    env.reset(seed=0)
    env.step(0)
    assert inner.actions == [1, 0]


@pytest.mark.parametrize(("probability", "duration", "error", "message"), [
    (1.0, 1, InvalidProbability, r"repeat_action_probability must be in \[0, 1\), got 1.0"),
    (-0.1, 1, InvalidProbability, r"repeat_action_probability must be in \[0, 1\)"),
    (0.5, 0, ValueError, "repeat_action_duration must be at least 1, got 0"),
    (0.5, (3, 2), InvalidBound, r"range \(3, 2\) has low > high"),
    (0.5, (1, 2, 3), ValueError, "must be an int or a \\(low, high\\) tuple"),
    (0.5, [1, 2], ValueError, "must be an int or a \\(low, high\\) tuple, got \\[1, 2\\]"),
])
def test_wrappers_sticky_action_rejects_bad_arguments(
    probability: float, duration: Any, error: type[Exception], message: str
) -> None:
    # Gymnasium's classes: InvalidProbability and InvalidBound are also ValueErrors.
    with pytest.raises(error, match=message):
        StickyAction(CountingEnv(), probability, duration)


def test_wrappers_repeat_action_sums_rewards_and_stops_at_episode_end() -> None:
    inner = CountingEnv(terminate_at=5)
    env = RepeatAction(inner, 3)
    env.reset()
    obs, reward, terminated, truncated, info = env.step(1)
    np.testing.assert_array_equal(obs, [3, 3, 3])
    assert (reward, terminated, truncated, info) == (6.0, False, False, {"t": 3})
    obs, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, info) == (9.0, True, {"t": 5})
    assert inner.actions == [1, 1, 1, 0, 0]


def test_wrappers_repeat_action_stops_on_truncation() -> None:
    env = RepeatAction(TimeLimit(CountingEnv(), 2), 4)
    env.reset()
    assert env.step(0)[1:4] == (3.0, False, True)


def test_wrappers_repeat_action_rejects_bad_count() -> None:
    with pytest.raises(ValueError, match="num_repeats must be at least 1, got 0"):
        RepeatAction(CountingEnv(), 0)
    with pytest.raises(TypeError, match=r"num_repeats must be an int, got 2\.5 \(float\)"):
        RepeatAction(CountingEnv(), 2.5)  # type: ignore[arg-type]
