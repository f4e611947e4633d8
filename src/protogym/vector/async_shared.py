"""The shared-memory half of `AsyncVectorEnv`'s transport: raw ctypes buffers the parent
and its workers both view as numpy arrays, so batches of array spaces never get pickled."""

from __future__ import annotations

from multiprocessing.context import BaseContext
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.error import CustomSpaceError
from protogym.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Tuple
from protogym.spaces.space import Space
from protogym.vector.async_errors import UnshareableSpaceError

__all__ = [
    "Shared",
    "array_layout",
    "check_shareable",
    "put_rows",
    "share",
    "take_rows",
    "views",
    "write_row",
]


class Shared:
    """A numpy array of `dtype`/`shape` in a raw shared ctypes buffer (picklable to children)."""

    def __init__(self, ctx: BaseContext, dtype: np.dtype[Any], shape: tuple[int, ...]) -> None:
        self.dtype = dtype.str
        self.shape = shape
        self.raw = ctx.RawArray("b", max(int(np.prod(shape)) * dtype.itemsize, 1))

    def view(self) -> NDArray[Any]:
        count = int(np.prod(self.shape))
        return np.frombuffer(self.raw, dtype=self.dtype, count=count).reshape(self.shape)


def share(ctx: BaseContext, template: Any) -> Any:
    """Shared buffers mirroring `template` (an array, or dicts/tuples of arrays), or None."""
    if isinstance(template, np.ndarray):
        return None if template.dtype == object else Shared(ctx, template.dtype, template.shape)
    if isinstance(template, dict):
        parts = {key: share(ctx, value) for key, value in template.items()}
        return None if any(part is None for part in parts.values()) else parts
    if isinstance(template, tuple):
        items = tuple(share(ctx, value) for value in template)
        return None if any(item is None for item in items) else items
    return None


def array_layout(space: Space[Any]) -> bool:
    """Whether batches of `space` are arrays, or dicts/tuples of them, element by element
    (so a worker can write each sub-env's observation into its row)."""
    if isinstance(space, Box | Discrete | MultiDiscrete | MultiBinary):
        return True
    if isinstance(space, Dict):
        return all(array_layout(sub) for sub in space.spaces.values())
    if isinstance(space, Tuple):
        return all(array_layout(sub) for sub in space.spaces)
    return False


def views(shared: Any) -> Any:
    """Numpy views of `share`'s buffers, in the same dict/tuple structure."""
    if isinstance(shared, Shared):
        return shared.view()
    if isinstance(shared, dict):
        return {key: views(value) for key, value in shared.items()}
    return tuple(views(value) for value in shared)


def write_row(view: Any, index: int, value: Any) -> None:
    """Store one sub-env's observation `value` as row `index` of the batch `view`."""
    if isinstance(view, np.ndarray):
        view[index] = value
    elif isinstance(view, dict):
        for key, part in view.items():
            write_row(part, index, value[key])
    else:
        for part, item in zip(view, value, strict=True):
            write_row(part, index, item)


def take_rows(batch: Any, ids: NDArray[np.integer[Any]]) -> Any:
    """Rows `ids` of an array-layout batch, in that order, as a new batch (a copy)."""
    if isinstance(batch, np.ndarray):
        return batch[ids]
    if isinstance(batch, dict):
        return {key: take_rows(value, ids) for key, value in batch.items()}
    return tuple(take_rows(value, ids) for value in batch)


def put_rows(batch: Any, ids: NDArray[np.integer[Any]], rows: Any) -> None:
    """Store the batch `rows` as rows `ids` of the array-layout `batch`, in place."""
    if isinstance(batch, np.ndarray):
        batch[ids] = rows
    elif isinstance(batch, dict):
        for key, value in batch.items():
            put_rows(value, ids, rows[key])
    else:
        for value, part in zip(batch, rows, strict=True):
            put_rows(value, ids, part)


def check_shareable(space: Space[Any], ctx: BaseContext) -> None:
    """Refuse, with Gymnasium's exception classes, a space shared memory cannot hold.

    Spaces whose batches are arrays are laid out by this module; for the others the rule
    is `create_shared_memory`'s (which also accepts custom rules): a space it can lay out
    is accepted, and its observations travel through the pipes.
    """
    from protogym.vector.utils.shared_memory import create_shared_memory

    try:
        create_shared_memory(space, n=1, ctx=ctx)
    except CustomSpaceError as exc:
        raise UnshareableSpaceError(
            f"AsyncVectorEnv(shared_memory=True) cannot share observations of {space}: "
            f"{exc}. Pass shared_memory=False to send them through the pipes instead"
        ) from exc
