"""The `Space` protocol: what every observation or action space offers.

A class with these members is a space, to mypy and to `isinstance`, without inheriting from
anything. A class that does subclass `Space` explicitly (as Gymnasium code subclasses
``gymnasium.Space``) also gets working defaults: ``__init__(shape, dtype, seed)``, a
generator seeded from OS entropy on first use, `seed`, `shape`, `dtype` (settable at run
time), `in`, and identity JSON conversion. It must define `sample` and `contains` (the
defaults raise `NotImplementedError`), and `is_np_flattenable` if it can be flattened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from protogym._structural import StructuralProtocolMeta

if TYPE_CHECKING:
    from typing import TypeAlias

    import numpy as np
    from numpy.typing import DTypeLike, NDArray

    MaskNDArray: TypeAlias = NDArray[np.int8]
    """Gymnasium's name for a 0/1 sampling mask."""

T_co = TypeVar("T_co", covariant=True)


def __getattr__(name: str) -> Any:
    # `MaskNDArray` needs numpy, which `import protogym` does not load until a space needs it.
    if name == "MaskNDArray":
        import numpy as np
        from numpy.typing import NDArray

        return NDArray[np.int8]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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

    # The defaults keep their state in `__dict__` under private names, which a structural
    # space never needs to have.

    def __init__(
        self,
        shape: Sequence[int] | None = None,
        dtype: DTypeLike | None = None,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        import numpy as np

        state = self.__dict__
        state["_shape"] = None if shape is None else tuple(int(dim) for dim in shape)
        state["_dtype"] = None if dtype is None else np.dtype(dtype)
        state["_np_random"] = None
        if isinstance(seed, np.random.Generator):
            state["_np_random"] = seed
        elif seed is not None:
            self.seed(seed)

    @property
    def shape(self) -> tuple[int, ...] | None:
        shape: tuple[int, ...] | None = self.__dict__.get("_shape")
        return shape

    @property
    def dtype(self) -> np.dtype[Any] | None:
        dtype: np.dtype[Any] | None = self.__dict__.get("_dtype")
        return dtype

    @property
    def np_random(self) -> np.random.Generator:
        """The space's generator, seeded from OS entropy the first time if never seeded."""
        state = self.__dict__
        if state.get("_np_random") is None:
            self.seed()
            # A composite's `seed()` may seed only its children: give it its own too.
            if state.get("_np_random") is None:
                Space.seed(self)
        generator: np.random.Generator = state["_np_random"]
        return generator

    @property
    def is_np_flattenable(self) -> bool:
        message = (
            f"{type(self).__name__} does not say whether it flattens to one array; define "
            "the is_np_flattenable property"
        )
        raise NotImplementedError(message)

    if TYPE_CHECKING:

        def sample(self, mask: Any | None = None) -> T_co: ...

        def contains(self, x: Any) -> bool: ...

    else:

        def sample(self, mask=None, probability=None):
            raise NotImplementedError(f"{type(self).__name__} does not define sample()")

        def contains(self, x):
            raise NotImplementedError(f"{type(self).__name__} does not define contains()")

        # Setters for explicit subclasses (Gymnasium code assigns `self.dtype` and the
        # generator); the protocol itself only asks for readable members.

        @dtype.setter
        def dtype(self, value):
            import numpy as np

            self.__dict__["_dtype"] = None if value is None else np.dtype(value)

        @np_random.setter
        def np_random(self, generator):
            import numpy as np

            if not isinstance(generator, np.random.Generator):
                raise TypeError(
                    f"{type(self).__name__}.np_random must be a numpy.random.Generator, "
                    f"got {generator!r}"
                )
            self.__dict__["_np_random"] = generator

    def __contains__(self, x: object) -> bool:
        return self.contains(x)

    def seed(self, seed: Any | None = None) -> Any:
        """Reseed the generator; returns the seed used (fresh OS entropy when None)."""
        from protogym.spaces.base import check_seed
        from protogym.utils.seeding import np_random

        generator, used = np_random(check_seed(type(self).__name__, seed))
        self.__dict__["_np_random"] = generator
        return used

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any] | dict[str, Any]:
        return list(sample_n)

    def from_jsonable(self, sample_n: list[Any]) -> Sequence[T_co]:
        return list(sample_n)
