"""Jax wrappers for torch code, for vector envs: `JaxToTorch` (a jax vector env driven with
torch) and `TorchToJax` (a torch vector env driven with jax), whole batches at a time."""

from __future__ import annotations

from typing import Any

from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers.array_conversion import ArrayConversion
from protogym.wrappers.jax_to_numpy import JaxDevice
from protogym.wrappers.numpy_to_torch import Device

__all__ = ["JaxToTorch", "TorchToJax"]


class JaxToTorch(ArrayConversion):
    """A jax vector env driven with torch: tensors in, tensors out (rewards and flags too)
    on `device`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Device | None = None) -> None:
        super().__init__(env, "jax", "torch", target_device=device)
        self.device = device


class TorchToJax(ArrayConversion):
    """A torch vector env driven with jax: jax arrays in, jax arrays out on the jax `device`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: JaxDevice | None = None) -> None:
        super().__init__(env, "torch", "jax", target_device=device)
        self.device = device
