"""Registering envs and wrappers, discovering plugins, and building envs with `make`.

Every name of Gymnasium's ``gymnasium.envs.registration`` is here too.
"""

from __future__ import annotations

from typing import Any

from protogym.registration.env_spec import (
    ENV_ID_RE,
    EnvCreator,
    EnvSpec,
    VectorEnvCreator,
    WrapperSpec,
    get_env_id,
    parse_env_id,
)
from protogym.registration.global_registry import (
    find_highest_version,
    namespace,
    register,
    register_envs,
    register_wrapper,
    registry,
)
from protogym.registration.hookspecs import hookimpl
from protogym.registration.make import load_entry_point, make, wrap
from protogym.registration.make_vec import VectorizeMode, make_vec
from protogym.registration.pprint import pprint_registry
from protogym.registration.registry import Registry

load_env_creator = load_entry_point
"""Gymnasium's name for `load_entry_point`."""

__all__ = [
    "ENV_ID_RE",
    "EnvCreator",
    "EnvSpec",
    "Registry",
    "VectorEnvCreator",
    "VectorizeMode",
    "WrapperSpec",
    "current_namespace",
    "find_highest_version",
    "get_env_id",
    "hookimpl",
    "load_entry_point",
    "load_env_creator",
    "make",
    "make_vec",
    "namespace",
    "parse_env_id",
    "pprint_registry",
    "register",
    "register_envs",
    "register_wrapper",
    "registry",
    "spec",
    "wrap",
]


def spec(env_id: str) -> EnvSpec:
    """The spec registered as `env_id`, with the same errors and suggestions as `make`."""
    return registry.find(env_id)


def __getattr__(name: str) -> Any:
    # `current_namespace` is read live: `namespace(...)` changes it while a block runs.
    if name == "current_namespace":
        return registry.current_namespace
    raise AttributeError(f"module 'protogym.registration' has no attribute {name!r}")
