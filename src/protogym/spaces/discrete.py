"""`Discrete`: the integers ``start, start + 1, ..., start + n - 1``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces.base import SeedLike, SpaceBase

__all__ = ["Discrete", "check_int_arg", "check_mask", "check_probability"]

_INT64 = np.dtype(np.int64)
_INT64_MIN, _INT64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
_AHEAD = 128
"""Samples drawn per generator call (see `Discrete._sample_ahead`)."""


def check_int_arg(owner: str, name: str, value: object) -> int:
    """`value` as a Python int, or a ValueError naming `owner`'s argument `name`."""
    if type(value) is int:  # the common case, without the isinstance of a union
        return value
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{owner} {name} must be an int, got {name}={value!r}")
    return int(value)


def check_mask(owner: str, mask: object, shape: tuple[int, ...]) -> NDArray[np.int8]:
    """Validate a 0/1 `np.int8` sampling mask of `shape`, as Gymnasium defines masks."""
    if not isinstance(mask, np.ndarray) or mask.dtype != np.int8 or mask.shape != shape:
        got = f"{type(mask).__name__} {getattr(mask, 'dtype', '')} {getattr(mask, 'shape', '')}"
        raise ValueError(
            f"{owner}.sample mask must be a np.int8 array of shape {shape} with 0/1 values, "
            f"got {got.strip()}: {mask!r}"
        )
    if not ((mask == 0) | (mask == 1)).all():
        raise ValueError(f"{owner}.sample mask values must be 0 or 1, got {mask!r}")
    return mask


def check_probability(owner: str, probability: object, shape: tuple[int, ...]) -> NDArray[Any]:
    """Validate a float64 probability mask of `shape` whose last axis sums to 1."""
    if (
        not isinstance(probability, np.ndarray)
        or probability.dtype != np.float64
        or probability.shape != shape
    ):
        raise ValueError(
            f"{owner}.sample probability must be a np.float64 array of shape {shape}, "
            f"got {probability!r}"
        )
    if not ((probability >= 0) & (probability <= 1)).all():
        raise ValueError(
            f"{owner}.sample probability values must lie in [0, 1], got {probability!r}"
        )
    if not np.allclose(probability.sum(axis=-1), 1):
        raise ValueError(f"{owner}.sample probability must sum to 1, got {probability!r}")
    return probability


