"""Hypothesis: membership rejects wrong shape, wrong dtype kind, out-of-bounds values and NaN,
and every mask is honoured."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym.spaces import Box, Discrete, MultiBinary, MultiDiscrete, Text
from protogym.testing.strategies import boxes, discretes, multi_binaries, multi_discretes, texts

SEEDS = st.integers(0, 2**32)
PROPERTY = settings(max_examples=80, deadline=None)


@PROPERTY
@given(st.one_of(boxes(), multi_binaries, multi_discretes()), SEEDS)
def test_array_spaces_reject_wrong_shapes(
    space: Box | MultiBinary | MultiDiscrete, seed: int
) -> None:
    space.seed(seed)
    sample = space.sample()
    assert sample[np.newaxis] not in space
    assert sample.ravel()[:-1] not in space
    assert np.concatenate([sample.ravel(), sample.ravel()]) not in space


@PROPERTY
@given(st.one_of(multi_binaries, multi_discretes()), SEEDS)
def test_integer_spaces_reject_floats_and_nan(
    space: MultiBinary | MultiDiscrete, seed: int
) -> None:
    space.seed(seed)
    sample = space.sample()
    assert sample.astype(np.float64) not in space
    with_nan = sample.astype(np.float64)
    with_nan.flat[0] = np.nan
    assert with_nan not in space


@PROPERTY
@given(boxes(), SEEDS)
def test_boxes_reject_out_of_bounds_and_unsafe_dtypes(space: Box, seed: int) -> None:
    space.seed(seed)
    sample = space.sample()
    if space.dtype.kind in "iu":
        assert sample.astype(np.float64) not in space
    else:
        nan = sample.copy()
        nan.flat[0] = np.nan
        assert nan not in space
    if space.bounded_above.flat[0] and space.high.flat[0] < np.iinfo(np.int64).max:
        above = sample.astype(object)
        above.flat[0] = int(space.high.flat[0]) + 1 if space.dtype.kind in "iu" else np.inf
        assert above.tolist() not in space
    if space.bounded_below.flat[0] and space.low.flat[0] > np.iinfo(np.int64).min:
        below = sample.astype(object)
        below.flat[0] = int(space.low.flat[0]) - 1 if space.dtype.kind in "iu" else -np.inf
        assert below.tolist() not in space


@PROPERTY
@given(multi_discretes(), SEEDS)
def test_multi_discrete_rejects_values_outside_each_range(space: MultiDiscrete, seed: int) -> None:
    space.seed(seed)
    sample = space.sample().astype(np.int64)
    above = sample.copy()
    above.flat[0] = space.start.flat[0] + space.nvec.flat[0]
    below = sample.copy()
    below.flat[0] = space.start.flat[0] - 1
    assert above.tolist() not in space and below.tolist() not in space


@PROPERTY
@given(discretes)
def test_discrete_rejects_out_of_range_and_other_kinds(space: Discrete) -> None:
    start, n = int(space.start), int(space.n)
    assert start in space and start + n - 1 in space
    for bad in (start - 1, start + n, float(start), np.float64(start), np.array([start]), None):
        assert bad not in space


@PROPERTY
@given(texts(), SEEDS)
def test_text_rejects_long_strings_and_foreign_characters(space: Text, seed: int) -> None:
    space.seed(seed)
    sample = space.sample()
    assert sample + space.characters[0] * (space.max_length + 1) not in space
    if space.min_length > 0:
        assert "" not in space
    foreign = next(c for c in "#@!?%&*" if c not in space.character_set)
    assert (foreign + sample)[: space.max_length] not in space or space.max_length == 0


@PROPERTY
@given(st.lists(st.integers(0, 2), min_size=1, max_size=12), SEEDS)
def test_multi_binary_masks_are_honoured(codes: list[int], seed: int) -> None:
    space = MultiBinary(len(codes), seed=seed)
    mask = np.array(codes, np.int8)
    sample = space.sample(mask=mask)
    fixed = mask != 2
    assert (sample[fixed] == mask[fixed]).all()
    assert sample in space


@PROPERTY
@given(st.lists(st.lists(st.integers(0, 1), min_size=1, max_size=6), min_size=1, max_size=4), SEEDS)
def test_multi_discrete_masks_are_honoured(bits: list[list[int]], seed: int) -> None:
    space = MultiDiscrete([len(row) for row in bits], seed=seed, start=[3] * len(bits))
    mask = tuple(np.array(row, np.int8) for row in bits)
    sample = space.sample(mask=mask)
    for row, value in zip(bits, sample, strict=True):
        if any(row):
            assert row[int(value) - 3] == 1
        else:
            assert value == 3


@PROPERTY
@given(texts(), st.data())
def test_text_masks_are_honoured(space: Text, data: st.DataObject) -> None:
    allowed = data.draw(
        st.lists(
            st.booleans(), min_size=len(space.character_list), max_size=len(space.character_list)
        )
    )
    if not any(allowed):
        allowed[0] = True
    length = data.draw(st.integers(space.min_length, space.max_length))
    mask = (length, np.array(allowed, np.int8))
    sample = space.sample(mask=mask)
    assert len(sample) == length
    assert all(allowed[space.character_list.index(c)] for c in sample)
