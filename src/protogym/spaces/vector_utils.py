"""Batching helpers for vector environments, with Gymnasium 1.x semantics.

- `batch_space(space, n)`: the space of `n` stacked elements (`Discrete` -> `MultiDiscrete`,
  `Box` -> a `Box` with a leading axis, `Tuple`/`Dict` batched per child; spaces with no
  array form, like `Text`, `Graph` or a custom space, become a `Tuple` of `n` independently
  seeded copies).
- `batch_differing_spaces(spaces)`: one batched space for spaces of one type whose
  parameters differ.
- `iterate(space, items)`: the elements of a batch, one by one.
- `concatenate(space, items, out)`: write a sequence of elements into the batch `out`.
- `create_empty_array(space, n, fn)`: a batch buffer for `n` elements.

Each is a `functools.singledispatch` function, so a custom space registers its own rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from copy import deepcopy
from functools import singledispatch
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.error import CustomSpaceError
from protogym.spaces.box import Box
from protogym.spaces.dict import Dict
from protogym.spaces.discrete import Discrete
from protogym.spaces.graph import Graph, GraphInstance
from protogym.spaces.multi_binary import MultiBinary
from protogym.spaces.multi_discrete import MultiDiscrete
from protogym.spaces.oneof import OneOf
from protogym.spaces.sequence import Sequence as SequenceSpace
from protogym.spaces.space import Space
from protogym.spaces.text import Text
from protogym.spaces.tuple import Tuple

__all__ = [
    "batch_differing_spaces",
    "batch_space",
    "concatenate",
    "create_empty_array",
    "iterate",
]


def _check_space(function: str, space: object) -> None:
    if not isinstance(space, Space):
        raise TypeError(f"{function} needs a space, got {type(space).__name__}: {space!r}")


def _check_n(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise ValueError(f"batch_space n must be a positive int, got n={n!r}")
    return int(n)


@singledispatch
def batch_space(space: Space[Any], n: int = 1) -> Space[Any]:
    """The space of `n` elements of `space` stacked along a new first axis."""
    _check_space("batch_space", space)
    n = _check_n(n)
    # Spaces with no array form: `n` independent copies, each reseeded from a copy of
    # the original's generator, so the batch and the original sample independently.
    batched = Tuple([deepcopy(space) for _ in range(n)], seed=deepcopy(space.np_random))
    seeds = deepcopy(space.np_random).integers(0, int(1e8), n)
    batched.seed([int(s) for s in seeds])
    return batched


def _tile(arr: NDArray[Any], n: int) -> NDArray[Any]:
    return np.tile(arr, (n,) + (1,) * arr.ndim)


@batch_space.register(Box)
def _batch_box(space: Box, n: int = 1) -> Box:
    n = _check_n(n)
    low, high = _tile(space.low, n), _tile(space.high, n)
    if space.dtype.kind == "f":
        below, above = _tile(space.bounded_below, n), _tile(space.bounded_above, n)
    else:
        # As Gymnasium's batch (a Box built from the bounds): an integer box's open sides,
        # stored as the dtype's limits, become bounded ones, and sample like them.
        below = above = np.ones(low.shape, dtype=np.bool_)
    return Box._assemble(low, high, below, above, seed=deepcopy(space.np_random))


@batch_space.register(Discrete)
def _batch_discrete(space: Discrete, n: int = 1) -> MultiDiscrete:
    n = _check_n(n)
    return MultiDiscrete(
        np.full((n,), space.n, dtype=space.dtype),
        dtype=space.dtype,
        seed=deepcopy(space.np_random),
        start=np.full((n,), space.start, dtype=space.dtype),
    )


@batch_space.register(MultiDiscrete)
def _batch_multi_discrete(space: MultiDiscrete, n: int = 1) -> Box:
    n = _check_n(n)
    low = _tile(space.start, n)
    return Box(
        low, low + _tile(space.nvec, n) - 1, dtype=space.dtype, seed=deepcopy(space.np_random)
    )


@batch_space.register(MultiBinary)
def _batch_multi_binary(space: MultiBinary, n: int = 1) -> Box:
    n = _check_n(n)
    return Box(0, 1, (n, *space.shape), dtype=space.dtype, seed=deepcopy(space.np_random))


@batch_space.register(Tuple)
def _batch_tuple(space: Tuple, n: int = 1) -> Tuple:
    n = _check_n(n)
    return Tuple([batch_space(sub, n) for sub in space.spaces], seed=deepcopy(space.np_random))


@batch_space.register(Dict)
def _batch_dict(space: Dict, n: int = 1) -> Dict:
    n = _check_n(n)
    return Dict(
        [(key, batch_space(sub, n)) for key, sub in space.spaces.items()],
        seed=deepcopy(space.np_random),
        sort_keys=space.sort_keys,
    )


@singledispatch
def batch_differing_spaces(spaces: Any) -> Space[Any]:
    """One batched space for several spaces of one type whose parameters differ
    (e.g. `Discrete(2)` and `Discrete(3)` give `MultiDiscrete([2, 3])`).

    The rule is chosen by the first space's type; register one for a custom space type with
    ``@batch_differing_spaces.register(MySpace)`` (the function then gets the whole list).
    """
    if len(spaces) == 0:
        raise ValueError("batch_differing_spaces needs at least one space, got none")
    first = type(spaces[0])
    if not all(isinstance(space, first) for space in spaces):
        raise TypeError(
            "batch_differing_spaces needs spaces of one type, got "
            f"{[type(space).__name__ for space in spaces]}"
        )
    rule = batch_differing_spaces.dispatch(first)
    if rule is _DIFFERING_DEFAULT:
        raise TypeError(
            f"batch_differing_spaces has no rule for {first.__name__}; register one with "
            f"`@batch_differing_spaces.register({first.__name__})`"
        )
    return rule(spaces)


_DIFFERING_DEFAULT = batch_differing_spaces.dispatch(object)


def _same(what: str, spaces: Sequence[Any], values: list[Any]) -> None:
    if any(value != values[0] for value in values):
        raise ValueError(
            f"batch_differing_spaces needs {type(spaces[0]).__name__} spaces of one {what}, got "
            f"{[str(value) for value in values]}"
        )


@batch_differing_spaces.register(Box)
def _differing_box(spaces: Sequence[Box]) -> Space[Any]:
    _same("dtype", spaces, [box.dtype for box in spaces])
    _same("shape", spaces, [box.shape for box in spaces])
    return Box(
        np.stack([box.low for box in spaces]),
        np.stack([box.high for box in spaces]),
        dtype=spaces[0].dtype,
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(Discrete)
def _differing_discrete(spaces: Sequence[Discrete[Any]]) -> Space[Any]:
    widest = max((space.dtype for space in spaces), key=lambda dtype: dtype.itemsize)
    return MultiDiscrete(
        np.array([space.n for space in spaces]),
        dtype=widest,
        start=np.array([space.start for space in spaces]),
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(MultiDiscrete)
def _differing_multi_discrete(spaces: Sequence[MultiDiscrete]) -> Space[Any]:
    _same("dtype", spaces, [space.dtype for space in spaces])
    _same("shape", spaces, [space.shape for space in spaces])
    return Box(
        np.stack([space.start for space in spaces]),
        np.stack([space.start + space.nvec for space in spaces]) - 1,
        dtype=spaces[0].dtype,
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(MultiBinary)
def _differing_multi_binary(spaces: Sequence[MultiBinary]) -> Space[Any]:
    _same("shape", spaces, [space.shape for space in spaces])
    shape = (len(spaces), *spaces[0].shape)
    return Box(0, 1, shape, dtype=spaces[0].dtype, seed=deepcopy(spaces[0].np_random))


@batch_differing_spaces.register(Tuple)
def _differing_tuple(spaces: Sequence[Tuple]) -> Space[Any]:
    _same("length", spaces, [len(space.spaces) for space in spaces])
    columns = zip(*[space.spaces for space in spaces], strict=True)
    return Tuple(
        [batch_differing_spaces(list(column)) for column in columns],
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(Dict)
def _differing_dict(spaces: Sequence[Dict]) -> Space[Any]:
    _same("key set", spaces, [list(space.keys()) for space in spaces])
    return Dict(
        [(key, batch_differing_spaces([space[key] for space in spaces])) for key in spaces[0]],
        seed=deepcopy(spaces[0].np_random),
        sort_keys=spaces[0].sort_keys,
    )


@batch_differing_spaces.register(Graph)
@batch_differing_spaces.register(Text)
@batch_differing_spaces.register(SequenceSpace)
@batch_differing_spaces.register(OneOf)
def _differing_as_copies(spaces: Sequence[Space[Any]]) -> Space[Any]:
    # No array form: the batch is a Tuple of the spaces themselves.
    return Tuple([deepcopy(space) for space in spaces], seed=deepcopy(spaces[0].np_random))


@singledispatch
def iterate(space: Space[Any], items: Any) -> Iterator[Any]:
    """The elements of the batch `items` of the batched space `space`, in order."""
    if isinstance(space, Space):
        raise CustomSpaceError(
            f"iterate has no rule for {type(space).__name__} ({space!r}); register one with "
            f"`@protogym.vector.utils.iterate.register({type(space).__name__})`"
        )
    raise TypeError(f"iterate needs a space, got {type(space).__name__}: {space!r}")


_ITERATE_DEFAULT = iterate.dispatch(object)


@iterate.register(Discrete)
def _iterate_discrete(space: Discrete[Any], items: Any) -> Iterator[Any]:
    raise TypeError(
        f"iterate cannot walk {space!r}: a Discrete space is not a batch (its batch is "
        "a MultiDiscrete)"
    )


@iterate.register(Box)
@iterate.register(MultiDiscrete)
@iterate.register(MultiBinary)
def _iterate_array(space: Box | MultiDiscrete | MultiBinary, items: Any) -> Iterator[Any]:
    try:
        return iter(items)
    except TypeError:
        raise TypeError(f"iterate cannot walk {items!r}, a batch of {space!r}") from None


@iterate.register(Tuple)
def _iterate_tuple(space: Tuple, items: Any) -> Iterator[Any]:
    subs = space.spaces
    if all(iterate.dispatch(type(sub)) is not _ITERATE_DEFAULT for sub in subs):
        return zip(*[iterate(sub, items[i]) for i, sub in enumerate(subs)], strict=True)
    # A Tuple of per-env copies (how spaces without an array form batch): items is already
    # the sequence of elements.
    try:
        return iter(items)
    except TypeError as error:
        unknown = [
            type(sub).__name__ for sub in subs if iterate.dispatch(type(sub)) is _ITERATE_DEFAULT
        ]
        raise CustomSpaceError(
            f"iterate cannot walk {items!r}, a batch of {space!r}: it is not iterable, and "
            f"{unknown} have no `iterate` rule to split it with; register one"
        ) from error


@iterate.register(Dict)
def _iterate_dict(space: Dict, items: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    keys = list(space.spaces)
    columns = [iterate(space.spaces[key], items[key]) for key in keys]
    for row in zip(*columns, strict=True):
        yield dict(zip(keys, row, strict=True))


@singledispatch
def concatenate(space: Space[Any], items: Iterable[Any], out: Any) -> Any:
    """Write the elements `items` of `space` into the batch `out` and return the batch.

    Array spaces fill `out` in place; spaces with no array form return a tuple of `items`.
    """
    _check_space("concatenate", space)
    return tuple(items)


@concatenate.register(Box)
@concatenate.register(Discrete)
@concatenate.register(MultiDiscrete)
@concatenate.register(MultiBinary)
def _concatenate_array(
    space: Box | Discrete | MultiDiscrete | MultiBinary, items: Iterable[Any], out: NDArray[Any]
) -> NDArray[Any]:
    # Row assignment beats `np.stack` for the small batches vector envs use, and never
    # allocates.
    for index, item in enumerate(items):
        out[index] = item
    return out


@concatenate.register(Tuple)
def _concatenate_tuple(space: Tuple, items: Iterable[Any], out: tuple[Any, ...]) -> tuple[Any, ...]:
    rows = items if isinstance(items, list | tuple) else list(items)
    return tuple(
        concatenate(sub, [row[i] for row in rows], out[i]) for i, sub in enumerate(space.spaces)
    )


@concatenate.register(Dict)
def _concatenate_dict(space: Dict, items: Iterable[Any], out: Mapping[str, Any]) -> dict[str, Any]:
    rows = items if isinstance(items, list | tuple) else list(items)
    return {
        key: concatenate(sub, [row[key] for row in rows], out[key])
        for key, sub in space.spaces.items()
    }


ArrayFactory = Callable[..., NDArray[Any]]
"""How `create_empty_array` allocates: `np.zeros`, `np.empty`, `np.ones`, ... ."""


@singledispatch
def create_empty_array(space: Space[Any], n: int = 1, fn: ArrayFactory = np.zeros) -> Any:
    """A buffer for a batch of `n` elements of `space`, allocated with `fn`.

    Array spaces give arrays of shape ``(n, *space.shape)`` (not necessarily members of
    the space: zeros may be out of bounds); `Tuple`/`Dict` give one buffer per child; a
    space without an array form has no buffer (None).
    """
    _check_space("create_empty_array", space)
    return None


@create_empty_array.register(Box)
@create_empty_array.register(Discrete)
@create_empty_array.register(MultiDiscrete)
@create_empty_array.register(MultiBinary)
def _empty_array(
    space: Box | Discrete | MultiDiscrete | MultiBinary, n: int = 1, fn: ArrayFactory = np.zeros
) -> NDArray[Any]:
    return fn((n, *space.shape), dtype=space.dtype)


@create_empty_array.register(Tuple)
def _empty_tuple(space: Tuple, n: int = 1, fn: ArrayFactory = np.zeros) -> tuple[Any, ...]:
    return tuple(create_empty_array(sub, n, fn) for sub in space.spaces)


@create_empty_array.register(Dict)
def _empty_dict(space: Dict, n: int = 1, fn: ArrayFactory = np.zeros) -> dict[str, Any]:
    return {key: create_empty_array(sub, n, fn) for key, sub in space.spaces.items()}


@create_empty_array.register(Graph)
def _empty_graph(
    space: Graph, n: int = 1, fn: ArrayFactory = np.zeros
) -> tuple[GraphInstance, ...]:
    has_edges = space.edge_space is not None
    return tuple(
        GraphInstance(
            create_empty_array(space.node_space, 1, fn),
            create_empty_array(space.edge_space, 1, fn) if space.edge_space is not None else None,
            fn((1, 2), dtype=np.int64) if has_edges else None,
        )
        for _ in range(n)
    )


@create_empty_array.register(Text)
def _empty_text(space: Text, n: int = 1, fn: ArrayFactory = np.zeros) -> tuple[str, ...]:
    return tuple(space.characters[0] * space.min_length for _ in range(n))


@create_empty_array.register(SequenceSpace)
def _empty_sequence(
    space: SequenceSpace, n: int = 1, fn: ArrayFactory = np.zeros
) -> tuple[Any, ...]:
    if space.stack:
        return tuple(create_empty_array(space.feature_space, 1, fn) for _ in range(n))
    return tuple(() for _ in range(n))


@create_empty_array.register(OneOf)
def _empty_oneof(space: OneOf, n: int = 1, fn: ArrayFactory = np.zeros) -> tuple[Any, ...]:
    return tuple(() for _ in range(n))
