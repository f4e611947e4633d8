"""What code written for Gymnasium relies on: module paths, exception classes, pickled
states of either library, and the compatibility check vector envs use."""

from __future__ import annotations

import copy
import importlib
import re
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings

from protogym.error import Error
from protogym.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    SpaceBase,
    Text,
    Tuple,
)
from protogym.spaces.base import InvalidSampleArgument, InvalidSeed
from protogym.spaces.utils import is_space_dtype_shape_equiv
from protogym.testing.strategies import any_spaces, same


@pytest.mark.parametrize(
    ("module", "names"),
    [
        (
            "protogym.vector.utils.space_utils",
            ["batch_space", "batch_differing_spaces", "iterate", "concatenate"],
        ),
        (
            "protogym.vector.utils.shared_memory",
            ["create_shared_memory", "read_from_shared_memory", "write_to_shared_memory"],
        ),
        ("protogym.vector.utils", ["create_empty_array", "create_shared_memory", "batch_space"]),
        ("protogym.spaces.utils", ["is_space_dtype_shape_equiv", "flatten", "flatdim"]),
    ],
)
def test_gymnasium_module_paths(module: str, names: list[str]) -> None:
    imported = importlib.import_module(module)
    for name in names:
        assert callable(getattr(imported, name)), f"{module}.{name}"


def test_gymnasium_module_level_helpers() -> None:
    from protogym.spaces.box import array_short_repr, is_float_integer
    from protogym.spaces.space import MaskNDArray
    from protogym.spaces.utils import FlatType

    assert array_short_repr(np.full(3, 2.5)) == "2.5"
    assert array_short_repr(np.array([1, 2])) == "[1 2]"
    assert [is_float_integer(v) for v in (1, 2.0, np.int8(1), True, np.array(1), "1")] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert MaskNDArray is not None and FlatType is not None


M8 = np.int8
MASKED_CASES: list[tuple[str, Any, dict[str, Any]]] = [
    ("Discrete", lambda lib: lib.Discrete(4, start=2), {"mask": np.array([0, 1, 1, 0], M8)}),
    (
        "MultiDiscrete",
        lambda lib: lib.MultiDiscrete([3, 2]),
        {"probability": (np.array([0.5, 0, 0.5]), np.array([0.3, 0.7]))},
    ),
    ("MultiBinary", lambda lib: lib.MultiBinary(4), {"mask": np.array([0, 1, 2, 2], M8)}),
    ("Text", lambda lib: lib.Text(5, charset="abcd"), {"mask": (None, np.array([1, 0, 1, 1], M8))}),
    (
        "Dict",
        lambda lib: lib.Dict(a=lib.Discrete(3), b=lib.Box(0, 1)),
        {"mask": {"a": np.array([0, 0, 1], M8), "b": None}},
    ),
    (
        "OneOf",
        lambda lib: lib.OneOf([lib.Discrete(3), lib.Discrete(2)]),
        {"mask": (np.array([1, 0, 1], M8), np.array([0, 1], M8))},
    ),
    (
        "Sequence",
        lambda lib: lib.Sequence(lib.Discrete(3), stack=True),
        {"probability": (np.array([2, 4]), np.array([0.2, 0.3, 0.5]))},
    ),
    (
        "Graph",
        lambda lib: lib.Graph(lib.Discrete(3), lib.Discrete(2)),
        {"mask": (None, np.array([0, 1], M8))},
    ),
    ("Box-int-open", lambda lib: lib.Box(-np.inf, np.inf, (3,), np.int32), {}),
    ("Box-int64-wide", lambda lib: lib.Box(-(2**62), 2**62, (3,), np.int64), {}),
]


@pytest.mark.parametrize(("name", "make", "kwargs"), MASKED_CASES, ids=[c[0] for c in MASKED_CASES])
def test_samples_follow_gymnasiums_stream(name: str, make: Any, kwargs: dict[str, Any]) -> None:
    """Under one seed, masked and weighted samples are Gymnasium's, draw for draw."""
    import protogym.spaces as ours_lib

    ours, theirs = make(ours_lib), make(gym.spaces)
    ours.seed(11)
    theirs.seed(11)
    for _ in range(6):
        mine, ref = ours.sample(**kwargs), theirs.sample(**kwargs)
        if name == "Graph":
            mine, ref = tuple(mine), tuple(ref)
        assert same(mine, ref), (mine, ref)


SEEDED = [
    Discrete(3),
    Box(0, 1, (2,)),
    Tuple([Discrete(2)]),
    Dict({"a": Discrete(2)}),
    OneOf([Discrete(2)]),
    Sequence(Discrete(2)),
    Graph(Box(0, 1, (2,)), None),
]


@pytest.mark.parametrize("space", SEEDED, ids=repr)
def test_a_bad_seed_is_an_error_of_every_class_gymnasium_uses(space: SpaceBase[Any]) -> None:
    """Gymnasium raises `error.Error` (leaf spaces), `TypeError` (a seed of the wrong type
    for a composite) or `ValueError` (the wrong number of seeds): `InvalidSeed` is all three."""
    for bad in (-1, 1.5, "abc"):
        with pytest.raises(InvalidSeed) as info:
            space.seed(bad)
        assert isinstance(info.value, Error | TypeError | ValueError)
        assert all(isinstance(info.value, kind) for kind in (Error, TypeError, ValueError))


