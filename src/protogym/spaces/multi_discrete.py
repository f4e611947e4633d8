"""`MultiDiscrete`: arrays whose entry ``i`` is one of ``start[i], ..., start[i] + nvec[i] - 1``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from protogym import logger
from protogym.spaces.base import InvalidSampleArgument, SeedLike, SpaceBase, legacy_state
from protogym.spaces.discrete import Discrete, check_mask, check_probability

__all__ = ["MultiDiscrete"]


@cache
def _limits(dtype: np.dtype[Any]) -> tuple[int, int]:
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def _int_array(name: str, value: object, dtype: np.dtype[Any]) -> NDArray[Any]:
    """`value` as a fresh integer array of `dtype`, checking that its values fit."""
    try:
        raw = np.asarray(value)
    except (ValueError, TypeError):
        raw = np.asarray(None)
    if raw.dtype.kind not in "iu" or (raw.ndim == 0 and name == "nvec"):
        raise ValueError(
            f"MultiDiscrete {name} must be an int array (or nested list of ints), got "
            f"{name}={value!r}"
        )
    if raw.dtype != dtype:
        low, high = _limits(dtype)
        if raw.size and (raw.min() < low or raw.max() > high):
            raise ValueError(
                f"MultiDiscrete {name} does not fit the {dtype} dtype, got {name}={value!r}"
            )
    return np.array(raw, dtype=dtype)


class MultiDiscrete(SpaceBase[NDArray[np.integer[Any]]]):
    """Several `Discrete` choices at once, as one integer array of ``nvec``'s shape.

    Entry ``i`` takes ``nvec[i]`` values from ``start[i]`` (default 0). Masks and
    probabilities are tuples with one 1-D array per entry, nested like ``nvec``.
    """

    nvec: NDArray[np.integer[Any]]
    start: NDArray[np.integer[Any]]

    def __init__(
        self,
        nvec: ArrayLike,
        dtype: DTypeLike = np.int64,
        seed: SeedLike = None,
        start: ArrayLike | None = None,
    ) -> None:
        advice = "use a numpy integer dtype, e.g. np.int64"
        if dtype is None:
            raise ValueError(f"MultiDiscrete dtype must not be None; {advice}")
        try:
            dt: np.dtype[Any] = np.dtype(dtype)
        except TypeError:
            raise TypeError(
                f"MultiDiscrete dtype {dtype!r} is not a numpy dtype; {advice}"
            ) from None
        if dt.kind not in "iu":
            raise ValueError(f"MultiDiscrete dtype {dt} is not an integer dtype; {advice}")
        nvec_arr = _int_array("nvec", nvec, dt)
        if not (nvec_arr > 0).all():
            raise ValueError(f"MultiDiscrete nvec must be all positive, got nvec={nvec!r}")
        if start is None:
            start_arr = np.zeros_like(nvec_arr)
        else:
            start_arr = _int_array("start", start, dt)
            if start_arr.shape != nvec_arr.shape:
                try:
                    start_arr = np.broadcast_to(start_arr, nvec_arr.shape).copy()
                except ValueError:
                    raise ValueError(
                        f"MultiDiscrete start of shape {start_arr.shape} does not broadcast to "
                        f"nvec's shape {nvec_arr.shape}"
                    ) from None
        # start + nvec - 1 <= the dtype's max, computed without overflowing (nvec >= 1).
        highest = dt.type(_limits(dt)[1]) - (nvec_arr - 1)
        if (start_arr > highest).any():
            raise ValueError(
                f"MultiDiscrete start + nvec - 1 does not fit the {dt} dtype, got "
                f"nvec={nvec!r}, start={start!r}"
            )
        super().__init__(nvec_arr.shape, dt, seed)
        self._setup(nvec_arr, start_arr)

    def _setup(self, nvec: NDArray[Any], start: NDArray[Any]) -> None:
        nvec.flags.writeable = False
        start.flags.writeable = False
        self.nvec, self.start = nvec, start
        self._nvec64 = nvec.astype(np.float64)
        self._has_start = bool(start.any())
        self._high = start + (nvec - 1)

    def __getstate__(self) -> dict[str, Any]:
        return {
            "nvec": self.nvec,
            "start": self.start,
            "_dtype": self._dtype,
            "_np_random": self._np_random,
        }

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        """Load our pickles, and Gym's and Gymnasium's (which may lack `start`)."""
        found = legacy_state(state)
        nvec = np.array(found["nvec"])
        dtype = np.dtype(found.get("_dtype", nvec.dtype))
        SpaceBase.__init__(self, nvec.shape, dtype)
        self._np_random = found.get("_np_random")
        start = found.get("start")
        self._setup(nvec, np.zeros_like(nvec) if start is None else np.array(start, dtype=dtype))

    @property
    def shape(self) -> tuple[int, ...]:
        assert self._shape is not None
        return self._shape

    @property
    def dtype(self) -> np.dtype[Any]:
        assert self._dtype is not None
        return self._dtype

    @property
    def is_np_flattenable(self) -> bool:
        return True

    def sample(
        self,
        mask: tuple[Any, ...] | None = None,
        probability: tuple[Any, ...] | None = None,
    ) -> NDArray[np.integer[Any]]:
        """Independent uniform entries, or per-entry masked / weighted draws."""
        if mask is not None and probability is not None:
            raise InvalidSampleArgument(
                "MultiDiscrete.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        if mask is not None:
            return np.array(self._masked(mask, self.nvec, self.start, True), dtype=self._dtype)
        if probability is not None:
            return np.array(
                self._masked(probability, self.nvec, self.start, False), dtype=self._dtype
            )
        rng = self._np_random
        if rng is None:
            rng = self.np_random
        draw = rng.random(self._shape)
        draw *= self._nvec64
        out = draw.astype(self._dtype)
        if self._has_start:
            out += self.start
        return out

    def _masked(self, sub_mask: Any, nvec: Any, start: Any, binary: bool) -> Any:
        """Walk `nvec` and the nested mask tuple together, drawing one entry per leaf."""
        kind = "mask" if binary else "probability"
        if isinstance(nvec, np.ndarray):
            if not isinstance(sub_mask, tuple) or len(sub_mask) != len(nvec):
                raise InvalidSampleArgument(
                    f"MultiDiscrete.sample {kind} must be a tuple of {len(nvec)} entries "
                    f"(nested like nvec={self.nvec.tolist()}), got {sub_mask!r}"
                )
            return [
                self._masked(m, n, s, binary) for m, n, s in zip(sub_mask, nvec, start, strict=True)
            ]
        rng = self.np_random
        if binary:
            allowed = np.flatnonzero(check_mask("MultiDiscrete", sub_mask, (int(nvec),)))
            if allowed.size == 0:
                return start
            return rng.choice(allowed) + start
        probs = check_probability("MultiDiscrete", sub_mask, (int(nvec),))
        valid = probs > 0
        weights = probs / probs.sum()
        return rng.choice(np.flatnonzero(valid), p=weights[valid]) + start

    def contains(self, x: Any) -> bool:
        """Whether `x` is an integer array (or nested list) of this shape within the ranges."""
        if isinstance(x, np.ndarray):
            if not np.can_cast(x.dtype, self._dtype):  # type: ignore[arg-type]
                return False
        elif isinstance(x, list | tuple):
            try:
                x = np.asarray(x)
            except (ValueError, TypeError):
                return False
            if x.dtype.kind not in "iu":
                return False
        else:
            return False
        if x.shape != self._shape:
            return False
        return bool((x >= self.start).all() and (x <= self._high).all())

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        return [np.asarray(sample).tolist() for sample in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[NDArray[np.integer[Any]]]:
        return [np.asarray(sample, dtype=self._dtype) for sample in sample_n]

    def __getitem__(self, index: int | tuple[int, ...]) -> Discrete | MultiDiscrete:
        """The sub-space at `index`, sampling from a copy of this space's generator state."""
        nvec = self.nvec[index]
        start = self.start[index]
        sub: Discrete | MultiDiscrete
        if nvec.ndim == 0:
            sub = Discrete(int(nvec), start=int(start), dtype=self.dtype)
        else:
            sub = MultiDiscrete(nvec, dtype=self.dtype, start=start)
        sub.np_random.bit_generator.state = self.np_random.bit_generator.state
        return sub

    def __len__(self) -> int:
        """The number of entries along the first axis (warns for a multi-dimensional space,
        where that is not the number of entries)."""
        if self.nvec.ndim > 1:
            logger.warn(
                f"len() of a multi-dimensional MultiDiscrete counts only its first axis "
                f"({len(self.nvec)} of shape {self.nvec.shape}); use .shape or .nvec.size"
            )
        return len(self.nvec)

    def __repr__(self) -> str:
        if self._has_start:
            return f"MultiDiscrete({self.nvec}, start={self.start})"
        return f"MultiDiscrete({self.nvec})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, MultiDiscrete)
            and self._dtype == other._dtype
            and np.array_equal(self.nvec, other.nvec)
            and np.array_equal(self.start, other.start)
        )

    __hash__ = None  # type: ignore[assignment]
