"""The spaces: what observations and actions look like, with seedable samplers.

The classes and helpers load on first access, so ``import protogym`` (which needs only the
`Space` protocol from here) does not pay for numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from protogym.spaces.space import Space

if TYPE_CHECKING:
    from protogym.spaces import utils, vector_utils
    from protogym.spaces.base import SpaceBase
    from protogym.spaces.box import Box
    from protogym.spaces.dict import Dict
    from protogym.spaces.discrete import Discrete
    from protogym.spaces.graph import Graph, GraphInstance
    from protogym.spaces.multi_binary import MultiBinary
    from protogym.spaces.multi_discrete import MultiDiscrete
    from protogym.spaces.oneof import OneOf
    from protogym.spaces.sequence import Sequence
    from protogym.spaces.text import Text
    from protogym.spaces.tuple import Tuple
    from protogym.spaces.utils import flatdim, flatten, flatten_space, unflatten
    from protogym.spaces.vector_utils import (
        batch_differing_spaces,
        batch_space,
        concatenate,
        create_empty_array,
        iterate,
    )

_LAZY: dict[str, str] = {
    "SpaceBase": "protogym.spaces.base",
    "Box": "protogym.spaces.box",
    "Dict": "protogym.spaces.dict",
    "Discrete": "protogym.spaces.discrete",
    "Graph": "protogym.spaces.graph",
    "GraphInstance": "protogym.spaces.graph",
    "MultiBinary": "protogym.spaces.multi_binary",
    "MultiDiscrete": "protogym.spaces.multi_discrete",
    "OneOf": "protogym.spaces.oneof",
    "Sequence": "protogym.spaces.sequence",
    "Text": "protogym.spaces.text",
    "Tuple": "protogym.spaces.tuple",
    "flatdim": "protogym.spaces.utils",
    "flatten": "protogym.spaces.utils",
    "flatten_space": "protogym.spaces.utils",
    "unflatten": "protogym.spaces.utils",
    "batch_differing_spaces": "protogym.spaces.vector_utils",
    "batch_space": "protogym.spaces.vector_utils",
    "concatenate": "protogym.spaces.vector_utils",
    "create_empty_array": "protogym.spaces.vector_utils",
    "iterate": "protogym.spaces.vector_utils",
}
_SUBMODULES = {"utils", "vector_utils"}

__all__ = [
    "Box",
    "Dict",
    "Discrete",
    "Graph",
    "GraphInstance",
    "MultiBinary",
    "MultiDiscrete",
    "OneOf",
    "Sequence",
    "Space",
    "SpaceBase",
    "Text",
    "Tuple",
    "batch_differing_spaces",
    "batch_space",
    "concatenate",
    "create_empty_array",
    "flatdim",
    "flatten",
    "flatten_space",
    "iterate",
    "unflatten",
    "utils",
    "vector_utils",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"protogym.spaces.{name}")
    else:
        raise AttributeError(f"module 'protogym.spaces' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
