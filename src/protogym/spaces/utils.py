"""Flattening: turning structured elements into 1-D arrays and back, with Gymnasium's layout.

- `flatdim(space)`: the length of a flattened element.
- `flatten(space, x)` / `unflatten(space, flat)`: an element to its flat array and back
  (`Discrete` and `MultiDiscrete` become one-hot vectors, `Text` character indices padded
  with ``len(charset)``, `OneOf` its index followed by the padded sub-sample).
- `flatten_space(space)`: the `Box` (or, for `Graph`/`Sequence` and composites holding them,
  the structure of flat spaces) that flattened elements live in.
- `is_space_dtype_shape_equiv(a, b)`: whether two spaces' elements share structure, shapes
  and dtypes (what a batch of them needs).

Each is a `functools.singledispatch` function, so a custom space registers its own rules.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces.box import Box
from protogym.spaces.dict import Dict
from protogym.spaces.discrete import Discrete
from protogym.spaces.graph import Graph, GraphInstance
from protogym.spaces.multi_binary import MultiBinary
from protogym.spaces.multi_discrete import MultiDiscrete
from protogym.spaces.oneof import OneOf
from protogym.spaces.sequence import Sequence
from protogym.spaces.space import Space
from protogym.spaces.text import Text
from protogym.spaces.tuple import Tuple
from protogym.spaces.vector_utils import concatenate, create_empty_array, iterate

__all__ = [
    "FlatType",
    "flatdim",
    "flatten",
    "flatten_space",
    "is_space_dtype_shape_equiv",
    "unflatten",
]

FlatType = NDArray[Any] | dict[str, Any] | tuple[Any, ...] | GraphInstance
"""What `flatten` returns: one array, or a structure of them for spaces of varying size."""


def _not_flattenable(space: Space[Any]) -> ValueError:
    return ValueError(
        f"{space!r} cannot be flattened to one array: it holds a Graph or Sequence, whose "
        "size varies; flatten it with `flatten` into a structure of arrays instead"
    )


def _unknown(function: str, space: object) -> NotImplementedError:
    return NotImplementedError(
        f"{function} has no rule for {type(space).__name__} ({space!r}); register one with "
        f"`@protogym.spaces.utils.{function}.register({type(space).__name__})`"
    )


# --- the dtype of a flattened element ----------------------------------------------------


@singledispatch
def _flat_dtype(space: Space[Any]) -> np.dtype[Any]:
    if space.dtype is None:
        raise _not_flattenable(space)
    return space.dtype


@_flat_dtype.register(Text)
def _flat_dtype_text(space: Text) -> np.dtype[Any]:
    return np.dtype(np.int32)


@_flat_dtype.register(Tuple)
def _flat_dtype_tuple(space: Tuple) -> np.dtype[Any]:
    return np.result_type(*(_flat_dtype(sub) for sub in space.spaces))


@_flat_dtype.register(Dict)
def _flat_dtype_dict(space: Dict) -> np.dtype[Any]:
    return np.result_type(*(_flat_dtype(sub) for sub in space.spaces.values()))


@_flat_dtype.register(OneOf)
def _flat_dtype_oneof(space: OneOf) -> np.dtype[Any]:
    dtype = np.result_type(*(_flat_dtype(sub) for sub in space.spaces))
    last = len(space.spaces) - 1
    # The index shares the array: widen the dtype if it cannot hold the largest index.
    if (dtype.kind == "b" and last > 1) or (dtype.kind in "iu" and last > np.iinfo(dtype).max):
        dtype = np.result_type(dtype, np.min_scalar_type(last))
    return dtype


# --- flatdim -----------------------------------------------------------------------------


@singledispatch
def flatdim(space: Space[Any]) -> int:
    """The number of entries in a flattened element of `space`."""
    if not space.is_np_flattenable:
        raise _not_flattenable(space)
    raise _unknown("flatdim", space)


@flatdim.register(Box)
@flatdim.register(MultiBinary)
def _flatdim_array(space: Box | MultiBinary) -> int:
    return int(np.prod(space.shape, dtype=np.int64))


@flatdim.register(Discrete)
def _flatdim_discrete(space: Discrete) -> int:
    return int(space.n)


@flatdim.register(MultiDiscrete)
def _flatdim_multi_discrete(space: MultiDiscrete) -> int:
    return int(space.nvec.sum())


@flatdim.register(Tuple)
def _flatdim_tuple(space: Tuple) -> int:
    if not space.is_np_flattenable:
        raise _not_flattenable(space)
    return sum(flatdim(sub) for sub in space.spaces)


@flatdim.register(Dict)
def _flatdim_dict(space: Dict) -> int:
    if not space.is_np_flattenable:
        raise _not_flattenable(space)
    return sum(flatdim(sub) for sub in space.spaces.values())


@flatdim.register(Graph)
@flatdim.register(Sequence)
def _flatdim_variable(space: Graph | Sequence) -> int:
    raise _not_flattenable(space)


@flatdim.register(Text)
def _flatdim_text(space: Text) -> int:
    return space.max_length


@flatdim.register(OneOf)
def _flatdim_oneof(space: OneOf) -> int:
    if not space.is_np_flattenable:
        raise _not_flattenable(space)
    return 1 + max(flatdim(sub) for sub in space.spaces)


# --- flatten -----------------------------------------------------------------------------


@singledispatch
def flatten(space: Space[Any], x: Any) -> Any:
    """`x` (an element of `space`) as a 1-D array, or a structure of them for spaces that
    cannot be one array (`Graph`, `Sequence`, and composites holding them)."""
    raise _unknown("flatten", space)


@flatten.register(Box)
@flatten.register(MultiBinary)
def _flatten_array(space: Box | MultiBinary, x: Any) -> NDArray[Any]:
    return np.asarray(x, dtype=space.dtype).flatten()


@flatten.register(Discrete)
def _flatten_discrete(space: Discrete[Any], x: Any) -> NDArray[Any]:
    onehot = np.zeros(int(space.n), dtype=space.dtype)
    onehot[int(x) - int(space.start)] = 1
    return onehot


def _offsets(space: MultiDiscrete) -> NDArray[np.int64]:
    offsets = np.zeros(space.nvec.size + 1, dtype=np.int64)
    np.cumsum(space.nvec.ravel(), out=offsets[1:])
    return offsets


@flatten.register(MultiDiscrete)
def _flatten_multi_discrete(space: MultiDiscrete, x: Any) -> NDArray[Any]:
    offsets = _offsets(space)
    onehot = np.zeros(int(offsets[-1]), dtype=space.dtype)
    onehot[offsets[:-1] + (np.asarray(x) - space.start).ravel()] = 1
    return onehot


@flatten.register(Tuple)
def _flatten_tuple(space: Tuple, x: Any) -> NDArray[Any] | tuple[Any, ...]:
    parts = [flatten(sub, part) for sub, part in zip(space.spaces, x, strict=True)]
    if space.is_np_flattenable:
        return np.concatenate([np.asarray(part) for part in parts]).astype(
            _flat_dtype(space), copy=False
        )
    return tuple(parts)


@flatten.register(Dict)
def _flatten_dict(space: Dict, x: Any) -> NDArray[Any] | dict[str, Any]:
    parts = {key: flatten(sub, x[key]) for key, sub in space.spaces.items()}
    if space.is_np_flattenable:
        return np.concatenate([np.asarray(part) for part in parts.values()]).astype(
            _flat_dtype(space), copy=False
        )
    return parts


def _flatten_rows(space: Space[Any], batch: Space[Any], rows: Any) -> Any:
    """Flatten every feature of a batch of node or edge features into one batch of flat ones."""
    flat_space = flatten_space(space)
    flat_rows = [flatten(space, row) for row in iterate(batch, rows)]
    return concatenate(flat_space, flat_rows, create_empty_array(flat_space, len(flat_rows)))


@flatten.register(Graph)
def _flatten_graph(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _flatten_rows(space.node_space, space.batch_node_space, x.nodes)
    edges = None
    if x.edges is not None:
        if space.edge_space is None or space.batch_edge_space is None:
            raise ValueError(f"{space!r} has no edge space, but the graph has edges")
        edges = _flatten_rows(space.edge_space, space.batch_edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


@flatten.register(Text)
def _flatten_text(space: Text, x: str) -> NDArray[np.int32]:
    out = np.full(space.max_length, len(space.character_list), dtype=np.int32)
    for position, char in enumerate(x):
        out[position] = space.character_index(char)
    return out


@flatten.register(Sequence)
def _flatten_sequence(space: Sequence, x: Any) -> Any:
    feature = space.feature_space
    if not space.stack:
        return tuple(flatten(feature, item) for item in x)
    flat_space = flatten_space(feature)
    flat_items = [flatten(feature, item) for item in iterate(space.stacked_feature_space, x)]
    return concatenate(flat_space, flat_items, create_empty_array(flat_space, len(flat_items)))


@flatten.register(OneOf)
def _flatten_oneof(space: OneOf, x: tuple[Any, Any]) -> NDArray[Any] | tuple[np.int64, Any]:
    index, value = x
    sub = space.spaces[int(index)]
    if not space.is_np_flattenable:
        return np.int64(index), flatten(sub, value)
    flat = np.asarray(flatten(sub, value))
    width = flatdim(space) - 1
    if flat.size < width:
        # Pad with the sample's own first value (as Gymnasium does), or with the flat
        # space's lower bound when the sample is empty.
        fill = flat[0] if flat.size else _oneof_value_bounds(space)[0]
        flat = np.concatenate([flat, np.full(width - flat.size, fill, dtype=flat.dtype)])
    dtype = _flat_dtype(space)
    return np.concatenate([np.array([index], dtype=dtype), flat.astype(dtype, copy=False)])


def _oneof_value_bounds(space: OneOf) -> tuple[Any, Any]:
    """The lowest low and highest high over the sub-spaces' flat boxes (0, 0 if all empty)."""
    flats = [_flatten_space_feature(sub) for sub in space.spaces]
    lows = [flat.low.min() for flat in flats if flat.low.size]
    highs = [flat.high.max() for flat in flats if flat.high.size]
    return (min(lows), max(highs)) if lows else (0, 0)


