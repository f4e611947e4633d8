"""Hypothesis strategies that build random spaces of every kind, for property tests of spaces
and of code that takes any space (converters, wrappers, env packages' own spaces).

Needs hypothesis (the `testing` extra); the core never imports this module.
"""

from __future__ import annotations

import string
from typing import Any

import numpy as np
from hypothesis import strategies as st

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
from protogym.testing.compare import same

__all__ = [
    "any_spaces",
    "boxes",
    "discretes",
    "features",
    "flattenable_spaces",
    "graphs",
    "leaves",
    "multi_binaries",
    "multi_discretes",
    "same",
    "texts",
]

SHAPES = st.lists(st.integers(1, 3), min_size=1, max_size=3).map(tuple)


@st.composite
def boxes(draw: st.DrawFn) -> Box:
    shape = draw(SHAPES)
    if draw(st.booleans()):
        dtype: Any = draw(st.sampled_from([np.float32, np.float64]))
        a = draw(st.floats(-1e3, 1e3))
        b = draw(st.floats(-1e3, 1e3))
        low = draw(st.sampled_from([min(a, b), -np.inf]))
        high = draw(st.sampled_from([max(a, b), np.inf]))
        return Box(low, high, shape, dtype)
    dtype = draw(st.sampled_from([np.int8, np.int32, np.int64, np.uint8]))
    info = np.iinfo(dtype)
    a = draw(st.integers(int(info.min), int(info.max)))
    b = draw(st.integers(int(info.min), int(info.max)))
    return Box(min(a, b), max(a, b), shape, dtype)


discretes = st.builds(
    Discrete,
    st.integers(1, 50),
    start=st.integers(-20, 20),
    dtype=st.sampled_from([np.int64, np.int32, np.int16, np.int8]),
)
multi_binaries = st.builds(MultiBinary, st.one_of(st.integers(1, 5), SHAPES))


@st.composite
def multi_discretes(draw: st.DrawFn) -> MultiDiscrete:
    shape = draw(SHAPES)
    size = int(np.prod(shape))
    nvec = np.array(draw(st.lists(st.integers(1, 9), min_size=size, max_size=size)))
    start = np.array(draw(st.lists(st.integers(-5, 5), min_size=size, max_size=size)))
    dtype = draw(st.sampled_from([np.int64, np.int32, np.int16]))
    return MultiDiscrete(nvec.reshape(shape), dtype=dtype, start=start.reshape(shape))


@st.composite
def texts(draw: st.DrawFn) -> Text:
    low = draw(st.integers(0, 4))
    high = draw(st.integers(low, 8))
    charset = draw(st.text(string.ascii_letters + string.digits + " -_", min_size=1, max_size=12))
    return Text(high, min_length=low, charset=charset)


def _dict_space(spaces: dict[str, SpaceBase[Any]]) -> SpaceBase[Any]:
    return Dict(spaces)


leaves = st.one_of(boxes(), discretes, multi_binaries, multi_discretes(), texts())
_array_leaves: st.SearchStrategy[SpaceBase[Any]] = st.one_of(
    boxes(), discretes, multi_binaries, multi_discretes()
)
_names = st.text(string.ascii_lowercase, min_size=1, max_size=3)
features: st.SearchStrategy[SpaceBase[Any]] = st.one_of(
    _array_leaves,
    st.lists(_array_leaves, min_size=1, max_size=2).map(Tuple),
    st.dictionaries(_names, _array_leaves, min_size=1, max_size=2).map(_dict_space),
)
"""Node and edge spaces of graphs: any space whose batches are arrays (or tuples and dicts
of them), as Gymnasium's `Graph` supports."""


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    return Graph(draw(features), draw(st.one_of(st.none(), features)))


def _composites(children: st.SearchStrategy[SpaceBase[Any]]) -> st.SearchStrategy[SpaceBase[Any]]:
    names = st.text(string.ascii_lowercase, min_size=1, max_size=4)
    return st.one_of(
        st.lists(children, min_size=1, max_size=3).map(Tuple),
        st.dictionaries(names, children, min_size=1, max_size=3).map(_dict_space),
        st.lists(children, min_size=1, max_size=3).map(OneOf),
    )


def _sequences() -> st.SearchStrategy[SpaceBase[Any]]:
    return st.one_of(
        st.builds(Sequence, leaves, stack=st.just(False)),
        st.builds(Sequence, st.one_of(boxes(), discretes, multi_discretes()), stack=st.just(True)),
    )


flattenable_spaces: st.SearchStrategy[SpaceBase[Any]] = st.recursive(
    leaves, _composites, max_leaves=5
)
"""Spaces whose elements flatten to one array."""

any_spaces: st.SearchStrategy[SpaceBase[Any]] = st.recursive(
    st.one_of(leaves, graphs(), _sequences()), _composites, max_leaves=5
)
"""Every kind of space, nested up to a few levels."""
