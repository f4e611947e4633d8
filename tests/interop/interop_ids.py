"""The first-party ids the interop tests run peers' checkers on.

Derived from the registry, so every first-party plugin's ids are covered as soon as it is
installed; a plugin with very many ids (Atari) contributes a few representatives. Ids that
are registered only to say what to make instead (MuJoCo's mujoco-py versions, Pusher-v4)
raise DependencyNotInstalled when made and are left out.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

import protogym
from protogym.error import DependencyNotInstalled
from protogym.registration.plugins import FIRST_PARTY_DISTRIBUTIONS

_PER_PLUGIN = 12
# Plugins with more ids than this (Atari) are sampled before their ids are made, not after.
_MAKE_EACH_UP_TO = 64


def first_party_ids(all_up_to: int = _PER_PLUGIN) -> list[str]:
    """Every makeable id of each first-party plugin that has at most `all_up_to` of them,
    else `_PER_PLUGIN` ids spread over its sorted ids."""
    by_plugin: dict[str, list[str]] = {}
    for spec in protogym.registry.values():
        if spec.plugin in FIRST_PARTY_DISTRIBUTIONS:
            by_plugin.setdefault(spec.plugin, []).append(spec.id)
    chosen: list[str] = []
    for ids in by_plugin.values():
        ids = sorted(ids)
        if len(ids) > _MAKE_EACH_UP_TO:
            ids = _spread(ids)
        makeable = [env_id for env_id in ids if _makeable(env_id)]
        chosen += makeable if len(makeable) <= all_up_to else _spread(makeable)
    return sorted(chosen)


def _spread(ids: list[str]) -> list[str]:
    step = max(1, len(ids) // _PER_PLUGIN)
    return ids[::step][:_PER_PLUGIN]


@functools.cache
def _makeable(env_id: str) -> bool:
    try:
        quiet_make(env_id).close()
    except DependencyNotInstalled:
        return False
    return True


def quiet_make(env_id: str, **kwargs: Any) -> Any:
    """`protogym.make`, without the warning that an old version has a newer one."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return protogym.make(env_id, **kwargs)
