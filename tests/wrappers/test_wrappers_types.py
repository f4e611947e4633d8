"""Static types of wrapped envs, checked by mypy (`assert_type`) and run as plain tests.

A wrapper that leaves the spaces alone keeps the inner env's observation and action types;
one that changes a space declares the new type.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, assert_type

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.wrappers import (
    ClipAction,
    FlattenObservation,
    FrameStackObservation,
    MaxAndSkipObservation,
    NormalizeObservation,
    NormalizeReward,
    OrderEnforcing,
    RecordEpisodeStatistics,
    StickyAction,
    TimeAwareObservation,
    TimeLimit,
)
from tests.wrappers.wrapper_test_envs import BoxActionEnv, CountingEnv, DictObsEnv

FloatArray = NDArray[np.float32]


def counting() -> Env[FloatArray, np.int64]:
    return CountingEnv()


def box_actions() -> Env[FloatArray, NDArray[Any]]:
    return BoxActionEnv()


def test_wrappers_types_unchanged_spaces_keep_the_inner_types() -> None:
    env = RecordEpisodeStatistics(OrderEnforcing(TimeLimit(counting(), 5)))
    obs, info = env.reset(seed=0)
    assert_type(obs, FloatArray)
    result = env.step(np.int64(1))
    assert_type(result[0], FloatArray)
    assert_type(result[1], SupportsFloat)
    sticky = NormalizeReward(StickyAction(counting(), 0.1))
    sticky.reset()
    assert_type(sticky.step(np.int64(1))[0], FloatArray)


def test_wrappers_types_changed_spaces_declare_the_new_types() -> None:
    stacked = FrameStackObservation(counting(), 4)
    assert_type(stacked.reset()[0], NDArray[Any])
    dict_env: Env[dict[str, Any], np.int64] = DictObsEnv()
    flat = FlattenObservation(dict_env)
    assert_type(flat.reset()[0], NDArray[Any])
    assert flat.reset()[0].shape == (5,)
    assert_type(NormalizeObservation(counting()).reset()[0], NDArray[np.float32])
    assert_type(MaxAndSkipObservation(counting(), 2).reset()[0], NDArray[Any])
    clipped = ClipAction(box_actions())
    clipped.reset()
    assert_type(clipped.step(np.zeros(2, np.float32))[0], FloatArray)


def test_wrappers_types_time_aware_observation_flat_or_structured() -> None:
    flat = TimeAwareObservation(TimeLimit(counting(), 5))
    assert_type(flat.reset()[0], NDArray[Any])
    structured = TimeAwareObservation(TimeLimit(counting(), 5), flatten=False)
    assert_type(structured.reset()[0], Any)
    assert set(structured.reset()[0]) == {"obs", "time"}
