"""protogym's Box2D envs: LunarLander, BipedalWalker and CarRacing, with Gymnasium 1.4's dynamics.

This package stands in for ``gymnasium.envs.box2d``: the env classes are importable from here
under Gymnasium's names (``from protogym_box2d import BipedalWalker``) and from their modules.
Plugin discovery imports `protogym_box2d.plugin`, which runs this file first, so the classes
(and Box2D) load on first access (module `__getattr__`), never during discovery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protogym.utils.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from protogym_box2d.bipedal_walker import (
        BipedalWalker,
        BipedalWalkerEnv,
        BipedalWalkerHardcore,
    )
    from protogym_box2d.car_racing import CarRacing, CarRacingEnv
    from protogym_box2d.lunar_lander import LunarLander, LunarLanderContinuous, LunarLanderEnv

__all__ = [
    "BipedalWalker",
    "BipedalWalkerEnv",
    "BipedalWalkerHardcore",
    "CarRacing",
    "CarRacingEnv",
    "LunarLander",
    "LunarLanderContinuous",
    "LunarLanderEnv",
]
__version__ = "0.1.0"

# Each public class and the module that defines it, imported when the class is first asked for.
__getattr__, __dir__ = lazy_exports(
    globals(),
    {
        "BipedalWalker": "bipedal_walker",
        "BipedalWalkerEnv": "bipedal_walker",
        "BipedalWalkerHardcore": "bipedal_walker",
        "CarRacing": "car_racing",
        "CarRacingEnv": "car_racing",
        "LunarLander": "lunar_lander",
        "LunarLanderContinuous": "lunar_lander",
        "LunarLanderEnv": "lunar_lander",
    },
)
