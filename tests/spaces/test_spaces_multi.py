"""MultiBinary and MultiDiscrete: Gymnasium parity, masks, membership, errors."""

from __future__ import annotations

import re
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from protogym.spaces import Discrete, MultiBinary, MultiDiscrete


@pytest.mark.parametrize("n", [1, 5, (2, 3), [4, 1, 2]])
def test_multi_binary_matches_gymnasium(n: Any) -> None:
    ours, theirs = MultiBinary(n, seed=3), gym.spaces.MultiBinary(n, seed=3)
    assert ours.shape == theirs.shape
    for _ in range(5):
        np.testing.assert_array_equal(ours.sample(), theirs.sample())
    mask = np.full(ours.shape, 2, np.int8)
    mask.flat[0] = 0
    probability = np.full(ours.shape, 0.3)
    for _ in range(3):
        np.testing.assert_array_equal(ours.sample(mask=mask), theirs.sample(mask=mask))
        np.testing.assert_array_equal(
            ours.sample(probability=probability), theirs.sample(probability=probability)
        )


def test_multi_binary_masks_fix_entries() -> None:
    space = MultiBinary(4, seed=0)
    mask = np.array([0, 1, 2, 2], np.int8)
    for _ in range(10):
        sample = space.sample(mask=mask)
        assert sample.dtype == np.int8
        assert sample[0] == 0 and sample[1] == 1
    assert space.sample(probability=np.array([0.0, 1.0, 0.0, 1.0])).tolist() == [0, 1, 0, 1]


def test_multi_binary_contains() -> None:
    space = MultiBinary((2, 2))
    assert np.array([[0, 1], [1, 0]], np.int8) in space
    assert [[0, 1], [1, 1]] in space
    assert np.array([[True, False], [False, False]]) in space
    assert np.array([[0, 2], [1, 0]]) not in space
    assert np.array([[0.0, 1.0], [1.0, 0.0]]) not in space
    assert np.array([0, 1, 1, 0]) not in space
    assert "0110" not in space
    assert [[0, 1], [1]] not in space


