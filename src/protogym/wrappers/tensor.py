"""Tensor wrappers: `NumpyToTorch` lets torch code drive a numpy env, `TorchToNumpy` lets
numpy code drive a torch env. Both convert through dicts, tuples (named ones too) and lists.

As in Gymnasium, a single env's reward and flags stay a Python float and bools and its
frames stay numpy; the vector versions (`protogym.vector.wrappers`) convert rewards and flags
too, since they are arrays there. torch is imported only when this module is (the `torch`
extra).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

import numpy as np

from protogym.core import Env, Wrapper
from protogym.interop._optional import missing_extra

try:
    import torch
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise missing_extra("torch", "torch", "protogym's tensor wrappers") from error

__all__ = ["Device", "NumpyToTorch", "TorchToNumpy", "numpy_to_torch", "torch_to_numpy"]

Device = str | torch.device


def numpy_to_torch(value: Any, device: Device | None = None) -> Any:
    """`value` with every numpy array and number turned into a tensor on `device`."""
    if isinstance(value, np.ndarray):
        if value.dtype == object:  # e.g. a vector env's final observations: convert each
            converted = np.empty(value.shape, dtype=object)
            converted[...] = [numpy_to_torch(item, device) for item in value.flat]
            return converted
        if not value.flags.writeable:
            value = value.copy()  # torch cannot share a read-only buffer
        tensor = torch.from_numpy(value)
        return tensor if device is None else tensor.to(device)
    if isinstance(value, np.generic | int | float | bool):
        return torch.tensor(value, device=device)
    return _through_containers(value, numpy_to_torch, device)


def torch_to_numpy(value: Any, device: Device | None = None) -> Any:
    """`value` with every tensor turned into a numpy array (moved to the CPU first)."""
    if isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy()
    if isinstance(value, np.ndarray) and value.dtype == object:
        converted = np.empty(value.shape, dtype=object)
        converted[...] = [torch_to_numpy(item) for item in value.flat]
        return converted
    return _through_containers(value, torch_to_numpy, device)


def _through_containers(value: Any, convert: Any, device: Device | None) -> Any:
    if isinstance(value, Mapping):
        return type(value)(**{key: convert(item, device) for key, item in value.items()})
    if isinstance(value, tuple) and hasattr(value, "_make"):
        return type(value)._make(convert(item, device) for item in value)
    if isinstance(value, tuple | list):
        return type(value)(convert(item, device) for item in value)
    return value


class NumpyToTorch(Wrapper[Any, Any, Any, Any]):
    """A numpy env driven with torch: tensors in (actions), tensors out (observations, infos).

    Rewards stay Python floats and the flags bools; `device` is where tensors are put.
    """

    def __init__(self, env: Env[Any, Any], device: Device | None = None) -> None:
        super().__init__(env)
        self.device = device

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(torch_to_numpy(action))
        device = self.device
        return (
            numpy_to_torch(obs, device),
            float(reward),
            bool(terminated),
            bool(truncated),
            numpy_to_torch(info, device),
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if options:
            options = torch_to_numpy(options)
        obs, info = self.env.reset(seed=seed, options=options)
        return numpy_to_torch(obs, self.device), numpy_to_torch(info, self.device)


class TorchToNumpy(Wrapper[Any, Any, Any, Any]):
    """A torch env driven with numpy: arrays in (actions), arrays out (observations, infos).

    `device` is where actions are put before they reach the env.
    """

    def __init__(self, env: Env[Any, Any], device: Device | None = None) -> None:
        super().__init__(env)
        self.device = device

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(
            numpy_to_torch(action, self.device)
        )
        return (
            torch_to_numpy(obs),
            float(reward),
            bool(terminated),
            bool(truncated),
            torch_to_numpy(info),
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if options:
            options = numpy_to_torch(options, self.device)
        obs, info = self.env.reset(seed=seed, options=options)
        return torch_to_numpy(obs), torch_to_numpy(info)
