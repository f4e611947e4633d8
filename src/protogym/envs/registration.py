"""Gymnasium's ``gymnasium.envs.registration`` path: the names of `protogym.registration`."""

from __future__ import annotations

from typing import Any

from protogym import registration as _registration
from protogym.registration import *  # noqa: F403 - this module is that one under another path
from protogym.registration import __all__ as __all__

# The star import took a snapshot of `current_namespace`; it is read live instead (below), as
# `namespace(...)` changes it while a block runs.
del globals()["current_namespace"]


def __getattr__(name: str) -> Any:
    if name == "current_namespace":
        return _registration.current_namespace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
