"""Reward terms the MuJoCo envs share, as pure functions of arrays.

Every function takes the arrays of one env (an action of shape (nu,), `cfrc_ext` of shape
(nbody, 6), ...) or of a batch of envs with a leading axis ((n, nu), (n, nbody, 6), ...), and
a row of a batch gives the same bits as that env alone: the operations are elementwise, and
sums run over the last axis only, where numpy adds a contiguous row in the same order
whatever comes before it (tests/test_mujoco_terms.py checks this). The envs' own modules hold
their observations and the rest of their rewards, written the same way, so that a vector env
can compute a whole batch in numpy with the single env's arithmetic.

Gymnasium's arithmetic is kept operation by operation: a control cost is summed in the
action's own dtype (float32 for float32 actions, then multiplied by a Python float, which
keeps float32), and lengths are square roots of numpy's dot product (`np.linalg.norm`'s way),
which `np.vecdot` computes the same way row by row.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "clip",
    "control_cost",
    "length",
    "norm",
    "planar_velocity",
    "power_of_two",
    "squared_sum",
    "squared_sum_of",
]

_square = np.square
_add = np.add.reduce
_accumulate = np.add.accumulate
_vecdot = np.vecdot
_sqrt = np.sqrt
_float64 = np.float64
_math_sqrt = math.sqrt
_minimum = np.minimum
_maximum = np.maximum


def squared_sum(values: Any) -> Any:
    """The sum of squares over the last axis, in the values' dtype."""
    return _add(_square(values), -1)


def _short_squared_sum(values: Any) -> Any:
    return _accumulate(_square(values))[-1]


def squared_sum_of(size: int) -> Any:
    """A function giving `squared_sum` of one vector of `size` elements, the fastest way.

    numpy sums fewer than 8 elements one after the other (its pairwise summation starts at
    blocks of 8), which is what `np.add.accumulate` does too, at less than half the cost of
    a reduction on a small vector; longer vectors take the reduction itself. A single env's
    step takes its control cost this way.
    """
    return _short_squared_sum if 0 < size < 8 else squared_sum


def control_cost(action: Any, weight: float) -> Any:
    """`weight` times the sum of the squared controls: Gymnasium's control cost."""
    return weight * _add(_square(action), -1)


def clip(values: NDArray[np.float64], low: float, high: float) -> NDArray[np.float64]:
    """`np.clip(values, low, high)`, elementwise and without np.clip's Python overhead."""
    return _minimum(_maximum(values, low), high)


def norm(vector: NDArray[np.float64]) -> Any:
    """The Euclidean length over the last axis, computed as `np.linalg.norm` computes it."""
    return _sqrt(_vecdot(vector, vector))


def length(vector: NDArray[np.float64]) -> np.float64:
    """`norm` of one vector, a numpy float64 as np.linalg.norm gives it, in one numpy call
    (square roots are correctly rounded, in numpy and in `math` alike)."""
    return _float64(_math_sqrt(_vecdot(vector, vector)))


def planar_velocity(before: Any, after: Any, dt: float) -> Any:
    """Velocity from two positions `dt` seconds apart."""
    return (after - before) / dt


def power_of_two(values: Any) -> Any:
    """`values ** 2` as numpy computes it for one float64 scalar, element by element.

    A numpy scalar's power calls C's `pow`, which differs from `values * values` in the last
    bit about once in a thousand; numpy's array power squares instead (or, with an array
    exponent, calls a vectorized `pow` that differs more). Gymnasium squares scalars with
    `**`, so a batch does too, one element at a time.
    """
    if np.ndim(values) == 0:
        return values**2
    array = np.asarray(values, dtype=np.float64)
    squares = [math.pow(value, 2) for value in array.ravel().tolist()]
    return np.array(squares, dtype=np.float64).reshape(array.shape)
