"""Helpers the wrappers share: running statistics, zero observations, argument checks, rescaling.

`RunningMeanStd` follows Gymnasium's parallel-variance update operation for operation, so
normalising wrappers give the same numbers; its single-sample `update_one` skips the batch
mean and variance (which for one sample are the sample itself and zero) without changing
a single rounding.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

if TYPE_CHECKING:
    from protogym.spaces import Box
    from protogym.spaces.space import Space

__all__ = [
    "AreaResize",
    "RunningMeanStd",
    "ScalarRunningMeanStd",
    "bins_array",
    "check_positive_int",
    "create_zero_array",
    "rescale_box",
    "require_box",
    "unflatten_index",
]


class RunningMeanStd:
    """Mean and variance of everything passed to `update`, with a small prior count."""

    def __init__(
        self, epsilon: float = 1e-4, shape: tuple[int, ...] = (), dtype: DTypeLike = np.float64
    ) -> None:
        self.mean: NDArray[Any] = np.zeros(shape, dtype=dtype)
        self.var: NDArray[Any] = np.ones(shape, dtype=dtype)
        self.count: float = epsilon

    def update(self, batch: NDArray[Any]) -> None:
        """Fold in a batch whose first axis indexes samples."""
        self.update_from_moments(np.mean(batch, axis=0), np.var(batch, axis=0), batch.shape[0])

    def update_one(self, sample: ArrayLike) -> None:
        """Fold in one sample; the same result as `update` on a batch of one."""
        x = np.asarray(sample)
        if x.dtype.kind in "biu":
            x = x.astype(np.float64)  # np.mean of integers is float64
        count = self.count
        delta = x - self.mean
        total = count + 1
        self.mean = self.mean + delta / total
        self.var = (self.var * count + np.square(delta) * count / total) / total
        self.count = total

    def update_from_moments(
        self, batch_mean: NDArray[Any], batch_var: NDArray[Any], batch_count: int
    ) -> None:
        delta = batch_mean - self.mean
        total = self.count + batch_count
        new_mean = self.mean + delta * batch_count / total
        m2 = (
            self.var * self.count
            + batch_var * batch_count
            + np.square(delta) * self.count * batch_count / total
        )
        self.mean, self.var, self.count = new_mean, m2 / total, total


class ScalarRunningMeanStd:
    """`RunningMeanStd` of a scalar stream in plain floats: same values, no array overhead."""

    def __init__(self, epsilon: float = 1e-4) -> None:
        self.mean = 0.0
        self.var = 1.0
        self.count = epsilon

    def update_one(self, x: float) -> None:
        count = self.count
        delta = x - self.mean
        total = count + 1
        self.mean = self.mean + delta / total
        self.var = (self.var * count + delta * delta * count / total) / total
        self.count = total


def _area_weights(size_in: int, size_out: int) -> NDArray[np.float64]:
    """`(size_out, size_in)` matrix: the share of each input pixel in each output pixel."""
    scale = size_in / size_out
    edges = np.arange(size_out + 1) * scale
    pixel = np.arange(size_in)
    overlap = np.minimum(edges[1:, None], pixel[None, :] + 1) - np.maximum(
        edges[:-1, None], pixel[None, :]
    )
    weights: NDArray[np.float64] = np.clip(overlap, 0.0, None) / scale
    return weights


class AreaResize:
    """Resizes `(H, W)` or `(H, W, C)` uint8 images to `out_hw` by area averaging.

    Each output pixel is the mean of the input area it covers, fractional pixels weighted.
    When shrinking (or keeping) both sides, this is OpenCV's `INTER_AREA` to the bit, without
    OpenCV: whole-number factors average blocks as its fast path does, other factors weigh
    the same source pixels, in single precision and in the same order, as its general path.
    Enlarging a side uses plain area weights in double precision (OpenCV interpolates
    there). Weights are kept per output row and column, a few source indices each, and
    applied by gathering: no matrix product, whose BLAS threads would cost far more than the
    arithmetic on images this small.
    """

    def __init__(self, in_hw: tuple[int, int], out_hw: tuple[int, int]) -> None:
        self._in_hw = in_hw
        self._out_hw = out_hw
        factors = (in_hw[0] / out_hw[0], in_hw[1] / out_hw[1])
        self._blocks: tuple[int, int] | None = None
        if all(f >= 1 for f in factors):
            if all(size % out == 0 for size, out in zip(in_hw, out_hw, strict=True)):
                self._blocks = (in_hw[0] // out_hw[0], in_hw[1] // out_hw[1])
            self._rows, self._row_weights = _opencv_area_table(in_hw[0], out_hw[0])
            self._cols, self._col_weights = _opencv_area_table(in_hw[1], out_hw[1])
            self._exact = True
        else:
            self._rows, self._row_weights = _band(_area_weights(in_hw[0], out_hw[0]))
            self._cols, self._col_weights = _band(_area_weights(in_hw[1], out_hw[1]))
            self._exact = False

    def __call__(self, image: NDArray[Any]) -> NDArray[np.uint8]:
        if self._blocks is not None:
            return self._block_mean(image, *self._blocks)
        dtype = np.float32 if self._exact else np.float64
        pixels: NDArray[np.floating[Any]] = image.astype(dtype)
        channels = (1,) * (pixels.ndim - 2)
        # Columns first, then rows, each a running sum over the table's slots in order.
        cols, col_weights = self._cols, self._col_weights.reshape(
            (*self._col_weights.shape, *channels)
        )
        across: NDArray[np.floating[Any]] = pixels[:, cols[:, 0]] * col_weights[:, 0]
        for slot in range(1, cols.shape[1]):
            across += pixels[:, cols[:, slot]] * col_weights[:, slot]
        rows, row_weights = self._rows, self._row_weights.reshape(
            (*self._row_weights.shape, 1, *channels)
        )
        resized: NDArray[np.floating[Any]] = row_weights[:, 0] * across[rows[:, 0]]
        for slot in range(1, rows.shape[1]):
            resized += row_weights[:, slot] * across[rows[:, slot]]
        out: NDArray[np.uint8] = np.clip(np.rint(resized), 0, 255).astype(np.uint8)
        return out

    def _block_mean(self, image: NDArray[Any], high: int, wide: int) -> NDArray[np.uint8]:
        out_h, out_w = self._out_hw
        blocks = image.astype(np.int32).reshape(out_h, high, out_w, wide, *image.shape[2:])
        sums = blocks.sum(axis=(1, 3))
        if high == wide == 2:  # OpenCV's vectorised 2x2 case rounds halves up
            halves_up: NDArray[np.uint8] = ((sums + 2) >> 2).astype(np.uint8)
            return halves_up
        scaled = sums.astype(np.float32) * np.float32(1.0 / (high * wide))
        out: NDArray[np.uint8] = np.clip(np.rint(scaled), 0, 255).astype(np.uint8)
        return out


def _opencv_area_table(size_in: int, size_out: int) -> tuple[NDArray[np.intp], NDArray[Any]]:
    """OpenCV's area table for one side: per output pixel, the source pixels it covers and
    their float32 shares, a partial pixel's share skipped below 1e-3, padded with zeros."""
    scale = 1.0 / (size_out / size_in)  # as OpenCV derives it, from the inverse
    entries: list[list[tuple[int, float]]] = []
    for dst in range(size_out):
        start = dst * scale
        stop = start + scale
        cell = min(scale, size_in - start)
        first = math.ceil(start)
        last = min(math.floor(stop), size_in - 1)
        first = min(first, last)
        found = []
        if first - start > 1e-3:
            found.append((first - 1, (first - start) / cell))
        found.extend((src, 1.0 / cell) for src in range(first, last))
        if stop - last > 1e-3:
            found.append((last, min(min(stop - last, 1.0), cell) / cell))
        entries.append(found)
    width = max(len(found) for found in entries)
    index = np.zeros((size_out, width), dtype=np.intp)
    shares = np.zeros((size_out, width), dtype=np.float32)
    for dst, found in enumerate(entries):
        for slot, (src, share) in enumerate(found):
            index[dst, slot] = src
            shares[dst, slot] = share
    return index, shares


