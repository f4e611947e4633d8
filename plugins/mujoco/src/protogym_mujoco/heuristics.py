"""Hand-written policies, registered as each id's "heuristic" policy (`protogym run ID --policy
heuristic`, and the docs gallery): one observation in, one action out, no state.

- The two pendulums: linear-quadratic regulators. Their gains come from the linearised
  dynamics of one env step about the upright state (finite differences of `mj_step` with the
  frame skip), with state weights diag(1, 10, 0.1, 0.1) and control weight 0.1 for the single
  pendulum, diag(1, 50, 50, 0.1, 1, 1) and 0.5 for the double one. Both hold the poles up for
  the whole 1000 steps (returns 1000 and about 9360; the thresholds are 950 and 9100).
- Reacher: a PD controller in the plane, mapped to the two joints through the arm's Jacobian
  transposed; about -6 per episode (uniform random actions: about -45).
- Swimmer: a reflex loop that turns each rotor by the sign of a linear mix of both joints'
  angles and velocities, which settles into a travelling wave; about 340 per 1000 steps
  (random: about 0). The mix was found by a short random search.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

__all__ = ["inverted_double_pendulum", "inverted_pendulum", "reacher", "swimmer"]

Observation = NDArray[np.float64]
Action = NDArray[np.float32]

_PENDULUM_GAINS = np.array([-1.7189, -12.1453, -2.0146, -1.9015])
_DOUBLE_PENDULUM_GAINS = np.array([0.0886, 1.0707, 4.7689, 0.1637, 0.6449, 0.7059])
_UPPER_ARM, _FOREARM = 0.1, 0.11  # reacher.xml: shoulder to elbow, elbow to fingertip
_REACH_GAIN, _REACH_DAMPING = 20.0, 0.1
_SWIM_MIX = np.array([[-0.17, -0.69, 0.14, 0.05], [1.63, 0.37, 0.77, -0.16]])


def inverted_pendulum(observation: Observation) -> Action:
    """Push the cart against the state: u = -K (x, angle, x velocity, angular velocity)."""
    force = -float(_PENDULUM_GAINS @ observation[:4])
    return np.array([min(max(force, -3.0), 3.0)], dtype=np.float32)


def inverted_double_pendulum(observation: Observation) -> Action:
    """u = -K (x, both hinge angles, their three velocities); the angles come from the
    observed sines and cosines."""
    first = math.atan2(observation[1], observation[3])
    second = math.atan2(observation[2], observation[4])
    state = np.array([observation[0], first, second, *observation[5:8]])
    force = -float(_DOUBLE_PENDULUM_GAINS @ state)
    return np.array([min(max(force, -1.0), 1.0)], dtype=np.float32)


def reacher(observation: Observation) -> Action:
    """Pull the fingertip towards the target, damped by the joints' velocities."""
    cos1, cos2, sin1, sin2 = observation[:4]
    cos12, sin12 = cos1 * cos2 - sin1 * sin2, sin1 * cos2 + cos1 * sin2
    jacobian = np.array(
        [
            [-_UPPER_ARM * sin1 - _FOREARM * sin12, -_FOREARM * sin12],
            [_UPPER_ARM * cos1 + _FOREARM * cos12, _FOREARM * cos12],
        ]
    )
    offset = observation[-2:]  # fingertip minus target, in the plane
    torque = jacobian.T @ (-_REACH_GAIN * offset) - _REACH_DAMPING * observation[6:8]
    return np.clip(torque, -1.0, 1.0).astype(np.float32)


def swimmer(observation: Observation) -> Action:
    """Each rotor at full torque, its sign set by a mix of the joints' angles and speeds."""
    joints = np.array([observation[1], observation[2], observation[-2], observation[-1]])
    torques: Action = np.sign(_SWIM_MIX @ joints).astype(np.float32)
    return torques
