"""Discrete: Gymnasium parity, masks, probabilities, membership, errors, pickling, JSON."""

from __future__ import annotations

import copy
import pickle
import re
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym.spaces import Discrete, Space


@pytest.mark.parametrize(("n", "start"), [(2, 0), (7, -3), (1000, 10), (2**40, 0)])
def test_samples_match_gymnasium_under_the_same_seed(n: int, start: int) -> None:
    ours = Discrete(n, seed=42, start=start)
    theirs = gym.spaces.Discrete(n, seed=42, start=start)
    assert [ours.sample() for _ in range(20)] == [theirs.sample() for _ in range(20)]


def test_masked_and_weighted_samples_match_gymnasium() -> None:
    ours = Discrete(5, seed=1, start=2)
    theirs = gym.spaces.Discrete(5, seed=1, start=2)
    mask = np.array([0, 1, 0, 1, 1], np.int8)
    probability = np.array([0.1, 0.0, 0.6, 0.3, 0.0])
    assert [ours.sample(mask=mask) for _ in range(20)] == [
        theirs.sample(mask=mask) for _ in range(20)
    ]
    assert [ours.sample(probability=probability) for _ in range(20)] == [
        theirs.sample(probability=probability) for _ in range(20)
    ]


# Samples are drawn from the generator in blocks; whatever else draws from it in between
# must see it exactly where one generator call per sample would have left it.
_USES = st.lists(
    st.sampled_from(["sample", "mask", "probability", "np_random", "pickle", "shared"]),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([1, 2, 7, 2**33 + 5]), st.integers(0, 2**32), st.integers(0, 300), _USES)
def test_drawing_ahead_is_invisible_to_other_uses_of_the_generator(
    n: int, seed: int, warm_up: int, uses: list[str]
) -> None:
    ours = Discrete(n, seed=seed, start=3)
    theirs = gym.spaces.Discrete(n, seed=seed, start=3)
    assert [ours.sample() for _ in range(warm_up)] == [theirs.sample() for _ in range(warm_up)]
    mask = np.ones(n, np.int8) if n < 100 else None
    for use in uses:
        if use == "sample":
            assert ours.sample() == theirs.sample()
        elif use == "mask" and mask is not None:
            assert ours.sample(mask=mask) == theirs.sample(mask=mask)
        elif use == "probability" and mask is not None:
            weights = np.full(n, 1.0 / n)
            assert ours.sample(probability=weights) == theirs.sample(probability=weights)
        elif use == "np_random":
            assert ours.np_random.random() == theirs.np_random.random()
        elif use == "pickle":
            ours, theirs = pickle.loads(pickle.dumps(ours)), pickle.loads(pickle.dumps(theirs))
        elif use == "shared":  # a caller's generator, drawn from between samples
            generator = np.random.default_rng(seed)
            ours = Discrete(n, seed=generator)
            theirs = gym.spaces.Discrete(n, seed=copy.deepcopy(generator))
            theirs_generator = theirs.np_random
            for _ in range(3):
                assert ours.sample() == theirs.sample()
                assert generator.random() == theirs_generator.random()
    assert [ours.sample() for _ in range(200)] == [theirs.sample() for _ in range(200)]
    state = ours.np_random.bit_generator.state
    assert state == theirs.np_random.bit_generator.state


def test_reseeding_drops_the_draws_made_ahead() -> None:
    ours, theirs = Discrete(9, seed=1), gym.spaces.Discrete(9, seed=1)
    assert ours.sample() == theirs.sample()
    ours.seed(5)
    theirs.seed(5)
    assert [ours.sample() for _ in range(300)] == [theirs.sample() for _ in range(300)]
    generator = np.random.default_rng(8)
    ours.np_random = generator
    theirs._np_random = copy.deepcopy(generator)
    assert [ours.sample() for _ in range(5)] == [theirs.sample() for _ in range(5)]


def test_a_generator_read_from_an_unseeded_space_stays_in_step() -> None:
    ours = Discrete(4)
    generator = ours.np_random  # created from OS entropy on this first read
    theirs = gym.spaces.Discrete(4, seed=copy.deepcopy(generator))
    for _ in range(5):
        assert ours.sample() == theirs.sample()
        assert generator.random() == theirs.np_random.random()


def test_exact_values_under_a_seed() -> None:
    space = Discrete(10, seed=0, start=5)
    samples = [space.sample() for _ in range(5)]
    assert samples == [13, 11, 10, 7, 8]
    assert all(type(sample) is np.int64 for sample in samples)


