"""Wrappers for vector envs: they transform whole batches, not one sub-env at a time."""

from __future__ import annotations

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

__all__ = [
    "ClipAction",
    "DtypeObservation",
    "FlattenObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "RecordEpisodeStatistics",
    "RescaleAction",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "VectorActionWrapper",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
]
