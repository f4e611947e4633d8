"""Plugin discovery: entry points in the group `protogym.plugins`, loaded through pluggy.

Each entry point names a module holding `protogym_register_envs` and/or
`protogym_register_wrappers` hook implementations. Plugins are visited in a fixed order
(protogym's own first, then the rest by distribution and entry-point name), each hook is
called per plugin so that a failure is attributed to its plugin, and a plugin that fails
leaves nothing half-registered.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

import pluggy

from protogym.error import PluginWarning
from protogym.registration import hookspecs

if TYPE_CHECKING:
    from protogym.registration.registry import Registry

ENTRY_POINT_GROUP = "protogym.plugins"
SELECTION_ENV_VAR = "PROTOGYM_PLUGINS"
FIRST_PARTY_DISTRIBUTIONS = frozenset(
    {
        "protogym-classic-control",
        "protogym-toy-text",
        "protogym-box2d",
        "protogym-atari",
        "protogym-mujoco",
    }
)
"""Distributions whose plugins are visited before any third party's, so they keep their ids."""

_HOOKS = ("protogym_register_wrappers", "protogym_register_envs")


def distribution_name(entry_point: EntryPoint) -> str:
    dist = entry_point.dist
    return dist.name if dist is not None else "<unknown distribution>"


def plugin_order(entry_point: EntryPoint) -> tuple[int, str, str]:
    """Sort key: first-party plugins first, then by distribution and entry-point name."""
    dist = distribution_name(entry_point)
    return (0 if dist in FIRST_PARTY_DISTRIBUTIONS else 1, dist.lower(), entry_point.name)


def selected_plugins(value: str | None) -> frozenset[str] | None:
    """Parse `PROTOGYM_PLUGINS`: unset or 'all' -> every plugin (None), 'none' -> no plugin,
    otherwise a comma-separated list of entry-point or distribution names."""
    if value is None or value.strip().lower() in ("", "all"):
        return None
    if value.strip().lower() in ("none", "0", "off"):
        return frozenset()
    return frozenset(part.strip() for part in value.split(",") if part.strip())


def installed_plugins() -> list[EntryPoint]:
    """The plugin entry points that discovery will visit, in visiting order."""
    selection = selected_plugins(os.environ.get(SELECTION_ENV_VAR))
    found: Iterable[EntryPoint] = entry_points(group=ENTRY_POINT_GROUP)
    if selection is not None:
        found = [
            ep for ep in found if ep.name in selection or distribution_name(ep) in selection
        ]
    return sorted(found, key=plugin_order)


def discover_plugins(registry: Registry) -> None:
    """Register the built-in wrappers, then every selected plugin's envs and wrappers."""
    from protogym.wrappers.catalog import BUILTIN_WRAPPERS

    for name, target in BUILTIN_WRAPPERS.items():
        registry.register_wrapper(name, target)

    manager = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    manager.add_hookspecs(hookspecs)
    loaded: list[tuple[str, str]] = []  # (pluggy plugin name, distribution)
    for entry_point in installed_plugins():
        dist = distribution_name(entry_point)
        plugin_name = f"{dist}:{entry_point.name}"
        try:
            manager.register(entry_point.load(), name=plugin_name)
        except Exception as exc:
            _warn_failed(entry_point.name, dist, "failed to load", exc)
            continue
        loaded.append((plugin_name, dist))

    for plugin_name, dist in loaded:
        impls = {
            hook: [
                impl
                for impl in getattr(manager.hook, hook).get_hookimpls()
                if impl.plugin_name == plugin_name
            ]
            for hook in _HOOKS
        }
        _run_plugin(registry, plugin_name.split(":", 1)[1], dist, impls)


def _run_plugin(
    registry: Registry,
    entry_name: str,
    dist: str,
    impls: dict[str, list[pluggy.HookImpl]],
) -> None:
    try:
        with registry.plugin_scope(dist):
            for hook in _HOOKS:
                for impl in impls[hook]:
                    impl.function(registry=registry)
    except Exception as exc:
        _warn_failed(entry_name, dist, "raised while registering", exc)


def _warn_failed(entry_name: str, dist: str, what: str, exc: BaseException) -> None:
    warnings.warn(
        f"protogym plugin {entry_name!r} from distribution {dist!r} {what} and was skipped: "
        f"{type(exc).__name__}: {exc}. Other plugins are unaffected; set "
        f"{SELECTION_ENV_VAR} to choose which plugins load.",
        PluginWarning,
        stacklevel=2,
    )
