"""`MultiBinary`: arrays of 0/1 flags of a fixed shape, stored as ``np.int8``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces.base import InvalidSampleArgument, SeedLike, SpaceBase

__all__ = ["MultiBinary"]

_INT8 = np.dtype(np.int8)


def _check_n(n: object) -> tuple[int, ...]:
    dims: tuple[object, ...] | None = None
    if isinstance(n, int | np.integer) and not isinstance(n, bool):
        dims = (n,)
    elif isinstance(n, Sequence | np.ndarray) and not isinstance(n, str):
        dims = tuple(n)
    if dims is None or not all(
        isinstance(d, int | np.integer) and not isinstance(d, bool) and d > 0 for d in dims
    ):
        raise ValueError(
            f"MultiBinary n must be a positive int or a sequence of positive ints, got n={n!r}"
        )
    return tuple(int(d) for d in dims)  # type: ignore[call-overload]


class MultiBinary(SpaceBase[NDArray[np.int8]]):
    """Arrays of ``shape`` (``(n,)`` for an int ``n``) whose entries are 0 or 1.

    Sampling tosses one fair coin per entry; a mask fixes entries (0 or 1) or leaves them
    random (2), and a probability array gives each entry's chance of being 1.
    """

    def __init__(self, n: int | Sequence[int] | NDArray[np.integer[Any]], seed: SeedLike = None):
        shape = _check_n(n)
        self.n: int | tuple[int, ...] = shape[0] if isinstance(n, int | np.integer) else shape
        super().__init__(shape, _INT8, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        assert self._shape is not None
        return self._shape

    @property
    def dtype(self) -> np.dtype[np.int8]:
        return _INT8

    @property
    def is_np_flattenable(self) -> bool:
        return True

    def sample(
        self, mask: NDArray[np.int8] | None = None, probability: NDArray[np.float64] | None = None
    ) -> NDArray[np.int8]:
        """Fair coin tosses; `mask` 0/1 fixes an entry and 2 leaves it random;
        `probability` is each entry's chance of a 1."""
        if mask is not None and probability is not None:
            raise InvalidSampleArgument(
                "MultiBinary.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        if mask is not None:
            if (
                not isinstance(mask, np.ndarray)
                or mask.dtype != np.int8
                or mask.shape != self.shape
            ):
                raise InvalidSampleArgument(
                    f"MultiBinary.sample mask must be a np.int8 array of shape {self.shape} "
                    f"with values 0, 1 or 2, got {mask!r}"
                )
            if not ((mask == 0) | (mask == 1) | (mask == 2)).all():
                raise InvalidSampleArgument(
                    f"MultiBinary.sample mask values must be 0, 1 or 2, got {mask!r}"
                )
            coins = self.np_random.integers(0, 2, size=self.n, dtype=np.int8)
            return np.where(mask == 2, coins, mask)
        if probability is not None:
            probs = np.asarray(probability)
            if probs.dtype != np.float64 or probs.shape != self.shape:
                raise InvalidSampleArgument(
                    f"MultiBinary.sample probability must be a np.float64 array of shape "
                    f"{self.shape}, got {probability!r}"
                )
            if not ((probs >= 0) & (probs <= 1)).all():
                raise InvalidSampleArgument(
                    f"MultiBinary.sample probability values must lie in [0, 1], got {probs!r}"
                )
            return (self.np_random.random(self.shape) <= probs).astype(np.int8)
        rng = self._np_random
        if rng is None:
            rng = self.np_random
        return rng.integers(0, 2, size=self.n, dtype=np.int8)

    def contains(self, x: Any) -> bool:
        """Whether `x` is an integer or bool array (or nested list) of this shape of 0s and 1s."""
        if not isinstance(x, np.ndarray):
            if not isinstance(x, list | tuple):
                return False
            try:
                x = np.asarray(x)
            except (ValueError, TypeError):
                return False
        if x.shape != self._shape or x.dtype.kind not in "biu":
            return False
        return bool(((x == 0) | (x == 1)).all())

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        return [np.asarray(sample).tolist() for sample in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[NDArray[np.int8]]:
        return [np.asarray(sample, dtype=np.int8) for sample in sample_n]

    def __repr__(self) -> str:
        return f"MultiBinary({self.n})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MultiBinary) and self._shape == other._shape

    __hash__ = None  # type: ignore[assignment]
