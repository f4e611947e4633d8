"""flatten / unflatten / flatdim / flatten_space: exact layouts and Gymnasium parity."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from protogym import spaces
from protogym.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiDiscrete,
    OneOf,
    Sequence,
    Text,
    Tuple,
    flatdim,
    flatten,
    flatten_space,
    unflatten,
)
from protogym.testing.strategies import same


def test_discrete_flattens_to_one_hot() -> None:
    space = Discrete(4, start=2)
    flat = flatten(space, 3)
    assert flat.tolist() == [0, 1, 0, 0] and flat.dtype == np.int64
    assert unflatten(space, flat) == 3
    assert flatdim(space) == 4
    assert repr(flatten_space(space)) == "Box(0, 1, (4,), int64)"
    with pytest.raises(ValueError, match=re.escape("needs a one-hot vector")):
        unflatten(space, np.zeros(4))


def test_multi_discrete_flattens_to_concatenated_one_hots() -> None:
    space = MultiDiscrete([2, 3], start=[0, 5])
    flat = flatten(space, np.array([1, 6]))
    assert flat.tolist() == [0, 1, 0, 1, 0]
    assert unflatten(space, flat).tolist() == [1, 6]
    assert flatdim(space) == 5


def test_text_flattens_to_padded_indices() -> None:
    space = Text(5, charset="abc")
    flat = flatten(space, "cab")
    assert flat.tolist() == [2, 0, 1, 3, 3] and flat.dtype == np.int32
    assert unflatten(space, flat) == "cab"
    assert repr(flatten_space(space)) == "Box(0, 3, (5,), int32)"


def test_composites_flatten_in_key_order_with_a_common_dtype() -> None:
    space = Dict({"b": Discrete(2), "a": Box(-1.0, 1.0, (2,), np.float64)})
    flat = flatten(space, {"a": np.array([0.5, -0.5]), "b": 1})
    assert flat.tolist() == [0.5, -0.5, 0.0, 1.0] and flat.dtype == np.float64
    back = unflatten(space, flat)
    assert back["b"] == 1 and back["a"].tolist() == [0.5, -0.5]
    flat_space = flatten_space(space)
    assert isinstance(flat_space, Box)
    assert flat_space.low.tolist() == [-1, -1, 0, 0] and flat_space.high.tolist() == [1, 1, 1, 1]


def test_flatten_space_is_the_box_of_the_joined_bounds() -> None:
    """As in Gymnasium: the flat box is built from the sub-boxes' stored bounds, so a float
    side stays open (infinite) while an integer box's open side becomes its dtype's limit."""
    space = Tuple([Box(-np.inf, 0.0, (2,)), Box(0, np.inf, (1,), np.int32)])
    flat = flatten_space(space)
    assert isinstance(flat, Box)
    assert flat.dtype == np.float64
    assert flat.low.tolist() == [-np.inf, -np.inf, 0.0]
    assert flat.high.tolist() == [0.0, 0.0, 2**31 - 1]
    assert flat.bounded_below.tolist() == [False, False, True]
    assert flat.bounded_above.tolist() == [True, True, True]
    theirs = gym.spaces.utils.flatten_space(
        gym.spaces.Tuple(
            [gym.spaces.Box(-np.inf, 0.0, (2,)), gym.spaces.Box(0, np.inf, (1,), np.int32)]
        )
    )
    assert isinstance(theirs, gym.spaces.Box)
    assert flat.low.tolist() == theirs.low.tolist() and flat.high.tolist() == theirs.high.tolist()


def test_oneof_flattens_to_index_and_padding() -> None:
    space = OneOf([Discrete(2), Box(0, 5, (3,))])
    flat = flatten(space, (np.int64(0), 1))
    assert flat.tolist() == [0, 0, 1, 0] and flat.dtype == np.float64
    assert same(unflatten(space, flat), (np.int64(0), np.int64(1)))
    assert flatdim(space) == 4
    assert flat in flatten_space(space)


def test_variable_size_spaces_flatten_to_structures() -> None:
    sequence = Sequence(Discrete(3))
    flat = flatten(sequence, (0, 2))
    assert isinstance(flat, tuple) and [f.tolist() for f in flat] == [[1, 0, 0], [0, 0, 1]]
    assert flatten_space(sequence) == Sequence(Box(0, 1, (3,), np.int64))
    with pytest.raises(ValueError, match=re.escape("cannot be flattened to one array")):
        flatdim(sequence)
    with pytest.raises(ValueError, match=re.escape("cannot be flattened to one array")):
        flatdim(Tuple([Discrete(2), sequence]))
    graph = Graph(Box(0, 1, (2, 2)), Discrete(3))
    assert flatten_space(graph) == Graph(Box(0, 1, (4,)), Box(0, 1, (3,), np.int64))
    with pytest.raises(ValueError, match=re.escape("cannot be flattened to one array")):
        flatdim(graph)


def test_unknown_spaces_get_a_registration_hint() -> None:
    class Custom(Discrete):
        pass

    assert flatdim(Custom(3)) == 3  # subclasses use the parent's rules
    with pytest.raises(NotImplementedError, match=re.escape("register one with")):
        flatten(gym.spaces.Discrete(3), 1)


FACTORIES: list[Callable[[Any], Any]] = [
    lambda m: m.Box(-2, 3, (2, 2)),
    lambda m: m.Discrete(3, start=-1),
    lambda m: m.MultiBinary(3),
    lambda m: m.MultiDiscrete([2, 4]),
    lambda m: m.Tuple([m.Discrete(3), m.Box(0, 1, (2,))]),
    lambda m: m.Dict({"x": m.Discrete(3), "y": m.MultiBinary(2)}),
    lambda m: m.OneOf([m.Discrete(3), m.Box(0, 1, (2,))]),
    lambda m: m.Text(4, charset="xyz"),
]


@pytest.mark.parametrize("factory", FACTORIES)
def test_flatten_matches_gymnasium(factory: Callable[[Any], Any]) -> None:
    space, twin = factory(spaces), factory(gym.spaces)
    space.seed(3)
    sample = space.sample()
    assert same(flatten(space, sample), gym.spaces.utils.flatten(twin, sample))
    assert flatdim(space) == gym.spaces.utils.flatdim(twin)
    assert repr(flatten_space(space)) == repr(gym.spaces.utils.flatten_space(twin))