def _band(weights: NDArray[np.float64]) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """The non-zero band of an `(out, in)` weight matrix: for each output, the indices of
    the inputs it mixes and their weights, padded with zero weights to a common width."""
    nonzero = weights > 0
    first = nonzero.argmax(axis=1)
    width = int(nonzero.sum(axis=1).max())
    index = first[:, None] + np.arange(width)
    inside = index < weights.shape[1]
    index = np.minimum(index, weights.shape[1] - 1)
    band = np.where(inside, np.take_along_axis(weights, index, axis=1), 0.0)
    return index, band


def create_zero_array(space: Space[Any]) -> Any:
    """The element of `space` closest to zero (per coordinate), used for padding."""
    from protogym import spaces

    if isinstance(space, spaces.Box):
        zero = np.zeros(space.shape, dtype=space.dtype)
        zero = np.where(space.low > 0, space.low, zero)
        return np.where(space.high < 0, space.high, zero).astype(space.dtype)
    if isinstance(space, spaces.Discrete):
        return space.start
    if isinstance(space, spaces.MultiDiscrete):
        return np.array(space.start, copy=True, dtype=space.dtype)
    if isinstance(space, spaces.MultiBinary):
        return np.zeros(space.shape, dtype=space.dtype)
    if isinstance(space, spaces.Tuple):
        return tuple(create_zero_array(sub) for sub in space.spaces)
    if isinstance(space, spaces.Dict):
        return {key: create_zero_array(sub) for key, sub in space.spaces.items()}
    if isinstance(space, spaces.Text):
        return "".join(space.characters[0] for _ in range(space.min_length))
    raise ValueError(
        f"cannot build a zero observation for {space!r}: only Box, Discrete, MultiDiscrete, "
        "MultiBinary, Tuple, Dict and Text spaces have one; pass an explicit padding value"
    )


