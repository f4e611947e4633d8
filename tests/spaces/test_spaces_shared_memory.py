"""`protogym.vector.utils.shared_memory`: batches laid out in memory shared between processes."""

from __future__ import annotations

import multiprocessing
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym.error import CustomSpaceError
from protogym.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    OneOf,
    Sequence,
    Space,
    SpaceBase,
    Text,
    Tuple,
)
from protogym.testing.strategies import leaves, same
from protogym.vector.utils.shared_memory import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)
from protogym.vector.utils.space_utils import batch_space, iterate


def _composites(children: st.SearchStrategy[SpaceBase[Any]]) -> st.SearchStrategy[SpaceBase[Any]]:
    names = st.text("abcdef", min_size=1, max_size=3)
    return st.one_of(
        st.lists(children, min_size=1, max_size=3).map(Tuple),
        st.dictionaries(names, children, min_size=1, max_size=3).map(Dict),  # type: ignore[arg-type]
        st.lists(children, min_size=1, max_size=3).map(OneOf),
    )


SHAREABLE = st.recursive(leaves, _composites, max_leaves=4)
"""Spaces whose elements have a fixed layout: every kind but Graph and Sequence."""


@settings(max_examples=60, deadline=None)
@given(SHAREABLE, st.integers(1, 4), st.integers(0, 2**32))
def test_written_elements_read_back_as_a_batch(space: SpaceBase[Any], n: int, seed: int) -> None:
    space.seed(seed)
    memory = create_shared_memory(space, n)
    samples = [space.sample() for _ in range(n)]
    for index, sample in enumerate(samples):
        write_to_shared_memory(space, index, sample, memory)
    batch = read_from_shared_memory(space, memory, n)
    batched = batch_space(space, n)
    assert batch in batched
    for read, sample in zip(iterate(batched, batch), samples, strict=True):
        assert same(read, sample), (space, read, sample)


def _fill(space: Space[Any], memory: Any, values: list[Any]) -> None:
    for index, value in enumerate(values):
        write_to_shared_memory(space, index, value, memory)


def test_a_child_process_writes_what_the_parent_reads() -> None:
    context = multiprocessing.get_context("fork")
    space = Dict({"pos": Box(-1, 1, (2,), seed=1), "id": Discrete(5, seed=2), "name": Text(4)})
    memory = create_shared_memory(space, 3, ctx=context)
    batch = read_from_shared_memory(space, memory, 3)  # views: later writes show through
    values = [space.sample() for _ in range(3)]
    child = context.Process(target=_fill, args=(space, memory, values))
    child.start()
    child.join(timeout=30)
    assert child.exitcode == 0
    np.testing.assert_array_equal(batch["pos"], np.stack([value["pos"] for value in values]))
    assert batch["id"].tolist() == [int(value["id"]) for value in values]
    assert read_from_shared_memory(space, memory, 3)["name"] == tuple(v["name"] for v in values)


@pytest.mark.parametrize("dtype", [np.float16, np.bool_, np.float64, np.uint64, np.int8])
def test_every_box_dtype_round_trips(dtype: Any) -> None:
    """Dtypes with an `array` typecode get a typed array, bool a ctypes bool array, and the
    rest (float16) raw bytes viewed with the dtype."""
    space = Box(0, 1, (2, 3), dtype, seed=7)
    memory = create_shared_memory(space, 4)
    rows = [space.sample() for _ in range(4)]
    _fill(space, memory, rows)
    batch = read_from_shared_memory(space, memory, 4)
    assert batch.dtype == space.dtype and batch.shape == (4, 2, 3)
    np.testing.assert_array_equal(batch, np.stack(rows))


def test_oneof_keeps_which_space_each_element_came_from() -> None:
    """Including sub-spaces whose batches are tuples or dicts of arrays."""
    space = OneOf(
        [Discrete(3), Box(0, 1, (2,)), Tuple([Discrete(2), Box(0, 1)]), Dict(a=Discrete(4))],
        seed=5,
    )
    memory = create_shared_memory(space, 12)
    values = [space.sample() for _ in range(12)]
    assert {int(index) for index, _ in values} == {0, 1, 2, 3}
    _fill(space, memory, values)
    for read, expected in zip(read_from_shared_memory(space, memory, 12), values, strict=True):
        assert same(read, expected)


@pytest.mark.parametrize(
    "space",
    [
        Graph(Box(0, 1, (2,)), None),
        Sequence(Discrete(3)),
        Tuple([Discrete(2), Sequence(Box(0, 1))]),
    ],
    ids=["Graph", "Sequence", "Tuple-with-Sequence"],
)
def test_spaces_of_varying_size_cannot_be_shared(space: Space[Any]) -> None:
    with pytest.raises(CustomSpaceError, match="cannot be laid out in shared memory") as info:
        create_shared_memory(space, 2)
    assert isinstance(info.value, TypeError)
    assert "shared_memory=False" in str(info.value)


class Mystery(Space[Any]):
    def sample(self, mask: Any | None = None) -> Any:
        return 0

    def contains(self, x: Any) -> bool:
        return bool(x == 0)


def _create(space: Any) -> Any:
    return create_shared_memory(space, 2)


def _read(space: Any) -> Any:
    return read_from_shared_memory(space, None, 2)


def _write(space: Any) -> Any:
    return write_to_shared_memory(space, 0, None, None)


@pytest.mark.parametrize("call", [_create, _read, _write])
def test_unknown_space_types_and_non_spaces_are_refused(call: Any) -> None:
    with pytest.raises(CustomSpaceError, match="has no rule for Mystery"):
        call(Mystery())
    with pytest.raises(TypeError, match=re.escape("needs a space, got str: 'space'")) as info:
        call("space")
    assert not isinstance(info.value, CustomSpaceError)
