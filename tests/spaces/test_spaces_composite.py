"""Tuple, Dict and OneOf: seeding schemes, Gymnasium parity, masks, membership, errors."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Mapping
from collections.abc import Sequence as AbcSequence
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from protogym.spaces import Box, Dict, Discrete, MultiDiscrete, OneOf, Tuple
from protogym.testing.strategies import same


def test_tuple_int_seed_gives_gymnasium_child_seeds_and_samples() -> None:
    ours = Tuple([Discrete(5), Box(-1, 1, (2,)), MultiDiscrete([2, 3])])
    theirs = gym.spaces.Tuple(
        [gym.spaces.Discrete(5), gym.spaces.Box(-1, 1, (2,)), gym.spaces.MultiDiscrete([2, 3])]
    )
    assert ours.seed(42) == theirs.seed(42)
    for _ in range(3):
        assert same(ours.sample(), theirs.sample())


def test_tuple_seed_forms() -> None:
    space = Tuple([Discrete(100), Discrete(100)])
    assert space.seed([1, 2]) == (1, 2)
    first = space.sample()
    assert Discrete(100, seed=1).sample() == first[0]
    assert len(space.seed(None)) == 2
    with pytest.raises(ValueError, match=re.escape("Tuple.seed got 3 seeds for 2 sub-spaces")):
        space.seed([1, 2, 3])
    with pytest.raises(
        ValueError,
        match=re.escape(
            "Tuple.seed() takes a non-negative int, a list of one seed per sub-space, or None, "
            "got '7'"
        ),
    ):
        space.seed("7")


def test_tuple_masks_contains_and_access() -> None:
    space = Tuple((Discrete(3), Discrete(2)), seed=0)
    mask = (np.array([0, 0, 1], np.int8), None)
    assert all(space.sample(mask=mask)[0] == 2 for _ in range(5))
    assert space.sample(probability=(None, np.array([0.0, 1.0])))[1] == 1
    with pytest.raises(
        ValueError, match=re.escape("Tuple.sample mask must be a tuple with one entry per")
    ):
        space.sample(mask=(None,))
    assert (1, 1) in space and [1, 1] in space and np.array([1, 1]) in space
    assert (1, 2) not in space and (1,) not in space and {0: 1} not in space
    assert space[0] == Discrete(3) and space[:1] == (Discrete(3),)
    assert list(space) == [Discrete(3), Discrete(2)] and len(space) == 2
    assert repr(space) == "Tuple(Discrete(3), Discrete(2))"
    assert space == Tuple([Discrete(3), Discrete(2)]) != Tuple([Discrete(2), Discrete(3)])


@pytest.mark.parametrize(
    ("spaces", "message"),
    [
        (3, "Tuple takes an iterable of spaces, got 3"),
        ([Discrete(2), 5], "Tuple sub-space 1 is not a space (it lacks the Space members), got 5"),
    ],
)
def test_tuple_bad_arguments(spaces: Any, message: str) -> None:
    with pytest.raises(TypeError) as info:
        Tuple(spaces)
    assert str(info.value) == message


def test_dict_orders_keys_like_gymnasium_and_matches_its_samples() -> None:
    ours = Dict({"b": Discrete(4), "a": Box(0, 1, (2,))}, c=Discrete(3))
    theirs = gym.spaces.Dict(
        {"b": gym.spaces.Discrete(4), "a": gym.spaces.Box(0, 1, (2,))}, c=gym.spaces.Discrete(3)
    )
    assert list(ours.keys()) == list(theirs.keys()) == ["a", "b", "c"]
    assert ours.seed(5) == theirs.seed(5)
    for _ in range(3):
        assert same(ours.sample(), theirs.sample())
    unsorted = Dict({"b": Discrete(2), "a": Discrete(2)}, sort_keys=False)
    assert list(unsorted) == ["b", "a"]
    ordered = Dict(OrderedDict([("z", Discrete(2)), ("y", Discrete(2))]))
    assert list(ordered) == ["z", "y"]
    assert list(Dict([("q", Discrete(2)), ("p", Discrete(2))])) == ["q", "p"]


def test_dict_seed_forms_masks_and_membership() -> None:
    space = Dict({"x": Discrete(10), "y": Discrete(10)})
    assert space.seed({"x": 3, "y": 4}) == {"x": 3, "y": 4}
    with pytest.raises(ValueError, match=re.escape("Dict.seed keys ['x'] differ from")):
        space.seed({"x": 1})
    mask = {"x": np.eye(10, dtype=np.int8)[7], "y": None}
    assert space.sample(mask=mask)["x"] == 7
    with pytest.raises(
        ValueError, match=re.escape("Dict.sample mask must be a dict with the space's keys")
    ):
        space.sample(mask={"x": None})
    assert {"x": 1, "y": 2} in space
    assert {"x": 1} not in space and {"x": 1, "y": 20} not in space and [1, 2] not in space
    assert space["x"] == Discrete(10) and len(space) == 2
    space["z"] = Discrete(2)
    assert "z" in list(space.keys())
    assert repr(Dict({"a": Discrete(2)})) == "Dict('a': Discrete(2))"


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((5,), {}, "Dict spaces must be a mapping or a sequence of (key, space) pairs, got 5"),
        (({"a": 1},), {}, "Dict sub-space 'a' is not a space, got 1"),
        (
            ([("a",)],),
            {},
            "Dict spaces given as a sequence must be (key, space) pairs, got [('a',)]",
        ),
    ],
)
def test_dict_bad_arguments(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    """Arguments of the wrong kind are TypeErrors, as in Gymnasium."""
    with pytest.raises(TypeError) as info:
        Dict(*args, **kwargs)
    assert str(info.value) == message


def test_dict_key_given_twice_is_a_value_error() -> None:
    with pytest.raises(ValueError) as info:
        Dict({"a": Discrete(2)}, a=Discrete(3))
    assert str(info.value) == (
        "Dict sub-space 'a' is given both in `spaces` and as a keyword; give it once"
    )


def test_dict_is_a_mapping_and_tuple_a_sequence_of_sub_spaces() -> None:
    """Code written for Gymnasium treats them as a `Mapping` and a `Sequence`; `in` still
    asks about elements, not keys or sub-spaces."""
    space = Dict({"b": Discrete(2), "a": Box(0, 1, (2,))})
    assert isinstance(space, Mapping)
    assert dict(space) == {"a": Box(0, 1, (2,)), "b": Discrete(2)}
    assert space.get("a") == Box(0, 1, (2,)) and space.get("z") is None
    assert "a" not in space and {"a": np.zeros(2, np.float32), "b": 1} in space
    with pytest.raises(TypeError, match=re.escape("Dict['a'] must be set to a space, got 5")):
        space["a"] = 5  # type: ignore[assignment]
    pair = Tuple([Discrete(2), Discrete(3), Discrete(2)])
    assert isinstance(pair, AbcSequence)
    assert pair.count(Discrete(2)) == 2 and pair.index(Discrete(3)) == 1
    assert list(reversed(pair)) == [Discrete(2), Discrete(3), Discrete(2)]
    assert Discrete(2) not in pair and (0, 2, 1) in pair


def test_oneof_matches_gymnasium() -> None:
    ours = OneOf([Discrete(3), Box(0, 1, (2,)), Discrete(7, start=-3)])
    theirs = gym.spaces.OneOf(
        [gym.spaces.Discrete(3), gym.spaces.Box(0, 1, (2,)), gym.spaces.Discrete(7, start=-3)]
    )
    assert ours.seed(8) == theirs.seed(8)
    for _ in range(6):
        mine, ref = ours.sample(), theirs.sample()
        assert type(mine[0]) is np.int64
        assert same(mine, ref)


def test_oneof_seed_forms_masks_and_membership() -> None:
    space = OneOf([Discrete(2), Discrete(3)])
    assert space.seed((1, 2, 3)) == (1, 2, 3)
    with pytest.raises(ValueError, match=re.escape("OneOf.seed got 2 seeds for itself and 2")):
        space.seed((1, 2))
    mask = (np.array([0, 1], np.int8), np.array([0, 0, 1], np.int8))
    for _ in range(6):
        index, value = space.sample(mask=mask)
        assert value == (1 if index == 0 else 2)
    assert (0, 1) in space and (np.int64(1), 2) in space
    assert (1, 5) not in space and (2, 0) not in space
    # Gymnasium's rule for the index: a Python int (bool included) or an np.int64.
    assert (True, 0) in space and (np.int32(0), 1) not in space and (np.uint8(1), 0) not in space
    assert [0, 1] not in space and (0,) not in space
    assert len(space) == 2 and space[1] == Discrete(3)
    assert repr(space) == "OneOf(Discrete(2), Discrete(3))"
    with pytest.raises(ValueError, match=re.escape("OneOf needs at least one sub-space, got none")):
        OneOf([])


def test_composites_accept_a_generator_as_seed() -> None:
    generator = np.random.default_rng(0)
    assert Tuple([Discrete(2)], seed=generator).np_random is generator
    assert Dict({"a": Discrete(2)}, seed=generator).np_random is generator
    assert OneOf([Discrete(2)], seed=generator).np_random is generator


@pytest.mark.parametrize(
    ("space", "message"),
    [
        (Discrete(2), "Discrete.seed() takes a non-negative int or None, got -1"),
        (
            Dict({"a": Discrete(2)}),
            "Dict.seed() takes a non-negative int, a dict of one seed per key, or None, got -1",
        ),
        (
            OneOf([Discrete(2)]),
            "OneOf.seed() takes a non-negative int, a tuple (own seed, one seed per sub-space), "
            "or None, got -1",
        ),
    ],
)
def test_bad_seeds_say_what_is_accepted(space: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        space.seed(-1)
    assert str(info.value) == message
