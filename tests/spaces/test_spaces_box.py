"""Box: Gymnasium parity under a seed, membership, bounds, errors, pickling and JSON."""

from __future__ import annotations

import pickle
import re
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym.error import Error
from protogym.spaces import Box, Space

PARITY_CASES: list[tuple[Any, Any, Any, Any]] = [
    (0, 1, (84, 84, 3), np.float32),
    (-2.5, 7, (5,), np.float64),
    (np.array([-1.0, 0.0, 2.0]), np.array([1.0, 0.5, 9.0]), None, np.float32),
    (0, 255, (4, 4), np.uint8),
    (-5, 5, (3,), np.int64),
    (-100, 100, (2, 3), np.int16),
    (0, 1, (6,), np.bool_),
    (np.array([-np.inf, 0, -np.inf, -1]), np.array([np.inf, np.inf, 3, 2]), None, np.float32),
    (np.array([-np.inf, 0, -np.inf, -1]), np.array([np.inf, np.inf, 3, 2]), None, np.int32),
    (-np.inf, np.inf, (3, 2), np.float64),
]


@pytest.mark.parametrize(("low", "high", "shape", "dtype"), PARITY_CASES)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_samples_match_gymnasium_under_the_same_seed(
    low: Any, high: Any, shape: Any, dtype: Any
) -> None:
    ours = Box(low, high, shape, dtype, seed=123)
    theirs = gym.spaces.Box(low, high, shape, dtype, seed=123)
    assert ours.shape == theirs.shape
    assert np.array_equal(ours.low, theirs.low)
    assert np.array_equal(ours.high, theirs.high)
    for _ in range(5):
        mine, ref = ours.sample(), theirs.sample()
        assert mine.dtype == ref.dtype
        assert mine.shape == ref.shape
        np.testing.assert_array_equal(mine, ref)
    assert ours.seed(7) == theirs.seed(7)
    np.testing.assert_array_equal(ours.sample(), theirs.sample())


def test_exact_values_under_a_seed() -> None:
    space = Box(-1.0, 1.0, (3,), np.float64, seed=0)
    np.testing.assert_allclose(space.sample(), [0.27392337, -0.46042657, -0.91805295], atol=1e-8)
    ints = Box(0, 9, (4,), np.int64, seed=0)
    assert ints.sample().tolist() == [6, 2, 0, 0]


def test_scalar_bounds_default_to_shape_one_and_float32() -> None:
    space = Box(0, 1)
    assert space.shape == (1,)
    assert space.dtype == np.float32
    assert isinstance(space, Space)
    assert repr(space) == "Box(0.0, 1.0, (1,), float32)"


def test_repr_shows_arrays_when_bounds_differ() -> None:
    space = Box(np.array([0, 1]), np.array([2, 3]), dtype=np.int64)
    assert repr(space) == "Box([0 1], [2 3], (2,), int64)"


def test_bounds_broadcast_to_the_shape() -> None:
    space = Box(np.array([0.0, -1.0]), 5.0, (3, 2))
    assert space.low.shape == (3, 2)
    assert space.high.tolist() == [[5.0, 5.0]] * 3
    assert Box(np.zeros(2), np.ones((3, 1))).shape == (3, 2)


def test_bounds_are_read_only() -> None:
    space = Box(0, 1, (2,))
    with pytest.raises(ValueError, match=re.escape("read-only")):
        space.low[0] = 5


def test_boxes_share_precomputed_bounds_only_for_equal_values() -> None:
    """Built boxes are reused by argument bytes and dtype: the same bytes read in another
    byte order or dtype are other values, and a bound changed in place is a new key."""
    little = np.array([1, 2], dtype="<i4")
    assert Box(little, 2**40, dtype=np.int64).low.tolist() == [1, 2]
    assert Box(little.view(">i4"), 2**40, dtype=np.int64).low.tolist() == [2**24, 2**25]
    assert Box(little.view(np.float32), 1.0, dtype=np.float64).low.tolist() == [
        float(v) for v in little.view(np.float32)
    ]
    little[0] = 7
    assert Box(little, 2**40, dtype=np.int64).low.tolist() == [7, 2]


def test_infinite_int_bounds_mean_the_dtype_limits() -> None:
    space = Box(-np.inf, np.inf, (2,), np.int64)
    assert space.low.tolist() == [np.iinfo(np.int64).min] * 2
    assert space.high.tolist() == [np.iinfo(np.int64).max] * 2
    assert not space.is_bounded()
    assert space.sample() in space


def test_is_bounded() -> None:
    space = Box(np.array([0.0, -np.inf]), np.array([1.0, 2.0]))
    assert space.is_bounded("above")
    assert not space.is_bounded("below")
    assert not space.is_bounded("both")
    assert Box(0, 1).is_bounded()
    with pytest.raises(ValueError, match=re.escape("manner must be 'both', 'below' or 'above'")):
        space.is_bounded("left")  # type: ignore[arg-type]


