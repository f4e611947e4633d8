"""Gymnasium's module name for CarRacing's car: `Car` is protogym's `RacingCar`.

The car lives in `protogym_box2d.racing_car`; this module gives it the import path code
written for ``gymnasium.envs.box2d.car_dynamics`` uses. Its wheels are `Wheel` records
(each holding its Box2D `body`) where Gymnasium's are the bodies themselves.
"""

from __future__ import annotations

from protogym_box2d.racing_car import (
    ENGINE_POWER,
    FRICTION_LIMIT,
    SIZE,
    WHEEL_MOMENT_OF_INERTIA,
    WHEEL_R,
    WHEEL_W,
    RacingCar,
)

__all__ = [
    "ENGINE_POWER",
    "FRICTION_LIMIT",
    "SIZE",
    "WHEEL_MOMENT_OF_INERTIA",
    "WHEEL_R",
    "WHEEL_W",
    "Car",
]

Car = RacingCar
