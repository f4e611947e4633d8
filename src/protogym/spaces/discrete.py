"""`Discrete`: the integers ``start, start + 1, ..., start + n - 1``."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, cast, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray
from typing_extensions import TypeVar

from protogym.spaces.base import InvalidSampleArgument, SeedLike, SpaceBase, legacy_state

__all__ = ["Discrete", "check_int_arg", "check_mask", "check_probability"]

IntT_co = TypeVar("IntT_co", bound=np.integer[Any], covariant=True, default=np.int64)
"""The numpy integer type of a `Discrete`'s samples (``np.int64`` unless `dtype` says)."""

_INT64 = np.dtype(np.int64)
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
        raise InvalidSampleArgument(
            f"{owner}.sample mask must be a np.int8 array of shape {shape} with 0/1 values, "
            f"got {got.strip()}: {mask!r}"
        )
    if not ((mask == 0) | (mask == 1)).all():
        raise InvalidSampleArgument(f"{owner}.sample mask values must be 0 or 1, got {mask!r}")
    return mask


def check_probability(owner: str, probability: object, shape: tuple[int, ...]) -> NDArray[Any]:
    """Validate a float64 probability mask of `shape` whose last axis sums to 1."""
    if (
        not isinstance(probability, np.ndarray)
        or probability.dtype != np.float64
        or probability.shape != shape
    ):
        raise InvalidSampleArgument(
            f"{owner}.sample probability must be a np.float64 array of shape {shape}, "
            f"got {probability!r}"
        )
    if not ((probability >= 0) & (probability <= 1)).all():
        raise InvalidSampleArgument(
            f"{owner}.sample probability values must lie in [0, 1], got {probability!r}"
        )
    if not np.allclose(probability.sum(axis=-1), 1):
        raise InvalidSampleArgument(
            f"{owner}.sample probability must sum to 1, got {probability!r}"
        )
    return probability


