"""Where each built-in wrapper lives, by name: the registry registers these entry points.

Kept as plain strings so that registering the built-ins imports no wrapper module; `make`
imports a wrapper's module only when it applies that wrapper.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["BUILTIN_WRAPPERS", "WRAPPER_MODULES"]

# Wrapper name -> module (under protogym.wrappers) that defines it.
WRAPPER_MODULES: Mapping[str, str] = MappingProxyType(
    {
        "TimeLimit": "common",
        "Autoreset": "common",
        "OrderEnforcing": "common",
        "RecordEpisodeStatistics": "common",
        "PassiveEnvChecker": "env_checker",
        "StepCompatibility": "step_compatibility",
        "RenderCollection": "rendering",
        "HumanRendering": "rendering",
        "RecordVideo": "rendering",
        "AddWhiteNoise": "rendering",
        "ObstructView": "rendering",
        "TransformObservation": "transform_observation",
        "AddRenderObservation": "transform_observation",
        "FilterObservation": "transform_observation",
        "FlattenObservation": "transform_observation",
        "GrayscaleObservation": "transform_observation",
        "ResizeObservation": "transform_observation",
        "ReshapeObservation": "transform_observation",
        "RescaleObservation": "transform_observation",
        "DtypeObservation": "transform_observation",
        "DiscretizeObservation": "transform_observation",
        "DelayObservation": "stateful_observation",
        "TimeAwareObservation": "stateful_observation",
        "FrameStackObservation": "stateful_observation",
        "NormalizeObservation": "stateful_observation",
        "MaxAndSkipObservation": "stateful_observation",
        "AtariPreprocessing": "atari_preprocessing",
        "TransformAction": "transform_action",
        "ClipAction": "transform_action",
        "RescaleAction": "transform_action",
        "DiscretizeAction": "transform_action",
        "StickyAction": "stateful_action",
        "RepeatAction": "stateful_action",
        "TransformReward": "transform_reward",
        "ClipReward": "transform_reward",
        "NormalizeReward": "stateful_reward",
        "ArrayConversion": "array_conversion",
        "NumpyToTorch": "numpy_to_torch",
        "TorchToNumpy": "numpy_to_torch",
        "JaxToNumpy": "jax_to_numpy",
        "NumpyToJax": "jax_to_numpy",
        "JaxToTorch": "jax_to_torch",
        "TorchToJax": "jax_to_torch",
    }
)

BUILTIN_WRAPPERS: Mapping[str, str] = MappingProxyType(
    {name: f"protogym.wrappers.{module}:{name}" for name, module in WRAPPER_MODULES.items()}
)
"""Registered name -> ``"protogym.wrappers.<module>:<Class>"`` for every built-in wrapper."""
