"""The pluggy hooks a protogym plugin implements, and the marker it decorates them with."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from protogym.registration.registry import Registry

PROJECT_NAME = "protogym"
hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


@hookspec
def protogym_register_envs(registry: Registry) -> None:
    """Register environments with ``registry.register(id=..., entry_point="pkg.mod:Cls")``.

    Entry points are strings so that discovery imports no environment module.
    """


@hookspec
def protogym_register_wrappers(registry: Registry) -> None:
    """Register wrappers with ``registry.register_wrapper(name=..., entry_point=...)``."""
