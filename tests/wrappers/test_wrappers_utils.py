"""The wrappers' shared helpers against Gymnasium's: running statistics, zero observations,
box rescaling and mixed-radix indices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.wrappers import utils as _gym_utils
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym import spaces
from protogym.error import CustomSpaceError
from protogym.spaces.base import SpaceBase
from protogym.wrappers.utils import (
    RunningMeanStd,
    ScalarRunningMeanStd,
    bins_array,
    create_zero_array,
    rescale_box,
    unflatten_index,
)
from tests.wrappers.wrapper_test_envs import assert_same_data, to_gym_space

gym_utils: Any = _gym_utils  # Gymnasium's helpers are partly unannotated


def test_wrappers_utils_running_mean_std_batches_match_gymnasium() -> None:
    rng = np.random.default_rng(0)
    ours, theirs = RunningMeanStd(shape=(3,)), gym_utils.RunningMeanStd(shape=(3,))
    for size in (1, 5, 2, 8):
        batch = rng.normal(size=(size, 3))
        ours.update(batch)
        theirs.update(batch)
    assert_same_data((ours.mean, ours.var, ours.count), (theirs.mean, theirs.var, theirs.count))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=20))
def test_wrappers_utils_update_one_equals_a_batch_of_one(values: list[float]) -> None:
    ours, theirs = RunningMeanStd(shape=(1,)), gym_utils.RunningMeanStd(shape=(1,))
    scalar = ScalarRunningMeanStd()
    for value in values:
        ours.update_one(np.array([value]))
        theirs.update(np.array([[value]]))
        scalar.update_one(value)
    assert_same_data((ours.mean, ours.var, ours.count), (theirs.mean, theirs.var, theirs.count))
    assert (scalar.mean, scalar.var, scalar.count) == (
        float(theirs.mean[0]), float(theirs.var[0]), theirs.count)


def test_wrappers_utils_create_zero_array_matches_gymnasium() -> None:
    space = spaces.Dict({
        "box": spaces.Box(np.array([1.0, -3.0, -1.0]), np.array([2.0, -2.0, 1.0])),
        "disc": spaces.Discrete(4, start=2),
        "tup": spaces.Tuple((spaces.Discrete(2), spaces.Box(0, 5, (2,), np.int64))),
    })
    assert_same_data(create_zero_array(space), gym_utils.create_zero_array(to_gym_space(space)))
    assert create_zero_array(spaces.MultiDiscrete([3, 4], start=[1, -1])).tolist() == [1, -1]
    assert create_zero_array(spaces.MultiBinary(3)).tolist() == [0, 0, 0]
    assert create_zero_array(spaces.Text(4, min_length=2)) == "00"


class _Mystery(SpaceBase[int]):
    """A space create_zero_array has no rule for, until one is registered."""

    def __init__(self) -> None:
        super().__init__(shape=(), dtype=np.dtype(np.int64))

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> int:
        return 7

    def contains(self, x: Any) -> bool:
        return bool(x == 7)


def test_wrappers_utils_create_zero_array_of_an_unknown_space_and_of_a_non_space() -> None:
    with pytest.raises(CustomSpaceError, match="no rule for _Mystery spaces; register one"):
        create_zero_array(_Mystery())
    with pytest.raises(TypeError, match="create_zero_array takes a space, got int: 3"):
        create_zero_array(3)


def test_wrappers_utils_create_zero_array_takes_registered_rules() -> None:
    class Known(_Mystery):
        pass

    create_zero_array.register(Known)(lambda space: 7)
    assert create_zero_array(Known()) == 7
    with pytest.raises(CustomSpaceError):
        create_zero_array(_Mystery())  # a rule for a subclass does not cover its parent


def test_wrappers_utils_rescale_box_matches_gymnasium() -> None:
    box = spaces.Box(np.array([-1.0, 0.0, -np.inf], np.float32),
                     np.array([1.0, 10.0, np.inf], np.float32))
    low = np.array([0.0, -5.0, -np.inf], np.float32)
    high = np.array([1.0, 5.0, np.inf], np.float32)
    new_box, forward, backward = rescale_box(box, low, high)
    gym_box, gym_forward, gym_backward = gym_utils.rescale_box(to_gym_space(box), low, high)
    assert_same_data((new_box.low, new_box.high), (gym_box.low, gym_box.high))
    x = np.array([0.25, 7.5, 3.0], np.float32)
    assert_same_data(forward(x), gym_forward(x))
    assert_same_data(backward(x), gym_backward(x))


def test_wrappers_utils_bins_and_flat_indices() -> None:
    bins = bins_array("X", (2, 3, 4), 3)
    assert bins.tolist() == [2, 3, 4]
    assert [unflatten_index(i, bins) for i in (0, 5, 23)] == [[0, 0, 0], [0, 1, 1], [1, 2, 3]]
    assert all(
        np.ravel_multi_index(unflatten_index(i, bins), (2, 3, 4)) == i for i in range(24)
    )
    with pytest.raises(ValueError, match="X: each bin count must be at least 1, got 0"):
        bins_array("X", (2, 0), 2)

