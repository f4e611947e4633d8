"""Tensor wrappers for vector envs: `NumpyToTorch` and `TorchToNumpy` convert whole batches,
rewards and done flags included (they are arrays here), and infos through their masks."""

from __future__ import annotations

from typing import Any

from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers.array_conversion import ArrayConversion
from protogym.wrappers.numpy_to_torch import Device

__all__ = ["NumpyToTorch", "TorchToNumpy"]


class NumpyToTorch(ArrayConversion):
    """A numpy vector env driven with torch: tensors in, tensors out, on `device`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Device | None = None) -> None:
        super().__init__(env, "numpy", "torch", target_device=device)
        self.device = device


class TorchToNumpy(ArrayConversion):
    """A torch vector env driven with numpy: arrays in, arrays out; actions go to `device`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Device | None = None) -> None:
        super().__init__(env, "torch", "numpy", env_device=device)
        self.device = device
