"""Tensor wrappers for vector envs: `NumpyToTorch` and `TorchToNumpy` convert whole batches,
rewards and done flags included (they are arrays here), and infos through their masks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from protogym.vector.vector_env import VectorEnv, VectorStepResult
from protogym.vector.wrappers.base import VectorWrapper
from protogym.wrappers.tensor import Device, numpy_to_torch, torch_to_numpy

__all__ = ["NumpyToTorch", "TorchToNumpy"]


class NumpyToTorch(VectorWrapper[Any, Any, Any, Any]):
    """A numpy vector env driven with torch: tensors in, tensors out, on `device`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Device | None = None) -> None:
        super().__init__(env)
        self.device = device

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        if options:
            options = torch_to_numpy(options)
        return numpy_to_torch(self.env.reset(seed=seed, options=options), self.device)  # type: ignore[no-any-return]

    def step(self, actions: Any) -> VectorStepResult[Any]:
        result = self.env.step(torch_to_numpy(actions))
        return numpy_to_torch(result, self.device)  # type: ignore[no-any-return]


class TorchToNumpy(VectorWrapper[Any, Any, Any, Any]):
    """A torch vector env driven with numpy: arrays in, arrays out; actions go to `device`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Device | None = None) -> None:
        super().__init__(env)
        self.device = device

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        if options:
            options = numpy_to_torch(options, self.device)
        return torch_to_numpy(self.env.reset(seed=seed, options=options))  # type: ignore[no-any-return]

    def step(self, actions: Any) -> VectorStepResult[Any]:
        return torch_to_numpy(self.env.step(numpy_to_torch(actions, self.device)))  # type: ignore[no-any-return]
