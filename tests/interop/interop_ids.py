"""The first-party ids the interop tests run peers' checkers on.

Derived from the registry, so every first-party plugin's ids are covered as soon as it is
installed; a plugin with very many ids (Atari) contributes a few representatives.
"""

from __future__ import annotations

import warnings
from typing import Any

import protogym
from protogym.registration.plugins import FIRST_PARTY_DISTRIBUTIONS

_PER_PLUGIN = 12


def first_party_ids() -> list[str]:
    by_plugin: dict[str, list[str]] = {}
    for spec in protogym.registry.values():
        if spec.plugin in FIRST_PARTY_DISTRIBUTIONS:
            by_plugin.setdefault(spec.plugin, []).append(spec.id)
    chosen: list[str] = []
    for ids in by_plugin.values():
        step = max(1, len(ids) // _PER_PLUGIN)
        chosen += sorted(ids)[::step][:_PER_PLUGIN]
    return sorted(chosen)


def quiet_make(env_id: str, **kwargs: Any) -> Any:
    """`protogym.make`, without the warning that an old version has a newer one."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return protogym.make(env_id, **kwargs)
