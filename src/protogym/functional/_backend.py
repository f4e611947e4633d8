"""The few array operations the functional wrappers need, on numpy or on jax.

A wrapper must not branch in Python on a value that may be traced, and must work for numpy
envs too. The backend is read from the data: jax when a leaf is a jax array (tracers
included), numpy otherwise. jax is only used when something already imported it, so a
numpy env never pays for importing jax.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import numpy as np

__all__ = [
    "is_jax",
    "numpy_of",
    "select",
    "split",
    "split_rows",
    "subkeys",
    "tree_leaves",
    "tree_map",
]


def _jax() -> ModuleType | None:
    return sys.modules.get("jax")


def tree_leaves(tree: Any) -> list[Any]:
    """The leaves of a pytree (tuples, NamedTuples, lists, dicts; jax's registry if loaded)."""
    jax = _jax()
    if jax is not None:
        return list(jax.tree_util.tree_leaves(tree))
    if isinstance(tree, Mapping):
        return [leaf for key in sorted(tree) for leaf in tree_leaves(tree[key])]
    if isinstance(tree, tuple | list):
        return [leaf for item in tree for leaf in tree_leaves(item)]
    return [] if tree is None else [tree]


def tree_map(func: Callable[..., Any], tree: Any, *rest: Any) -> Any:
    """`func` of the corresponding leaves of pytrees of one structure, in that structure."""
    jax = _jax()
    if jax is not None:
        return jax.tree_util.tree_map(func, tree, *rest)
    if isinstance(tree, Mapping):
        return {key: tree_map(func, tree[key], *(r[key] for r in rest)) for key in tree}
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a NamedTuple
        return type(tree)(*(tree_map(func, *items) for items in zip(tree, *rest, strict=True)))
    if isinstance(tree, tuple | list):
        return type(tree)(tree_map(func, *items) for items in zip(tree, *rest, strict=True))
    return None if tree is None else func(tree, *rest)


def is_jax(*trees: Any) -> bool:
    """Whether any leaf is a jax array (or tracer)."""
    jax = _jax()
    if jax is None:
        return False
    return any(isinstance(leaf, jax.Array) for tree in trees for leaf in tree_leaves(tree))


def numpy_of(*trees: Any) -> Any:
    """`jax.numpy` if any leaf is a jax array, else `numpy`."""
    if is_jax(*trees):
        import jax.numpy as jnp

        return jnp
    return np


def split(key: Any, num: int) -> Any:
    """`num` independent keys from `key`.

    A jax key is split (`jax.random.split`). A `numpy.random.Generator` is a stream: every
    draw advances it, so handing the same generator to each consumer never repeats a draw,
    and it is returned `num` times. Anything else (``None`` for deterministic envs) too.
    """
    jax = _jax()
    if jax is not None and isinstance(key, jax.Array):
        return jax.random.split(key, num)
    return (key,) * num


def subkeys(key: Any, num: int) -> tuple[Any, ...]:
    """The `num` keys of ``split(key, num)``, each derived on its own, so that a compiled
    function that leaves one unused does not compute it.

    Under jax's default partitionable threefry, ``split(key, num)[i]`` is
    ``fold_in(key, i)``: one hash per key, which XLA drops when nothing reads it (it cannot
    drop a slice of one split). Under other key implementations or settings it slices the
    split. Non-jax keys are returned as `split` returns them.
    """
    jax = _jax()
    if jax is None or not isinstance(key, jax.Array):
        return tuple(split(key, num))
    if _folds_like_split(jax, key):
        return tuple(jax.random.fold_in(key, index) for index in range(num))
    keys = jax.random.split(key, num)
    return tuple(keys[index] for index in range(num))


def split_rows(key: Any, num: int, rows: Any) -> Any:
    """The keys ``split(key, num)[rows]`` of a jax key, hashing only those rows when jax's
    partitionable threefry makes each split key a `fold_in` of its index."""
    jax: Any = _jax()
    if _folds_like_split(jax, key):
        return jax.vmap(jax.random.fold_in, in_axes=(None, 0))(key, rows)
    return jax.random.split(key, num)[rows]


def _folds_like_split(jax: Any, key: Any) -> bool:
    """Whether ``split(key, n)[i]`` is ``fold_in(key, i)`` (jax's default threefry)."""
    return bool(jax.config.jax_threefry_partitionable) and (
        str(jax.random.key_impl(key)) == "threefry2x32"
    )


def select(mask: Any, on_true: Any, on_false: Any) -> Any:
    """Leafwise `on_true` where `mask`, else `on_false`, keeping `on_false`'s dtypes.

    `mask` indexes the leading axes (a flag per sub-env for batched trees) and broadcasts
    over the rest, so the shapes never depend on the data.
    """
    xp = numpy_of(mask, on_true, on_false)
    mask = xp.asarray(mask)

    def pick(chosen: Any, other: Any) -> Any:
        other = xp.asarray(other)
        extra = other.ndim - mask.ndim
        flags = mask.reshape(mask.shape + (1,) * extra) if extra > 0 else mask
        return xp.where(flags, chosen, other).astype(other.dtype)

    return tree_map(pick, on_true, on_false)
