"""Batches of observations in memory shared between processes, under Gymnasium's names.

- `create_shared_memory(space, n, ctx)`: room for `n` elements of `space`, as
  `multiprocessing` arrays (a tuple or dict of them for composite spaces).
- `write_to_shared_memory(space, index, value, shared_memory)`: store one element at `index`.
- `read_from_shared_memory(space, shared_memory, n)`: the batch as numpy views of that memory
  (no copy: later writes show through).

Array spaces (`Box`, `Discrete`, `MultiDiscrete`, `MultiBinary`) take one array each, `Text`
its character indices, `OneOf` an index array plus room for every sub-space. `Graph` and
`Sequence` elements vary in size, so they cannot be laid out in advance, and neither can a
space type with no registered rule: both raise `CustomSpaceError`. Each function is a
`functools.singledispatch` function, so a custom space registers its own layout.
"""

from __future__ import annotations

import multiprocessing
from array import typecodes
from collections.abc import Mapping
from ctypes import c_bool, c_uint8
from functools import singledispatch
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.error import CustomSpaceError
from protogym.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
)
from protogym.spaces.utils import flatten

__all__ = ["create_shared_memory", "read_from_shared_memory", "write_to_shared_memory"]

_ArraySpace = Box | Discrete[Any] | MultiDiscrete | MultiBinary


def _no_rule(function: str, space: object) -> Exception:
    if isinstance(space, Space):
        return CustomSpaceError(
            f"{function} has no rule for {type(space).__name__} ({space!r}), so it cannot be "
            f"shared between processes; register one with "
            f"`@protogym.vector.utils.{function}.register({type(space).__name__})`, or turn "
            "shared memory off (AsyncVectorEnv(..., shared_memory=False))"
        )
    return TypeError(f"{function} needs a space, got {type(space).__name__}: {space!r}")


def _varying(space: Space[Any]) -> CustomSpaceError:
    return CustomSpaceError(
        f"{space!r} cannot be laid out in shared memory: the size of its elements varies; "
        "turn shared memory off (AsyncVectorEnv(..., shared_memory=False))"
    )


# --- create ------------------------------------------------------------------------------


@singledispatch
def create_shared_memory(space: Space[Any], n: int = 1, ctx: Any = multiprocessing) -> Any:
    """Shared room for `n` elements of `space`, made with `ctx` (the `multiprocessing` module
    or one of its contexts, which must match the processes that will use it)."""
    raise _no_rule("create_shared_memory", space)


@create_shared_memory.register(Box)
@create_shared_memory.register(Discrete)
@create_shared_memory.register(MultiDiscrete)
@create_shared_memory.register(MultiBinary)
def _create_array(space: _ArraySpace, n: int = 1, ctx: Any = multiprocessing) -> Any:
    dtype = space.dtype
    size = n * int(np.prod(space.shape, dtype=np.int64))
    code = dtype.char
    if code == "?":
        return ctx.Array(c_bool, size)
    if code in typecodes:
        return ctx.Array(code, size)
    # No `array` typecode (float16, float128, ...): raw bytes, viewed with the dtype.
    return ctx.Array(c_uint8, size * dtype.itemsize)


@create_shared_memory.register(Tuple)
def _create_tuple(space: Tuple, n: int = 1, ctx: Any = multiprocessing) -> tuple[Any, ...]:
    return tuple(create_shared_memory(sub, n, ctx) for sub in space.spaces)


@create_shared_memory.register(Dict)
def _create_dict(space: Dict, n: int = 1, ctx: Any = multiprocessing) -> dict[str, Any]:
    return {key: create_shared_memory(sub, n, ctx) for key, sub in space.spaces.items()}


@create_shared_memory.register(Text)
def _create_text(space: Text, n: int = 1, ctx: Any = multiprocessing) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * space.max_length)


@create_shared_memory.register(OneOf)
def _create_oneof(space: OneOf, n: int = 1, ctx: Any = multiprocessing) -> tuple[Any, ...]:
    # Which sub-space each element came from, then room for an element of every sub-space.
    indices = ctx.Array(np.dtype(np.int64).char, n)
    return (indices, *(create_shared_memory(sub, n, ctx) for sub in space.spaces))


@create_shared_memory.register(Graph)
@create_shared_memory.register(Sequence)
def _create_varying(space: Graph | Sequence, n: int = 1, ctx: Any = multiprocessing) -> Any:
    raise _varying(space)


# --- read --------------------------------------------------------------------------------


def _view(shared: Any, dtype: np.dtype[Any]) -> NDArray[Any]:
    return np.frombuffer(shared.get_obj(), dtype=dtype)


@singledispatch
def read_from_shared_memory(space: Space[Any], shared_memory: Any, n: int = 1) -> Any:
    """The `n` elements in `shared_memory` as one batch of numpy views of it (no copy)."""
    raise _no_rule("read_from_shared_memory", space)


