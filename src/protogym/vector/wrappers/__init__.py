"""Wrappers for vector envs: they transform whole batches, not one sub-env at a time.

`NumpyToTorch` and `TorchToNumpy` load on first use, so importing this package needs no torch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from protogym.vector.wrappers.base import (
    VectorActionWrapper,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)
from protogym.vector.wrappers.stateful import (
    NormalizeObservation,
    NormalizeReward,
    RecordEpisodeStatistics,
)
from protogym.vector.wrappers.transform import (
    ClipAction,
    DtypeObservation,
    FlattenObservation,
    RescaleAction,
    TransformAction,
    TransformObservation,
    TransformReward,
)

if TYPE_CHECKING:
    from protogym.vector.wrappers.tensor import NumpyToTorch, TorchToNumpy

_TENSOR_WRAPPERS = frozenset({"NumpyToTorch", "TorchToNumpy"})

__all__ = [
    "ClipAction",
    "DtypeObservation",
    "FlattenObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToTorch",
    "RecordEpisodeStatistics",
    "RescaleAction",
    "TorchToNumpy",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "VectorActionWrapper",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
]


def __getattr__(name: str) -> Any:
    if name not in _TENSOR_WRAPPERS:
        raise AttributeError(f"module 'protogym.vector.wrappers' has no attribute {name!r}")
    value = getattr(importlib.import_module("protogym.vector.wrappers.tensor"), name)
    globals()[name] = value
    return value
