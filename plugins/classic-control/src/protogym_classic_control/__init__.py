"""protogym's classic-control envs: CartPole, MountainCar (discrete and continuous), Pendulum
and Acrobot, with Gymnasium 1.4's dynamics.

This package stands in for ``gymnasium.envs.classic_control``: the env classes are importable
from here under Gymnasium's names (``from protogym_classic_control import CartPoleEnv``) and
from their modules. Plugin discovery imports `protogym_classic_control.plugin`, which runs
this file first, so the classes load on first access (module `__getattr__`), not here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protogym.utils.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from protogym_classic_control.acrobot import AcrobotEnv
    from protogym_classic_control.cartpole import CartPoleEnv
    from protogym_classic_control.continuous_mountain_car import (
        Continuous_MountainCarEnv,
        ContinuousMountainCarEnv,
    )
    from protogym_classic_control.mountain_car import MountainCarEnv
    from protogym_classic_control.pendulum import PendulumEnv

__all__ = [
    "AcrobotEnv",
    "CartPoleEnv",
    "ContinuousMountainCarEnv",
    "Continuous_MountainCarEnv",
    "MountainCarEnv",
    "PendulumEnv",
]
__version__ = "0.1.0"

# Each public class and the module that defines it, imported when the class is first asked for.
__getattr__, __dir__ = lazy_exports(
    globals(),
    {
        "AcrobotEnv": "acrobot",
        "CartPoleEnv": "cartpole",
        "ContinuousMountainCarEnv": "continuous_mountain_car",
        "Continuous_MountainCarEnv": "continuous_mountain_car",
        "MountainCarEnv": "mountain_car",
        "PendulumEnv": "pendulum",
    },
)
