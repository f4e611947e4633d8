"""batch_space / iterate / concatenate / create_empty_array with Gymnasium 1.x semantics."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

from protogym.spaces import (
    Box,
    Dict,
    Discrete,
    MultiBinary,
    MultiDiscrete,
    Text,
    Tuple,
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)


def test_batch_space_rules() -> None:
    assert batch_space(Discrete(3, start=1), 2) == MultiDiscrete([3, 3], start=[1, 1])
    batched = batch_space(Box(0, 1, (2,)), 3)
    assert isinstance(batched, Box) and batched.shape == (3, 2)
    assert batch_space(MultiDiscrete([2, 3]), 2) == Box(
        np.zeros((2, 2)), np.array([[1, 2], [1, 2]]), dtype=np.int64
    )
    assert batch_space(MultiBinary(3), 2) == Box(0, 1, (2, 3), np.int8)
    assert batch_space(Dict({"a": Discrete(2)}), 2) == Dict({"a": MultiDiscrete([2, 2])})
    assert batch_space(Tuple([Discrete(2)]), 2) == Tuple([MultiDiscrete([2, 2])])
    text_batch = batch_space(Text(3), 2)
    assert text_batch == Tuple([Text(3), Text(3)])
    with pytest.raises(
        ValueError, match=re.escape("batch_space n must be a positive int, got n=0")
    ):
        batch_space(Discrete(2), 0)
    with pytest.raises(TypeError, match=re.escape("batch_space needs a space, got int")):
        batch_space(5, 2)  # type: ignore[arg-type]


def test_batched_boxes_sample_like_gymnasiums() -> None:
    """A batched Box is the Box of the tiled bounds, as in Gymnasium: float sides stay open,
    an integer box's open side (stored as the dtype's limit) becomes a bounded one; so the
    batch samples what Gymnasium's does under the same seed."""
    for low, high, dtype in [(-np.inf, 5, np.int32), (-np.inf, 5.0, np.float32), (0, 9, np.uint8)]:
        ours = batch_space(Box(low, high, (2,), dtype, seed=4), 3)
        theirs = gym.vector.utils.batch_space(gym.spaces.Box(low, high, (2,), dtype, seed=4), 3)
        assert isinstance(ours, Box) and isinstance(theirs, gym.spaces.Box)
        assert ours.bounded_below.tolist() == theirs.bounded_below.tolist()
        for _ in range(3):
            np.testing.assert_array_equal(ours.sample(), theirs.sample())


def test_batched_spaces_copy_the_generator() -> None:
    space = Discrete(100, seed=0)
    batched = batch_space(space, 3)
    assert batched.np_random is not space.np_random
    assert batched.np_random.bit_generator.state == space.np_random.bit_generator.state


def test_batched_copies_are_seeded_apart() -> None:
    batched = batch_space(Text(8, min_length=8, seed=1), 3)
    first, second, third = batched.sample()
    assert len({first, second, third}) == 3


def test_concatenate_writes_into_out() -> None:
    space = Dict({"pos": Box(0, 1, (2,)), "id": Discrete(5)})
    out = create_empty_array(space, 3)
    items = [{"pos": np.full(2, i / 4, np.float32), "id": i} for i in range(3)]
    result = concatenate(space, items, out)
    assert result["pos"] is out["pos"] and result["id"] is out["id"]
    assert out["id"].tolist() == [0, 1, 2]
    assert out["pos"][:, 0].tolist() == [0.0, 0.25, 0.5]
    assert [item["id"] for item in iterate(batch_space(space, 3), result)] == [0, 1, 2]


def test_create_empty_array_shapes_and_factories() -> None:
    space = Tuple([Box(0, 1, (2,), np.float64), MultiBinary(3), Text(4, min_length=2)])
    arrays = create_empty_array(space, 2, fn=np.ones)
    assert arrays[0].shape == (2, 2) and arrays[0].dtype == np.float64 and arrays[0].all()
    assert arrays[1].shape == (2, 3) and arrays[1].dtype == np.int8
    assert arrays[2] == ("00", "00")


def test_iterate_rejects_discrete() -> None:
    with pytest.raises(TypeError, match=re.escape("a Discrete space is not a batch")):
        iterate(Discrete(2), [0, 1])


def test_batch_differing_spaces() -> None:
    assert batch_differing_spaces([Discrete(2), Discrete(3, start=1)]) == MultiDiscrete(
        [2, 3], start=[0, 1]
    )
    widest = batch_differing_spaces([Discrete(2, dtype=np.int8), Discrete(3, dtype=np.int32)])
    assert widest == MultiDiscrete([2, 3], dtype=np.int32)
    boxes = batch_differing_spaces([Box(0, 1, (2,)), Box(-1, 2, (2,))])
    assert isinstance(boxes, Box)
    assert boxes.low.tolist() == [[0, 0], [-1, -1]]
    texts = batch_differing_spaces([Text(3), Text(4)])
    assert texts == Tuple([Text(3), Text(4)])
    with pytest.raises(TypeError, match=re.escape("needs spaces of one type")):
        batch_differing_spaces([Discrete(2), Box(0, 1)])
    with pytest.raises(
        ValueError, match=re.escape("needs Box spaces of one shape, got ['(2,)', '(3,)']")
    ):
        batch_differing_spaces([Box(0, 1, (2,)), Box(0, 1, (3,))])
    with pytest.raises(ValueError, match=re.escape("needs at least one space")):
        batch_differing_spaces([])
