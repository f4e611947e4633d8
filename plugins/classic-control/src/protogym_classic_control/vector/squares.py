"""Squares of a whole batch, rounded as Gymnasium's scalar `x ** 2` rounds them.

Gymnasium squares numpy scalars (`thdot**2`, `u**2`), and numpy computes a scalar's power with
the C library's `pow` (float64) or `powf` (float32), as Python does `x ** 2` for a float.
glibc's are not correctly rounded: for about one input in a thousand the result is one ulp
from the correctly rounded `x * x`, which is what numpy gives for arrays. The single envs square
with the scalar power itself; a vector env squares its batch correctly rounded and squares
again, one by one with the scalar power, only the elements whose exact square lies within a
margin of a rounding midpoint, the only ones the C library can round the other way. Small
batches are squared one by one outright, which costs less than finding those elements.

The margins hold for glibc's `pow` and `powf` (2.28 and later, the versions with the current
algorithms), the C library numpy uses on Linux:

- float32 (`powf`, Pendulum's torque in [-2, 2]): every float32 in [-2, 2] was tried, and all
  785,120 whose `powf(x, 2)` is not the correctly rounded square lie within 0.00166 ulp of a
  midpoint (glibc 2.36, x86-64); the margin is 0.004 ulp.
- float64 (`pow`): glibc's error analysis of `pow` bounds the error by 0.511 ulp (its `exp`)
  plus |y ln x| * 1.5 * 2**-68 * 2**53 ulp (its `log`), which for y = 2 and |x| <= 2**64 is
  0.515 ulp: a result off the correct rounding lies within 0.015 ulp of a midpoint; the margin
  is 0.02 ulp, and larger |x| are always squared again. (Of 1.4 billion random x between
  2**-30 and 64, the farthest misrounded square was 0.0097 ulp from a midpoint.)

With another C library (macOS, Windows) the scalar power may round differently; the small-batch
path is exact anywhere, the large-batch one as far as the margins hold there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["POWF_MARGIN", "POW_MARGIN", "pow_squares", "powf_squares"]

POWF_MARGIN = 0.004
"""How close (in float32 ulps) to a rounding midpoint an exact square must be for `powf` to
round it the other way, with room: the largest distance measured over [-2, 2] is 0.00166."""

POW_MARGIN = 0.02
"""The same for float64's `pow` and |x| <= 2**64, from glibc's error bound (0.515 ulp there)."""

# Up to these sizes squaring each element with the scalar power costs less than finding the
# few that need it (measured with numpy 2.4: the two cost the same near 160 and 30 elements).
POW_ONE_BY_ONE = 128
POWF_ONE_BY_ONE = 32

_SPLIT = 2.0**27 + 1  # Veltkamp's constant: splits a float64 into two 26-bit halves
_EXACT_ABOVE = 2.0**-968  # below this, the error of a float64 square may not be exact
_MARGIN_HOLDS_UP_TO = 2.0**128  # POW_MARGIN is established for squares up to this


def pow_squares(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """`x ** 2` of each float64 element, as Python's `float ** 2` (C `pow`) gives it."""
    if x.size <= POW_ONE_BY_ONE:
        return _scalar_squares(x)
    squares = x * x
    # The exact rounding error of each square (Dekker's product on Veltkamp's split).
    with np.errstate(invalid="ignore", over="ignore"):  # inf squares are redone below
        scaled = _SPLIT * x
        high = scaled - (scaled - x)
        low = x - high
        error = ((high * high - squares) + 2.0 * high * low) + low * low
    near = _near_midpoint(error, squares, POW_MARGIN)
    if not _EXACT_ABOVE <= squares.min() <= squares.max() <= _MARGIN_HOLDS_UP_TO:
        near |= (squares > _MARGIN_HOLDS_UP_TO) | ((squares < _EXACT_ABOVE) & (squares != 0.0))
    _redo(squares, x, near)
    return squares


def powf_squares(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """`x ** 2` of each float32 element, as numpy's float32 scalar power (C `powf`) gives it.

    Only established for |x| <= 2 (see `POWF_MARGIN`).
    """
    if x.size <= POWF_ONE_BY_ONE:
        return np.array([value**2 for value in x.ravel()], dtype=np.float32).reshape(x.shape)
    wide = x.astype(np.float64)
    exact = wide * wide  # a float32's square is exact in float64
    squares = exact.astype(np.float32)
    near = _near_midpoint(exact - squares, squares, POWF_MARGIN)
    _redo(squares, x, near)
    return squares


def _near_midpoint(error: NDArray[Any], rounded: NDArray[Any], margin: float) -> NDArray[np.bool_]:
    """Where the exact square `rounded + error` lies within `margin` ulps of a rounding midpoint.

    The ulp is the gap above `rounded`, which is the gap around it except at a normal power of
    two; no square of a float32 or float64 rounds down to one (the integer nearest
    sqrt(2) * 2**23 or 2**52, squared, misses 2**47 or 2**105 by more than a half ulp below).
    """
    return np.abs(error / np.spacing(rounded)) >= 0.5 - margin  # type: ignore[no-any-return]


def _redo(squares: NDArray[Any], x: NDArray[Any], near: NDArray[np.bool_]) -> None:
    """Square the flagged elements again with the scalar power."""
    if near.any():
        where = np.nonzero(near)
        flagged = x[where]
        if flagged.dtype == np.float64:
            squares[where] = _scalar_squares(flagged)
        else:
            squares[where] = [value**2 for value in flagged]


def _scalar_squares(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Python's `float ** 2` of each element (quicker to call than numpy's scalar power, and
    the same `pow`), or numpy's where a square overflows: Python raises, numpy gives inf."""
    try:
        return np.array([value**2 for value in x.ravel().tolist()]).reshape(x.shape)
    except OverflowError:
        return np.array([value**2 for value in x.ravel()]).reshape(x.shape)
