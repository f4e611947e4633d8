"""Gymnasium's path of the vector wrappers: ``protogym.wrappers.vector`` is
`protogym.vector.wrappers`, the same module object (so its classes are the same classes)."""

import sys
from typing import TYPE_CHECKING

from protogym.vector import wrappers as _vector_wrappers

if TYPE_CHECKING:
    from protogym.vector.wrappers import *  # noqa: F403 - what this path names

sys.modules[__name__] = _vector_wrappers
