"""Helpers for starting worker processes: `CloudpickleWrapper` and `clear_mpi_env_vars`."""

from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

__all__ = ["CloudpickleWrapper", "clear_mpi_env_vars"]

_T_co = TypeVar("_T_co", covariant=True)

_MPI_PREFIXES = ("OMPI_", "PMI_")


class CloudpickleWrapper(Generic[_T_co]):
    """A callable (usually an env function) that pickles with cloudpickle, so lambdas and
    closures reach processes started with "spawn" or "forkserver"; calling it calls `fn`.

    Without cloudpickle installed it pickles as plain `pickle` does (module-level functions
    only).
    """

    def __init__(self, fn: Callable[[], _T_co]) -> None:
        if not callable(fn):
            raise TypeError(f"CloudpickleWrapper wraps a callable, got {fn!r}")
        self.fn = fn

    def __call__(self) -> _T_co:
        return self.fn()

    def __getstate__(self) -> bytes:
        try:
            import cloudpickle
        except ImportError:
            return pickle.dumps(self.fn)
        return cloudpickle.dumps(self.fn)

    def __setstate__(self, state: bytes) -> None:
        self.fn = pickle.loads(state)

    def __repr__(self) -> str:
        return f"CloudpickleWrapper({self.fn!r})"


@contextlib.contextmanager
def clear_mpi_env_vars() -> Iterator[None]:
    """Hide the MPI launcher's environment variables (``OMPI_*``, ``PMI_*``) for the block.

    A child process that inherits them and imports mpi4py believes it is one more rank of
    the parent's MPI job and can hang in `MPI_Init`; workers are started inside this block.
    """
    removed: dict[str, Any] = {
        name: os.environ.pop(name) for name in list(os.environ) if name.startswith(_MPI_PREFIXES)
    }
    try:
        yield
    finally:
        os.environ.update(removed)