@pytest.mark.parametrize(
    ("space", "kwargs"),
    [
        (Discrete(3), {"mask": np.ones(2, np.int8)}),
        (Discrete(3), {"probability": np.array([0.5, 0.6, 0.0])}),
        (MultiBinary(2), {"mask": np.array([0, 3], np.int8)}),
        (MultiDiscrete([2, 2]), {"mask": (np.ones(2, np.int8),)}),
        (Text(3), {"mask": (9, None)}),
        (Sequence(Discrete(2)), {"mask": (-2, None)}),
        (Graph(Box(0, 1, (2,)), None), {"num_nodes": 0}),
        (Box(0, 1), {"mask": np.ones(1, np.int8)}),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, SpaceBase) else "",
)
def test_bad_sample_arguments_raise_what_gymnasium_raises(
    space: SpaceBase[Any], kwargs: dict[str, Any]
) -> None:
    """Gymnasium checks masks with ``assert`` (and `Box` raises `error.Error`):
    `InvalidSampleArgument` is an `AssertionError`, a `ValueError` and an `Error`."""
    with pytest.raises(InvalidSampleArgument) as info:
        space.sample(**kwargs)
    assert all(isinstance(info.value, kind) for kind in (AssertionError, ValueError, Error))


def test_a_multi_dimensional_multidiscrete_warns_on_len() -> None:
    assert len(MultiDiscrete([3, 2, 4])) == 3
    with pytest.warns(UserWarning, match=re.escape("counts only its first axis (2 of shape")):
        assert len(MultiDiscrete([[2, 3], [3, 2]])) == 2


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (Box(-1, np.array([1.0, 2.0])), gym.spaces.Box(-1, np.array([1.0, 2.0]))),
        (MultiDiscrete([2, 3], start=[1, -1]), gym.spaces.MultiDiscrete([2, 3], start=[1, -1])),
        (Discrete(4, start=2), gym.spaces.Discrete(4, start=2)),
    ],
    ids=lambda value: type(value).__name__,
)
def test_the_state_of_a_gymnasium_space_loads(ours: SpaceBase[Any], theirs: Any) -> None:
    """`__setstate__` reads Gymnasium's attributes, so pickles of Gymnasium spaces load."""
    theirs.seed(4)
    fresh: Any = type(ours).__new__(type(ours))
    fresh.__setstate__(copy.deepcopy(theirs.__dict__))
    assert fresh == ours
    for _ in range(3):
        np.testing.assert_array_equal(fresh.sample(), theirs.sample())


def test_old_states_without_start_load_with_start_zero() -> None:
    state = dict(MultiDiscrete([2, 3]).__dict__)
    del state["start"]
    loaded = MultiDiscrete.__new__(MultiDiscrete)
    loaded.__setstate__(state)
    assert loaded == MultiDiscrete([2, 3]) and loaded.start.tolist() == [0, 0]


def test_box_keeps_gymnasiums_repr_attributes() -> None:
    box = Box(-1.0, 1.0, (2,))
    assert (box.low_repr, box.high_repr) == (None, None)  # filled in by the first repr
    assert repr(box) == "Box(-1.0, 1.0, (2,), float32)"
    assert [box.low_repr, box.high_repr] == ["-1.0", "1.0"]
    loaded = Box.__new__(Box)
    loaded.__setstate__({k: v for k, v in box.__getstate__().items()})
    assert loaded.low_repr == "-1.0"


@pytest.mark.parametrize(
    ("first", "second", "equivalent"),
    [
        (Box(0, 1, (2,)), Box(-5, 5, (2,)), True),
        (Box(0, 1, (2,)), Box(0, 1, (3,)), False),
        (Box(0, 1, (2,)), Box(0, 1, (2,), np.float64), False),
        (Discrete(3), Discrete(9, start=4), True),
        (Discrete(3), Discrete(3, dtype=np.int32), False),
        (Discrete(3), MultiDiscrete([3]), False),
        (Text(4, charset="ab"), Text(4, min_length=0, charset="ba"), True),
        (Text(4), Text(5), False),
        (Dict(a=Discrete(2), b=Box(0, 1)), Dict(b=Box(2, 3), a=Discrete(7)), True),
        (Dict(a=Discrete(2)), Dict(b=Discrete(2)), False),
        (Tuple([Discrete(2), Box(0, 1)]), Tuple([Discrete(5), Box(-1, 1)]), True),
        (Tuple([Discrete(2)]), OneOf([Discrete(2)]), False),
        (Graph(Box(0, 1, (2,)), None), Graph(Box(3, 4, (2,)), None), True),
        (Graph(Box(0, 1, (2,)), None), Graph(Box(0, 1, (2,)), Discrete(2)), False),
        (Sequence(Discrete(2)), Sequence(Discrete(3), stack=True), False),
    ],
)
def test_is_space_dtype_shape_equiv(first: Any, second: Any, equivalent: bool) -> None:
    assert is_space_dtype_shape_equiv(first, second) is equivalent
    assert is_space_dtype_shape_equiv(second, first) is equivalent


@settings(max_examples=60, deadline=None)
@given(any_spaces)
def test_every_space_is_equivalent_to_itself_and_a_copy(space: SpaceBase[Any]) -> None:
    assert is_space_dtype_shape_equiv(space, space) is True
    assert is_space_dtype_shape_equiv(space, copy.deepcopy(space)) is True


def test_is_space_dtype_shape_equiv_needs_spaces() -> None:
    assert is_space_dtype_shape_equiv(Discrete(2), "Discrete(2)") is False  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="compares two spaces"):
        is_space_dtype_shape_equiv("Discrete(2)", Discrete(2))  # type: ignore[arg-type]