def check_positive_int(owner: str, name: str, value: object, minimum: int = 1) -> int:
    """`value` as an int, or a ValueError naming the wrapper, the argument and the bound."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{owner}: {name} must be an int, got {value!r}")
    if value < minimum:
        raise ValueError(f"{owner}: {name} must be at least {minimum}, got {value}")
    return int(value)


def bins_array(owner: str, bins: int | tuple[int, ...], n_dims: int) -> NDArray[np.int64]:
    """Per-dimension bin counts from an int (same for all) or a tuple of `n_dims` ints."""
    if isinstance(bins, int | np.integer) and not isinstance(bins, bool):
        return np.full(n_dims, check_positive_int(owner, "bins", bins), dtype=np.int64)
    values = list(bins) if isinstance(bins, tuple | list) else None
    if values is None or len(values) != n_dims:
        raise ValueError(
            f"{owner}: bins must be an int or a tuple of {n_dims} ints (one per dimension), "
            f"got {bins!r}"
        )
    return np.array([check_positive_int(owner, "each bin count", b) for b in values], np.int64)


def unflatten_index(index: int, bins: NDArray[np.int64]) -> list[int]:
    """Row-major digits of `index` in the mixed radix `bins` (the inverse of a flat index)."""
    digits: list[int] = []
    for base in reversed(bins.tolist()):
        digits.append(index % base)
        index //= base
    digits.reverse()
    return digits


def require_box(owner: str, what: str, space: Space[Any]) -> Box:
    """`space` if it is a `Box`, else a ValueError saying the wrapper needs one."""
    from protogym.spaces import Box

    if not isinstance(space, Box):
        raise ValueError(
            f"{owner} needs a Box {what} space, got {space!r}; it only works on continuous "
            "array spaces"
        )
    return space


def _bound_array(name: str, value: ArrayLike, shape: tuple[int, ...]) -> NDArray[Any]:
    arr = np.asarray(value)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be a number or a numeric array, got {value!r}")
    if arr.ndim == 0:
        return np.full(shape, arr)
    if arr.shape != shape:
        raise ValueError(f"{name} must be a scalar or have shape {shape}, got shape {arr.shape}")
    return arr


def rescale_box(
    box: Box, new_min: ArrayLike, new_max: ArrayLike, owner: str = "rescale_box"
) -> tuple[Box, Callable[[NDArray[Any]], NDArray[Any]], Callable[[NDArray[Any]], NDArray[Any]]]:
    """The box with bounds `[new_min, new_max]` and the affine maps into it and back.

    Unbounded coordinates must stay unbounded on the same side. The slope is computed in
    extended precision (as Gymnasium does) so that the bounds map onto each other exactly.
    """
    from protogym.spaces import Box

    low = _bound_array(f"{owner}: the new minimum", new_min, box.shape)
    high = _bound_array(f"{owner}: the new maximum", new_max, box.shape)
    if not np.all((low == box.low)[np.isinf(low) | np.isinf(box.low)]):
        raise ValueError(
            f"{owner}: an infinite lower bound must stay the same infinity, got new minimum "
            f"{low} for low {box.low}"
        )
    if not np.all((high == box.high)[np.isinf(high) | np.isinf(box.high)]):
        raise ValueError(
            f"{owner}: an infinite upper bound must stay the same infinity, got new maximum "
            f"{high} for high {box.high}"
        )
    if not np.all(low <= high):
        raise ValueError(f"{owner}: the new minimum {low} must be <= the new maximum {high}")
    min_finite = np.isfinite(low)
    max_finite = np.isfinite(high)
    both = min_finite & max_finite
    span = np.array(box.high[both], dtype=np.longdouble) - np.array(
        box.low[both], dtype=np.longdouble
    )
    gradient = np.ones_like(low, dtype=box.dtype)
    gradient[both] = (high[both] - low[both]) / span
    intercept = np.zeros_like(low, dtype=box.dtype)
    intercept[max_finite] = high[max_finite] - box.high[max_finite]
    intercept[min_finite] = gradient[min_finite] * -box.low[min_finite] + low[min_finite]
    new_box = Box(low=low, high=high, shape=box.shape, dtype=box.dtype)

    def forward(x: NDArray[Any]) -> NDArray[Any]:
        result: NDArray[Any] = gradient * x + intercept
        return result

    def backward(x: NDArray[Any]) -> NDArray[Any]:
        result: NDArray[Any] = (x - intercept) / gradient
        return result

    return new_box, forward, backward
