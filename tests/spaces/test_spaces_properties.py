"""Properties every space has, checked on random (nested) spaces of every kind."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym.spaces import (
    Space,
    SpaceBase,
    batch_space,
    concatenate,
    create_empty_array,
    flatdim,
    flatten,
    flatten_space,
    iterate,
    unflatten,
)
from protogym.testing.strategies import any_spaces, flattenable_spaces, same

SEEDS = st.integers(0, 2**32)
PROPERTY = settings(max_examples=60, deadline=None)


@PROPERTY
@given(any_spaces, SEEDS)
def test_samples_are_contained(space: SpaceBase[Any], seed: int) -> None:
    assert isinstance(space, Space)
    space.seed(seed)
    for _ in range(3):
        sample = space.sample()
        assert space.contains(sample), (space, sample)
        assert sample in space


@PROPERTY
@given(any_spaces, SEEDS)
def test_the_same_seed_gives_the_same_samples(space: SpaceBase[Any], seed: int) -> None:
    space.seed(seed)
    first = [space.sample() for _ in range(3)]
    space.seed(seed)
    assert all(same(space.sample(), before) for before in first)


@PROPERTY
@given(any_spaces, SEEDS)
def test_pickling_keeps_equality_repr_and_generator_state(space: SpaceBase[Any], seed: int) -> None:
    space.seed(seed)
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space
    assert repr(clone) == repr(space)
    assert same(clone.sample(), space.sample())


@PROPERTY
@given(any_spaces, SEEDS)
def test_json_round_trip(space: SpaceBase[Any], seed: int) -> None:
    space.seed(seed)
    samples = [space.sample() for _ in range(3)]
    text = json.dumps(space.to_jsonable(samples))
    restored = space.from_jsonable(json.loads(text))
    assert len(restored) == 3
    for before, after in zip(samples, restored, strict=True):
        assert same(after, before), (space, before, after)


@PROPERTY
@given(any_spaces, SEEDS)
def test_flatten_unflatten_round_trip(space: SpaceBase[Any], seed: int) -> None:
    space.seed(seed)
    sample = space.sample()
    flat = flatten(space, sample)
    assert same(unflatten(space, flat), sample)
    assert flatten(flatten_space(space), flat) is not None


@PROPERTY
@given(flattenable_spaces, SEEDS)
def test_flattened_samples_live_in_the_flattened_space(space: SpaceBase[Any], seed: int) -> None:
    assert space.is_np_flattenable
    space.seed(seed)
    flat = flatten(space, space.sample())
    assert isinstance(flat, np.ndarray)
    assert flat.shape == (flatdim(space),)
    assert flat in flatten_space(space)


@PROPERTY
@given(any_spaces, SEEDS, st.integers(1, 3))
def test_batches_iterate_and_concatenate_back(space: SpaceBase[Any], seed: int, n: int) -> None:
    space.seed(seed)
    batched = batch_space(space, n)
    batch = batched.sample()
    assert batch in batched
    items = list(iterate(batched, batch))
    assert len(items) == n
    assert all(item in space for item in items)
    out = create_empty_array(space, n)
    rebuilt = concatenate(space, items, out)
    assert same(rebuilt, batch)


GARBAGE: list[object] = [
    None,
    "text",
    3.5,
    -1,
    object(),
    {"key": 1},
    [1, [2, 3]],
    (None, None),
    np.array([np.nan]),
    np.array(["a", "b"]),
    {1, 2},
]


@PROPERTY
@given(any_spaces)
def test_contains_never_raises_on_garbage(space: SpaceBase[Any]) -> None:
    for garbage in GARBAGE:
        assert space.contains(garbage) in (True, False)
