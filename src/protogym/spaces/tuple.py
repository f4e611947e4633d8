"""`Tuple`: the cartesian product of a fixed sequence of spaces."""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Sequence as AbcSequence
from typing import TYPE_CHECKING, Any, overload

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

__all__ = ["Tuple"]


if TYPE_CHECKING:

    class _SequenceOfSpaces:
        """What `collections.abc.Sequence` adds, for mypy only: as a real base it would make a
        `Tuple` a `Container` of spaces, and ``sample in space`` a strict-equality error."""

        def index(self, value: Any, start: int = 0, stop: int = ...) -> int: ...
        def count(self, value: Any) -> int: ...
        def __reversed__(self) -> Iterator[Space[Any]]: ...

else:
    _SequenceOfSpaces = AbcSequence


class Tuple(SpaceBase[builtins.tuple[Any, ...]], _SequenceOfSpaces):
    """Tuples whose item ``i`` belongs to ``spaces[i]``.

    The space is also a `collections.abc.Sequence` of its sub-spaces (indexing, `len`,
    `index`, `count`, `reversed`), except that ``x in space`` asks whether `x` is an element.

    ``seed(int)`` seeds this space and draws one child seed per sub-space from it (the
    same child seeds as Gymnasium); ``seed([s0, s1, ...])`` seeds each sub-space directly.
    """

    _seed_forms = "a non-negative int, a list of one seed per sub-space, or None"

    def __init__(self, spaces: Iterable[Space[Any]], seed: SeedLike | Sequence[Any] = None):
        self.spaces: builtins.tuple[Space[Any], ...] = check_subspaces("Tuple", spaces)
        super().__init__(None, None, seed if isinstance(seed, np.random.Generator) else None)
        if seed is not None and not isinstance(seed, np.random.Generator):
            self.seed(seed)

    @property
    def is_np_flattenable(self) -> bool:
        return all(space.is_np_flattenable for space in self.spaces)

    def seed(self, seed: Any | None = None) -> builtins.tuple[Any, ...]:
        """None: fresh entropy everywhere; int: child seeds drawn from it; list: one each."""
        if seed is None:
            return builtins.tuple(space.seed(None) for space in self.spaces)
        if isinstance(seed, list | builtins.tuple):
            if len(seed) != len(self.spaces):
                raise InvalidSeed(
                    f"Tuple.seed got {len(seed)} seeds for {len(self.spaces)} sub-spaces: "
                    f"{seed!r}; give one seed per sub-space or a single int"
                )
            return builtins.tuple(
                space.seed(sub) for space, sub in zip(self.spaces, seed, strict=True)
            )
        subseeds = draw_subseeds(self, seed, len(self.spaces))
        return builtins.tuple(
            space.seed(sub) for space, sub in zip(self.spaces, subseeds, strict=True)
        )

    def sample(
        self,
        mask: builtins.tuple[Any, ...] | None = None,
        probability: builtins.tuple[Any, ...] | None = None,
    ) -> builtins.tuple[Any, ...]:
        """One sample of each sub-space; `mask`/`probability` hold one entry per sub-space."""
        if mask is not None and probability is not None:
            raise InvalidSampleArgument(
                "Tuple.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        if mask is None and probability is None:
            return builtins.tuple(space.sample() for space in self.spaces)
        kind, given = ("mask", mask) if mask is not None else ("probability", probability)
        if not isinstance(given, builtins.tuple) or len(given) != len(self.spaces):
            raise InvalidSampleArgument(
                f"Tuple.sample {kind} must be a tuple with one entry per sub-space "
                f"({len(self.spaces)}), got {given!r}"
            )
        return builtins.tuple(
            space.sample(**{kind: sub}) for space, sub in zip(self.spaces, given, strict=True)
        )

    def contains(self, x: Any) -> bool:
        """Whether `x` (a tuple, list or 1-D array) has one member of each sub-space in order."""
        if not isinstance(x, builtins.tuple):
            if not isinstance(x, list | np.ndarray):
                return False
            x = builtins.tuple(x)
        return len(x) == len(self.spaces) and all(
            space.contains(part) for space, part in zip(self.spaces, x, strict=True)
        )

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        return [
            space.to_jsonable([sample[i] for sample in sample_n])
            for i, space in enumerate(self.spaces)
        ]

    def from_jsonable(self, sample_n: list[Any]) -> list[builtins.tuple[Any, ...]]:
        columns = [space.from_jsonable(sample_n[i]) for i, space in enumerate(self.spaces)]
        return [builtins.tuple(row) for row in zip(*columns, strict=True)]

    @overload
    def __getitem__(self, index: int) -> Space[Any]: ...
    @overload
    def __getitem__(self, index: slice) -> builtins.tuple[Space[Any], ...]: ...
    def __getitem__(self, index: int | slice) -> Space[Any] | builtins.tuple[Space[Any], ...]:
        return self.spaces[index]

    def __iter__(self) -> Iterator[Space[Any]]:
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)

    def __repr__(self) -> str:
        return "Tuple(" + ", ".join(repr(space) for space in self.spaces) + ")"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tuple) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]
