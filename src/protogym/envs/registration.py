"""Gymnasium's ``gymnasium.envs.registration`` path: the names of `protogym.registration`."""

from __future__ import annotations

from typing import Any

from protogym.registration import (
    ENV_ID_RE,
    EnvCreator,
    EnvSpec,
    Registry,
    VectorEnvCreator,
    VectorizeMode,
    WrapperSpec,
    find_highest_version,
    get_env_id,
    hookimpl,
    load_entry_point,
    load_env_creator,
    make,
    make_vec,
    namespace,
    parse_env_id,
    pprint_registry,
    register,
    register_envs,
    register_wrapper,
    registry,
    spec,
    wrap,
)

__all__ = [
    "ENV_ID_RE",
    "EnvCreator",
    "EnvSpec",
    "Registry",
    "VectorEnvCreator",
    "VectorizeMode",
    "WrapperSpec",
    "current_namespace",  # noqa: F822 - read through __getattr__
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


def __getattr__(name: str) -> Any:
    # Read live from protogym.registration: `namespace(...)` changes it while a block runs.
    if name == "current_namespace":
        return registry.current_namespace
    raise AttributeError(f"module 'protogym.envs.registration' has no attribute {name!r}")
