"""Every Gymnasium wrapper, with precise types, plus `StepCompatibility` for the legacy API.

Imports are lazy: ``from protogym.wrappers import TimeLimit`` loads only the module that
defines `TimeLimit`, so the cheap common wrappers never pull in pygame, imageio or the
spaces machinery that the observation wrappers need. `catalog.WRAPPER_MODULES` is the
name -> module table both this module and the wrapper registry read.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from protogym.wrappers.catalog import BUILTIN_WRAPPERS, WRAPPER_MODULES

if TYPE_CHECKING:
    from protogym.wrappers import vector
    from protogym.wrappers.array_conversion import ArrayConversion
    from protogym.wrappers.atari_preprocessing import AtariPreprocessing
    from protogym.wrappers.common import (
        Autoreset,
        OrderEnforcing,
        RecordEpisodeStatistics,
        TimeLimit,
    )
    from protogym.wrappers.env_checker import PassiveEnvChecker
    from protogym.wrappers.jax_to_numpy import JaxToNumpy, NumpyToJax
    from protogym.wrappers.jax_to_torch import JaxToTorch, TorchToJax
    from protogym.wrappers.numpy_to_torch import NumpyToTorch, TorchToNumpy
    from protogym.wrappers.rendering import (
        AddWhiteNoise,
        HumanRendering,
        ObstructView,
        RecordVideo,
        RenderCollection,
    )
    from protogym.wrappers.stateful_action import RepeatAction, StickyAction
    from protogym.wrappers.stateful_observation import (
        DelayObservation,
        FrameStackObservation,
        MaxAndSkipObservation,
        NormalizeObservation,
        TimeAwareObservation,
    )
    from protogym.wrappers.stateful_reward import NormalizeReward
    from protogym.wrappers.step_compatibility import StepCompatibility
    from protogym.wrappers.transform_action import (
        ClipAction,
        DiscretizeAction,
        RescaleAction,
        TransformAction,
    )
    from protogym.wrappers.transform_observation import (
        AddRenderObservation,
        DiscretizeObservation,
        DtypeObservation,
        FilterObservation,
        FlattenObservation,
        GrayscaleObservation,
        RescaleObservation,
        ReshapeObservation,
        ResizeObservation,
        TransformObservation,
    )
    from protogym.wrappers.transform_reward import ClipReward, TransformReward

__all__ = [
    "BUILTIN_WRAPPERS",
    "AddRenderObservation",
    "AddWhiteNoise",
    "ArrayConversion",
    "AtariPreprocessing",
    "Autoreset",
    "ClipAction",
    "ClipReward",
    "DelayObservation",
    "DiscretizeAction",
    "DiscretizeObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "FrameStackObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "JaxToNumpy",
    "JaxToTorch",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToJax",
    "NumpyToTorch",
    "ObstructView",
    "OrderEnforcing",
    "PassiveEnvChecker",
    "RecordEpisodeStatistics",
    "RecordVideo",
    "RenderCollection",
    "RepeatAction",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "StepCompatibility",
    "StickyAction",
    "TimeAwareObservation",
    "TimeLimit",
    "TorchToJax",
    "TorchToNumpy",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "vector",
]


# Names of older Gym/Gymnasium releases -> what replaced them (named in the AttributeError).
_RENAMED = {
    "AutoResetWrapper": "Autoreset",
    "FrameStack": "FrameStackObservation",
    "PixelObservationWrapper": "AddRenderObservation",
    "VectorListInfo": "vector.DictInfoToList",
}


def __getattr__(name: str) -> Any:
    if name == "vector":  # Gymnasium's path of the vector wrappers
        value: Any = importlib.import_module("protogym.wrappers.vector")
    else:
        module = WRAPPER_MODULES.get(name)
        if module is None:
            if name in _RENAMED:
                raise AttributeError(
                    f"protogym.wrappers has no {name!r}: it was renamed, use "
                    f"protogym.wrappers.{_RENAMED[name]}"
                )
            raise AttributeError(f"module 'protogym.wrappers' has no attribute {name!r}")
        value = getattr(importlib.import_module(f"protogym.wrappers.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
