"""The `Space` protocol: what every observation or action space offers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from protogym._structural import StructuralProtocolMeta

if TYPE_CHECKING:
    import numpy as np

T_co = TypeVar("T_co", covariant=True)


@runtime_checkable
class Space(Protocol[T_co], metaclass=StructuralProtocolMeta):
    """A set of values with a seedable sampler; covariant in its element type."""

    if not TYPE_CHECKING:
        _required_members_ = (
            "shape",
            "dtype",
            "np_random",
            "is_np_flattenable",
            "sample",
            "contains",
            "__contains__",
            "seed",
            "to_jsonable",
            "from_jsonable",
        )

    @property
    def shape(self) -> tuple[int, ...] | None: ...

    @property
    def dtype(self) -> np.dtype[Any] | None: ...

    @property
    def np_random(self) -> np.random.Generator: ...

    @property
    def is_np_flattenable(self) -> bool: ...

    def sample(self, mask: Any | None = None) -> T_co: ...

    def contains(self, x: Any) -> bool: ...

    def __contains__(self, x: object) -> bool: ...

    def seed(self, seed: Any | None = None) -> Any: ...

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any] | dict[str, Any]: ...

    def from_jsonable(self, sample_n: list[Any]) -> Sequence[T_co]: ...
