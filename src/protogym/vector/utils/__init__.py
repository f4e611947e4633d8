"""Helpers for vector envs under Gymnasium's `gymnasium.vector.utils` names.

`infos` batches sub-env infos and records ended episodes; the space helpers (`batch_space`,
`iterate`, `concatenate`, `create_empty_array`, ...) live with the spaces and are re-exported
here, where Gymnasium users import them from.
"""

from __future__ import annotations

from protogym.spaces.vector_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)
from protogym.vector.utils.infos import add_finals, add_info, info_of, observation_of, with_rows

__all__ = [
    "add_finals",
    "add_info",
    "batch_differing_spaces",
    "batch_space",
    "concatenate",
    "create_empty_array",
    "info_of",
    "iterate",
    "observation_of",
    "with_rows",
]
