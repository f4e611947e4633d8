"""The batching helpers under Gymnasium's module path, ``gymnasium.vector.utils.space_utils``.

They live with the spaces (`protogym.spaces.vector_utils`, so spaces need nothing from the
vector envs); this module names them where Gymnasium users import them from. Registering a
rule here registers it there: they are the same functions.
"""

from __future__ import annotations

from protogym.spaces.vector_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)

__all__ = [
    "batch_differing_spaces",
    "batch_space",
    "concatenate",
    "create_empty_array",
    "iterate",
]
