"""`AsyncVectorEnv`: sub-envs stepped in parallel by worker processes.

Each worker owns a contiguous block of sub-envs, so a step costs one round trip per worker,
not per sub-env. Actions, observations, rewards and done flags of array spaces travel through
shared memory (`async_shared`); the step message is one byte, and the worker's reply is one
byte too unless a sub-env reported an info, ended an episode (same-step autoreset) or failed
(`async_pipes`). The worker's loop is in `async_worker`, the autoreset bookkeeping on both
sides of the pipe in `async_autoreset`, the errors in `async_errors`; this module is the
public class, and the names it has always exported are still importable from here.
"""

from __future__ import annotations

import array
import contextlib
import copy as copy_module
import enum
import multiprocessing
import multiprocessing.connection
import os
import pickle
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Literal, overload

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.error import (
    AlreadyPendingCallError,
    ClosedEnvironmentError,
    NoAsyncCallError,
)
from protogym.spaces import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)
from protogym.spaces.space import Space
from protogym.vector.async_autoreset import merge_reports
from protogym.vector.async_batches import BatchBook
from protogym.vector.async_errors import (
    AsyncTimeoutError,
    ErrorPayload,
    SubEnvError,
    UnshareableSpaceError,
    WorkerDiedError,
    raise_sub_env_error,
    sub_env_error,
)
from protogym.vector.async_pipes import (
    BATCH,
    DEFAULT_SPIN_SECONDS,
    INDEX,
    OK,
    STEP,
    Dead,
    Waiter,
    frame,
)
from protogym.vector.async_shared import (
    Shared,
    array_layout,
    check_shareable,
    share,
    take_rows,
    views,
    write_row,
)
from protogym.vector.async_worker import EnvFns, pickle_fns, run_worker
from protogym.vector.sync_vector_env import (
    ObservationMode,
    action_rows,
    batched_observation_spaces,
    check_sub_env_spaces,
    reset_mask_of,
    values_per_env,
    without_reset_mask,
    wrong_action_batch,
)
from protogym.vector.utils.misc import clear_mpi_env_vars
from protogym.vector.vector_env import (
    ActT,
    AutoresetMode,
    Disabled,
    ModeT_co,
    NextStep,
    ObsT_co,
    SameStep,
    VectorEnvBase,
    VectorStepResult,
    parse_autoreset_mode,
    seeds_for,
)

__all__ = [
    "DEFAULT_SPIN_SECONDS",
    "AsyncState",
    "AsyncTimeoutError",
    "AsyncVectorEnv",
    "SubEnvError",
    "UnshareableSpaceError",
    "WorkerDiedError",
    "sub_env_error",
]


class AsyncState(enum.Enum):
    """What the parent is waiting for, so calls cannot interleave on the pipes."""

    DEFAULT = "default"
    WAITING_RESET = "reset"
    WAITING_STEP = "step"
    WAITING_CALL = "call"