# --- unflatten ---------------------------------------------------------------------------


@singledispatch
def unflatten(space: Space[Any], x: Any) -> Any:
    """The element of `space` whose flattened form is `x` (the inverse of `flatten`)."""
    raise _unknown("unflatten", space)


@unflatten.register(Box)
@unflatten.register(MultiBinary)
def _unflatten_array(space: Box | MultiBinary, x: Any) -> NDArray[Any]:
    return np.asarray(x, dtype=space.dtype).reshape(space.shape)


@unflatten.register(Discrete)
def _unflatten_discrete(space: Discrete[Any], x: Any) -> np.integer[Any]:
    (hot,) = np.nonzero(np.asarray(x))
    if hot.size == 0:
        raise ValueError(f"unflatten of {space!r} needs a one-hot vector, got {x!r} (no 1)")
    return space.start + space.dtype.type(hot[0])  # type: ignore[no-any-return]


@unflatten.register(MultiDiscrete)
def _unflatten_multi_discrete(space: MultiDiscrete, x: Any) -> NDArray[Any]:
    (hot,) = np.nonzero(np.asarray(x))
    if hot.size != space.nvec.size:
        raise ValueError(
            f"unflatten of {space!r} needs one 1 per entry ({space.nvec.size}), got {x!r}"
        )
    values = (hot - _offsets(space)[:-1]).astype(space.dtype).reshape(space.shape)
    result: NDArray[Any] = values + space.start
    return result


