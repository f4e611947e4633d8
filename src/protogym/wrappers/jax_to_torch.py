"""Jax wrappers for torch code: `JaxToTorch` lets torch code drive a jax env, `TorchToJax`
lets jax code drive a torch env. jax and torch are imported when this module is (the `jax`
and `torch` extras).
"""

from __future__ import annotations

from typing import Any

from protogym.core import Env
from protogym.wrappers.array_conversion import ArrayConversion, convert
from protogym.wrappers.jax_to_numpy import JaxDevice  # raises naming the jax extra
from protogym.wrappers.numpy_to_torch import Device  # raises naming the torch extra

__all__ = ["Device", "JaxToTorch", "TorchToJax", "jax_to_torch", "torch_to_jax"]


def jax_to_torch(value: Any, device: Device | None = None) -> Any:
    """`value` with every jax array turned into a tensor (with its own storage) on `device`."""
    return convert(value, "torch", device)


def torch_to_jax(value: Any, device: JaxDevice | None = None) -> Any:
    """`value` with every tensor turned into a jax array on `device` (a jax device or a
    platform name such as ``"cpu"``)."""
    return convert(value, "jax", device)


class JaxToTorch(ArrayConversion):
    """A jax env driven with torch: tensors in (actions), tensors out (observations, infos)
    on `device`. Rewards stay Python floats and the flags bools.
    """

    def __init__(self, env: Env[Any, Any], device: Device | None = None) -> None:
        super().__init__(env, "jax", "torch", target_device=device)
        self.device = device


class TorchToJax(ArrayConversion):
    """A torch env driven with jax: jax arrays in (actions), jax arrays out (observations,
    infos) on the jax `device`. Rewards stay Python floats and the flags bools.

    Actions reach the env as tensors on the jax array's device; to choose theirs, use
    ``ArrayConversion(env, "torch", "jax", env_device=..., target_device=...)``.
    """

    def __init__(self, env: Env[Any, Any], device: JaxDevice | None = None) -> None:
        super().__init__(env, "torch", "jax", target_device=device)
        self.device = device
