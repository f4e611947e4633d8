"""What every env module's `...JaxEnv` / `...JaxVectorEnv` class shares: keyword arguments
become the env's default params, and the adapters' metadata."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from protogym.vector.vector_env import AutoresetMode, parse_autoreset_mode

__all__ = ["configured", "single_metadata", "vector_metadata"]


class _Configurable(Protocol):
    default_params: Any

    def get_default_params(self, **kwargs: Any) -> Any: ...


E = TypeVar("E", bound=_Configurable)


def configured(func_env: E, params: Mapping[str, Any]) -> E:
    """`func_env` with `get_default_params(**params)` as its default params, so that
    ``make(id, gravity=12.0)`` changes what every call without explicit params uses."""
    func_env.default_params = func_env.get_default_params(**params)
    return func_env


def single_metadata(func_metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The single-env adapter's metadata: the `FuncEnv`'s render modes and frame rate."""
    return {**func_metadata, "jax": True}


def vector_metadata(
    func_metadata: Mapping[str, Any], autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP
) -> dict[str, Any]:
    """The vector adapter's metadata: the env's render modes (its `render` draws one frame
    per copy), and the autoreset mode asked for."""
    return {
        **func_metadata,
        "jax": True,
        "autoreset_mode": parse_autoreset_mode(autoreset_mode),
    }
