"""Torch wrappers, under Gymnasium's module name: `NumpyToTorch` lets torch code drive a numpy
env, `TorchToNumpy` lets numpy code drive a torch env. Both convert through dicts, tuples
(named ones too) and lists.

As in Gymnasium, a single env's reward and flags stay a Python float and bools and its
frames stay numpy; the vector versions (`protogym.vector.wrappers`) convert rewards and flags
too, since they are arrays there. torch is imported when this module is (the `torch` extra);
the conversion itself is `protogym.wrappers.array_conversion.convert`.
"""

from __future__ import annotations

from typing import Any

from protogym.core import Env
from protogym.interop._optional import missing_extra
from protogym.wrappers.array_conversion import ArrayConversion, convert

try:
    import torch
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise missing_extra("torch", "torch", "protogym's tensor wrappers") from error

__all__ = ["Device", "NumpyToTorch", "TorchToNumpy", "numpy_to_torch", "torch_to_numpy"]

Device = str | torch.device


def numpy_to_torch(value: Any, device: Device | None = None) -> Any:
    """`value` with every numpy array and number turned into a tensor on `device`."""
    return convert(value, "torch", device)


def torch_to_numpy(value: Any, device: Device | None = None) -> Any:
    """`value` with every tensor turned into a numpy array (moved to the CPU first).

    `device` is accepted for symmetry with `numpy_to_torch` and ignored."""
    return convert(value, "numpy")


class NumpyToTorch(ArrayConversion):
    """A numpy env driven with torch: tensors in (actions), tensors out (observations, infos).

    Rewards stay Python floats and the flags bools; `device` is where tensors are put.
    """

    def __init__(self, env: Env[Any, Any], device: Device | None = None) -> None:
        super().__init__(env, "numpy", "torch", target_device=device)
        self.device = device


class TorchToNumpy(ArrayConversion):
    """A torch env driven with numpy: arrays in (actions), arrays out (observations, infos).

    `device` is where actions are put before they reach the env.
    """

    def __init__(self, env: Env[Any, Any], device: Device | None = None) -> None:
        super().__init__(env, "torch", "numpy", env_device=device)
        self.device = device