@pytest.mark.parametrize(
    ("n", "message"),
    [
        (0, "MultiBinary n must be a positive int or a sequence of positive ints, got n=0"),
        (
            (2, -1),
            "MultiBinary n must be a positive int or a sequence of positive ints, got n=(2, -1)",
        ),
        (2.5, "MultiBinary n must be a positive int or a sequence of positive ints, got n=2.5"),
        ("3", "MultiBinary n must be a positive int or a sequence of positive ints, got n='3'"),
    ],
)
def test_multi_binary_bad_n(n: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        MultiBinary(n)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"mask": np.ones(3, np.int8)},
            "MultiBinary.sample mask must be a np.int8 array of shape (2,)",
        ),
        ({"mask": np.array([3, 0], np.int8)}, "MultiBinary.sample mask values must be 0, 1 or 2"),
        (
            {"probability": np.array([0.5, 2.0])},
            "MultiBinary.sample probability values must lie in [0, 1]",
        ),
        (
            {"probability": np.ones(3)},
            "MultiBinary.sample probability must be a np.float64 array of shape (2,)",
        ),
        (
            {"mask": np.ones(2, np.int8), "probability": np.ones(2)},
            "MultiBinary.sample takes a mask or a probability, not both",
        ),
    ],
)
def test_multi_binary_bad_masks(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        MultiBinary(2).sample(**kwargs)


@pytest.mark.parametrize(
    ("nvec", "start", "dtype"),
    [
        ([3, 4, 5], None, np.int64),
        ([3, 4, 5], [1, -2, 0], np.int64),
        (np.array([[2, 3], [4, 5]]), None, np.int32),
        ([7, 2], [-3, 5], np.int8),
    ],
)
def test_multi_discrete_matches_gymnasium(nvec: Any, start: Any, dtype: Any) -> None:
    ours = MultiDiscrete(nvec, dtype=dtype, seed=9, start=start)
    theirs = gym.spaces.MultiDiscrete(nvec, dtype=dtype, seed=9, start=start)
    for _ in range(5):
        mine, ref = ours.sample(), theirs.sample()
        assert mine.dtype == ref.dtype
        np.testing.assert_array_equal(mine, ref)


def test_multi_discrete_masks_match_gymnasium() -> None:
    ours = MultiDiscrete([3, 2], seed=1, start=[10, 0])
    theirs = gym.spaces.MultiDiscrete([3, 2], seed=1, start=[10, 0])
    mask = (np.array([0, 1, 1], np.int8), np.array([0, 0], np.int8))
    probability = (np.array([0.2, 0.0, 0.8]), np.array([0.5, 0.5]))
    for _ in range(5):
        mine = ours.sample(mask=mask)
        np.testing.assert_array_equal(mine, theirs.sample(mask=mask))
        assert mine[0] in (11, 12) and mine[1] == 0
        np.testing.assert_array_equal(
            ours.sample(probability=probability), theirs.sample(probability=probability)
        )


def test_multi_discrete_nested_masks() -> None:
    space = MultiDiscrete(np.array([[2, 3], [4, 2]]), seed=0)

    def only_last(n: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(n, np.int8)
        mask[-1] = 1
        return mask

    mask = ((only_last(2), only_last(3)), (only_last(4), only_last(2)))
    assert space.sample(mask=mask).tolist() == [[1, 2], [3, 1]]
    with pytest.raises(
        ValueError, match=re.escape("MultiDiscrete.sample mask must be a tuple of 2")
    ):
        space.sample(mask=(only_last(2),))


def test_multi_discrete_contains() -> None:
    space = MultiDiscrete([3, 4], start=[1, -1])
    assert np.array([1, -1]) in space
    assert [3, 2] in space
    assert np.array([3, 2], np.int8) in space
    assert [0, 0] not in space
    assert [4, 0] not in space
    assert [1, 3] not in space
    assert np.array([1.0, 0.0]) not in space
    assert np.array([1, 0], np.uint64) not in space
    assert [1, 0, 0] not in space
    assert "ab" not in space and None not in space


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"nvec": [3, 0]}, "MultiDiscrete nvec must be all positive, got nvec=[3, 0]"),
        (
            {"nvec": 3},
            "MultiDiscrete nvec must be an int array (or nested list of ints), got nvec=3",
        ),
        (
            {"nvec": [2.5]},
            "MultiDiscrete nvec must be an int array (or nested list of ints), got nvec=[2.5]",
        ),
        (
            {"nvec": [3], "dtype": np.float32},
            "MultiDiscrete dtype float32 is not an integer dtype; use a numpy integer dtype, "
            "e.g. np.int64",
        ),
        (
            {"nvec": [3], "dtype": None},
            "MultiDiscrete dtype must not be None; use a numpy integer dtype, e.g. np.int64",
        ),
        (
            {"nvec": [3, 4], "start": [0, 0, 0]},
            "MultiDiscrete start of shape (3,) does not broadcast to nvec's shape (2,)",
        ),
        (
            {"nvec": [300], "dtype": np.int8},
            "MultiDiscrete nvec does not fit the int8 dtype, got nvec=[300]",
        ),
        (
            {"nvec": [100], "dtype": np.int8, "start": [100]},
            "MultiDiscrete start + nvec - 1 does not fit the int8 dtype, got nvec=[100], "
            "start=[100]",
        ),
    ],
)
def test_multi_discrete_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as info:
        MultiDiscrete(**kwargs)
    assert str(info.value) == message


def test_multi_discrete_dtype_numpy_cannot_read_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=re.escape("MultiDiscrete dtype 'nonsense' is not a")):
        MultiDiscrete([3], dtype="nonsense")


def test_multi_discrete_accepts_the_widest_values_its_dtype_holds() -> None:
    space = MultiDiscrete([1, 2], dtype=np.int8, start=[127, 126])
    assert space.sample().tolist() in ([127, 126], [127, 127])
    assert MultiDiscrete([2**63 - 1], start=[0]).nvec.tolist() == [2**63 - 1]
    with pytest.raises(ValueError, match=re.escape("start + nvec - 1 does not fit the uint8")):
        MultiDiscrete([2], dtype=np.uint8, start=[255])


def test_multi_discrete_indexing_and_repr() -> None:
    space = MultiDiscrete([3, 4], seed=2, start=[1, 0])
    assert repr(space) == "MultiDiscrete([3 4], start=[1 0])"
    assert repr(MultiDiscrete([2, 2])) == "MultiDiscrete([2 2])"
    sub = space[0]
    assert isinstance(sub, Discrete)
    assert sub == Discrete(3, start=1)
    assert len(space) == 2
    grid = MultiDiscrete(np.array([[2, 3], [4, 5]]))
    assert grid[1] == MultiDiscrete([4, 5])
    assert space.start.flags.writeable is False
