"""The parent's record of `AsyncVectorEnv`'s partial batches (EnvPool's asynchronous mode).

`send(actions, env_ids)` starts some sub-envs; each reports back on its own as it finishes;
`recv()` returns the first `batch_size` done, with ``info["env_id"]``. `BatchBook` tracks
which sub-envs are stepping, which are done and not yet returned (in order of completion),
and the observation last returned for each sub-env still out (a reset of other sub-envs
meanwhile returns those rows, since the workers are rewriting them).
"""

from __future__ import annotations

import pickle
from collections import deque
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.vector.async_autoreset import Report
from protogym.vector.async_errors import ErrorPayload
from protogym.vector.async_pipes import DONE, INDEX
from protogym.vector.async_shared import put_rows, take_rows

__all__ = ["BatchBook"]


class BatchBook:
    """Which sub-envs a partial batch has out, and what came back from them."""

    def __init__(self, num_envs: int, latest: Any) -> None:
        self.num_envs = num_envs
        self.stepping = np.zeros(num_envs, dtype=np.bool_)
        # Stepping, or done with results `recv` has not returned yet: one array, because
        # `send` checks it on every call.
        self.out = np.zeros(num_envs, dtype=np.bool_)
        self.done: deque[tuple[int, Report | None]] = deque()
        self.failures: list[ErrorPayload] = []
        self._count = 0  # how many are stepping (cheaper to ask than the array, every step)
        self._latest = latest

    def busy(self) -> NDArray[np.bool_]:
        """Sub-envs stepping, or done with results `recv` has not returned yet."""
        return self.out

    def active(self) -> bool:
        return self._count > 0 or bool(self.done) or bool(self.failures)

    def waiting(self) -> int:
        """How many results `recv` can still wait for: stepping plus done."""
        return self._count + len(self.done)

    def start(self, ids: NDArray[np.integer[Any]], observations: Any) -> None:
        """Sub-envs `ids` start stepping; keep the observations last returned for them."""
        put_rows(self._latest, ids, take_rows(observations, ids))
        self.stepping[ids] = True
        self.out[ids] = True
        self._count += len(ids)

    def sort(self, message: bytes) -> bytes | None:
        """File one worker message: a sub-env done (or failed) goes in the book; anything
        else is the reply to a command (a reset), returned to the caller."""
        if message[:1] == DONE:
            (index,) = INDEX.unpack_from(message, 1)
            self._finish(index, None)
            return None
        status, payload = pickle.loads(message)
        if status == "d":
            index, report = payload
            self._finish(index, report)
            return None
        if status == "error" and self.stepping[payload[0]]:
            self.stepping[payload[0]] = False
            self.out[payload[0]] = False
            self._count -= 1
            self.failures.append(payload)
            return None
        return message

    def _finish(self, index: int, report: Report | None) -> None:
        self.stepping[index] = False
        self._count -= 1
        self.done.append((index, report))

    def take(self, count: int) -> tuple[NDArray[np.int32], list[Report | None]]:
        """The first `count` sub-envs done, in order of completion, and their reports; they
        are returned (no longer out)."""
        popleft = self.done.popleft
        entries = [popleft() for _ in range(count)]
        ids = np.array([index for index, _ in entries], dtype=np.int32)
        self.out[ids] = False
        return ids, [report for _, report in entries]

    def with_latest(self, observations: Any) -> Any:
        """A copy of the batch `observations` whose busy rows are the ones last returned."""
        busy = np.flatnonzero(self.out)
        everything = np.arange(self.num_envs)
        batch = take_rows(observations, everything)
        if len(busy):
            put_rows(batch, busy, take_rows(self._latest, busy))
        return batch