def _split(space: Space[Any], subs: list[Space[Any]], x: Any) -> list[NDArray[Any]]:
    arr = np.asarray(x)
    dims = [flatdim(sub) for sub in subs]
    if arr.shape != (sum(dims),):
        raise ValueError(
            f"unflatten of {space!r} needs a 1-D array of {sum(dims)} entries, got shape "
            f"{arr.shape}"
        )
    return np.split(arr, np.cumsum(dims[:-1]))


@unflatten.register(Tuple)
def _unflatten_tuple(space: Tuple, x: Any) -> tuple[Any, ...]:
    subs = list(space.spaces)
    if space.is_np_flattenable:
        parts = _split(space, subs, x)
        return tuple(
            unflatten(sub, part.astype(_flat_dtype(sub), copy=False))
            for sub, part in zip(subs, parts, strict=True)
        )
    return tuple(unflatten(sub, part) for sub, part in zip(subs, x, strict=True))


@unflatten.register(Dict)
def _unflatten_dict(space: Dict, x: Any) -> dict[str, Any]:
    if space.is_np_flattenable:
        parts = _split(space, list(space.spaces.values()), x)
        return {
            key: unflatten(sub, part.astype(_flat_dtype(sub), copy=False))
            for (key, sub), part in zip(space.spaces.items(), parts, strict=True)
        }
    return {key: unflatten(sub, x[key]) for key, sub in space.spaces.items()}


