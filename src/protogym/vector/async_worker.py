"""The worker process of `AsyncVectorEnv`: builds its block of sub-envs, then serves the
parent's commands (step, reset, call, get/set attribute, close) until told to close or its
pipe closes. A sub-env's exception is sent back as a reply, never kills the worker."""

from __future__ import annotations

import array
import contextlib
import multiprocessing.connection
import os
import pickle
import select
import signal
from collections.abc import Callable
from typing import Any

from protogym.core import Env
from protogym.vector.async_autoreset import AutoresetBlock, Report
from protogym.vector.async_errors import error_reply
from protogym.vector.async_pipes import (
    BATCH,
    CAN_SPIN,
    DONE,
    INDEX,
    OK,
    STEP,
    Channel,
    spin_until_readable,
)
from protogym.vector.async_shared import Shared, views
from protogym.vector.sync_vector_env import set_sub_env_attr
from protogym.vector.vector_env import AutoresetMode

__all__ = ["EnvFns", "pickle_fns", "run_worker"]

EnvFns = list[Callable[[], Env[Any, Any]]]


def pickle_fns(fns: EnvFns) -> bytes | EnvFns:
    """Env functions as cloudpickle bytes (lambdas and closures survive `spawn`) if we can."""
    try:
        import cloudpickle
    except ImportError:
        return fns
    return cloudpickle.dumps(fns)


def _attr(env: Env[Any, Any], name: str) -> Any:
    getter = getattr(env, "get_wrapper_attr", None)
    return getter(name) if getter is not None else getattr(env, name)


def run_worker(
    conn: multiprocessing.connection.Connection,
    parent_conn: multiprocessing.connection.Connection | None,
    env_fns: bytes | EnvFns,
    first: int,
    shared: tuple[Any, Shared | None, Shared, Shared, Shared],
    mode_value: str,
    spin_seconds: float,
) -> None:
    """A worker's loop: build its sub-envs, then serve commands until `close` or EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and closes us
    channel = Channel(conn)
    if hasattr(os, "sched_setscheduler"):
        # A batch-scheduled worker's wake-up does not preempt the parent, so the parent
        # hands out every worker's step before any of them takes its core.
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    if parent_conn is not None:
        parent_conn.close()
    index = first
    try:
        fns = pickle.loads(env_fns) if isinstance(env_fns, bytes) else env_fns
        envs: list[Env[Any, Any]] = []
        for local, fn in enumerate(fns):
            index = first + local
            envs.append(fn())
    except BaseException as exc:
        channel.send(error_reply(index, exc))
        return
    channel.send(OK)

    obs_shared, act_shared, rew_shared, term_shared, trunc_shared = shared
    block = AutoresetBlock(
        envs,
        first,
        AutoresetMode(mode_value),
        None if obs_shared is None else views(obs_shared),
        rew_shared.view(),
        term_shared.view(),
        trunc_shared.view(),
    )
    actions_view = None if act_shared is None else act_shared.view()
    last = first + len(envs)
    poller = None
    if spin_seconds and CAN_SPIN:
        poller = select.poll()
        poller.register(channel.fd, select.POLLIN)

    in_batch = False  # the last command was a partial batch's
    while True:
        # After a partial batch the next command waits for the parent to collect a batch
        # from the other sub-envs too: spinning for it would only take their cores.
        if poller is not None and not in_batch:
            spin_until_readable(poller, spin_seconds)
        try:
            message = channel.recv()
        except (EOFError, OSError):
            break
        data: Any = None
        in_batch = message[:1] == BATCH
        if message == STEP:
            command = "step"
        elif in_batch:
            locals_ = array.array("i", message[1:]).tolist()
            _step_each(channel, block, [(local, actions_view[first + local].copy())  # type: ignore[index]
                                        for local in locals_])
            continue
        else:
            command, data = pickle.loads(message)
        local = 0
        try:
            if command == "step":
                rows = actions_view[first:last].copy() if data is None else data  # type: ignore[index]
                report: Report = {}
                block.step(range(len(envs)), rows, report)
                channel.send(pickle.dumps(("ok", report)) if report else OK)
            elif command == "batch":
                _step_each(channel, block, data)
            elif command == "reset":
                seeds, options, mask = data
                report = {}
                for local in range(len(envs)):
                    if mask is None or mask[local]:
                        block.reset(local, seeds[local], options, report)
                channel.send(pickle.dumps(("ok", report)))
            elif command == "call":
                name, args, kwargs = data
                results = []
                for local in range(len(envs)):
                    member = _attr(envs[local], name)
                    results.append(member(*args, **kwargs) if callable(member) else member)
                channel.send(pickle.dumps(("ok", results)))
            elif command == "get_attr":
                results = []
                for local in range(len(envs)):
                    results.append(_attr(envs[local], data))
                channel.send(pickle.dumps(("ok", results)))
            elif command == "set_attr":
                name, values = data
                for local in range(len(envs)):
                    set_sub_env_attr(envs[local], name, values[local])
                channel.send(pickle.dumps(("ok", None)))
            elif command == "close":
                for local in range(len(envs)):
                    envs[local].close()
                channel.send(pickle.dumps(("ok", None)))
                break
            else:
                raise RuntimeError(f"unknown worker command {command!r}")
        except Exception as exc:
            # the block knows which of its sub-envs a step or reset was at
            failed = block.current if command in ("step", "reset") else first + local
            channel.send(error_reply(failed, exc))
    conn.close()


def _step_each(channel: Channel, block: AutoresetBlock, work: list[tuple[int, Any]]) -> None:
    """Step each `(local, action)` of a partial batch in turn, replying for each sub-env as
    it finishes (its error included), so the parent can return the first ones done."""
    for local, action in work:
        index = block.first + local
        report: Report = {}
        try:
            block.step((local,), (action,), report)
        except Exception as exc:
            channel.send(error_reply(index, exc))
            continue
        channel.send(pickle.dumps(("d", (index, report))) if report else DONE + INDEX.pack(index))
