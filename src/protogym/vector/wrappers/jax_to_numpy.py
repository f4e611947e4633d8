"""Jax wrappers for numpy code, for vector envs: `JaxToNumpy` (a jax vector env driven with
numpy) and `NumpyToJax` (a numpy vector env driven with jax), whole batches at a time."""

from __future__ import annotations

from typing import Any

from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers.array_conversion import ArrayConversion
from protogym.wrappers.jax_to_numpy import JaxDevice

__all__ = ["JaxToNumpy", "NumpyToJax"]


class JaxToNumpy(ArrayConversion):
    """A jax vector env driven with numpy: arrays in, arrays out (rewards and flags too);
    actions go to the jax `device`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: JaxDevice | None = None) -> None:
        super().__init__(env, "jax", "numpy", env_device=device)
        self.device = device


class NumpyToJax(ArrayConversion):
    """A numpy vector env driven with jax: jax arrays in, jax arrays out on `device`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: JaxDevice | None = None) -> None:
        super().__init__(env, "numpy", "jax", target_device=device)
        self.device = device