def _integer(name: str, value: object) -> int:
    """`value` as a Python int, or a TypeError naming the `Discrete` argument `name`."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"Discrete {name} must be an int, got {name}={value!r}")
    return int(value)


@functools.cache
def _integer_limits(dt: np.dtype[Any]) -> tuple[int, int]:
    """The smallest and largest value of the integer dtype `dt` (numpy's `iinfo` look-up
    costs about a microsecond, a noticeable share of building a `Discrete`)."""
    info = np.iinfo(dt)
    return int(info.min), int(info.max)


def _integer_dtype(dtype: object) -> np.dtype[Any]:
    bad = TypeError(
        f"Discrete dtype must be a numpy integer dtype, got dtype={dtype!r}; "
        "use e.g. np.int64, np.int32 or np.uint8"
    )
    if dtype is None:
        raise bad
    try:
        found: np.dtype[Any] = np.dtype(dtype)  # type: ignore[call-overload]
    except TypeError:
        raise bad from None
    if found.kind not in "iu":
        raise bad
    return found


class Discrete(SpaceBase[IntT_co]):
    """``n`` consecutive integers from ``start``; samples are numpy scalars of `dtype`
    (``np.int64`` by default).

    ``contains`` accepts Python ints and numpy integer scalars (or 0-d integer arrays) in
    range whose type casts safely to `dtype`, so ``env.step(0)`` and
    ``env.step(space.sample())`` are both valid actions.
    """

    n: IntT_co
    start: IntT_co

    @overload
    def __init__(
        self: Discrete[np.int64],
        n: int | np.integer[Any],
        seed: SeedLike = None,
        start: int | np.integer[Any] = 0,
        dtype: type[np.int64] | type[int] = np.int64,
    ) -> None: ...
    @overload
    def __init__(
        self,
        n: int | np.integer[Any],
        seed: SeedLike = None,
        start: int | np.integer[Any] = 0,
        *,
        dtype: type[IntT_co] | np.dtype[IntT_co],
    ) -> None: ...
    @overload
    def __init__(
        self: Discrete[Any],
        n: int | np.integer[Any],
        seed: SeedLike = None,
        start: int | np.integer[Any] = 0,
        *,
        dtype: str,
    ) -> None: ...
    def __init__(
        self,
        n: int | np.integer[Any],
        seed: SeedLike = None,
        start: int | np.integer[Any] = 0,
        dtype: DTypeLike = np.int64,
    ) -> None:
        n_int = _integer("n", n)
        if n_int <= 0:
            raise ValueError(f"Discrete n must be a positive int, got n={n!r}")
        start_int = _integer("start", start)
        dt = _INT64 if dtype is np.int64 else _integer_dtype(dtype)
        lowest, highest = _integer_limits(dt)
        if start_int < lowest or start_int + n_int - 1 > highest:
            raise ValueError(
                f"Discrete start={start!r} and n={n!r} give values outside {dt}'s range "
                f"[{lowest}, {highest}]; choose a wider dtype"
            )
        self.n = cast("IntT_co", dt.type(n_int))
        self.start = cast("IntT_co", dt.type(start_int))
        self._forget_ahead(owned=False)
        super().__init__((), dt, seed)
        self._setup()

    def _setup(self) -> None:
        self._n_int = int(self.n)
        self._lo = int(self.start)
        self._hi = self._lo + self._n_int
        dt = self.dtype
        self._scalar_type: type = dt.type
        # One call for many samples gives the same numbers as many calls only where numpy
        # draws each value straight from the bit generator (32- and 64-bit integers).
        self._can_draw_ahead = dt.itemsize >= 4

    # -- drawing ahead -----------------------------------------------------------------
    # `Generator.integers(n)` costs about a microsecond of argument handling per call, most
    # of a sample. Drawn `_AHEAD` at a time, numpy gives the same numbers and leaves the
    # generator in the same state as that many single calls (the tests check both), so
    # samples match Gymnasium's one by one. The draws are taken only from a generator this
    # space made itself (`seed()`) and nobody else holds: reading `np_random`, pickling or
    # handing in a generator first rewinds it to where the samples taken so far leave it,
    # and from then on each sample is one generator call, until the next `seed()`.

    def _forget_ahead(self, *, owned: bool) -> None:
        self._ahead: list[IntT_co] = []
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
                generator.integers(self._n_int, size=taken, dtype=self._scalar_type)

    def _sample_ahead(self) -> IntT_co:
        generator = self._np_random
        if generator is None:
            SpaceBase.seed(self)  # first use: OS entropy, and a generator of our own
            self._owned = True
            generator = self._np_random
            assert generator is not None
        if not (self._owned and self._can_draw_ahead):
            return cast(
                "IntT_co", self.start + generator.integers(self._n_int, dtype=self._scalar_type)
            )
        self._rewind = generator.bit_generator.state
        self._ahead = list(
            self.start + generator.integers(self._n_int, size=_AHEAD, dtype=self._scalar_type)
        )
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
        return {
            "n": self.n,
            "start": self.start,
            "_shape": (),
            "_dtype": self.dtype,
            "_np_random": self._np_random,
        }

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        """Load our pickles, and Gym's and Gymnasium's (which may lack `start` and `dtype`)."""
        found = legacy_state(state)
        dt = np.dtype(found.get("_dtype", _INT64))
        self._forget_ahead(owned=False)
        SpaceBase.__init__(self, (), dt)
        self.n = cast("IntT_co", dt.type(found["n"]))
        self.start = cast("IntT_co", dt.type(found.get("start", 0)))
        self._np_random = found.get("_np_random")
        self._setup()

    @property
    def shape(self) -> tuple[int, ...]:
        return ()

    @property
    def dtype(self) -> np.dtype[IntT_co]:
        return self._dtype  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> bool:
        return True

    def sample(
        self, mask: NDArray[np.int8] | None = None, probability: NDArray[np.float64] | None = None
    ) -> IntT_co:
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
        to_dtype = self._scalar_type
        if mask is not None:
            allowed = np.flatnonzero(check_mask("Discrete", mask, (self._n_int,)))
            if allowed.size == 0:
                return self.start
            return cast("IntT_co", self.start + to_dtype(rng.choice(allowed)))
        probs = check_probability("Discrete", probability, (self._n_int,))
        return cast("IntT_co", self.start + to_dtype(rng.choice(self._n_int, p=probs)))

    def contains(self, x: Any) -> bool:
        """Whether `x` is an integer in range: a Python int, or a numpy integer scalar or 0-d
        array whose dtype casts safely to this space's."""
        kind = type(x)
        if kind is int:
            return self._lo <= x < self._hi  # type: ignore[no-any-return]
        if kind is self._scalar_type:
            return bool(self._lo <= x < self._hi)
        if isinstance(x, int):  # bool and int subclasses, as Gymnasium accepts them
            return bool(self._lo <= x < self._hi)
        if isinstance(x, np.generic | np.ndarray) and x.shape == () and x.dtype.kind in "iu":
            return bool(np.can_cast(x.dtype, self.dtype)) and self._lo <= int(x) < self._hi
        return False

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        return [int(x) for x in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[IntT_co]:
        to_dtype = self._scalar_type
        return [to_dtype(x) for x in sample_n]

    def __repr__(self) -> str:
        parts = [str(self.n)]
        if self._lo != 0:
            parts.append(f"start={self.start}")
        if self._dtype != _INT64:
            parts.append(f"dtype={self._dtype}")
        return f"Discrete({', '.join(parts)})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Discrete)
            and self.n == other.n
            and self.start == other.start
            and self._dtype == other._dtype
        )

    __hash__ = None  # type: ignore[assignment]
