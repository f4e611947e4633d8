"""`AreaResize`: OpenCV's `INTER_AREA` shrinking to the bit, in numpy, fast enough for Atari.

OpenCV sums each output pixel in single precision: first across the columns of every source
row it covers, then down those rows, with float32 weights. Replaying those roundings in
numpy takes one gather, multiply and add per table slot over the full-height image (about
80 µs for a 210x160 Atari frame). The area shares are rationals, though: for 210x160 to
84x84 every output pixel is an integer over 200. So the pixels are summed exactly in
integers instead, rows first (whole-row gathers are cheap), and only the output pixels whose
exact value lies at (or, for large denominators, next to) a rounding tie, where OpenCV's
float roundings decide the result, are recomputed OpenCV's way.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["AreaResize"]


class AreaResize:
    """Resizes `(H, W)` or `(H, W, C)` uint8 images to `out_hw` by area averaging.

    Each output pixel is the mean of the input area it covers, fractional pixels weighted.
    When shrinking (or keeping) both sides, this is OpenCV's `INTER_AREA` to the bit, without
    OpenCV: whole-number factors average blocks as its fast path does, other factors give
    the pixels its general path computes in single precision. Enlarging a side uses plain
    area weights in double precision (OpenCV interpolates there).
    """

    def __init__(self, in_hw: tuple[int, int], out_hw: tuple[int, int]) -> None:
        self._in_hw = in_hw
        self._out_hw = out_hw
        self._blocks: tuple[int, int] | None = None
        self._integer: tuple[_IntegerTable, _IntegerTable] | None = None
        if all(size >= out for size, out in zip(in_hw, out_hw, strict=True)):
            if all(size % out == 0 for size, out in zip(in_hw, out_hw, strict=True)):
                self._blocks = (in_hw[0] // out_hw[0], in_hw[1] // out_hw[1])
            self._rows, self._row_weights = _opencv_area_table(in_hw[0], out_hw[0])
            self._cols, self._col_weights = _opencv_area_table(in_hw[1], out_hw[1])
            self._exact = True
            rows = _IntegerTable.matching(in_hw[0], out_hw[0], self._rows, self._row_weights)
            cols = _IntegerTable.matching(in_hw[1], out_hw[1], self._cols, self._col_weights)
            if rows is not None and cols is not None:
                self._integer = (rows, cols)
                # How far OpenCV's float32 sums can stray from the exact value: a few units
                # in the last place of 255 per product and sum, with a wide margin. Exact
                # values farther than this from a rounding tie round the same either way.
                slots = self._rows.shape[1] + self._cols.shape[1] + 3
                self._slack = 1e-6 * 255 * slots
                self._denominator = rows.denominator * cols.denominator
                self._sum_dtype = np.min_scalar_type(255 * self._denominator)
        else:
            self._rows, self._row_weights = _band(_area_weights(in_hw[0], out_hw[0]))
            self._cols, self._col_weights = _band(_area_weights(in_hw[1], out_hw[1]))
            self._exact = False

    def __call__(self, image: NDArray[Any]) -> NDArray[np.uint8]:
        if self._blocks is not None:
            return self._block_mean(image, *self._blocks)
        if self._integer is not None and image.dtype == np.uint8:
            return self._integer_mean(image, *self._integer)
        return self._float_mean(image)

    def _integer_mean(
        self, image: NDArray[Any], rows: _IntegerTable, cols: _IntegerTable
    ) -> NDArray[np.uint8]:
        # Every slot at once: one gather, one multiply and one sum per side (the sums are
        # exact, so their order is free), in the narrowest integer type that holds them.
        denominator, dtype = self._denominator, self._sum_dtype
        out_h, out_w = self._out_hw
        gathered = image[rows.flat_index].reshape(rows.slots, out_h, *image.shape[1:])
        weighted = np.multiply(gathered, rows.weights_for(dtype, image.ndim - 1), dtype=dtype)
        tall = weighted.sum(axis=0, dtype=dtype)
        gathered = tall[:, cols.flat_index].reshape(out_h, cols.slots, out_w, *image.shape[2:])
        weighted = np.multiply(gathered, cols.weights_for(dtype, image.ndim - 2), dtype=dtype)
        sums = weighted.sum(axis=1, dtype=dtype)
        # Far from ties, float32 division rounds like the exact quotient: its error (a few
        # 1e-5) is well inside the slack, so every pixel it could misjudge is redone.
        quotient = sums.astype(np.float32) * np.float32(1.0 / denominator)
        rounded = np.rint(quotient)
        near_tie = np.abs(quotient - rounded) >= 0.5 - 2 * self._slack
        out: NDArray[np.uint8] = rounded.astype(np.uint8)
        if near_tie.any():
            where = np.unravel_index(np.flatnonzero(near_tie), near_tie.shape)
            out[where] = self._float_pixels(image, where)
        return out

    def _float_pixels(
        self, image: NDArray[Any], where: tuple[NDArray[np.intp], ...]
    ) -> NDArray[np.uint8]:
        """The output pixels at `where`, summed as OpenCV sums them, roundings and all."""
        ys, xs = where[0], where[1]
        rows, cols = self._rows[ys], self._cols[xs]
        index: tuple[NDArray[np.intp], ...] = (rows[:, :, None], cols[:, None, :])
        if image.ndim == 3:
            index = (*index, where[2][:, None, None])
        patch = image[index].astype(np.float32)  # (pixels, row slots, column slots)
        col_weights, row_weights = self._col_weights[xs][:, None], self._row_weights[ys]
        across = patch[:, :, 0] * col_weights[:, :, 0]
        for slot in range(1, cols.shape[1]):
            across += patch[:, :, slot] * col_weights[:, :, slot]
        total = row_weights[:, 0] * across[:, 0]
        for slot in range(1, rows.shape[1]):
            total += row_weights[:, slot] * across[:, slot]
        pixels: NDArray[np.uint8] = np.clip(np.rint(total), 0, 255).astype(np.uint8)
        return pixels

    def _float_mean(self, image: NDArray[Any]) -> NDArray[np.uint8]:
        """Every pixel in floating point: columns first, then rows, each a running sum over
        the table's slots in order (OpenCV's order, when shrinking)."""
        dtype = np.float32 if self._exact else np.float64
        pixels: NDArray[np.floating[Any]] = image.astype(dtype)
        channels = (1,) * (pixels.ndim - 2)
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


class _IntegerTable:
    """One side's exact area shares as integers over a common `denominator`, in OpenCV's
    table layout (the same source indices in the same slots), flattened slot by slot."""

    def __init__(self, index: NDArray[np.intp], weights: NDArray[np.int64], denominator: int):
        self.slots = index.shape[1]
        self.flat_index = np.ascontiguousarray(index.T).reshape(-1)
        self._weights = np.ascontiguousarray(weights.T)  # (slots, size_out)
        self._typed: dict[tuple[np.dtype[Any], int], NDArray[Any]] = {}
        self.denominator = denominator

    def weights_for(self, dtype: np.dtype[Any], trailing: int) -> NDArray[Any]:
        """The `(slots, size_out)` weights as `dtype`, with `trailing` axes to broadcast."""
        key = (dtype, trailing)
        if key not in self._typed:
            shape = (*self._weights.shape, *(1,) * trailing)
            self._typed[key] = self._weights.astype(dtype).reshape(shape)
        return self._typed[key]

    @classmethod
    def matching(
        cls, size_in: int, size_out: int, index: NDArray[np.intp], shares: NDArray[Any]
    ) -> _IntegerTable | None:
        """The exact shares behind OpenCV's float32 `shares`, or None where OpenCV's table
        is not the exact areas (it drops slivers under 1e-3 of a pixel)."""
        # In units of 1/size_out, output pixel d spans [d*size_in, (d+1)*size_in) and source
        # pixel s spans [s*size_out, (s+1)*size_out); a share is their overlap over size_in.
        dst = np.arange(size_out)[:, None]
        src = index
        overlap = np.minimum((dst + 1) * size_in, (src + 1) * size_out) - np.maximum(
            dst * size_in, src * size_out
        )
        overlap = np.where(shares > 0, np.clip(overlap, 0, None), 0)
        covered = overlap.sum(axis=1)
        if np.any(covered != size_in) or not np.allclose(overlap / size_in, shares, atol=1e-6):
            return None
        common = math.gcd(size_in, *(int(v) for v in np.unique(overlap)))
        return cls(index, (overlap // common).astype(np.int64), size_in // common)


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
