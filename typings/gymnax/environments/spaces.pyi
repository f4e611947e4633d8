from collections.abc import Mapping, Sequence
from typing import Any

import jax

class Space:
    def sample(self, key: jax.Array) -> Any: ...
    def contains(self, x: Any) -> Any: ...

class Discrete(Space):
    n: int
    shape: tuple[int, ...]
    dtype: Any
    def __init__(self, num_categories: int, *, dtype: Any = ...) -> None: ...

class Box(Space):
    low: Any
    high: Any
    shape: Any
    dtype: Any
    def __init__(self, low: Any, high: Any, shape: Any, dtype: Any = ...) -> None: ...

class Dict(Space):
    spaces: Mapping[str, Space]
    def __init__(self, spaces: Mapping[str, Space]) -> None: ...

class Tuple(Space):
    spaces: Sequence[Space]
    def __init__(self, spaces: Sequence[Space]) -> None: ...
