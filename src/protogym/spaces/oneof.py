"""`OneOf`: a tagged union; a sample is ``(index, sample of spaces[index])``."""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from protogym.spaces.base import (
    InvalidSampleArgument,
    InvalidSeed,
    SeedLike,
    SpaceBase,
    check_subspaces,
    draw_subseeds,
)
from protogym.spaces.space import Space

__all__ = ["OneOf"]


class OneOf(SpaceBase[builtins.tuple[np.int64, Any]]):
    """Exactly one of several spaces at a time, tagged with the index of the one used.

    ``seed(int)`` seeds the index generator and draws a child seed per sub-space (the same
    values as Gymnasium); ``seed((s, s0, s1, ...))`` gives the index seed and one per child.
    """

    _seed_forms = "a non-negative int, a tuple (own seed, one seed per sub-space), or None"

    def __init__(self, spaces: Iterable[Space[Any]], seed: SeedLike | Sequence[Any] = None):
        self.spaces: builtins.tuple[Space[Any], ...] = check_subspaces("OneOf", spaces)
        if not self.spaces:
            raise ValueError("OneOf needs at least one sub-space, got none")
        super().__init__(None, None, seed if isinstance(seed, np.random.Generator) else None)
        if seed is not None and not isinstance(seed, np.random.Generator):
            self.seed(seed)

    @property
    def is_np_flattenable(self) -> bool:
        return all(space.is_np_flattenable for space in self.spaces)

    def seed(self, seed: Any | None = None) -> builtins.tuple[Any, ...]:
        """None: fresh entropy; int: child seeds drawn from it; sequence: own seed + one each."""
        if seed is None:
            own = SpaceBase.seed(self, None)
            return (own, *(space.seed(None) for space in self.spaces))
        if isinstance(seed, list | builtins.tuple):
            if len(seed) != len(self.spaces) + 1:
                raise InvalidSeed(
                    f"OneOf.seed got {len(seed)} seeds for itself and {len(self.spaces)} "
                    f"sub-spaces: {seed!r}; give {len(self.spaces) + 1} seeds or a single int"
                )
            own = SpaceBase.seed(self, seed[0])
            return (own, *(space.seed(s) for space, s in zip(self.spaces, seed[1:], strict=True)))
        subseeds = draw_subseeds(self, seed, len(self.spaces))
        own = SpaceBase.seed(self, seed)
        return (own, *(space.seed(s) for space, s in zip(self.spaces, subseeds, strict=True)))

    def sample(
        self,
        mask: builtins.tuple[Any, ...] | None = None,
        probability: builtins.tuple[Any, ...] | None = None,
    ) -> builtins.tuple[np.int64, Any]:
        """A uniformly chosen sub-space's index and a sample of it (masked by its entry)."""
        index = self.np_random.integers(0, len(self.spaces), dtype=np.int64)
        space = self.spaces[index]
        if mask is not None and probability is not None:
            raise InvalidSampleArgument(
                "OneOf.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        if mask is None and probability is None:
            return index, space.sample()
        kind, given = ("mask", mask) if mask is not None else ("probability", probability)
        if not isinstance(given, builtins.tuple) or len(given) != len(self.spaces):
            raise InvalidSampleArgument(
                f"OneOf.sample {kind} must be a tuple with one entry per sub-space "
                f"({len(self.spaces)}), got {given!r}"
            )
        return index, space.sample(**{kind: given[index]})

    def contains(self, x: Any) -> bool:
        """Whether `x` is ``(index, value)`` with `value` in ``spaces[index]``."""
        if not isinstance(x, builtins.tuple) or len(x) != 2:
            return False
        index = x[0]
        # Gymnasium's rule: a Python int or an np.int64 (the type of a sampled index).
        if not isinstance(index, int | np.int64):
            return False
        return bool(0 <= index < len(self.spaces)) and self.spaces[int(index)].contains(x[1])

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        """``[index, JSON of a one-sample batch of spaces[index]]`` per sample.

        Keeping the sub-space's batch form (rather than unwrapping it) round-trips every
        sub-space, including `Tuple` and `Dict`, whose batch JSON is per column.
        """
        return [
            [int(index), self.spaces[int(index)].to_jsonable([value])] for index, value in sample_n
        ]

    def from_jsonable(self, sample_n: list[Any]) -> list[builtins.tuple[np.int64, Any]]:
        return [
            (np.int64(index), self.spaces[int(index)].from_jsonable(batch)[0])
            for index, batch in sample_n
        ]

    def __getitem__(self, index: int) -> Space[Any]:
        return self.spaces[index]

    def __iter__(self) -> Iterator[Space[Any]]:
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)

    def __repr__(self) -> str:
        return "OneOf(" + ", ".join(repr(space) for space in self.spaces) + ")"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OneOf) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]