BAD_ARGS: list[tuple[dict[str, Any], type[Exception], str]] = [
    (
        {"low": 1.0, "high": 0.0},
        ValueError,
        "Box low must be <= high everywhere, got low=array([1.], dtype=float32) and "
        "high=array([0.], dtype=float32)",
    ),
    (
        {"low": 0, "high": 1, "dtype": np.complex64},
        ValueError,
        "Box dtype complex64 cannot hold a box's values; give a numpy integer, floating or "
        "bool dtype, e.g. np.float32, np.int64 or np.uint8",
    ),
    (
        {"low": 0, "high": 1, "dtype": None},
        ValueError,
        "Box dtype must not be None; give a numpy integer, floating or bool dtype, e.g. "
        "np.float32, np.int64 or np.uint8",
    ),
    (
        {"low": 0, "high": 1, "dtype": "no such dtype"},
        TypeError,
        "Box dtype 'no such dtype' is not a numpy dtype; give a numpy integer, floating or "
        "bool dtype, e.g. np.float32, np.int64 or np.uint8",
    ),
    (
        {"low": np.zeros(2), "high": np.ones(3)},
        ValueError,
        "Box low and high shapes do not broadcast together, got low.shape=(2,) and high.shape=(3,)",
    ),
    (
        {"low": np.zeros(2), "high": 1, "shape": (3,)},
        ValueError,
        "Box low of shape (2,) does not broadcast to shape=(3,)",
    ),
    (
        {"low": 0, "high": 1, "shape": (2, -1)},
        ValueError,
        "Box shape must not have negative sizes, got (2, -1)",
    ),
    ({"low": 0, "high": 1, "shape": 3}, TypeError, "Box shape must be a tuple of ints, got 3"),
    (
        {"low": 0, "high": 1, "shape": (2, None)},
        TypeError,
        "Box shape must be a tuple of ints, got (2, None)",
    ),
    ({"low": np.nan, "high": 1}, ValueError, "Box low must not contain NaN, got low=nan"),
    (
        {"low": 0, "high": "a"},
        ValueError,
        "Box high must be a real number or an array of them, got 'a'",
    ),
    ({"low": np.inf, "high": np.inf}, ValueError, "Box low cannot be +inf, got low=array(inf)"),
    ({"low": 0, "high": -np.inf}, ValueError, "Box high cannot be -inf, got high=array(-inf)"),
    (
        {"low": 0, "high": np.inf, "dtype": np.uint8},
        ValueError,
        "Box high cannot be infinite for the uint8 dtype (it has no infinity), got "
        "high=array(inf); give finite bounds",
    ),
    (
        {"low": 0, "high": 300, "dtype": np.uint8},
        ValueError,
        "Box high is outside the range of uint8 [0, 255], got high=array(300)",
    ),
    (
        {"low": -1e39, "high": 0, "dtype": np.float32},
        ValueError,
        "Box low is outside the range of float32 [-3.4028234663852886e+38, "
        "3.4028234663852886e+38], got low=array(-1.e+39)",
    ),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_ARGS)
