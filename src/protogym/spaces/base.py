"""`SpaceBase`: the concrete members every built-in space shares, and the spaces' errors.

The `Space` protocol says what a space offers; this base supplies the parts that are the same
for all of them (lazy seeding, `np_random`, `in`, identity JSON conversion, loading pickles
of Gym and Gymnasium spaces), so each space only writes its own sampling, membership and
conversion.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from protogym.error import InvalidSampleArgument, InvalidSeed
from protogym.spaces.space import Space
from protogym.utils.seeding import np_random as _make_np_random

__all__ = [
    "InvalidSampleArgument",
    "InvalidSeed",
    "SeedLike",
    "SpaceBase",
    "check_seed",
    "check_subspaces",
    "draw_subseeds",
    "legacy_state",
]

T_co = TypeVar("T_co", covariant=True)

SeedLike = int | np.integer[Any] | np.random.Generator | None
"""What a space constructor's `seed=` accepts: an int, a ready generator, or nothing."""


def check_seed(owner: str, seed: object, forms: str = "a non-negative int or None") -> int | None:
    """Normalise a seed to a Python int (or None), raising a clear error for anything else."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InvalidSeed(f"{owner}.seed() takes {forms}, got {seed!r}")
    return int(seed)


_LEGACY_NAMES = {"shape": "_shape", "dtype": "_dtype", "np_random": "_np_random"}


def legacy_state(state: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """A copy of a pickled space's state with Gym's and Gymnasium's public names (``shape``,
    ``dtype``, ``np_random``) renamed to the private ones protogym's spaces keep."""
    found = dict(state)
    for old, new in _LEGACY_NAMES.items():
        if old in found:
            found.setdefault(new, found.pop(old))
    return found


class SpaceBase(Space[T_co]):
    """Concrete base of the built-in spaces: seeding, lazy `np_random`, `in`, JSON identity.

    The generator is created on first use (from OS entropy) unless the space was seeded,
    so building a space costs no entropy draw; `seed(int)` gives Gymnasium's stream.
    """

    _np_random: np.random.Generator | None
    _seed_forms = "a non-negative int or None"
    """What `seed()` accepts, for the error message; composite spaces accept more."""

    def __init__(
        self,
        shape: tuple[int, ...] | None,
        dtype: np.dtype[Any] | None,
        seed: SeedLike = None,
    ) -> None:
        self._shape = shape
        self._dtype = dtype
        self._np_random = None
        if isinstance(seed, np.random.Generator):
            self._np_random = seed
        elif seed is not None:
            self.seed(seed)

    @property
    def shape(self) -> tuple[int, ...] | None:
        return self._shape

    @property
    def dtype(self) -> np.dtype[Any] | None:
        return self._dtype

    @property
    def np_random(self) -> np.random.Generator:
        """The space's generator; seeded from OS entropy the first time if never seeded."""
        if self._np_random is None:
            self.seed()
            # Composite spaces seed their children on `seed()`, not themselves.
            if self._np_random is None:
                SpaceBase.seed(self)
        assert self._np_random is not None
        return self._np_random

    @np_random.setter
    def np_random(self, generator: np.random.Generator) -> None:
        if not isinstance(generator, np.random.Generator):
            raise TypeError(
                f"{type(self).__name__}.np_random must be a numpy.random.Generator, "
                f"got {generator!r}"
            )
        self._np_random = generator

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def seed(self, seed: Any | None = None) -> Any:
        """Reseed this space; returns the seed used (fresh OS entropy when `seed` is None)."""
        checked = check_seed(type(self).__name__, seed, self._seed_forms)
        self._np_random, used = _make_np_random(checked)
        return used

    def __contains__(self, x: object) -> bool:
        return self.contains(x)

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any] | dict[str, Any]:
        return list(sample_n)

    def from_jsonable(self, sample_n: list[Any]) -> list[T_co]:
        return list(sample_n)


def check_subspaces(owner: str, spaces: object) -> tuple[Space[Any], ...]:
    """The sub-spaces of a composite space as a tuple, each checked against the protocol."""
    if isinstance(spaces, str | bytes) or not isinstance(spaces, Iterable):
        raise TypeError(f"{owner} takes an iterable of spaces, got {spaces!r}")
    found = tuple(spaces)
    for index, space in enumerate(found):
        if not isinstance(space, Space):
            raise TypeError(
                f"{owner} sub-space {index} is not a space (it lacks the Space members), "
                f"got {space!r}"
            )
    return found


def draw_subseeds(space: SpaceBase[Any], seed: int, count: int) -> list[int]:
    """Seed `space` with `seed` and draw `count` child seeds from it, as Gymnasium does."""
    SpaceBase.seed(space, seed)
    return [int(s) for s in space.np_random.integers(np.iinfo(np.int32).max, size=count)]
