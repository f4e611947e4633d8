"""Hand-written policies that show what each env is for: a random agent drops CartPole's
pole at once and never gets MountainCar's car out of the valley.

Registered as each id's "heuristic" policy, so ``protogym run MountainCar-v0 --policy
heuristic`` and the docs gallery show a solved episode. Each maps one observation to one
action, from the observation alone.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

__all__ = ["acrobot", "cartpole", "continuous_mountain_car", "mountain_car", "pendulum"]


def cartpole(observation: NDArray[np.float32]) -> int:
    """Push the cart under the way the pole is falling (its angle plus a bit of its speed)."""
    _, _, angle, angular_velocity = observation.tolist()
    return int(angle + 0.5 * angular_velocity > 0.0)


def mountain_car(observation: NDArray[np.float32]) -> int:
    """Push along the car's velocity: each swing climbs higher, until it reaches the flag."""
    return 2 if float(observation[1]) >= 0.0 else 0


def continuous_mountain_car(observation: NDArray[np.float32]) -> NDArray[np.float32]:
    """Full force along the velocity, as `mountain_car`."""
    return np.array([1.0 if float(observation[1]) >= 0.0 else -1.0], dtype=np.float32)


def acrobot(observation: NDArray[np.float32]) -> int:
    """Torque along the second joint's swing: it pumps energy into both links until the tip
    clears the line."""
    return 2 if float(observation[5]) > 0.0 else 0


def pendulum(observation: NDArray[np.float32]) -> NDArray[np.float32]:
    """Swing up by adding energy along the motion until the pendulum has the energy of the
    upright position; near the top, hold it there with a PD law."""
    cos, sin, angular_velocity = (float(v) for v in observation)
    angle = math.atan2(sin, cos)  # 0 is upright
    if cos > 0.93 and abs(angular_velocity) < 4.0:
        torque = -8.0 * angle - 1.5 * angular_velocity
    else:
        # energy relative to hanging still, in the env's units (upright and still: 5)
        energy = angular_velocity * angular_velocity / 6.0 + 5.0 * cos
        direction = 1.0 if angular_velocity >= 0.0 else -1.0
        torque = 2.0 * (5.0 - energy) * direction
    return np.array([min(max(torque, -2.0), 2.0)], dtype=np.float32)