@read_from_shared_memory.register(Box)
@read_from_shared_memory.register(Discrete)
@read_from_shared_memory.register(MultiDiscrete)
@read_from_shared_memory.register(MultiBinary)
def _read_array(space: _ArraySpace, shared_memory: Any, n: int = 1) -> NDArray[Any]:
    return _view(shared_memory, space.dtype).reshape((n, *space.shape))


@read_from_shared_memory.register(Tuple)
def _read_tuple(space: Tuple, shared_memory: Any, n: int = 1) -> tuple[Any, ...]:
    return tuple(
        read_from_shared_memory(sub, memory, n)
        for sub, memory in zip(space.spaces, shared_memory, strict=True)
    )


@read_from_shared_memory.register(Dict)
def _read_dict(space: Dict, shared_memory: Any, n: int = 1) -> dict[str, Any]:
    return {
        key: read_from_shared_memory(sub, shared_memory[key], n)
        for key, sub in space.spaces.items()
    }


@read_from_shared_memory.register(Text)
def _read_text(space: Text, shared_memory: Any, n: int = 1) -> tuple[str, ...]:
    rows = _view(shared_memory, np.dtype(np.int32)).reshape((n, space.max_length))
    chars = space.character_list
    return tuple("".join(chars[index] for index in row if index < len(chars)) for row in rows)


@read_from_shared_memory.register(OneOf)
def _read_oneof(space: OneOf, shared_memory: Any, n: int = 1) -> tuple[Any, ...]:
    indices = _view(shared_memory[0], np.dtype(np.int64))
    per_space = [
        read_from_shared_memory(sub, memory, n)
        for sub, memory in zip(space.spaces, shared_memory[1:], strict=True)
    ]
    return tuple(
        (index, _element(space.spaces[index], per_space[index], row))
        for row, index in enumerate(indices)
    )


def _element(space: Space[Any], batch: Any, row: int) -> Any:
    """Element `row` of a batch read from shared memory (tuples and dicts hold one batch per
    sub-space)."""
    if isinstance(space, Tuple):
        return tuple(
            _element(sub, part, row) for sub, part in zip(space.spaces, batch, strict=True)
        )
    if isinstance(space, Dict):
        return {key: _element(sub, batch[key], row) for key, sub in space.spaces.items()}
    return batch[row]


@read_from_shared_memory.register(Graph)
@read_from_shared_memory.register(Sequence)
def _read_varying(space: Graph | Sequence, shared_memory: Any, n: int = 1) -> Any:
    raise _varying(space)


# --- write -------------------------------------------------------------------------------


@singledispatch
def write_to_shared_memory(space: Space[Any], index: int, value: Any, shared_memory: Any) -> None:
    """Store `value`, an element of `space`, as element `index` of `shared_memory`."""
    raise _no_rule("write_to_shared_memory", space)


@write_to_shared_memory.register(Box)
@write_to_shared_memory.register(Discrete)
@write_to_shared_memory.register(MultiDiscrete)
@write_to_shared_memory.register(MultiBinary)
def _write_array(space: _ArraySpace, index: int, value: Any, shared_memory: Any) -> None:
    size = int(np.prod(space.shape, dtype=np.int64))
    destination = _view(shared_memory, space.dtype)
    destination[index * size : (index + 1) * size] = np.asarray(value, dtype=space.dtype).ravel()


@write_to_shared_memory.register(Tuple)
def _write_tuple(space: Tuple, index: int, value: Any, shared_memory: Any) -> None:
    for sub, part, memory in zip(space.spaces, value, shared_memory, strict=True):
        write_to_shared_memory(sub, index, part, memory)


@write_to_shared_memory.register(Dict)
def _write_dict(space: Dict, index: int, value: Mapping[str, Any], shared_memory: Any) -> None:
    for key, sub in space.spaces.items():
        write_to_shared_memory(sub, index, value[key], shared_memory[key])


@write_to_shared_memory.register(Text)
def _write_text(space: Text, index: int, value: str, shared_memory: Any) -> None:
    size = space.max_length
    destination = _view(shared_memory, np.dtype(np.int32))
    destination[index * size : (index + 1) * size] = flatten(space, value)


@write_to_shared_memory.register(OneOf)
def _write_oneof(space: OneOf, index: int, value: Any, shared_memory: Any) -> None:
    which, element = value
    _view(shared_memory[0], np.dtype(np.int64))[index] = which
    write_to_shared_memory(space.spaces[which], index, element, shared_memory[1 + int(which)])


@write_to_shared_memory.register(Graph)
@write_to_shared_memory.register(Sequence)
def _write_varying(space: Graph | Sequence, index: int, value: Any, shared_memory: Any) -> None:
    raise _varying(space)