def test_an_all_zero_mask_gives_start() -> None:
    assert Discrete(4, start=-2).sample(mask=np.zeros(4, np.int8)) == -2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mask": np.ones(3, np.int8)}, "Discrete.sample mask must be a np.int8 array of shape"),
        ({"mask": np.ones(4, np.int64)}, "Discrete.sample mask must be a np.int8 array of shape"),
        ({"mask": [1, 1, 1, 1]}, "Discrete.sample mask must be a np.int8 array of shape"),
        ({"mask": np.array([0, 2, 0, 0], np.int8)}, "Discrete.sample mask values must be 0 or 1"),
        ({"probability": np.ones(4) / 2}, "Discrete.sample probability must sum to 1"),
        (
            {"probability": np.array([-0.5, 0.5, 1.0, 0.0])},
            "Discrete.sample probability values must lie in [0, 1]",
        ),
        (
            {"probability": np.ones(4, np.float32) / 4},
            "Discrete.sample probability must be a np.float64 array of shape (4,)",
        ),
        (
            {"mask": np.ones(4, np.int8), "probability": np.ones(4) / 4},
            "Discrete.sample takes a mask or a probability, not both",
        ),
    ],
)
def test_bad_masks_are_reported(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Discrete(4).sample(**kwargs)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        ((0,), {}, ValueError, "Discrete n must be a positive int, got n=0"),
        ((-3,), {}, ValueError, "Discrete n must be a positive int, got n=-3"),
        ((2.0,), {}, TypeError, "Discrete n must be an int, got n=2.0"),
        ((True,), {}, TypeError, "Discrete n must be an int, got n=True"),
        ((3, None, 1.5), {}, TypeError, "Discrete start must be an int, got start=1.5"),
        ((3, None, "0"), {}, TypeError, "Discrete start must be an int, got start='0'"),
        (
            (2, None, 2**63 - 1),
            {},
            ValueError,
            f"Discrete start={2**63 - 1} and n=2 give values outside int64's range "
            f"[{-(2**63)}, {2**63 - 1}]; choose a wider dtype",
        ),
        (
            (200,),
            {"dtype": np.int8},
            ValueError,
            "Discrete start=0 and n=200 give values outside int8's range [-128, 127]; "
            "choose a wider dtype",
        ),
        (
            (3,),
            {"dtype": np.float32},
            TypeError,
            "Discrete dtype must be a numpy integer dtype, got dtype=<class 'numpy.float32'>; "
            "use e.g. np.int64, np.int32 or np.uint8",
        ),
        (
            (3,),
            {"dtype": None},
            TypeError,
            "Discrete dtype must be a numpy integer dtype, got dtype=None; "
            "use e.g. np.int64, np.int32 or np.uint8",
        ),
    ],
)
def test_bad_constructor_arguments_name_the_argument(
    args: tuple[Any, ...], kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    """Arguments of the wrong type are TypeErrors, bad values ValueErrors (as in Gymnasium)."""
    with pytest.raises(error) as info:
        Discrete(*args, **kwargs)
    assert str(info.value) == message


def test_range_checks_use_each_dtypes_own_limits() -> None:
    """The dtype limits are looked up once per dtype: no dtype gets another's."""
    for dtype, highest in ((np.int8, 127), (np.uint8, 255), (np.int16, 2**15 - 1)):
        assert Discrete(highest, start=1, dtype=dtype).start == 1  # 1..highest fits
        with pytest.raises(ValueError, match="choose a wider dtype"):
            Discrete(highest, start=2, dtype=dtype)
    assert Discrete(2, start=-128, dtype=np.int8).start == -128
    with pytest.raises(ValueError, match="outside uint8's range"):
        Discrete(2, start=-1, dtype=np.uint8)


def test_numpy_integers_are_accepted_as_arguments() -> None:
    space = Discrete(np.int32(3), start=np.int64(-1))
    assert space.n == 3 and space.start == -1
    assert type(space.n) is np.int64


def test_contains() -> None:
    """Python ints (bools too, as Gymnasium accepts them) and numpy integers whose dtype
    casts safely to the space's, in range; nothing else, and never an error."""
    space = Discrete(3, start=1)
    assert isinstance(space, Space)
    for good in (1, 3, True, np.int64(2), np.int8(1), np.uint16(3), np.array(2)):
        assert good in space
    for bad in (0, 4, 2.0, np.uint64(2), np.float32(2), np.array([2]), "2", None, [1], 2**80):
        assert bad not in space
        assert space.contains(bad) is False


def test_contains_follows_the_dtype() -> None:
    space = Discrete(3, start=-1, dtype=np.int16)
    assert np.int8(0) in space and np.int16(1) in space and 0 in space
    assert np.int32(0) not in space and np.int64(0) not in space
    assert 2 not in space and -2 not in space
    edge = Discrete(6, start=250, dtype=np.uint8)  # {250, ..., 255}: no room above
    assert 255 in edge and np.uint8(255) in edge and 256 not in edge and -1 not in edge


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.uint8, np.uint64])
def test_samples_of_every_dtype_match_gymnasium(dtype: Any) -> None:
    """Samples are of the space's dtype and follow Gymnasium's stream draw for draw, whether
    drawn ahead in blocks (32 and 64 bit) or one call at a time (8 and 16 bit)."""
    ours = Discrete(7, seed=3, start=2, dtype=dtype)
    theirs = gym.spaces.Discrete(7, seed=3, start=2, dtype=dtype)
    samples = [ours.sample() for _ in range(300)]
    assert samples == [theirs.sample() for _ in range(300)]
    assert all(type(sample) is np.dtype(dtype).type for sample in samples)
    assert ours.np_random.bit_generator.state == theirs.np_random.bit_generator.state
    mask = np.array([0, 1, 1, 0, 0, 0, 1], np.int8)
    weights = np.array([0.0, 0.5, 0.25, 0.0, 0.0, 0.0, 0.25])
    masked = ours.sample(mask=mask)
    weighted = ours.sample(probability=weights)
    assert masked == theirs.sample(mask=mask) and type(masked) is np.dtype(dtype).type
    assert weighted == theirs.sample(probability=weights)
    assert type(weighted) is np.dtype(dtype).type


