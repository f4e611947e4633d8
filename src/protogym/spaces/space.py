"""The `Space` protocol: what every observation or action space offers.

A class with these members is a space, to mypy and to `isinstance`, without inheriting from
anything. A class that does subclass `Space` explicitly (as Gymnasium code subclasses
``gymnasium.Space``) also gets working defaults at run time: ``__init__(shape, dtype, seed)``,
a generator seeded from OS entropy on first use, `seed`, `shape`, `dtype`, `in` and identity
JSON conversion; `sample`, `contains` and `is_np_flattenable` raise `NotImplementedError`
until the subclass defines them.
"""

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

    if TYPE_CHECKING:

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

        def seed(self, seed: Any | None = None) -> Any: ...

    else:
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

        # Defaults for explicit subclasses, outside mypy's view, so the protocol's members
        # stay exactly what a structural space must provide.

        def __init__(self, shape=None, dtype=None, seed=None):
            import numpy as np

            self._shape = None if shape is None else tuple(int(dim) for dim in shape)
            self._dtype = None if dtype is None else np.dtype(dtype)
            self._np_random = None
            if isinstance(seed, np.random.Generator):
                self._np_random = seed
            elif seed is not None:
                self.seed(seed)

        @property
        def shape(self):
            return self.__dict__.get("_shape")

        @property
        def dtype(self):
            return self.__dict__.get("_dtype")

        @dtype.setter
        def dtype(self, value):
            import numpy as np

            self._dtype = None if value is None else np.dtype(value)

        @property
        def np_random(self):
            if self.__dict__.get("_np_random") is None:
                self.seed()
                # A composite's `seed()` may seed only its children: give it its own too.
                if self.__dict__.get("_np_random") is None:
                    Space.seed(self)
            return self._np_random

        @np_random.setter
        def np_random(self, generator):
            import numpy as np

            if not isinstance(generator, np.random.Generator):
                raise TypeError(
                    f"{type(self).__name__}.np_random must be a numpy.random.Generator, "
                    f"got {generator!r}"
                )
            self._np_random = generator

        @property
        def is_np_flattenable(self):
            raise NotImplementedError(
                f"{type(self).__name__} does not say whether it flattens to one array; "
                "define the is_np_flattenable property"
            )

        def sample(self, mask=None, probability=None):
            raise NotImplementedError(f"{type(self).__name__} does not define sample()")

        def contains(self, x):
            raise NotImplementedError(f"{type(self).__name__} does not define contains()")

        def seed(self, seed=None):
            from protogym.spaces.base import check_seed
            from protogym.utils.seeding import np_random

            self._np_random, used = np_random(check_seed(type(self).__name__, seed))
            return used

    def __contains__(self, x: object) -> bool:
        return self.contains(x)

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any] | dict[str, Any]:
        return list(sample_n)

    def from_jsonable(self, sample_n: list[Any]) -> Sequence[T_co]:
        return list(sample_n)