def _unflatten_rows(space: Space[Any], rows: Any) -> Any:
    items = [unflatten(space, row) for row in iterate(flatten_space(space), rows)]
    return concatenate(space, items, create_empty_array(space, len(items)))


@unflatten.register(Graph)
def _unflatten_graph(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _unflatten_rows(space.node_space, x.nodes)
    edges = None
    if x.edges is not None:
        if space.edge_space is None:
            raise ValueError(f"{space!r} has no edge space, but the graph has edges")
        edges = _unflatten_rows(space.edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


@unflatten.register(Text)
def _unflatten_text(space: Text, x: Any) -> str:
    chars = space.character_list
    return "".join(chars[int(i)] for i in np.asarray(x) if i < len(chars))


@unflatten.register(Sequence)
def _unflatten_sequence(space: Sequence, x: Any) -> Any:
    feature = space.feature_space
    if not space.stack:
        return tuple(unflatten(feature, item) for item in x)
    items = [unflatten(feature, item) for item in iterate(flatten_space(feature), x)]
    return concatenate(feature, items, create_empty_array(feature, len(items)))


@unflatten.register(OneOf)
def _unflatten_oneof(space: OneOf, x: Any) -> tuple[np.int64, Any]:
    if not space.is_np_flattenable:
        index, flat = x
        return np.int64(index), unflatten(space.spaces[int(index)], flat)
    arr = np.asarray(x)
    index = np.int64(arr[0])
    sub = space.spaces[int(index)]
    part = arr[1 : 1 + flatdim(sub)].astype(_flat_dtype(sub))
    return index, unflatten(sub, part)


# --- flatten_space -----------------------------------------------------------------------


@singledispatch
def flatten_space(space: Space[Any]) -> Space[Any]:
    """The space of flattened elements of `space`: a 1-D `Box` whenever one array can hold
    them (bounds and unbounded sides carried over), else the matching structure."""
    raise _unknown("flatten_space", space)


@flatten_space.register(Box)
def _flatten_space_box(space: Box) -> Box:
    return Box(space.low.ravel(), space.high.ravel(), dtype=space.dtype)


@flatten_space.register(Discrete)
@flatten_space.register(MultiBinary)
@flatten_space.register(MultiDiscrete)
def _flatten_space_onehot(space: Discrete | MultiBinary | MultiDiscrete) -> Box:
    return Box(0, 1, (flatdim(space),), dtype=space.dtype)


def _join_boxes(boxes: list[Box]) -> Box:
    """One flat box from flat boxes, in the dtype all their values fit (Gymnasium's rule)."""
    return Box(
        np.concatenate([box.low for box in boxes]),
        np.concatenate([box.high for box in boxes]),
        dtype=np.result_type(*(box.dtype for box in boxes)),
    )


@flatten_space.register(Tuple)
def _flatten_space_tuple(space: Tuple) -> Box | Tuple:
    if space.is_np_flattenable:
        boxes = [_flatten_space_feature(sub) for sub in space.spaces]
        return _join_boxes(boxes)
    return Tuple([flatten_space(sub) for sub in space.spaces])


@flatten_space.register(Dict)
def _flatten_space_dict(space: Dict) -> Box | Dict:
    if space.is_np_flattenable:
        boxes = [_flatten_space_feature(sub) for sub in space.spaces.values()]
        return _join_boxes(boxes)
    return Dict(
        [(key, flatten_space(sub)) for key, sub in space.spaces.items()],
        sort_keys=space.sort_keys,
    )


@flatten_space.register(Graph)
def _flatten_space_graph(space: Graph) -> Graph:
    edge = space.edge_space
    return Graph(flatten_space(space.node_space), None if edge is None else flatten_space(edge))


def _flatten_space_feature(space: Space[Any]) -> Box:
    flat = flatten_space(space)
    assert isinstance(flat, Box)
    return flat


@flatten_space.register(Text)
def _flatten_space_text(space: Text) -> Box:
    return Box(0, len(space.character_list), (space.max_length,), dtype=np.int32)


@flatten_space.register(Sequence)
def _flatten_space_sequence(space: Sequence) -> Sequence:
    return Sequence(flatten_space(space.feature_space), stack=space.stack)


@flatten_space.register(OneOf)
def _flatten_space_oneof(space: OneOf) -> Box | OneOf:
    if not space.is_np_flattenable:
        return OneOf([flatten_space(sub) for sub in space.spaces])
    width = flatdim(space)
    low, high = _oneof_value_bounds(space)
    lows = np.concatenate([[0], np.full(width - 1, low)])
    highs = np.concatenate([[len(space.spaces) - 1], np.full(width - 1, high)])
    return Box(lows, highs, (width,), dtype=_flat_dtype(space))


# --- is_space_dtype_shape_equiv ----------------------------------------------------------


@singledispatch
def is_space_dtype_shape_equiv(space_1: Space[Any], space_2: Space[Any]) -> bool:
    """Whether elements of the two spaces have the same structure, shapes and dtypes, so
    they can share one batch (bounds and sizes may differ); vector envs check sub-envs'
    spaces with it."""
    if isinstance(space_1, Space) and isinstance(space_2, Space):
        raise _unknown("is_space_dtype_shape_equiv", space_1)
    raise TypeError(
        "is_space_dtype_shape_equiv compares two spaces, got "
        f"{type(space_1).__name__} and {type(space_2).__name__}: {space_1!r}, {space_2!r}"
    )


@is_space_dtype_shape_equiv.register(Box)
@is_space_dtype_shape_equiv.register(Discrete)
@is_space_dtype_shape_equiv.register(MultiDiscrete)
@is_space_dtype_shape_equiv.register(MultiBinary)
def _equiv_array(space_1: Space[Any], space_2: Space[Any]) -> bool:
    return (
        type(space_1) is type(space_2)
        and space_1.shape == space_2.shape
        and space_1.dtype == space_2.dtype
    )


@is_space_dtype_shape_equiv.register(Text)
def _equiv_text(space_1: Text, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Text)
        and space_1.max_length == space_2.max_length
        and space_1.character_set == space_2.character_set
    )


@is_space_dtype_shape_equiv.register(Dict)
def _equiv_dict(space_1: Dict, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Dict)
        and space_1.keys() == space_2.keys()
        and all(is_space_dtype_shape_equiv(space_1[key], space_2[key]) for key in space_1)
    )