def test_dtype_shows_in_repr_equality_and_batches() -> None:
    space = Discrete(4, start=1, dtype=np.int32)
    assert repr(space) == "Discrete(4, start=1, dtype=int32)"
    assert repr(Discrete(4, dtype=int)) == "Discrete(4)"
    assert space.dtype == np.int32 and type(space.n) is np.int32 and type(space.start) is np.int32
    assert space != Discrete(4, start=1)
    assert space == Discrete(4, start=1, dtype="int32")
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space and clone.dtype == np.int32
    assert space.from_jsonable([1, 2]) == [np.int32(1), np.int32(2)]


def test_state_of_a_gymnasium_discrete_loads() -> None:
    """`__setstate__` takes Gymnasium's attribute layout (and old pickles without `start`)."""
    theirs = gym.spaces.Discrete(5, seed=2, start=3, dtype=np.int32)
    ours = Discrete(1)
    ours.__setstate__(copy.deepcopy(theirs.__dict__))
    assert ours == Discrete(5, start=3, dtype=np.int32)
    assert [ours.sample() for _ in range(5)] == [theirs.sample() for _ in range(5)]
    legacy = dict(gym.spaces.Discrete(4).__dict__)
    del legacy["start"], legacy["dtype"]
    ours.__setstate__(legacy)
    assert ours == Discrete(4)


def test_repr_equality_and_pickling() -> None:
    assert repr(Discrete(3)) == "Discrete(3)"
    assert repr(Discrete(3, start=-1)) == "Discrete(3, start=-1)"
    space = Discrete(6, seed=9, start=1)
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space
    assert [clone.sample() for _ in range(5)] == [space.sample() for _ in range(5)]
    assert space != Discrete(6)
    assert space != Discrete(5, start=1)
    assert space != 6


def test_json_round_trip() -> None:
    space = Discrete(4, seed=0)
    samples = [space.sample() for _ in range(4)]
    as_json = space.to_jsonable(samples)
    assert all(type(value) is int for value in as_json)
    assert space.from_jsonable(as_json) == samples


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 2**31), st.integers(-(2**31), 2**31), st.integers(0, 2**32))
def test_samples_are_contained_and_reproducible(n: int, start: int, seed: int) -> None:
    space = Discrete(n, seed=seed, start=start)
    first = [space.sample() for _ in range(5)]
    assert all(sample in space for sample in first)
    assert start - 1 not in space and start + n not in space
    space.seed(seed)
    assert [space.sample() for _ in range(5)] == first


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=1, max_size=20), st.integers(0, 2**32))
def test_masks_are_honoured(bits: list[int], seed: int) -> None:
    space = Discrete(len(bits), seed=seed)
    mask = np.array(bits, np.int8)
    for _ in range(10):
        sample = space.sample(mask=mask)
        assert bits[sample] == 1 or (not any(bits) and sample == 0)
