"""Where Gymnasium's ``gymnasium.envs`` stands: the registry and the functions over it.

protogym's environments are not here: they ship as plugins (``protogym_classic_control``
and the others), so this package only re-exports `protogym.registration`'s names, under
Gymnasium's paths (``protogym.envs.registry``, ``protogym.envs.registration.EnvSpec``).
"""

from __future__ import annotations

from protogym.envs import registration
from protogym.registration import (
    make,
    make_vec,
    pprint_registry,
    register,
    register_envs,
    registry,
    spec,
)

__all__ = [
    "make",
    "make_vec",
    "pprint_registry",
    "register",
    "register_envs",
    "registration",
    "registry",
    "spec",
]
