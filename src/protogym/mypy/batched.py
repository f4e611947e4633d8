"""The batched type of a vector env built from copies of one env (`make_vec`, sync/async).

It follows how the vector envs batch spaces: arrays and numpy scalars become arrays of the
same dtype (Python ints, floats and bools become int64, float64 and bool arrays), jax arrays
become numpy arrays, tuples and dicts are batched item by item, and anything else (text,
graphs, sequences) becomes a tuple with one item per sub-env.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import SymbolTableNode, TypeAlias, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.subtypes import is_subtype
from mypy.typeops import make_simplified_union
from mypy.types import (
    AnyType,
    Instance,
    TupleType,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

Lookup = Callable[[str], SymbolTableNode | None]

_JAX_ARRAY = "jax._src.basearray.Array"  # what `jax.Array` names

_SCALAR_OF_BUILTIN = {
    "builtins.bool": "numpy.bool_",
    "builtins.int": "numpy.int64",
    "builtins.float": "numpy.float64",
}


class Batcher:
    """Maps a single env's ObsType/ActType to the vector env's, with numpy's types."""

    def __init__(self, api: CheckerPluginInterface, lookup: Lookup) -> None:
        self._api = api
        self._lookup = lookup
        self._any = AnyType(TypeOfAny.special_form)

    def batched(self, typ: Type) -> Type:
        proper = get_proper_type(typ)
        if isinstance(proper, AnyType):
            return proper
        if isinstance(proper, UnionType):
            batched = [self.batched(item) for item in proper.items]
            scalars = [_array_scalar(item) for item in batched]
            if all(scalar is not None for scalar in scalars):
                # `int | np.integer[Any]` -> one array of `np.integer[Any]`, not a union of
                # array types that an agent's `np.array([0, 1])` would have to pick from.
                return self._array_of(_absorbed_union([s for s in scalars if s is not None]))
            return make_simplified_union(batched)
        if isinstance(proper, TupleType):
            return proper.copy_modified(items=[self.batched(item) for item in proper.items])
        if not isinstance(proper, Instance):
            return self._tuple_of(typ)
        fullname = proper.type.fullname
        if fullname == "numpy.ndarray":
            return proper
        if fullname == _JAX_ARRAY:  # copied into one numpy array, of a dtype jax's type omits
            return self._array_of(self._any)
        if proper.type.has_base("numpy.generic"):
            return self._array_of(proper)
        scalar = _SCALAR_OF_BUILTIN.get(fullname)
        if scalar is not None:
            numpy_scalar = self._numpy_type(scalar)
            return self._array_of(numpy_scalar) if numpy_scalar is not None else self._any
        if fullname == "builtins.tuple" and proper.args:
            return proper.copy_modified(args=[self.batched(proper.args[0])])
        if fullname == "builtins.dict" and len(proper.args) == 2:
            return proper.copy_modified(args=[proper.args[0], self.batched(proper.args[1])])
        return self._tuple_of(proper)

    def _array_of(self, scalar: Type) -> Type:
        shape = self._api.named_generic_type("builtins.tuple", [self._any])
        dtype = self._api.named_generic_type("numpy.dtype", [scalar])
        return self._api.named_generic_type("numpy.ndarray", [shape, dtype])

    def _tuple_of(self, item: Type) -> Type:
        return self._api.named_generic_type("builtins.tuple", [item])

    def _numpy_type(self, fullname: str) -> Type | None:
        symbol = self._lookup(fullname)
        node = symbol.node if symbol is not None else None
        if isinstance(node, TypeAlias) and not node.alias_tvars:
            return node.target
        if isinstance(node, TypeInfo):
            return Instance(node, [self._any] * len(node.defn.type_vars))
        return None


def _array_scalar(typ: Type) -> Type | None:
    """The element type of `numpy.ndarray[shape, numpy.dtype[T]]`, else None."""
    proper = get_proper_type(typ)
    if not (isinstance(proper, Instance) and proper.type.fullname == "numpy.ndarray"):
        return None
    if len(proper.args) != 2:
        return None
    dtype = get_proper_type(proper.args[1])
    if isinstance(dtype, Instance) and dtype.type.fullname == "numpy.dtype" and dtype.args:
        return dtype.args[0]
    return None


def _absorbed_union(items: list[Type]) -> Type:
    """The union of `items` without those that another item already covers.

    `make_simplified_union` keeps `np.int64 | np.integer[Any]`, because `Any` type arguments
    stop it from proving the first a proper subtype of the second.
    """
    kept: list[Type] = []
    for index, item in enumerate(items):
        covered = any(
            is_subtype(item, other) and (not is_subtype(other, item) or other_index < index)
            for other_index, other in enumerate(items)
            if other_index != index
        )
        if not covered:
            kept.append(item)
    return make_simplified_union(kept)
