"""`Dict`: named sub-spaces; samples are dicts with the same keys."""

from __future__ import annotations

import builtins
import contextlib
from collections import OrderedDict
from collections.abc import ItemsView, Iterator, KeysView, Mapping, Sequence, ValuesView
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from typing_extensions import TypeVar

from protogym.spaces.base import (
    InvalidSampleArgument,
    InvalidSeed,
    SeedLike,
    SpaceBase,
    draw_subseeds,
)
from protogym.spaces.space import Space

__all__ = ["Dict"]

DictT_co = TypeVar(
    "DictT_co", bound=Mapping[str, Any], covariant=True, default=builtins.dict[str, Any]
)
"""What a sample is: ``dict[str, Any]``, or a `TypedDict` given as ``Dict[MyObs](...)``."""


if TYPE_CHECKING:

    class _MappingOfSpaces:
        """What `collections.abc.Mapping` adds, for mypy only: as a real base it would make a
        `Dict` a `Container` of keys, and ``sample in space`` a strict-equality error."""

        def get(self, key: str, default: Any = None) -> Any: ...

else:
    _MappingOfSpaces = Mapping


class Dict(SpaceBase[DictT_co], _MappingOfSpaces):
    """Dicts whose value under each key belongs to that key's sub-space.

    The space is also a read-only `Mapping` from keys to sub-spaces (``space["pos"]``,
    ``space.keys()``, iteration), except that ``x in space`` asks whether `x` is an element.

    A plain mapping is sorted by key (as Gymnasium does, so flattening order is stable);
    an `OrderedDict` or a sequence of pairs keeps its order, and so does any mapping with
    ``sort_keys=False``. Sub-spaces may also be given as keyword arguments.

    ``Dict[MyObs]({...})`` with a `TypedDict` `MyObs` types samples (and an env's
    observations) as `MyObs`, so their keys and value types are checked; with the mypy
    plugin the sub-spaces' keys and element types are checked against `MyObs` too.
    """

    _seed_forms = "a non-negative int, a dict of one seed per key, or None"

    def __init__(
        self,
        spaces: Mapping[str, Space[Any]] | Sequence[tuple[str, Space[Any]]] | None = None,
        seed: SeedLike | Mapping[str, Any] = None,
        *,
        sort_keys: bool = True,
        **spaces_kwargs: Space[Any],
    ) -> None:
        self.sort_keys = sort_keys
        items: list[tuple[str, Any]]
        if spaces is None:
            items = []
        elif isinstance(spaces, Mapping):
            items = list(spaces.items())
            if sort_keys and not isinstance(spaces, OrderedDict):
                # Keys that do not compare with each other keep their insertion order.
                with contextlib.suppress(TypeError):
                    items.sort(key=lambda item: item[0])
        elif isinstance(spaces, Sequence) and not isinstance(spaces, str):
            items = list(spaces)
            if not all(isinstance(item, builtins.tuple) and len(item) == 2 for item in items):
                raise TypeError(
                    f"Dict spaces given as a sequence must be (key, space) pairs, got {spaces!r}"
                )
        else:
            raise TypeError(
                f"Dict spaces must be a mapping or a sequence of (key, space) pairs, got {spaces!r}"
            )
        found = dict(items)
        for key, space in spaces_kwargs.items():
            if key in found:
                raise ValueError(
                    f"Dict sub-space {key!r} is given both in `spaces` and as a keyword; "
                    "give it once"
                )
            found[key] = space
        for key, space in found.items():
            if not isinstance(space, Space):
                raise TypeError(f"Dict sub-space {key!r} is not a space, got {space!r}")
        self.spaces: builtins.dict[str, Space[Any]] = found
        super().__init__(None, None, seed if isinstance(seed, np.random.Generator) else None)
        if seed is not None and not isinstance(seed, np.random.Generator):
            self.seed(seed)

    @property
    def is_np_flattenable(self) -> bool:
        return all(space.is_np_flattenable for space in self.spaces.values())

    def seed(self, seed: Any | None = None) -> builtins.dict[str, Any]:
        """None: fresh entropy everywhere; int: child seeds drawn from it; dict: one per key."""
        if seed is None:
            return {key: space.seed(None) for key, space in self.spaces.items()}
        if isinstance(seed, Mapping):
            if seed.keys() != self.spaces.keys():
                raise InvalidSeed(
                    f"Dict.seed keys {sorted(map(str, seed))} differ from the space's keys "
                    f"{sorted(map(str, self.spaces))}; give one seed per key or a single int"
                )
            return {key: space.seed(seed[key]) for key, space in self.spaces.items()}
        subseeds = draw_subseeds(self, seed, len(self.spaces))
        return {
            key: space.seed(sub)
            for (key, space), sub in zip(self.spaces.items(), subseeds, strict=True)
        }

    def sample(
        self,
        mask: Mapping[str, Any] | None = None,
        probability: Mapping[str, Any] | None = None,
    ) -> DictT_co:
        """One sample per key; `mask`/`probability` map every key to its sub-space's mask."""
        if mask is not None and probability is not None:
            raise InvalidSampleArgument(
                "Dict.sample takes a mask or a probability, not both, got "
                f"mask={mask!r}, probability={probability!r}"
            )
        if mask is None and probability is None:
            return cast("DictT_co", {key: space.sample() for key, space in self.spaces.items()})
        kind, given = ("mask", mask) if mask is not None else ("probability", probability)
        if not isinstance(given, Mapping) or given.keys() != self.spaces.keys():
            raise InvalidSampleArgument(
                f"Dict.sample {kind} must be a dict with the space's keys "
                f"{list(self.spaces)}, got {given!r}"
            )
        return cast(
            "DictT_co",
            {key: space.sample(**{kind: given[key]}) for key, space in self.spaces.items()},
        )

    def contains(self, x: Any) -> bool:
        """Whether `x` is a mapping with exactly these keys, each value in its sub-space."""
        if not isinstance(x, Mapping) or x.keys() != self.spaces.keys():
            return False
        return all(space.contains(x[key]) for key, space in self.spaces.items())

    def to_jsonable(self, sample_n: Sequence[Any]) -> builtins.dict[str, Any]:
        return {
            key: space.to_jsonable([sample[key] for sample in sample_n])
            for key, space in self.spaces.items()
        }

    def from_jsonable(self, sample_n: Mapping[str, list[Any]] | list[Any]) -> list[DictT_co]:
        """Rebuild samples from `to_jsonable`'s dict of per-key lists (or a list of dicts)."""
        if isinstance(sample_n, list):
            columns = {
                key: space.from_jsonable([row[key] for row in sample_n])
                for key, space in self.spaces.items()
            }
            count = len(sample_n)
        else:
            columns = {
                key: space.from_jsonable(sample_n[key]) for key, space in self.spaces.items()
            }
            count = len(next(iter(columns.values()))) if columns else 0
        rows = [{key: values[i] for key, values in columns.items()} for i in range(count)]
        return cast("list[DictT_co]", rows)

    def __getitem__(self, key: str) -> Space[Any]:
        return self.spaces[key]

    def __setitem__(self, key: str, value: Space[Any]) -> None:
        if not isinstance(value, Space):
            raise TypeError(f"Dict[{key!r}] must be set to a space, got {value!r}")
        self.spaces[key] = value

    def keys(self) -> KeysView[str]:
        return self.spaces.keys()

    def values(self) -> ValuesView[Space[Any]]:
        return self.spaces.values()

    def items(self) -> ItemsView[str, Space[Any]]:
        return self.spaces.items()

    def __iter__(self) -> Iterator[str]:
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)

    def __repr__(self) -> str:
        return "Dict(" + ", ".join(f"{k!r}: {s!r}" for k, s in self.spaces.items()) + ")"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Dict)
            and list(self.spaces) == list(other.spaces)
            and self.spaces == other.spaces
        )

    __hash__ = None  # type: ignore[assignment]