def test_bad_constructor_arguments_name_the_argument(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    """A dtype or shape numpy cannot read is a TypeError, a bad value a ValueError (the
    classes Gymnasium raises); the message names the argument."""
    with pytest.raises(error) as info:
        Box(**kwargs)
    assert type(info.value) is error
    assert str(info.value) == message


def test_sample_rejects_a_mask() -> None:
    with pytest.raises(Error, match=re.escape("Box.sample takes no mask or probability")):
        Box(0, 1).sample(mask=np.array([1], np.int8))  # type: ignore[arg-type]


def test_contains_rejects_wrong_shape_dtype_bounds_and_nan() -> None:
    space = Box(-1.0, 1.0, (2,), np.float32)
    assert np.zeros(2, np.float32) in space
    assert [0.5, -0.5] in space
    assert np.zeros(3, np.float32) not in space
    assert np.zeros((2, 1), np.float32) not in space
    assert np.zeros(2, np.float64) not in space  # float64 does not cast safely to float32
    assert np.array([0.0, 2.0], np.float32) not in space
    assert np.array([0.0, np.nan], np.float32) not in space
    ints = Box(0, 10, (2,), np.int64)
    assert np.array([1, 2]) in ints
    assert [1, 2] in ints
    assert np.array([1.0, 2.0]) not in ints
    assert [1.5, 2.0] not in ints
    assert [1, 11] not in ints
    assert np.array([], np.int64) not in ints


@pytest.mark.parametrize(
    "garbage",
    [None, "ab", b"xy", object(), {"a": 1}, [1, "a"], [[1, 2], [3]], 1e400, [2**70, 0], (1,)],
)
def test_contains_never_raises_on_garbage(garbage: object) -> None:
    assert Box(0, 1, (2,)).contains(garbage) is False
    assert Box(0, 10, (2,), np.int8).contains(garbage) is False


def test_empty_box_contains_its_empty_sample() -> None:
    space = Box(0, 1, (0, 3))
    sample = space.sample()
    assert sample.shape == (0, 3)
    assert sample in space


def test_equality_and_pickling_round_trip() -> None:
    space = Box(np.array([-np.inf, 0.0]), np.array([1.0, 2.0]), seed=5)
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space
    assert repr(clone) == repr(space)
    np.testing.assert_array_equal(clone.sample(), space.sample())
    assert not clone.low.flags.writeable
    assert space != Box(np.array([-np.inf, 0.0]), np.array([1.0, 3.0]))
    assert space != Box(np.array([-np.inf, 0.0]), np.array([1.0, 2.0]), dtype=np.float64)
    assert space != "Box"


def test_equality_compares_shape_dtype_and_bounds_up_to_rounding() -> None:
    """As in Gymnasium: bounds equal up to float rounding are equal, and an integer box's
    open side equals a side bounded at the dtype's limit (both store the limit)."""
    assert Box(0.0, 1.0 + 1e-12, (2,), np.float64) == Box(0.0, 1.0, (2,), np.float64)
    assert Box(-np.inf, 5, (2,), np.int64) == Box(np.iinfo(np.int64).min, 5, (2,), np.int64)
    assert Box(0, 1, (2,)) != Box(0, 1, (3,))
    assert Box(0, 1, (2,)) != Box(0, 1, (2,), np.float64)
    assert Box(0, 1, (2,)) != Box(0, 2, (2,))


def test_json_round_trip() -> None:
    space = Box(0, 5, (2, 2), np.int32, seed=1)
    samples = [space.sample() for _ in range(3)]
    restored = space.from_jsonable(space.to_jsonable(samples))
    for before, after in zip(samples, restored, strict=True):
        assert after.dtype == np.int32
        np.testing.assert_array_equal(before, after)


def test_generator_seed_is_used_as_is() -> None:
    generator = np.random.default_rng(3)
    space = Box(0, 1, (2,), seed=generator)
    assert space.np_random is generator


def test_float64_box_at_the_dtype_limits_samples_inside() -> None:
    big = float(np.finfo(np.float64).max)
    space = Box(-big, big, (50,), np.float64, seed=0)
    for _ in range(20):
        sample = space.sample()
        assert np.isfinite(sample).all()
        assert sample in space


FLOAT_WIDTHS: dict[type[np.floating[Any]], Literal[16, 32, 64]] = {
    np.float16: 16,
    np.float32: 32,
    np.float64: 64,
}
FLOAT_DTYPES = st.sampled_from(list(FLOAT_WIDTHS))
INT_DTYPES: st.SearchStrategy[type[np.integer[Any]]] = st.sampled_from(
    [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16]
)
SHAPES = st.lists(st.integers(1, 4), min_size=0, max_size=3).map(tuple)


@st.composite
def float_boxes(draw: st.DrawFn) -> Box:
    dtype = draw(FLOAT_DTYPES)
    shape = draw(SHAPES)
    limit = float(np.finfo(dtype).max)
    values = st.floats(-limit, limit, allow_nan=False, width=FLOAT_WIDTHS[dtype])
    a, b = draw(values), draw(values)
    low = draw(st.sampled_from([min(a, b), -np.inf]))
    high = draw(st.sampled_from([max(a, b), np.inf]))
    return Box(low, high, shape, dtype, seed=draw(st.integers(0, 2**32)))


@st.composite
def int_boxes(draw: st.DrawFn) -> Box:
    dtype = draw(INT_DTYPES)
    info = np.iinfo(dtype)
    values = st.integers(int(info.min), int(info.max))
    a, b = draw(values), draw(values)
    return Box(min(a, b), max(a, b), draw(SHAPES), dtype, seed=draw(st.integers(0, 2**32)))


@settings(max_examples=150, deadline=None)
@given(st.one_of(float_boxes(), int_boxes()))
def test_samples_are_contained_and_inside_the_bounds(space: Box) -> None:
    for _ in range(5):
        sample = space.sample()
        assert sample.dtype == space.dtype
        assert sample.shape == space.shape
        assert (sample >= space.low).all()
        assert (sample <= space.high).all()
        assert sample in space


@settings(max_examples=50, deadline=None)
@given(st.one_of(float_boxes(), int_boxes()), st.integers(0, 2**32))
def test_same_seed_same_samples(space: Box, seed: int) -> None:
    space.seed(seed)
    first = [space.sample() for _ in range(3)]
    space.seed(seed)
    for before in first:
        np.testing.assert_array_equal(space.sample(), before)


@settings(max_examples=50, deadline=None)
@given(float_boxes())
def test_contains_rejects_out_of_bounds_and_nan(space: Box) -> None:
    sample = space.sample()
    if sample.size == 0:
        return
    nan = sample.copy()
    nan.flat[0] = np.nan
    assert nan not in space
    if space.is_bounded("above"):
        above = sample.astype(np.float64)
        above.flat[0] = np.inf
        assert above.astype(space.dtype) not in space


@settings(max_examples=50, deadline=None)
@given(st.floats(-1e6, 1e6), st.floats(1e-30, 1e6), st.integers(0, 2**32))
def test_float32_samples_never_round_past_high(low: float, width: float, seed: int) -> None:
    space = Box(low, low + width, (64,), np.float32, seed=seed)
    for _ in range(3):
        sample = space.sample()
        assert (sample <= space.high).all() and (sample >= space.low).all()
