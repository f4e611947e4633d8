"""The process-wide registry that `protogym.register`, `make` and the plugins share, and
Gymnasium's functions over it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from protogym.registration.plugins import discover_plugins
from protogym.registration.registry import Registry

registry = Registry(discover=discover_plugins)
"""Every registered env id -> `EnvSpec`; a mutable mapping, as Gymnasium's dict is."""

register = registry.register
register_wrapper = registry.register_wrapper


@contextmanager
def namespace(ns: str) -> Iterator[None]:
    """Register the ids of the block in namespace `ns` (``Walk-v0`` becomes ``ns/Walk-v0``)."""
    previous = registry.current_namespace
    registry.current_namespace = ns
    try:
        yield
    finally:
        registry.current_namespace = previous


def find_highest_version(ns: str | None, name: str) -> int | None:
    """The highest registered version of `name` in namespace `ns`, or None if it has none."""
    return registry.highest_version(ns, name)


def register_envs(env_module: ModuleType) -> None:
    """Do nothing: ``register_envs(ale_py)`` tells linters an import that registers envs is
    used (Gymnasium's idiom). protogym's plugins register on their own."""