@is_space_dtype_shape_equiv.register(Tuple)
@is_space_dtype_shape_equiv.register(OneOf)
def _equiv_sequence_of_spaces(space_1: Tuple | OneOf, space_2: Space[Any]) -> bool:
    return (
        type(space_2) is type(space_1)
        and len(space_1.spaces) == len(space_2.spaces)
        and all(
            is_space_dtype_shape_equiv(sub_1, sub_2)
            for sub_1, sub_2 in zip(space_1.spaces, space_2.spaces, strict=True)
        )
    )


@is_space_dtype_shape_equiv.register(Graph)
def _equiv_graph(space_1: Graph, space_2: Space[Any]) -> bool:
    if not isinstance(space_2, Graph):
        return False
    edge_1, edge_2 = space_1.edge_space, space_2.edge_space
    if edge_1 is None or edge_2 is None:
        edges_match = edge_1 is None and edge_2 is None
    else:
        edges_match = is_space_dtype_shape_equiv(edge_1, edge_2)
    return edges_match and is_space_dtype_shape_equiv(space_1.node_space, space_2.node_space)


@is_space_dtype_shape_equiv.register(Sequence)
def _equiv_sequence(space_1: Sequence, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Sequence)
        and space_1.stack == space_2.stack
        and is_space_dtype_shape_equiv(space_1.feature_space, space_2.feature_space)
    )
