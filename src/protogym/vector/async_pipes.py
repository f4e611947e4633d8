"""The pipe half of `AsyncVectorEnv`'s transport: framed messages between the parent and
each worker, and the parent's wait for replies on the pipes and the workers' process
sentinels together (a worker that dies is noticed at once, never waited on)."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import select
import struct
import time
from multiprocessing.process import BaseProcess
from typing import Any

__all__ = [
    "CAN_SPIN",
    "DEFAULT_SPIN_SECONDS",
    "BATCH",
    "DONE",
    "INDEX",
    "OK",
    "STEP",
    "Channel",
    "Dead",
    "Waiter",
    "frame",
    "spin_until_readable",
]

STEP = b"s"  # step with the actions already in shared memory
OK = b"k"  # step done, nothing to report beyond shared memory
BATCH = b"b"  # step some sub-envs (int32 indices follow), one reply per sub-env
DONE = b"d"  # one sub-env of a batch done (int32 index follows), nothing else to report
INDEX = struct.Struct("=i")
_POLL_SECONDS = 1.0
_RAW_FDS = hasattr(select, "poll")  # POSIX: pipes are descriptors we can read directly
CAN_SPIN = _RAW_FDS and hasattr(os, "sched_yield")
DEFAULT_SPIN_SECONDS = 50e-6
_HEADER = struct.Struct("!i")  # Connection's framing: a signed big-endian 4-byte length


def frame(payload: bytes) -> bytes:
    """`payload` behind its length header: the bytes `Channel.write` puts in the pipe. A
    message sent often (a step command) is framed once and kept."""
    return _HEADER.pack(len(payload)) + payload


def spin_until_readable(poller: select.poll, seconds: float) -> None:
    """Poll without sleeping for up to `seconds`, giving the core away between polls.

    Waking a process that sleeps in the kernel takes tens of microseconds (more on a
    virtual machine), several times a CartPole step; a reply or command that arrives
    within the spin is read with no wake-up at all. `sched_yield` lets any other runnable
    process (the parent, another worker) have the core meanwhile.
    """
    deadline = time.perf_counter() + seconds
    while not poller.poll(0) and time.perf_counter() < deadline:
        os.sched_yield()


class Channel:
    """One end of a worker pipe: framed messages, read with as few system calls as we can.

    `Connection.recv_bytes` reads the length and the body with two system calls; one read
    of up to 64 KiB gets a whole small message. Partial batches let a worker send several
    replies in a row, so bytes read past the end of one message are kept for the next
    (`buffered` says whether a whole one is waiting there). The framing is Connection's,
    and platforms without raw descriptors (Windows) use the Connection itself.
    """

    def __init__(self, conn: multiprocessing.connection.Connection) -> None:
        self.conn = conn
        self.fd = conn.fileno() if _RAW_FDS else -1
        self.rest = b""  # bytes read past the end of the last message returned

    def send(self, payload: bytes) -> None:
        self.write(frame(payload))

    def write(self, framed: bytes) -> None:
        """Send a message already framed by `frame`."""
        if self.fd < 0:
            self.conn.send_bytes(framed[_HEADER.size:])
            return
        written = os.write(self.fd, framed)
        if written < len(framed):  # a pipe takes 64 KiB at once; bigger ones come in parts
            data = memoryview(framed)[written:]
            while data:
                data = data[os.write(self.fd, data):]

    def buffered(self) -> bool:
        """Whether a whole message was already read and waits here (the pipe may be empty)."""
        rest = self.rest
        if len(rest) < _HEADER.size:
            return False
        size: int = _HEADER.unpack_from(rest)[0]
        return len(rest) - _HEADER.size >= size

    def recv(self) -> bytes:
        if self.fd < 0:
            return self.conn.recv_bytes()
        chunk = self.rest or os.read(self.fd, 65536)
        while len(chunk) < _HEADER.size:
            more = os.read(self.fd, 65536) if chunk else b""
            if not more:
                raise EOFError("the other end of the pipe is closed")
            chunk += more
        (size,) = _HEADER.unpack_from(chunk)
        end = _HEADER.size + size
        while len(chunk) < end:
            more = os.read(self.fd, max(end - len(chunk), 65536))
            if not more:
                raise EOFError("the other end of the pipe closed mid-message")
            chunk += more
        self.rest = chunk[end:]
        return chunk[_HEADER.size:end]


class Dead(Exception):  # noqa: N818 - internal signal, never escapes
    """Internal: worker `args[0]` exited before replying."""


class Waiter:
    """Waits for one reply per worker on the pipes and the process sentinels at once."""

    def __init__(
        self,
        conns: list[multiprocessing.connection.Connection],
        processes: list[BaseProcess],
        spin_seconds: float,
    ) -> None:
        self._conns = conns
        self._spin_seconds = spin_seconds if CAN_SPIN else 0.0
        self.channels = [Channel(conn) for conn in conns]
        self._processes = processes
        self._owner: dict[int, int] = {}
        self._poller = select.poll() if hasattr(select, "poll") else None
        for worker, (conn, process) in enumerate(zip(conns, processes, strict=True)):
            self._owner[conn.fileno()] = worker
            self._owner[process.sentinel] = ~worker
            if self._poller is not None:
                self._poller.register(conn.fileno(), select.POLLIN)
                self._poller.register(process.sentinel, select.POLLIN)

    def gather(self, timeout: float | None) -> list[bytes]:
        conns = self._conns
        replies: list[bytes | None] = [None] * len(conns)
        remaining = len(conns)
        deadline = None if timeout is None else time.monotonic() + timeout
        while remaining:
            seconds = _POLL_SECONDS
            if deadline is not None:
                seconds = max(0.0, min(seconds, deadline - time.monotonic()))
            ready = self._buffered() or self._ready(seconds)
            if not ready:
                for worker, process in enumerate(self._processes):
                    if replies[worker] is None and not process.is_alive():
                        raise Dead(worker)
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeoutError
                continue
            for key in ready:
                worker = self._owner[key]
                if worker < 0:
                    worker = ~worker
                    if replies[worker] is None and not conns[worker].poll(0):
                        raise Dead(worker)
                    continue
                if replies[worker] is not None:
                    continue
                try:
                    replies[worker] = self.channels[worker].recv()
                except (EOFError, OSError):
                    raise Dead(worker) from None
                remaining -= 1
        return replies  # type: ignore[return-value]

    def collect(self, timeout: float | None) -> list[tuple[int, bytes]]:
        """Every message that has arrived, as (worker, message), waiting up to `timeout`
        seconds for at least one (an empty list: time ran out). A worker that has exited
        with nothing left to read raises `Dead`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            seconds = _POLL_SECONDS
            if deadline is not None:
                seconds = max(0.0, min(seconds, deadline - time.monotonic()))
            ready = self._buffered() or self._ready(seconds)
            messages: list[tuple[int, bytes]] = []
            for key in ready:
                worker = self._owner[key]
                if worker < 0:
                    worker = ~worker
                    if not self.channels[worker].buffered() and not self._conns[worker].poll(0):
                        raise Dead(worker)
                    continue
                channel = self.channels[worker]
                try:
                    messages.append((worker, channel.recv()))
                    while channel.buffered():
                        messages.append((worker, channel.recv()))
                except (EOFError, OSError):
                    raise Dead(worker) from None
            if messages:
                return messages
            if not ready and deadline is not None and time.monotonic() >= deadline:
                return []

    def _buffered(self) -> list[int]:
        """The pipes (as their descriptors) with a whole message already read."""
        return [channel.fd for channel in self.channels if channel.rest and channel.buffered()]

    def _ready(self, seconds: float) -> list[int]:
        if self._poller is not None:
            if self._spin_seconds:
                spin_until_readable(self._poller, min(self._spin_seconds, seconds))
            return [fd for fd, _ in self._poller.poll(int(seconds * 1000))]
        objects: list[Any] = [*self._conns, *(p.sentinel for p in self._processes)]
        ready: list[Any] = multiprocessing.connection.wait(objects, seconds)
        return [obj if isinstance(obj, int) else obj.fileno() for obj in ready]
