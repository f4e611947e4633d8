"""Jax wrappers for numpy code: `JaxToNumpy` lets numpy code drive a jax env, `NumpyToJax`
lets jax code drive a numpy env. jax is imported when this module is (the `jax` extra).

jax keeps 32-bit types unless ``jax_enable_x64`` is set, so a float64 or int64 array sent
into jax comes back as float32 or int32: numpy -> jax -> numpy is not always a round trip.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from protogym.core import Env
from protogym.interop._optional import missing_extra
from protogym.wrappers.array_conversion import ArrayConversion, convert

try:
    import jax  # noqa: F401
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise missing_extra("jax", "jax", "protogym's jax wrappers") from error

__all__ = ["JaxDevice", "JaxToNumpy", "NumpyToJax", "jax_to_numpy", "numpy_to_jax"]

JaxDevice: TypeAlias = Any  # jax.Device is an untyped jaxlib class, so Any to mypy anyway
"""A `jax.Device`, or a platform name (``"cpu"``, ``"gpu"``) meaning its first device."""


def jax_to_numpy(value: Any) -> Any:
    """`value` with every jax array turned into a (read-only) numpy array."""
    return convert(value, "numpy")


def numpy_to_jax(value: Any, device: JaxDevice | None = None) -> Any:
    """`value` with every numpy array and number turned into a jax array on `device`."""
    return convert(value, "jax", device)


class JaxToNumpy(ArrayConversion):
    """A jax env driven with numpy: arrays in (actions), arrays out (observations, infos).

    Rewards stay Python floats and the flags bools; `device` is the jax device actions are
    put on before they reach the env (jax's default device if None).
    """

    def __init__(self, env: Env[Any, Any], device: JaxDevice | None = None) -> None:
        super().__init__(env, "jax", "numpy", env_device=device)
        self.device = device


class NumpyToJax(ArrayConversion):
    """A numpy env driven with jax: jax arrays in (actions), jax arrays out (observations,
    infos), put on `device`. Rewards stay Python floats and the flags bools.
    """

    def __init__(self, env: Env[Any, Any], device: JaxDevice | None = None) -> None:
        super().__init__(env, "numpy", "jax", target_device=device)
        self.device = device
