"""Registering envs and wrappers, discovering plugins, and building envs with `make`."""

from __future__ import annotations

from protogym.registration.env_spec import EnvSpec, WrapperSpec
from protogym.registration.global_registry import register, register_wrapper, registry
from protogym.registration.hookspecs import hookimpl
from protogym.registration.make import load_entry_point, make, wrap
from protogym.registration.pprint import pprint_registry
from protogym.registration.registry import Registry

__all__ = [
    "EnvSpec",
    "Registry",
    "WrapperSpec",
    "hookimpl",
    "load_entry_point",
    "make",
    "pprint_registry",
    "register",
    "register_wrapper",
    "registry",
    "spec",
    "wrap",
]


def spec(env_id: str) -> EnvSpec:
    """The spec registered as `env_id`, with the same errors and suggestions as `make`."""
    return registry.find(env_id)
