"""Helpers for vector envs under Gymnasium's `gymnasium.vector.utils` names.

`infos` batches sub-env infos and records ended episodes; the space helpers (`batch_space`,
`iterate`, `concatenate`, `create_empty_array`, ...) live with the spaces and are re-exported
here (and in `space_utils`), where Gymnasium users import them from; `shared_memory` lays
batches out in memory shared between processes; `misc` has Gymnasium's process helpers.
"""

from __future__ import annotations

from protogym.vector.utils.infos import add_finals, add_info, info_of, observation_of, with_rows
from protogym.vector.utils.misc import CloudpickleWrapper, clear_mpi_env_vars
from protogym.vector.utils.shared_memory import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)
from protogym.vector.utils.space_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)

__all__ = [
    "CloudpickleWrapper",
    "add_finals",
    "add_info",
    "batch_differing_spaces",
    "batch_space",
    "clear_mpi_env_vars",
    "concatenate",
    "create_empty_array",
    "create_shared_memory",
    "info_of",
    "iterate",
    "observation_of",
    "read_from_shared_memory",
    "with_rows",
    "write_to_shared_memory",
]
