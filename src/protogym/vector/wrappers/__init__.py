"""Wrappers for vector envs (Gymnasium's `gymnasium.wrappers.vector`): they transform whole
batches, not one sub-env at a time.

One module per concern, under Gymnasium's module names: `common` (episode statistics),
`dict_info_to_list`, `rendering` (window and video), `stateful_observation` and
`stateful_reward` (normalisation), `vectorize_observation`, `vectorize_action` and
`vectorize_reward` (transforms, and single-env wrappers applied to every sub-env), and the
array conversions. These (`ArrayConversion`, `NumpyToTorch`, `TorchToNumpy`, `JaxToNumpy`,
`NumpyToJax`, `JaxToTorch`, `TorchToJax`) load on first use, so importing this package
needs neither torch nor jax.
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
from protogym.vector.wrappers.common import RecordEpisodeStatistics
from protogym.vector.wrappers.dict_info_to_list import DictInfoToList
from protogym.vector.wrappers.rendering import HumanRendering, RecordVideo
from protogym.vector.wrappers.stateful_observation import NormalizeObservation
from protogym.vector.wrappers.stateful_reward import NormalizeReward
from protogym.vector.wrappers.vectorize_action import (
    ClipAction,
    RescaleAction,
    TransformAction,
    VectorizeTransformAction,
)
from protogym.vector.wrappers.vectorize_observation import (
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleObservation,
    ReshapeObservation,
    ResizeObservation,
    TransformObservation,
    VectorizeTransformObservation,
)
from protogym.vector.wrappers.vectorize_reward import (
    ClipReward,
    TransformReward,
    VectorizeTransformReward,
)

if TYPE_CHECKING:
    from protogym.vector.wrappers.array_conversion import ArrayConversion
    from protogym.vector.wrappers.jax_to_numpy import JaxToNumpy, NumpyToJax
    from protogym.vector.wrappers.jax_to_torch import JaxToTorch, TorchToJax
    from protogym.vector.wrappers.numpy_to_torch import NumpyToTorch, TorchToNumpy

# Wrapper name -> module (under protogym.vector.wrappers) that defines it, imported on first use.
_LAZY_WRAPPERS = {
    "ArrayConversion": "array_conversion",
    "NumpyToTorch": "numpy_to_torch",
    "TorchToNumpy": "numpy_to_torch",
    "JaxToNumpy": "jax_to_numpy",
    "NumpyToJax": "jax_to_numpy",
    "JaxToTorch": "jax_to_torch",
    "TorchToJax": "jax_to_torch",
}

__all__ = [
    "ArrayConversion",
    "ClipAction",
    "ClipReward",
    "DictInfoToList",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "JaxToNumpy",
    "JaxToTorch",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToJax",
    "NumpyToTorch",
    "RecordEpisodeStatistics",
    "RecordVideo",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TorchToJax",
    "TorchToNumpy",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "VectorActionWrapper",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
    "VectorizeTransformAction",
    "VectorizeTransformObservation",
    "VectorizeTransformReward",
]


def __getattr__(name: str) -> Any:
    module = _LAZY_WRAPPERS.get(name)
    if module is None:
        raise AttributeError(f"module 'protogym.vector.wrappers' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"protogym.vector.wrappers.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
