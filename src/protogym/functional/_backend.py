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
    "any_true",
    "is_jax",
    "numpy_of",
    "select",
    "split",
    "tree_leaves",
    "tree_map",
    "when",
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


def any_true(flags: Any) -> Any:
    """Whether any flag is set (a scalar flag is returned as is)."""
    return numpy_of(flags).any(flags)


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


def when(pred: Any, func: Callable[..., Any], *args: Any) -> Any:
    """`func(*args)` if `pred`, else something that `select` may safely ignore.

    On jax it is `lax.cond`: the false branch returns zeros shaped like `func`'s output, so
    the work is skipped at run time without a data-dependent shape. On numpy it returns
    `None` when `pred` is false.
    """
    jax = _jax()
    if jax is not None and is_jax(pred, args):
        import jax.numpy as jnp

        shapes = jax.eval_shape(func, *args)

        def zeros(*_: Any) -> Any:
            return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes)

        return jax.lax.cond(pred, func, zeros, *args)
    return func(*args) if bool(pred) else None
