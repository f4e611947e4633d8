"""Wrappers for vector envs: they transform whole batches, not one sub-env at a time.

The array-conversion wrappers (`ArrayConversion`, `NumpyToTorch`, `TorchToNumpy`,
`JaxToNumpy`, `NumpyToJax`, `JaxToTorch`, `TorchToJax`) load on first use, so importing this
package needs neither torch nor jax.
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
    from protogym.vector.wrappers.array_conversion import ArrayConversion
    from protogym.vector.wrappers.jax_to_numpy import JaxToNumpy, NumpyToJax
    from protogym.vector.wrappers.jax_to_torch import JaxToTorch, TorchToJax
    from protogym.vector.wrappers.tensor import NumpyToTorch, TorchToNumpy

# Wrapper name -> module (under protogym.vector.wrappers) that defines it, imported on first use.
_LAZY_WRAPPERS = {
    "ArrayConversion": "array_conversion",
    "NumpyToTorch": "tensor",
    "TorchToNumpy": "tensor",
    "JaxToNumpy": "jax_to_numpy",
    "NumpyToJax": "jax_to_numpy",
    "JaxToTorch": "jax_to_torch",
    "TorchToJax": "jax_to_torch",
}

__all__ = [
    "ArrayConversion",
    "ClipAction",
    "DtypeObservation",
    "FlattenObservation",
    "JaxToNumpy",
    "JaxToTorch",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToJax",
    "NumpyToTorch",
    "RecordEpisodeStatistics",
    "RescaleAction",
    "TorchToJax",
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
    module = _LAZY_WRAPPERS.get(name)
    if module is None:
        raise AttributeError(f"module 'protogym.vector.wrappers' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"protogym.vector.wrappers.{module}"), name)
    globals()[name] = value
    return value
