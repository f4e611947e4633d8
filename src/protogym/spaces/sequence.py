"""`Sequence`: variable-length sequences of elements of one feature space."""

from __future__ import annotations

import builtins
from collections.abc import Sequence as AbcSequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces.base import (
    InvalidSampleArgument,
    InvalidSeed,
    SeedLike,
    SpaceBase,
    check_subspaces,
)
from protogym.spaces.space import Space

__all__ = ["Sequence"]

SequenceSample = builtins.tuple[Any, ...] | NDArray[Any] | builtins.dict[str, Any]
"""A tuple of feature samples, or with ``stack=True`` the feature space's batch form."""


class Sequence(SpaceBase[SequenceSample]):
    """Finite sequences of elements of `space`, of any length (geometric by default).

    With ``stack=True`` a sample is stacked into the feature space's batch form (an array
    for a `Box`, ...), as `batch_space`/`concatenate` lay it out.
    """

    _seed_forms = "a non-negative int, a (sequence seed, feature seed) pair, or None"

    def __init__(
        self,
        space: Space[Any],
        seed: SeedLike | AbcSequence[Any] = None,
        stack: bool = False,
    ) -> None:
        (self.feature_space,) = check_subspaces("Sequence", [space])
        self.stack = bool(stack)
        self._stacked: Space[Any] | None = None
        if self.stack:
            from protogym.spaces.vector_utils import batch_space

            self._stacked = batch_space(self.feature_space, 1)
        super().__init__(None, None, seed if isinstance(seed, np.random.Generator) else None)
        if seed is not None and not isinstance(seed, np.random.Generator):
            self.seed(seed)

    @property
    def stacked_feature_space(self) -> Space[Any]:
        """The batch space of one stacked element (only for ``stack=True``)."""
        if self._stacked is None:
            raise ValueError("Sequence.stacked_feature_space exists only with stack=True")
        return self._stacked

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def seed(self, seed: Any | None = None) -> builtins.tuple[Any, Any]:
        """None: fresh entropy; int: the feature seed is drawn from it; pair: one each."""
        if seed is None:
            return SpaceBase.seed(self, None), self.feature_space.seed(None)
        if isinstance(seed, list | builtins.tuple):
            if len(seed) != 2:
                raise InvalidSeed(
                    "Sequence.seed takes an int or a (sequence seed, feature seed) pair, "
                    f"got {seed!r}"
                )
            return SpaceBase.seed(self, seed[0]), self.feature_space.seed(seed[1])
        own = SpaceBase.seed(self, seed)
        feature_seed = int(self.np_random.integers(np.iinfo(np.int32).max))
        SpaceBase.seed(self, seed)
        return own, self.feature_space.seed(feature_seed)

    def sample(
        self,
        mask: builtins.tuple[Any, Any] | None = None,
        probability: builtins.tuple[Any, Any] | None = None,
    ) -> SequenceSample:
        """A sequence of geometric(0.25) length; `mask`/`probability` is ``(length, feature
        mask)`` where length is None, an int, or an int array to choose from."""
        if mask is not None and probability is not None:
            raise InvalidSampleArgument(
                "Sequence.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        feature = self.feature_space
        if mask is None and probability is None:
            length = int(self.np_random.geometric(0.25))
            values = builtins.tuple(feature.sample() for _ in range(length))
        else:
            kind, given = ("mask", mask) if mask is not None else ("probability", probability)
            if not isinstance(given, builtins.tuple) or len(given) != 2:
                raise InvalidSampleArgument(
                    f"Sequence.sample {kind} must be a (length, feature {kind}) tuple, "
                    f"got {given!r}"
                )
            length = self._length(kind, given[0])
            values = builtins.tuple(feature.sample(**{kind: given[1]}) for _ in range(length))
        if self.stack:
            from protogym.spaces.vector_utils import concatenate, create_empty_array

            out = create_empty_array(feature, len(values))
            return concatenate(feature, values, out)  # type: ignore[no-any-return]
        return values

    def _length(self, kind: str, length: object) -> int:
        if length is None:
            return int(self.np_random.geometric(0.25))
        if isinstance(length, int | np.integer) and not isinstance(length, bool):
            if length < 0:
                raise InvalidSampleArgument(
                    f"Sequence.sample {kind} length must be >= 0, got {length!r}"
                )
            return int(length)
        if isinstance(length, np.ndarray):
            if length.ndim != 1 or length.dtype.kind not in "iu" or (length < 0).any():
                raise InvalidSampleArgument(
                    f"Sequence.sample {kind} lengths must be a 1-D array of non-negative ints, "
                    f"got {length!r}"
                )
            return int(self.np_random.choice(length))
        raise TypeError(
            f"Sequence.sample {kind} length must be None, an int or an int array, got {length!r}"
        )

    def contains(self, x: Any) -> bool:
        """Whether `x` is a tuple of feature elements (or, stacked, a batch of them)."""
        if self.stack:
            from protogym.spaces.vector_utils import iterate

            try:
                return all(
                    item in self.feature_space for item in iterate(self.stacked_feature_space, x)
                )
            except (TypeError, ValueError, KeyError, IndexError):
                return False
        return isinstance(x, builtins.tuple) and all(self.feature_space.contains(i) for i in x)

    def to_jsonable(self, sample_n: AbcSequence[Any]) -> list[Any] | builtins.dict[str, Any]:
        if self.stack:
            return self.stacked_feature_space.to_jsonable(sample_n)
        return [self.feature_space.to_jsonable(list(sample)) for sample in sample_n]

    def from_jsonable(self, sample_n: Any) -> list[SequenceSample]:
        if self.stack:
            return list(self.stacked_feature_space.from_jsonable(sample_n))
        return [builtins.tuple(self.feature_space.from_jsonable(sample)) for sample in sample_n]

    def __repr__(self) -> str:
        return f"Sequence({self.feature_space!r}, stack={self.stack})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Sequence)
            and self.feature_space == other.feature_space
            and self.stack == other.stack
        )

    __hash__ = None  # type: ignore[assignment]
