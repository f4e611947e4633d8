"""The process-wide registry that `protogym.register`, `make` and the plugins share."""

from __future__ import annotations

from protogym.registration.plugins import discover_plugins
from protogym.registration.registry import Registry

registry = Registry(discover=discover_plugins)
"""Every registered env id -> `EnvSpec` (read-only; add ids with `register`)."""

register = registry.register
register_wrapper = registry.register_wrapper