class Discrete(SpaceBase[np.int64]):
    """``n`` consecutive integers from ``start``; samples are ``np.int64``.

    ``contains`` accepts Python ints and numpy integer scalars (or 0-d integer arrays) in
    range, so ``env.step(0)`` and ``env.step(space.sample())`` are both valid actions.
    """

    def __init__(
        self, n: int | np.integer[Any], seed: SeedLike = None, start: int | np.integer[Any] = 0
    ) -> None:
        n_int = check_int_arg("Discrete", "n", n)
        if n_int <= 0:
            raise ValueError(f"Discrete n must be a positive int, got n={n!r}")
        start_int = check_int_arg("Discrete", "start", start)
        if start_int < _INT64_MIN or start_int + n_int - 1 > _INT64_MAX:
            raise ValueError(
                f"Discrete start={start!r} and n={n!r} give values outside int64's range"
            )
        self.n = np.int64(n_int)
        self.start = np.int64(start_int)
        self._forget_ahead(owned=False)
        super().__init__((), _INT64, seed)
        self._setup()

    def _setup(self) -> None:
        self._n_int = int(self.n)
        self._lo = int(self.start)
        self._hi = self._lo + self._n_int

    # -- drawing ahead -----------------------------------------------------------------
    # `Generator.integers(n)` costs about a microsecond of argument handling per call, most
    # of a sample. Drawn `_AHEAD` at a time, numpy gives the same numbers and leaves the
    # generator in the same state as that many single calls (the tests check both), so
    # samples match Gymnasium's one by one. The draws are taken only from a generator this
    # space made itself (`seed()`) and nobody else holds: reading `np_random`, pickling or
    # handing in a generator first rewinds it to where the samples taken so far leave it,
    # and from then on each sample is one generator call, until the next `seed()`.

    def _forget_ahead(self, *, owned: bool) -> None:
        self._ahead: list[np.int64] = []
        self._taken = _AHEAD
        self._rewind: Mapping[str, Any] | None = None
        self._owned = owned

    def _settle(self, *, owned: bool) -> None:
        """Rewind the generator to where the samples taken so far leave it."""
        rewind, taken, generator = self._rewind, self._taken, self._np_random
        self._forget_ahead(owned=owned)
        if rewind is not None and taken < _AHEAD and generator is not None:
            generator.bit_generator.state = rewind
            if taken:
                generator.integers(self._n_int, size=taken)

    def _sample_ahead(self) -> np.int64:
        generator = self._np_random
        if generator is None:
            SpaceBase.seed(self)  # first use: OS entropy, and a generator of our own
            self._owned = True
            generator = self._np_random
            assert generator is not None
        if not self._owned:
            return self.start + generator.integers(self._n_int)
        self._rewind = generator.bit_generator.state
        self._ahead = list(self.start + generator.integers(self._n_int, size=_AHEAD))
        self._taken = 1
        return self._ahead[0]

    @property
    def np_random(self) -> np.random.Generator:
        """The space's generator; once read, samples draw from it one call at a time."""
        generator: np.random.Generator = SpaceBase.np_random.fget(self)  # type: ignore[attr-defined]
        self._settle(owned=False)
        return generator

    @np_random.setter
    def np_random(self, generator: np.random.Generator) -> None:
        SpaceBase.np_random.fset(self, generator)  # type: ignore[attr-defined]
        self._forget_ahead(owned=False)

    def seed(self, seed: Any | None = None) -> Any:
        used = SpaceBase.seed(self, seed)
        self._forget_ahead(owned=True)
        return used

    def __getstate__(self) -> dict[str, Any]:
        self._settle(owned=False)
        return {"n": self.n, "start": self.start, "np_random": self._np_random}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._forget_ahead(owned=False)
        SpaceBase.__init__(self, (), _INT64)
        self.n = np.int64(state["n"])
        self.start = np.int64(state.get("start", 0))
        self._np_random = state["np_random"]
        self._setup()

    @property
    def shape(self) -> tuple[int, ...]:
        return ()

    @property
    def dtype(self) -> np.dtype[np.int64]:
        return _INT64

    @property
    def is_np_flattenable(self) -> bool:
        return True

    def sample(
        self, mask: NDArray[np.int8] | None = None, probability: NDArray[np.float64] | None = None
    ) -> np.int64:
        """A uniform element; with `mask`, uniform over the allowed ones (``start`` if none);
        with `probability`, drawn with those weights."""
        if mask is None and probability is None:
            taken = self._taken
            if taken < _AHEAD:
                self._taken = taken + 1
                return self._ahead[taken]
            return self._sample_ahead()
        self._settle(owned=self._owned)
        rng = self._np_random
        if rng is None:
            rng = SpaceBase.np_random.fget(self)  # type: ignore[attr-defined]
        if mask is not None and probability is not None:
            raise ValueError(
                "Discrete.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        if mask is not None:
            allowed = np.flatnonzero(check_mask("Discrete", mask, (self._n_int,)))
            if allowed.size == 0:
                return self.start
            return self.start + np.int64(rng.choice(allowed))
        probs = check_probability("Discrete", probability, (self._n_int,))
        return self.start + np.int64(rng.choice(self._n_int, p=probs))

    def contains(self, x: Any) -> bool:
        """Whether `x` is an integer (Python, numpy scalar or 0-d array) in range."""
        kind = type(x)
        if kind is int or kind is np.int64:
            return bool(self._lo <= x < self._hi)
        if isinstance(x, bool | np.bool_):
            return False
        if isinstance(x, int):
            return bool(self._lo <= x < self._hi)
        if isinstance(x, np.generic | np.ndarray) and x.shape == () and x.dtype.kind in "iu":
            return self._lo <= int(x) < self._hi
        return False

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        return [int(x) for x in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[np.int64]:
        return [np.int64(x) for x in sample_n]

    def __repr__(self) -> str:
        return f"Discrete({self.n})" if self._lo == 0 else f"Discrete({self.n}, start={self.start})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Discrete) and self.n == other.n and self.start == other.start

    __hash__ = None  # type: ignore[assignment]
