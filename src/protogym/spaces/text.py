"""`Text`: strings of bounded length over a fixed character set."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.spaces.base import InvalidSampleArgument, SeedLike, SpaceBase
from protogym.spaces.discrete import check_int_arg

__all__ = ["Text", "alphanumeric"]

alphanumeric: frozenset[str] = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)
"""The default character set: ASCII letters and digits."""

_STR = np.dtype(str)


class Text(SpaceBase[str]):
    """Strings of ``min_length..max_length`` characters (both inclusive) from `charset`.

    A set `charset` is sorted so sampling and flattening agree across processes; a string
    keeps its order (duplicates dropped). Sampling draws a uniform length, then uniform
    characters, with Gymnasium's draws.
    """

    def __init__(
        self,
        max_length: int,
        *,
        min_length: int = 1,
        charset: frozenset[str] | set[str] | str = alphanumeric,
        seed: SeedLike = None,
    ) -> None:
        max_int = check_int_arg("Text", "max_length", max_length)
        min_int = check_int_arg("Text", "min_length", min_length)
        if min_int < 0:
            raise ValueError(f"Text min_length must be >= 0, got min_length={min_length!r}")
        if min_int > max_int:
            raise ValueError(
                f"Text min_length must be <= max_length, got min_length={min_length!r} and "
                f"max_length={max_length!r}"
            )
        if isinstance(charset, str):
            chars = list(dict.fromkeys(charset))
        elif isinstance(charset, Iterable):
            chars = sorted(charset)
        else:
            raise ValueError(
                f"Text charset must be a string or a set of characters, got {charset!r}"
            )
        bad = [c for c in chars if not isinstance(c, str) or len(c) != 1]
        if bad:
            raise ValueError(f"Text charset elements must be single characters, got {bad!r}")
        if not chars:
            raise ValueError("Text charset must not be empty")
        self.min_length = min_int
        self.max_length = max_int
        self._char_list = tuple(chars)
        self._char_set = frozenset(chars)
        self._char_index = {c: np.int32(i) for i, c in enumerate(chars)}
        self._char_str = "".join(sorted(chars))
        self._uniform = np.full(len(chars), 1.0 / len(chars))
        super().__init__(None, _STR, seed)

    @property
    def character_set(self) -> frozenset[str]:
        return self._char_set

    @property
    def character_list(self) -> tuple[str, ...]:
        return self._char_list

    @property
    def characters(self) -> str:
        """All characters of the set, sorted, as one string."""
        return self._char_str

    def character_index(self, char: str) -> np.int32:
        """The position of `char` in `character_list` (what `flatten` stores)."""
        return self._char_index[char]

    @property
    def is_np_flattenable(self) -> bool:
        return True

    def sample(
        self,
        mask: tuple[int | None, NDArray[np.int8] | None] | None = None,
        probability: tuple[int | None, NDArray[np.float64] | None] | None = None,
    ) -> str:
        """A random string; `mask`/`probability` is ``(length or None, per-character array or
        None)``: a 0/1 int8 mask of allowed characters, or float64 character weights."""
        if mask is not None and probability is not None:
            raise InvalidSampleArgument(
                "Text.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        length: Any = None
        weights: NDArray[np.float64] | None = None
        if mask is not None:
            length, chars_mask = self._split("mask", mask, np.int8)
            if chars_mask is not None:
                if not ((chars_mask == 0) | (chars_mask == 1)).all():
                    raise InvalidSampleArgument(
                        f"Text.sample mask values must be 0 or 1, got {chars_mask!r}"
                    )
                total = chars_mask.sum()
                weights = chars_mask / total if total > 0 else chars_mask.astype(np.float64)
        elif probability is not None:
            length, weights = self._split("probability", probability, np.float64)
            if weights is not None:
                if not ((weights >= 0) & (weights <= 1)).all():
                    raise InvalidSampleArgument(
                        f"Text.sample probability values must lie in [0, 1], got {weights!r}"
                    )
                if not np.isclose(weights.sum(), 1):
                    raise InvalidSampleArgument(
                        f"Text.sample probability must sum to 1, got {weights!r}"
                    )
        rng = self.np_random
        if length is None:
            length = rng.integers(self.min_length, self.max_length + 1)
        if weights is None:
            weights = self._uniform
        elif not weights.any():
            if self.min_length == 0:
                return ""
            raise InvalidSampleArgument(
                f"Text.sample mask allows no character but min_length={self.min_length} needs "
                "some; allow at least one character"
            )
        return "".join(rng.choice(self._char_list, size=length, p=weights))

    def _split(self, kind: str, given: object, dtype: type[np.generic]) -> tuple[Any, Any]:
        if not isinstance(given, tuple) or len(given) != 2:
            raise InvalidSampleArgument(
                f"Text.sample {kind} must be a (length, {kind} array) tuple, got {given!r}"
            )
        length, chars = given
        if length is not None:
            if isinstance(length, bool) or not isinstance(length, int | np.integer):
                raise InvalidSampleArgument(
                    f"Text.sample {kind} length must be an int, got {length!r}"
                )
            if not self.min_length <= length <= self.max_length:
                raise InvalidSampleArgument(
                    f"Text.sample {kind} length must be in [{self.min_length}, "
                    f"{self.max_length}], got {length!r}"
                )
        if chars is not None and (
            not isinstance(chars, np.ndarray)
            or chars.dtype != dtype
            or chars.shape != (len(self._char_list),)
        ):
            raise InvalidSampleArgument(
                f"Text.sample {kind} array must be a {np.dtype(dtype)} array of shape "
                f"({len(self._char_list)},), got {chars!r}"
            )
        return length, chars

    def contains(self, x: Any) -> bool:
        """Whether `x` is a string of allowed length made of allowed characters."""
        if not isinstance(x, str) or not self.min_length <= len(x) <= self.max_length:
            return False
        return self._char_set.issuperset(x)

    def __repr__(self) -> str:
        return f"Text({self.min_length}, {self.max_length}, charset={self._char_str})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Text)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
            and self._char_set == other._char_set
        )

    __hash__ = None  # type: ignore[assignment]
