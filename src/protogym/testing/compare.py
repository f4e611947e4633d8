"""Deep equality of env data: observations, actions, infos and space samples."""

from __future__ import annotations

from typing import Any

import numpy as np

from protogym.spaces import GraphInstance

__all__ = ["same"]


def same(a: Any, b: Any) -> bool:
    """Deep equality of samples: arrays by dtype and value, containers item by item."""
    if isinstance(a, GraphInstance):
        return isinstance(b, GraphInstance) and same(tuple(a), tuple(b))
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return (
            isinstance(b, tuple)
            and len(a) == len(b)
            and all(same(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, str):
        return isinstance(b, str) and a == b
    if a is None:
        return b is None
    x, y = np.asarray(a), np.asarray(b)
    return x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
