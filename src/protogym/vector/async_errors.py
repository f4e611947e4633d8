"""What goes wrong in an `AsyncVectorEnv`: the errors it raises, and how a worker's
exception crosses the pipe (encoded in the worker, raised again in the parent)."""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import traceback
from typing import Any

from protogym.error import CustomSpaceError, Error

__all__ = [
    "AsyncTimeoutError",
    "SubEnvError",
    "UnshareableSpaceError",
    "WorkerDiedError",
    "error_reply",
    "raise_sub_env_error",
    "sub_env_error",
]


class SubEnvError(Error, RuntimeError):
    """A sub-env raised in its worker; carries the sub-env index and the remote traceback.

    The error raised is also an instance of the original exception's class where that is an
    ordinary exception class (see `sub_env_error`), so ``except ValueError`` catches a
    sub-env's `ValueError` as it would in one process. The original exception, when it
    could be pickled, is the error's `__cause__`.
    """

    def __init__(self, index: int, exc_type: str, message: str, remote_traceback: str) -> None:
        self.index = index
        self.exc_type = exc_type
        self.remote_traceback = remote_traceback
        super().__init__(
            f"sub-env {index} raised {exc_type}: {message}\n\n"
            f"Remote traceback of sub-env {index}:\n{remote_traceback}"
        )


_SUB_ENV_ERRORS: dict[type[BaseException], type[SubEnvError] | None] = {}


def sub_env_error(
    index: int,
    exc_type: str,
    message: str,
    remote_traceback: str,
    original: BaseException | None = None,
) -> SubEnvError:
    """The `SubEnvError` to raise for a sub-env's exception `original`: a subclass of both
    `SubEnvError` and `type(original)` when Python can combine them (not for `OSError`s,
    whose constructor reads its arguments, nor for classes with a clashing layout)."""
    kind = type(original) if isinstance(original, Exception) else None
    if kind is None or issubclass(kind, SubEnvError | OSError):
        return SubEnvError(index, exc_type, message, remote_traceback)
    if kind not in _SUB_ENV_ERRORS:
        combined: type[SubEnvError] | None
        try:
            combined = type("SubEnvError", (SubEnvError, kind), {"__module__": __name__})
            combined(index, exc_type, message, remote_traceback)
        except Exception:
            combined = None
        _SUB_ENV_ERRORS[kind] = combined
    error_class = _SUB_ENV_ERRORS[kind] or SubEnvError
    return error_class(index, exc_type, message, remote_traceback)


class WorkerDiedError(Error, RuntimeError):
    """A worker process exited while the parent waited on it; the vector env is closed."""


class AsyncTimeoutError(Error, multiprocessing.TimeoutError, TimeoutError):
    """A `*_wait(timeout=...)` ran out of time; the vector env is closed.

    Both `multiprocessing.TimeoutError` (what Gymnasium raises) and the builtin
    `TimeoutError`."""


class UnshareableSpaceError(CustomSpaceError, ValueError):
    """`AsyncVectorEnv(shared_memory=True)` was given an observation space that cannot be
    laid out in shared memory. A `CustomSpaceError` and `TypeError` (Gymnasium's class for
    `Graph` and `Sequence`) and a `ValueError` (its class for unknown custom spaces)."""


ErrorPayload = tuple[int, str, str, str, bytes | None]
"""A sub-env's failure as it crosses the pipe: index, class name, message, traceback, and
the pickled exception (None if it cannot be pickled)."""


def error_reply(index: int, exc: BaseException) -> bytes:
    """The worker's reply for sub-env `index` raising `exc` (call inside the except block,
    so the traceback is the exception's)."""
    try:
        original: bytes | None = pickle.dumps(exc)
    except Exception:
        original = None
    text = traceback.format_exc()
    return pickle.dumps(("error", (index, type(exc).__name__, str(exc), text, original)))


def raise_sub_env_error(failure: ErrorPayload) -> None:
    """Raise, in the parent, the `SubEnvError` a worker encoded with `error_reply`."""
    index, exc_type, message, remote_tb, pickled = failure
    cause: Any = None
    with contextlib.suppress(Exception):
        cause = pickle.loads(pickled) if pickled is not None else None
    raise sub_env_error(index, exc_type, message, remote_tb, cause) from cause
