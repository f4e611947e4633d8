"""protogym: typed, protocol-based reinforcement-learning environments.

Only the protocols are imported eagerly; everything else (numpy, pluggy, the registry, the
spaces) loads on first use, so ``import protogym`` costs almost nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from protogym.core import (
    ActionWrapper,
    ActType,
    Env,
    ObservationWrapper,
    ObsType,
    RewardWrapper,
    Wrapper,
    WrapperActType,
    WrapperObsType,
)
from protogym.spaces.space import Space

if TYPE_CHECKING:
    from protogym import envs, error, logger, spaces, vector, wrappers
    from protogym.checker import check_env, check_func_env
    from protogym.registration import (
        EnvSpec,
        VectorizeMode,
        WrapperSpec,
        hookimpl,
        pprint_registry,
        register,
        register_envs,
        register_wrapper,
        spec,
        wrap,
    )
    from protogym.registration.global_registry import registry
    from protogym.registration.make import make
    from protogym.registration.make_vec import make_vec

__version__ = "0.1.0"

_LAZY: dict[str, str] = {
    "EnvSpec": "protogym.registration",
    "VectorizeMode": "protogym.registration",
    "WrapperSpec": "protogym.registration",
    "hookimpl": "protogym.registration",
    "make": "protogym.registration",
    "make_vec": "protogym.registration",
    "pprint_registry": "protogym.registration",
    "register": "protogym.registration",
    "register_envs": "protogym.registration",
    "register_wrapper": "protogym.registration",
    "registry": "protogym.registration",
    "spec": "protogym.registration",
    "wrap": "protogym.registration",
    "check_env": "protogym.checker",
    "check_func_env": "protogym.checker",
}
_SUBMODULES = {
    "envs",
    "error",
    "logger",
    "spaces",
    "vector",
    "wrappers",
    "registration",
    "utils",
    "compat",
}

__all__ = [
    "ActType",
    "ActionWrapper",
    "Env",
    "EnvSpec",
    "ObsType",
    "ObservationWrapper",
    "RewardWrapper",
    "Space",
    "VectorizeMode",
    "Wrapper",
    "WrapperActType",
    "WrapperObsType",
    "WrapperSpec",
    "check_env",
    "check_func_env",
    "envs",
    "error",
    "hookimpl",
    "logger",
    "make",
    "make_vec",
    "pprint_registry",
    "register",
    "register_envs",
    "register_wrapper",
    "registry",
    "spaces",
    "spec",
    "vector",
    "wrap",
    "wrappers",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"protogym.{name}")
    else:
        raise AttributeError(f"module 'protogym' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