class AsyncVectorEnv(VectorEnvBase[ObsT_co, ActT, ModeT_co]):
    """Steps sub-envs in worker processes, each worker serving a contiguous block of them.

    The arguments are Gymnasium's, in its order, plus two of protogym's (keyword-only):

    - `shared_memory` (default True): observations of array spaces, and dicts/tuples of
      them, are written by the workers straight into shared memory; other spaces Gymnasium
      can share (`Text`, `OneOf`, spaces with a registered `create_shared_memory` rule)
      travel through the pipes, and spaces it cannot (`Graph`, `Sequence`, unknown custom
      spaces) are refused here with `UnshareableSpaceError`; pass False for those.
    - `copy=False` returns the internal batch, which the next step overwrites.
    - `context` picks the start method ("fork", "spawn", "forkserver"; default: the
      platform's); `daemon` is the workers' daemon flag.
    - `worker`: Gymnasium's custom per-env worker function does not fit protogym's block
      workers; only None is accepted.
    - `observation_mode`: as in `SyncVectorEnv` ("same", "different", or a tuple
      ``(observation_space, single_observation_space)``).
    - `autoreset_mode`: same-step by default (the seeds' choice), see `AutoresetMode`.
    - `max_concurrency`: at most that many sub-envs run `reset`/`step` at once; a worker
      runs its block one sub-env at a time, so this caps the number of workers.
    - `num_workers`: how many worker processes (default: one per CPU core, at most one per
      sub-env).
    - `spin_seconds`: how long the parent and each worker poll for the other's next
      message, yielding the core, before sleeping: a tight stepping loop then skips most
      wake-ups; 0 never spins.
    - `batch_size`: how many sub-envs `recv` returns (default: all). With fewer, `send`
      and `recv` are EnvPool's asynchronous mode: `send(actions, env_ids)` starts those
      sub-envs, `recv()` returns the first `batch_size` to finish, with ``info["env_id"]``
      (see docs/vector.md). `step` stays the full-batch call.
    """

    single_observation_space: Space[Any]
    single_action_space: Space[Any]
    observation_space: Space[ObsT_co]
    action_space: Space[ActT]
    render_mode: str | None

    @overload
    def __init__(
        self: AsyncVectorEnv[Any, Any, SameStep],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: None = None,
        observation_mode: ObservationMode = "same",
        autoreset_mode: SameStep | Literal["SameStep", "same_step"] = ...,
        max_concurrency: int | None = None,
        *,
        num_workers: int | None = None,
        spin_seconds: float = DEFAULT_SPIN_SECONDS,
        batch_size: int | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: AsyncVectorEnv[Any, Any, NextStep],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: None = None,
        observation_mode: ObservationMode = "same",
        *,
        autoreset_mode: NextStep | Literal["NextStep", "next_step"],
        max_concurrency: int | None = None,
        num_workers: int | None = None,
        spin_seconds: float = DEFAULT_SPIN_SECONDS,
        batch_size: int | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: AsyncVectorEnv[Any, Any, Disabled],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: None = None,
        observation_mode: ObservationMode = "same",
        *,
        autoreset_mode: Disabled | Literal["Disabled", "disabled"],
        max_concurrency: int | None = None,
        num_workers: int | None = None,
        spin_seconds: float = DEFAULT_SPIN_SECONDS,
        batch_size: int | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: AsyncVectorEnv[Any, Any, AutoresetMode],
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: None = None,
        observation_mode: ObservationMode = "same",
        autoreset_mode: AutoresetMode | str = ...,
        max_concurrency: int | None = None,
        *,
        num_workers: int | None = None,
        spin_seconds: float = DEFAULT_SPIN_SECONDS,
        batch_size: int | None = None,
    ) -> None: ...
    def __init__(
        self,
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: None = None,
        observation_mode: ObservationMode = "same",
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        max_concurrency: int | None = None,
        *,
        num_workers: int | None = None,
        spin_seconds: float = DEFAULT_SPIN_SECONDS,
        batch_size: int | None = None,
    ) -> None:
        self.closed = True  # until the workers are up, so a failed start closes cleanly
        self._state = AsyncState.DEFAULT
        self._replying: list[int] = []  # amid a partial batch: the workers a command awaits
        self._processes: list[BaseProcess] = []
        self._conns: list[multiprocessing.connection.Connection] = []
        fns = list(env_fns)
        if not fns:
            raise ValueError("AsyncVectorEnv needs at least one env function, got none")
        not_callable = [i for i, fn in enumerate(fns) if not callable(fn)]
        if not_callable:
            raise TypeError(
                f"AsyncVectorEnv takes functions that build envs (e.g. `lambda: make(id)`), "
                f"but entries {not_callable} are not callable"
            )
        if worker is not None:
            raise ValueError(
                "AsyncVectorEnv(worker=...) is not supported: protogym's workers each serve a "
                "block of sub-envs over shared memory, so a Gymnasium per-env worker function "
                "cannot replace them; wrap the sub-envs instead (worker must be None)"
            )
        _check_positive("num_workers", num_workers)
        _check_positive("max_concurrency", max_concurrency)
        _check_positive("batch_size", batch_size)
        if batch_size is not None and batch_size > len(fns):
            raise ValueError(
                f"batch_size must be at most the number of sub-envs ({len(fns)}), got "
                f"{batch_size}; recv() returns that many sub-envs"
            )
        self.batch_size = len(fns) if batch_size is None else int(batch_size)
        if (
            isinstance(spin_seconds, bool)
            or not isinstance(spin_seconds, int | float)
            or not 0.0 <= spin_seconds <= 1.0
        ):
            raise ValueError(
                f"spin_seconds must be a number of seconds from 0 (never spin) to 1, "
                f"got {spin_seconds!r}; the default is {DEFAULT_SPIN_SECONDS}"
            )
        self.spin_seconds = float(spin_seconds)
        try:
            ctx = multiprocessing.get_context(context)
        except ValueError:
            methods = multiprocessing.get_all_start_methods()
            raise ValueError(
                f"context must be None or a start method of this platform {methods}, "
                f"got {context!r}"
            ) from None
        self._autoreset_mode = parse_autoreset_mode(autoreset_mode)
        self.env_fns = fns
        self.shared_memory = shared_memory
        self.context = context
        self.daemon = daemon
        self.worker = worker
        self.observation_mode = observation_mode
        self.max_concurrency = max_concurrency
        self.num_envs = len(fns)
        self.copy = copy

        probe = fns[0]()
        try:
            first_obs_space = probe.observation_space
            self.single_action_space = probe.action_space
            self.metadata = {**probe.metadata, "autoreset_mode": self._autoreset_mode}
            self.render_mode = probe.render_mode
        finally:
            probe.close()
        spaces = batched_observation_spaces(
            observation_mode, first_obs_space, self.num_envs, "AsyncVectorEnv"
        )
        # With observation_mode="different", the batched space is made from every
        # sub-env's space once the workers report them; the layout depends on sub-env 0's.
        self.single_observation_space, batched = (
            (first_obs_space, None) if spaces is None else spaces
        )
        if batched is not None:
            self.observation_space = batched
        self.action_space = batch_space(self.single_action_space, self.num_envs)

        obs_template = create_empty_array(self.single_observation_space, self.num_envs)
        obs_shared = None
        if shared_memory:
            if array_layout(self.single_observation_space):
                obs_shared = share(ctx, obs_template)
            if obs_shared is None:
                check_shareable(self.single_observation_space, ctx)
        self._observations: Any = obs_template if obs_shared is None else views(obs_shared)
        act_template = create_empty_array(self.single_action_space, self.num_envs)
        act_shared = (
            Shared(ctx, act_template.dtype, act_template.shape)
            if isinstance(act_template, np.ndarray) and act_template.dtype != object
            else None
        )
        self._actions = None if act_shared is None else act_shared.view()
        rew_shared = Shared(ctx, np.dtype(np.float64), (self.num_envs,))
        term_shared = Shared(ctx, np.dtype(np.bool_), (self.num_envs,))
        trunc_shared = Shared(ctx, np.dtype(np.bool_), (self.num_envs,))
        self._rewards = rew_shared.view()
        self._terminations = term_shared.view()
        self._truncations = trunc_shared.view()

        workers = min(num_workers or os.cpu_count() or 1, max_concurrency or self.num_envs,
                      self.num_envs)
        bounds = [worker * self.num_envs // workers for worker in range(workers + 1)]
        self._blocks: list[tuple[int, int]] = list(zip(bounds[:-1], bounds[1:], strict=True))  # noqa: RUF007
        self.num_workers = workers
        self._worker_of = [
            worker for worker, (first, last) in enumerate(self._blocks) for _ in range(first, last)
        ]
        # The messages the hot paths send, framed once: a step of every worker's sub-envs,
        # and a partial batch's step of one sub-env (by its index).
        self._step_frames = [frame(STEP)] * workers
        self._step_one_frames = [
            frame(BATCH + INDEX.pack(index - first))
            for first, last in self._blocks for index in range(first, last)
        ]
        self._book = (
            BatchBook(self.num_envs, create_empty_array(self.single_observation_space,
                                                        self.num_envs))
            if array_layout(self.single_observation_space)
            else None
        )
        shared = (obs_shared, act_shared, rew_shared, term_shared, trunc_shared)
        try:
            with clear_mpi_env_vars():
                self._start_workers(ctx, fns, shared, daemon)
            self.closed = False
            self._waiter = Waiter(self._conns, self._processes, self.spin_seconds)
            self._raise_errors(self._gather("start"))
            sub_env_spaces = list(zip(self.get_attr("observation_space"),
                                      self.get_attr("action_space"), strict=True))
            if spaces is None:
                self.observation_space = batch_differing_spaces(
                    [obs_space for obs_space, _ in sub_env_spaces]
                )
            check_sub_env_spaces("AsyncVectorEnv", observation_mode, sub_env_spaces,
                                 self.single_observation_space, self.single_action_space)
        except BaseException:
            self._shutdown(terminate=True)
            raise

    def _start_workers(
        self, ctx: BaseContext, fns: EnvFns, shared: tuple[Any, ...], daemon: bool
    ) -> None:
        """One process per block of sub-envs, each with its end of a pipe."""
        for first, last in self._blocks:
            parent_conn, child_conn = ctx.Pipe()
            process = ctx.Process(  # type: ignore[attr-defined]
                target=run_worker,
                name=f"protogym-AsyncVectorEnv-{first}-{last - 1}",
                args=(child_conn, parent_conn, pickle_fns(fns[first:last]), first, shared,
                      self._autoreset_mode.value, self.spin_seconds),
                daemon=daemon,
            )
            self._processes.append(process)
            self._conns.append(parent_conn)
            process.start()
            child_conn.close()

    @property
    def autoreset_mode(self) -> ModeT_co:
        return self._autoreset_mode  # type: ignore[return-value]

    @property
    def worker_pids(self) -> tuple[int, ...]:
        """The process ids of the workers, in sub-env order (for monitoring and tests)."""
        return tuple(process.pid for process in self._processes if process.pid is not None)

    @property
    def np_random_seed(self) -> tuple[int | None, ...]:  # type: ignore[override]
        """The sub-envs' `np_random_seed`s, in order (Gymnasium's meaning for a vector env)."""
        return self.get_attr("np_random_seed")

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The sub-envs' generators (copies from the workers), in order."""
        return self.get_attr("np_random")

    # -- reset and step ----------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT_co, dict[str, Any]]:
        self.reset_async(seed=seed, options=options)
        return self.reset_wait()

    def reset_async(
        self,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Send the resets to the workers without waiting; collect them with `reset_wait`.

        While `send` has sub-envs out, only the others can be reset (with a reset mask)."""
        self._check_ready("reset_async")
        seeds = seeds_for(seed, self.num_envs)
        mask = reset_mask_of(options, self.num_envs)
        workers = list(range(self.num_workers))
        if self._book is not None and self._book.active():
            self._check_reset_amid_batch(mask)
            if mask is not None:  # only the workers of the masked sub-envs: the others
                # may be stepping sub-envs sent earlier, and need not be waited for
                workers = sorted({self._worker_of[index] for index in np.flatnonzero(mask)})
        if mask is not None:
            options = without_reset_mask(options)  # type: ignore[arg-type]
        blocks = self._blocks
        self._send("reset", [
            pickle.dumps(("reset", (seeds[first:last], options,
                                    None if mask is None else mask[first:last].tolist())))
            for first, last in (blocks[worker] for worker in workers)
        ], workers)
        self._replying = workers
        self._state = AsyncState.WAITING_RESET

    def reset_wait(self, timeout: float | None = None) -> tuple[ObsT_co, dict[str, Any]]:
        """The results of the pending `reset_async`; after `timeout` seconds, close and raise
        `AsyncTimeoutError`."""
        self._check_waiting(AsyncState.WAITING_RESET, "reset_wait", "reset_async")
        amid_batch = self._book is not None and self._book.active()
        replies = self._raise_errors(self._gather("reset", timeout))
        infos, obs_rows = merge_reports(replies, self.num_envs)
        if obs_rows:
            self._collect_obs(dict(obs_rows))
        if amid_batch:
            assert self._book is not None
            return self._book.with_latest(self._observations), infos
        return self._batch(), infos

    def step(self, actions: ActT) -> VectorStepResult[ObsT_co]:
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: ActT) -> None:
        """Send `actions` to the workers without waiting; collect with `step_wait`."""
        self._check_ready("step_async")
        self._check_no_batch("step")
        buffer = self._actions
        if buffer is not None and (
            not isinstance(actions, np.ndarray) or actions.dtype == buffer.dtype
        ):
            # Arrays of another dtype go through the pipes, so each sub-env gets its row
            # as it is (as in SyncVectorEnv), not cast to the buffer's dtype.
            if (actions.ndim == 0 if isinstance(actions, np.ndarray) else np.isscalar(actions)):
                raise TypeError(
                    f"step() takes a batch of {self.num_envs} actions (one per sub-env), got "
                    f"the single action {actions!r}"
                )
            copy_actions(actions, buffer)
            self._write("step", self._step_frames)
        else:
            items = action_rows(actions, self.action_space, self.num_envs)
            self._send("step", [
                pickle.dumps(("step", list(items[first:last]))) for first, last in self._blocks
            ])
        self._state = AsyncState.WAITING_STEP

    def step_wait(self, timeout: float | None = None) -> VectorStepResult[ObsT_co]:
        """The results of the pending `step_async`; after `timeout` seconds, close and raise
        `AsyncTimeoutError`."""
        if self._state is not AsyncState.WAITING_STEP:
            self._check_waiting(AsyncState.WAITING_STEP, "step_wait", "step_async")
        replies = self._raise_errors(self._gather("step", timeout))
        infos, obs_rows = merge_reports(replies, self.num_envs)
        if obs_rows:
            self._observations = concatenate(
                self.single_observation_space, [obs for _, obs in obs_rows], self._observations
            )
        return (
            self._batch(),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    # -- partial batches ---------------------------------------------------------------------

    def send(self, actions: Any, env_ids: Any = None) -> None:
        """Start stepping sub-envs `env_ids` (default: every one) with `actions`, one row
        each in that order, without waiting; `recv` returns the first `batch_size` done.

        The sub-envs must not be out already (sent, and not yet returned by `recv`).
        """
        self._check_ready("send")
        book = self._partial_book("send")
        ids, listed = self._env_ids(env_ids)
        clash = book.out[ids]
        if clash.any():
            raise ValueError(
                f"send(): sub-envs {ids[clash].tolist()} are still out (sent, and not yet "
                "returned by recv()); recv() their results before sending them new actions"
            )
        # Every call of a partial batch runs this between a batch's return and the next
        # steps of its sub-envs, so it touches as little as it can.
        worker_of, blocks = self._worker_of, self._blocks
        groups: dict[int, list[int]] = {}  # worker -> positions in `ids`
        for position, index in enumerate(listed):
            groups.setdefault(worker_of[index], []).append(position)
        buffer = self._actions
        if buffer is None or (isinstance(actions, np.ndarray) and actions.dtype != buffer.dtype):
            # As in `step`: each sub-env gets its row as it is, through the pipe.
            rows = action_rows(actions, batch_space(self.single_action_space, len(listed)),
                               len(listed), "send()")
            messages = [
                pickle.dumps(("batch", [(listed[position] - blocks[worker][0], rows[position])
                                        for position in group]))
                for worker, group in groups.items()
            ]
            book.start(ids, self._observations)
            self._send("send", messages, list(groups))
            return
        if not (isinstance(actions, np.ndarray)
                and actions.shape == (len(listed), *buffer.shape[1:])):
            staging = np.empty((len(listed), *buffer.shape[1:]), dtype=buffer.dtype)
            copy_actions(actions, staging, "send()")
            actions = staging
        buffer[ids] = actions
        one, frames = self._step_one_frames, []
        for worker, group in groups.items():
            frames.append(one[listed[group[0]]] if len(group) == 1 else frame(
                BATCH + array.array(
                    "i", [listed[position] - blocks[worker][0] for position in group]
                ).tobytes()
            ))
        book.start(ids, self._observations)
        self._write("send", frames, list(groups))

    def recv(
        self, timeout: float | None = None, *, count: int | None = None
    ) -> VectorStepResult[ObsT_co]:
        """The first `batch_size` sub-envs to finish since `send` (or `count` of them, e.g.
        the last few out), in order of completion, with ``info["env_id"]`` (int32) naming
        the sub-env of each row. After `timeout` seconds, close and raise
        `AsyncTimeoutError`."""
        self._check_ready("recv")
        book = self._partial_book("recv")
        if count is None:
            count = self.batch_size
        elif isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"recv(count=...) must be a positive int, got {count!r}")
        if book.waiting() == 0 and not book.failures:
            raise NoAsyncCallError(
                "recv() was called with no send() pending; call send(actions, env_ids) first",
                "send",
            )
        deadline = None if timeout is None else time.monotonic() + timeout
        while len(book.done) < count and not book.failures:
            if book.waiting() < count:
                raise ValueError(
                    f"recv() returns {count} sub-envs (batch_size or count), but only "
                    f"{book.waiting()} are out; send() actions for at least "
                    f"{count - book.waiting()} more first, or pass count={book.waiting()}"
                )
            self._pump("recv", deadline, timeout)
        if book.failures:
            raise_sub_env_error(book.failures.pop(0))
        ids, reports = book.take(count)
        infos: dict[str, Any] = {}
        if any(reports):
            positions = {index: position for position, index in enumerate(ids.tolist())}
            infos, obs_rows = merge_reports(reports, count, positions)
            for index, obs in obs_rows:
                write_row(self._observations, index, obs)
        infos["env_id"] = ids
        return (
            take_rows(self._observations, ids),
            self._rewards[ids],
            self._terminations[ids],
            self._truncations[ids],
            infos,
        )

    def _partial_book(self, what: str) -> BatchBook:
        if self._book is None:
            raise TypeError(
                f"{what}() needs observations that batch as arrays (Box, Discrete, "
                f"MultiDiscrete, MultiBinary, or dicts/tuples of them), not "
                f"{self.single_observation_space}; use step() instead"
            )
        return self._book

    def _env_ids(self, env_ids: Any) -> tuple[NDArray[np.integer[Any]], list[int]]:
        """`env_ids` checked (distinct sub-env indices in range), as an array and a list.

        A batch holds a few indices, so the checks run on the list: numpy's calls cost
        more than they save at that size."""
        if env_ids is None:
            return np.arange(self.num_envs), list(range(self.num_envs))
        ids = np.asarray(env_ids)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.ndim != 1 or not (ids.dtype.kind in "iu" or ids.size == 0):
            raise ValueError(
                f"send(): env_ids must be a 1-D sequence of sub-env indices, got {env_ids!r}"
            )
        listed: list[int] = ids.tolist()
        if not listed:
            raise ValueError("send(): env_ids is empty; name at least one sub-env")
        if min(listed) < 0 or max(listed) >= self.num_envs:
            raise ValueError(f"send(): env_ids must be in [0, {self.num_envs}), got {listed}")
        if len(set(listed)) != len(listed):
            raise ValueError(f"send(): env_ids has repeats: {listed}; name each once")
        return ids, listed

    def _pump(self, what: str, deadline: float | None, timeout: float | None) -> list[
        tuple[int, bytes]
    ]:
        """File the messages that have arrived (waiting for at least one): sub-envs done
        go in the book; command replies are returned as (worker, message)."""
        assert self._book is not None
        seconds = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            messages = self._waiter.collect(seconds)
        except Dead as dead:
            raise self._died(dead.args[0], what) from None
        if not messages:
            self._shutdown(terminate=True)
            raise AsyncTimeoutError(
                f"AsyncVectorEnv {what} took longer than {timeout} s; the env is closed"
            )
        replies = []
        for worker, message in messages:
            reply = self._book.sort(message)
            if reply is not None:
                replies.append((worker, reply))
        return replies

    def _check_reset_amid_batch(self, mask: NDArray[np.bool_] | None) -> None:
        assert self._book is not None
        busy = self._book.busy()
        clash = np.flatnonzero(busy if mask is None else busy & mask)
        if len(clash):
            raise ValueError(
                f"reset(): sub-envs {clash.tolist()} are out from send() (stepping, or done "
                "and not yet returned by recv()); recv() them first, or reset only the "
                'others with options={"reset_mask": mask}'
            )

    def _check_no_batch(self, what: str) -> None:
        """`step`, `call` and the attributes need every sub-env in: none out from `send`."""
        if self._book is not None and self._book.active():
            out = np.flatnonzero(self._book.busy()).tolist()
            raise AlreadyPendingCallError(
                f"{what}() was called while sub-envs {out} are out from send() (stepping, "
                f"or done and not yet returned); recv() them first",
                "send",
            )

    # -- calls and attributes ----------------------------------------------------------------

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            self._check_open()
            return None
        return self.call("render")

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method `name` of every sub-env in its worker (or read it if not callable)."""
        self.call_async(name, *args, **kwargs)
        return self.call_wait()

    def call_async(self, name: str, /, *args: Any, **kwargs: Any) -> None:
        """Start `call(name, ...)` in every worker; collect the results with `call_wait`."""
        self._check_ready("call_async")
        self._check_no_batch("call")
        if name in _NOT_CALLABLE:
            raise ValueError(
                f"AsyncVectorEnv.call({name!r}) would bypass the vector env's own bookkeeping; "
                f"use its {name}() method instead"
            )
        self._send("call", [pickle.dumps(("call", (name, args, kwargs)))] * self.num_workers)
        self._state = AsyncState.WAITING_CALL

    def call_wait(self, timeout: float | None = None) -> tuple[Any, ...]:
        """Every sub-env's result of the pending `call_async`, in order; after `timeout`
        seconds, close and raise `AsyncTimeoutError`."""
        self._check_waiting(AsyncState.WAITING_CALL, "call_wait", "call_async")
        results: list[Any] = []
        for reply in self._raise_errors(self._gather("call", timeout)):
            results.extend(reply)
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute `name` of every sub-env (looked up through its wrappers)."""
        self._check_ready("get_attr")
        self._check_no_batch("get_attr")
        self._send("get_attr", [pickle.dumps(("get_attr", name))] * self.num_workers)
        results: list[Any] = []
        for reply in self._raise_errors(self._gather("get_attr")):
            results.extend(reply)
        return tuple(results)

    def set_attr(self, name: str, values: Any) -> None:
        """Set attribute `name` on every sub-env: a list/tuple gives one value each.

        As `SyncVectorEnv.set_attr`: on the outermost layer that has it, else the env.
        """
        self._check_ready("set_attr")
        self._check_no_batch("set_attr")
        per_env = values_per_env(values, self.num_envs)
        self._send("set_attr", [
            pickle.dumps(("set_attr", (name, per_env[first:last]))) for first, last in self._blocks
        ])
        self._raise_errors(self._gather("set_attr"))

    # -- closing -----------------------------------------------------------------------------

    def close(self, *, timeout: float | None = None, terminate: bool = False) -> None:
        """Close the sub-envs and end the workers (see `close_extras`); a second call does
        nothing. (Typed here for its keyword arguments; `VectorEnv.close` does the same.)"""
        if self.closed:
            return
        self.close_extras(timeout=timeout, terminate=terminate)

    def close_extras(self, *, timeout: float | None = None, terminate: bool = False) -> None:
        """End the workers: politely (each closes its sub-envs) unless `terminate`, waiting
        up to `timeout` seconds (default 5) before killing them. A pending async call is
        waited for first, with a warning."""
        if self._state is not AsyncState.DEFAULT:
            pending = self._state.value
            then = "ends the workers" if terminate else "waits for its replies first"
            warnings.warn(
                f"AsyncVectorEnv.close() was called while `{pending}` was pending (a "
                f"{pending}_async() with no {pending}_wait()); it {then}",
                UserWarning,
                stacklevel=3,
            )
        self._shutdown(terminate=terminate, timeout=timeout)

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            # At interpreter exit the modules this needs may already be gone.
            with contextlib.suppress(Exception):
                self._shutdown(terminate=True)

    # -- internals -------------------------------------------------------------------------

    def _send(self, what: str, messages: list[bytes], workers: list[int] | None = None) -> None:
        """One message to each worker (or to each of `workers`)."""
        self._write(what, [frame(message) for message in messages], workers)

    def _write(self, what: str, frames: list[bytes], workers: list[int] | None = None) -> None:
        """One framed message to each worker (or to each of `workers`); a worker whose pipe
        is broken has died."""
        channels = self._waiter.channels
        targets = range(self.num_workers) if workers is None else workers
        for worker, framed in zip(targets, frames, strict=True):
            try:
                channels[worker].write(framed)
            except OSError:
                self._processes[worker].join(1.0)
                raise self._died(worker, what) from None

    def _died(self, worker: int, what: str) -> WorkerDiedError:
        """Close the env after worker `worker` died, and say which sub-envs went with it."""
        first, last = self._blocks[worker]
        process = self._processes[worker]
        self._shutdown(terminate=True)
        return WorkerDiedError(
            f"the worker of sub-envs {first}..{last - 1} (pid {process.pid}) died with exit "
            f"code {process.exitcode} during {what}; the AsyncVectorEnv is closed"
        )

    def _gather(self, what: str, timeout: float | None = None) -> list[bytes]:
        """One reply from every worker; a dead worker or a timeout closes the env and raises."""
        if self._book is not None and self._book.active():
            try:
                return self._gather_amid_batch(what, timeout)
            finally:
                self._state = AsyncState.DEFAULT
        replies: list[bytes] = []
        try:
            replies = self._waiter.gather(timeout)
        except Dead as dead:
            raise self._died(dead.args[0], what) from None
        except TimeoutError:
            self._state = AsyncState.DEFAULT
            self._shutdown(terminate=True)
            raise AsyncTimeoutError(
                f"AsyncVectorEnv {what} took longer than {timeout} s; the env is closed"
            ) from None
        finally:
            self._state = AsyncState.DEFAULT
        return replies

    def _gather_amid_batch(self, what: str, timeout: float | None) -> list[bytes]:
        """`_gather` while sub-envs are out from `send`: their completions arrive between
        the replies, and go in the book."""
        replies: dict[int, bytes] = {}
        deadline = None if timeout is None else time.monotonic() + timeout
        while len(replies) < len(self._replying):
            for worker, reply in self._pump(what, deadline, timeout):
                replies[worker] = reply
        return [replies[worker] for worker in self._replying]

    def _raise_errors(self, replies: list[bytes]) -> list[Any]:
        """Decoded replies; the first sub-env error (lowest index) is raised here."""
        decoded: list[Any] = []
        failure: ErrorPayload | None = None
        for reply in replies:
            if reply == OK:
                decoded.append(None)
                continue
            status, payload = pickle.loads(reply)
            if status == "ok":
                decoded.append(payload)
                continue
            if failure is None or payload[0] < failure[0]:
                failure = payload
            decoded.append(None)
        if failure is not None:
            raise_sub_env_error(failure)
        return decoded

    def _collect_obs(self, obs_by_index: dict[int, Any]) -> None:
        """Fold pickled observations (spaces not in shared memory) into the batch."""
        if len(obs_by_index) == self.num_envs:
            # Every row is new: the old batch may be the empty template, which for a custom
            # space (no array form) is None and cannot be iterated.
            rows = [None] * self.num_envs
        else:
            rows = list(iterate(self.observation_space, self._observations))
        for index, obs in obs_by_index.items():
            rows[index] = obs
        self._observations = concatenate(self.single_observation_space, rows,
                                          self._observations)

    def _batch(self) -> ObsT_co:
        observations = self._observations
        if not self.copy:
            return observations  # type: ignore[no-any-return]
        if isinstance(observations, np.ndarray):
            return observations.copy()  # type: ignore[return-value]
        return copy_module.deepcopy(observations)  # type: ignore[no-any-return]

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(
                "this AsyncVectorEnv is closed; make a new one to keep going"
            )

    def _check_ready(self, what: str) -> None:
        """No call may start while another waits for its reply."""
        self._check_open()
        if self._state is not AsyncState.DEFAULT:
            pending = self._state.value
            raise AlreadyPendingCallError(
                f"{what}() was called while a {pending}_async() is pending; call "
                f"{pending}_wait() first",
                pending,
            )

    def _check_waiting(self, state: AsyncState, wait: str, start: str) -> None:
        """A `*_wait` needs its own `*_async` pending."""
        self._check_open()
        if self._state is not state:
            raise NoAsyncCallError(
                f"{wait}() was called with no {start}() pending; call {start}() first",
                state.value,
            )

    def _shutdown(self, *, terminate: bool, timeout: float | None = None) -> None:
        """End every worker: politely (close message, join) unless `terminate`, then by force."""
        self.closed = True
        patience = _CLOSE_SECONDS if timeout is None else timeout
        if not terminate:
            if getattr(self, "_state", AsyncState.DEFAULT) is not AsyncState.DEFAULT:
                try:
                    self._waiter.gather(patience)
                except (Dead, TimeoutError):
                    terminate = True
            message = pickle.dumps(("close", None))
            for channel in self._waiter.channels:
                try:
                    channel.send(message)
                except OSError:
                    terminate = True
            for process in self._processes:
                process.join(patience)
        for process in self._processes:
            if process.is_alive():
                process.terminate()
                process.join(1.0)
            if process.is_alive():
                process.kill()
                process.join()
        for conn in self._conns:
            conn.close()
        self._state = AsyncState.DEFAULT


_NOT_CALLABLE = frozenset({"reset", "step", "close"})
_CLOSE_SECONDS = 5.0


def copy_actions(actions: Any, destination: NDArray[Any], call: str = "step()") -> None:
    """Copy a batch of actions into `destination` (rows of the shared buffer); a batch of
    the wrong shape, or one that cannot be stored without changing its kind (a float action
    for an int space), is a `ValueError` before anything reaches a worker."""
    try:
        shape: tuple[int, ...] | None = np.shape(actions)
    except ValueError:  # a ragged list
        shape = None
    if shape != destination.shape:
        raise wrong_action_batch(actions, destination.shape, len(destination), call)
    try:
        np.copyto(destination, actions, casting="same_kind")
    except (ValueError, TypeError) as exc:
        raise ValueError(
            f"{call} needs actions numpy can store as {destination.dtype} without changing "
            f"their kind, got {actions!r}: {exc}"
        ) from None


def _check_positive(name: str, value: object) -> None:
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1
    ):
        raise ValueError(f"{name} must be a positive int or None, got {value!r}")
