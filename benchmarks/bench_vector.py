"""Env-steps per second of protogym's vector envs against Gymnasium 1.4's, in one run.

- SyncVectorEnv and AsyncVectorEnv of 8 CartPole-v1 made by each library's `make_vec`
  (sub-envs with their checker, order-enforcing and time-limit wrappers, as users run them);
  protogym's async default is one worker per core, each stepping its block of sub-envs.
  A second async row uses one worker for all 8 (no target): with sub-envs this cheap and
  few cores, the parent's own need for a core makes fewer workers faster.
- The native vector CartPole (`vectorization_mode="vector_entry_point"`) at 1024 and 8192
  sub-envs, against Gymnasium's in its default next-step mode: protogym's in next-step
  mode (goal 2.5x) and in its default same-step mode, which also builds the
  `final_obs` object array (goal 1.7x), both with the default kernel (numba's compiled
  step when the `jit` extra is installed); the numpy kernel is reported beside them.
- EnvPool, only if it is installed (``pip install -e ".[bench-envpool]"``), against the same
  native env.
- Partial batches (EnvPool's asynchronous mode): 16 sub-envs whose steps sleep 1-5 ms, like
  simulators or robots behind a socket, `AsyncVectorEnv(..., batch_size=8)` through
  `send`/`recv` against the full-batch `AsyncVectorEnv` of the same sub-envs (both with one
  worker per sub-env, as sleeping sub-envs need no core), in two ways: each sub-env at its
  own pace (sub-env i sleeps about 1 + 4i/15 ms, +-20% per step; goal 1.5x), and every step
  of every sub-env drawn at random in 1-5 ms. Beside each, the ratio of the ideal schedule
  (the same sleeps, `send`/`recv` taking no time): with every step drawn at random no
  batching passes about 1.24x, since a batch still waits for its slowest member and the next
  step of a fast sub-env is as slow as any other's. Then the native Atari env, 16 Pongs in
  batches of 8 through `send`/`recv`, against EnvPool's asynchronous mode with the same
  settings and thread count (goal 1.0x), when EnvPool is installed.
- The bound on AsyncVectorEnv: the round trip of a one-byte ping-pong through a
  `multiprocessing.Pipe` with a forked child, which every async step pays at least once.

Both libraries step the same pre-drawn random actions; their timed runs alternate and the
best of each is kept, so load on the machine hits both alike. Rates count env-steps (one
vector step of N sub-envs is N env-steps).

Run: ``.venv/bin/python benchmarks/bench_vector.py [--seconds S] [--repeats R]``.
``--only partial`` runs the partial-batch rows alone and prints them (no results file).
"""

from __future__ import annotations

import argparse
import functools
import heapq
import multiprocessing
import multiprocessing.connection
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import gymnasium
import numpy as np

import protogym
from protogym.spaces import Box, Discrete
from protogym.vector import AsyncVectorEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, best_rate, print_rows  # type: ignore[import-not-found, unused-ignore]
from results import Result, from_row, table, write_results  # type: ignore[import-not-found, unused-ignore]

Stepper = Callable[[], object]


def _stepper(env: Any, num_envs: int, seed: int = 0) -> Stepper:
    """One vector step per call over a ring of pre-drawn actions."""
    env.reset(seed=seed)
    actions = list(np.random.default_rng(seed).integers(0, 2, size=(64, num_envs)))
    step = env.step
    position = 0

    def work() -> None:
        nonlocal position
        step(actions[position])
        position = (position + 1) % 64

    return work


def _calls_for(work: Stepper, seconds: float) -> int:
    """How many calls of `work` take about `seconds` (after a warm-up)."""
    for _ in range(20):
        work()
    start = time.perf_counter()
    calls = 0
    while time.perf_counter() - start < seconds / 4:
        work()
        calls += 1
    return max(10, calls * 4)


def _compare(
    ours: Stepper, theirs: Stepper, num_envs: int, seconds: float, repeats: int
) -> tuple[float, float]:
    """Best env-steps per second of each, alternating single timed runs."""
    calls_ours, calls_theirs = _calls_for(ours, seconds), _calls_for(theirs, seconds)
    best_ours = best_theirs = 0.0
    for _ in range(repeats):
        best_ours = max(best_ours, best_rate(ours, calls_ours, repeats=1))
        best_theirs = max(best_theirs, best_rate(theirs, calls_theirs, repeats=1))
    return best_ours * num_envs, best_theirs * num_envs


def _compare_alone(
    make_ours: Callable[[], Any], make_theirs: Callable[[], Any], num_envs: int,
    seconds: float, repeats: int,
) -> tuple[float, float]:
    """As `_compare`, but each timed run has its env made just before and closed after, so
    only one library's processes are alive while the other is timed, as in the Atari rows."""
    best = [0.0, 0.0]
    calls = [0, 0]
    for _ in range(repeats):
        for side, make in enumerate((make_ours, make_theirs)):
            env = make()
            work = _stepper(env, num_envs)
            calls[side] = calls[side] or _calls_for(work, seconds)
            for _ in range(20):  # warm-up
                work()
            best[side] = max(best[side], best_rate(work, calls[side], repeats=1))
            env.close()
    return best[0] * num_envs, best[1] * num_envs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs, best is kept")
    parser.add_argument("--only", choices=["partial"], help="run one section, write nothing")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.only == "partial":
        _partial_batches(args.seconds, args.repeats)
        return
    rows: list[Row] = []

    modes: tuple[tuple[Literal["sync", "async"], float], ...] = (("sync", 2.0), ("async", 8.0))
    for mode, target in modes:
        rates = _compare_alone(
            functools.partial(protogym.make_vec, "CartPole-v1", 8, vectorization_mode=mode),
            functools.partial(gymnasium.make_vec, "CartPole-v1", num_envs=8,
                              vectorization_mode=mode),
            8, args.seconds, args.repeats,
        )
        rows.append(Row(f"{mode.capitalize()}VectorEnv, 8 CartPole", "/s", *rates, True, target))

    # Cheap sub-envs on few cores: the parent needs a core too, so fewer workers can win.
    rates = _compare_alone(
        functools.partial(protogym.make_vec, "CartPole-v1", 8, vectorization_mode="async",
                          vector_kwargs={"num_workers": 1}),
        functools.partial(gymnasium.make_vec, "CartPole-v1", num_envs=8,
                          vectorization_mode="async"),
        8, args.seconds, args.repeats,
    )
    rows.append(Row("AsyncVectorEnv, 8 CartPole, num_workers=1", "/s", *rates, True, None))

    for num_envs in (1024, 8192):
        theirs = gymnasium.make_vec(
            "CartPole-v1", num_envs=num_envs, vectorization_mode="vector_entry_point"
        )
        native_runs: tuple[tuple[str, Literal["auto", "numpy"], float | None], ...] = (
            ("next_step", "auto", 2.5), ("next_step", "numpy", None), ("same_step", "auto", 1.7)
        )
        for autoreset, kernel, native_target in native_runs:
            ours = protogym.make_vec(
                "CartPole-v1", num_envs, vectorization_mode="vector_entry_point",
                vector_kwargs={"autoreset_mode": autoreset}, kernel=kernel,
            )
            rates = _compare(
                _stepper(ours, num_envs), _stepper(theirs, num_envs), num_envs,
                args.seconds, args.repeats,
            )
            used = ours.unwrapped.kernel
            name = f"native CartPole x{num_envs} ({autoreset}, {used} kernel)"
            rows.append(Row(name, "/s", *rates, True, native_target))
            ours.close()
        theirs.close()

    print_rows("vector envs: env-steps per second (gymnasium column: Gymnasium 1.4)", rows)
    round_trip = _pipe_bound(rows)
    envpool_rows = _envpool(args.seconds)
    partial_rows = _partial_batches(args.seconds, args.repeats)
    tables = [table("env-steps per second against Gymnasium 1.4", [from_row(r) for r in rows])]
    if envpool_rows:
        tables.append(table("native CartPole against EnvPool, env-steps per second",
                            [from_row(r, reference="envpool") for r in envpool_rows]))
    tables.append(table("partial batches (send/recv, batch of 8 of 16), env-steps per second", [
        from_row(row, reference="envpool" if "EnvPool" in row.name else "full batch")
        for row in partial_rows
    ]))
    tables.append(table("the bound on an async step: one Pipe round trip", [
        Result("one byte each way to a forked child", "us", False,
               {"protogym": round_trip * 1e6}),
    ]))
    write_results("vector", tables, title="Vector envs against Gymnasium 1.4",
                  notes="" if envpool_rows else "EnvPool was not installed for this run.")


def _echo(conn: multiprocessing.connection.Connection) -> None:
    """The child of the ping-pong: send back every message until an empty one."""
    fd = conn.fileno()
    while message := os.read(fd, 64):
        os.write(fd, message)


def _pipe_bound(rows: list[Row]) -> float:
    """A Pipe's one-byte round trip in seconds; prints the async steps above in round trips."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    process = ctx.Process(target=_echo, args=(child,), daemon=True)
    process.start()
    fd = parent.fileno()

    def ping() -> None:
        os.write(fd, b"s")
        os.read(fd, 64)

    round_trip = 1.0 / best_rate(ping, 20_000, repeats=5)
    parent.close()
    process.join(5.0)
    print(f"\nPipe round trip (one byte each way, forked child): {round_trip * 1e6:.1f} us")
    for row in rows:
        if row.name.startswith("AsyncVectorEnv"):
            step = 8 / row.ours
            print(f"  {row.name}: {step * 1e6:.1f} us per step = "
                  f"{step / round_trip:.1f} round trips")
    return round_trip


def _envpool(seconds: float) -> list[Row]:
    """EnvPool's CartPole beside protogym's native one, when EnvPool is installed."""
    try:
        import envpool  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        print("\nEnvPool: not installed, skipped (pip install envpool to include it)")
        return []
    rows = []
    for num_envs in (1024, 8192):
        pool = envpool.make_gymnasium("CartPole-v1", num_envs=num_envs)
        ours = protogym.make_vec(
            "CartPole-v1", num_envs, vectorization_mode="vector_entry_point",
            vector_kwargs={"autoreset_mode": "next_step"},
        )
        rates = _compare(_stepper(ours, num_envs), _stepper(pool, num_envs), num_envs,
                         seconds, 3)
        used = ours.unwrapped.kernel
        name = f"native CartPole x{num_envs} ({used} kernel) vs EnvPool"
        rows.append(Row(name, "/s", *rates, True, None))
    print_rows("vector envs against EnvPool (gymnasium column: EnvPool)", rows)
    return rows


class SleepingEnv(protogym.Env[np.ndarray[Any, Any], np.int64]):
    """A sub-env whose steps sleep the seconds in `delays`, one after the other: its step
    time varies as a simulator's or a robot's behind a socket, its CPU use does not."""

    observation_space: Box
    action_space: Discrete

    def __init__(self, delays: list[float]) -> None:
        self.observation_space = Box(-1.0, 1.0, shape=(4,), dtype=np.float32)
        self.action_space = Discrete(2)
        self._delays = delays
        self._count = 0
        self._obs = np.zeros(4, dtype=np.float32)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        return self._obs, {}

    def step(self, action: np.int64) -> tuple[np.ndarray[Any, Any], float, bool, bool,
                                              dict[str, Any]]:
        time.sleep(self._delays[self._count % len(self._delays)])
        self._count += 1
        return self._obs, 1.0, False, False, {}


SLEEPS = 4096  # steps per sub-env before its delays repeat
PACES: dict[str, Callable[[int, np.random.Generator], Any]] = {
    "each at its own pace": lambda index, rng: (
        (1e-3 + 4e-3 * index / 15) * rng.uniform(0.8, 1.2, SLEEPS)
    ),
    "each step at random": lambda index, rng: rng.uniform(1e-3, 5e-3, SLEEPS),
}


def _sleeps(pace: str) -> list[list[float]]:
    """Each of 16 sub-envs' delays, drawn from a generator seeded by its index."""
    draw = PACES[pace]
    return [list(draw(index, np.random.default_rng(index))) for index in range(16)]


def ideal_ratio(sleeps: list[list[float]], batch: int) -> float:
    """Env-steps per second of batches of `batch` over those of the full batch, for sub-envs
    sleeping `sleeps` with a `send`/`recv` that take no time: the best any batching does."""
    steps = len(sleeps[0])
    full = sum(max(row[step] for row in sleeps) for step in range(steps))  # seconds
    ready = [(row[0], env, 1) for env, row in enumerate(sleeps)]  # (finish, env, next step)
    heapq.heapify(ready)
    now, done = 0.0, 0
    while done < steps * len(sleeps) // 2:
        chosen = [heapq.heappop(ready) for _ in range(batch)]
        now = max(now, chosen[-1][0])
        for _, env, step in chosen:
            heapq.heappush(ready, (now + sleeps[env][step % steps], env, step + 1))
        done += batch
    return (done / now) / (steps * len(sleeps) / full)


def _sender(env: Any, num_envs: int, batch: int, actions: Any) -> Stepper:
    """One `recv` and the `send` of the returned sub-envs' next actions per call."""
    env.send(actions(num_envs))
    recv, send = env.recv, env.send

    def work() -> None:
        *_, infos = recv()
        send(actions(batch), infos["env_id"])

    return work


def _alternate(sides: list[tuple[Stepper, int]], seconds: float, repeats: int) -> list[float]:
    """Best env-steps per second of each `(work, env-steps per call)`, alternating runs."""
    calls = [_calls_for(work, seconds) for work, _ in sides]
    best = [0.0] * len(sides)
    for _ in range(repeats):
        for side, (work, per_call) in enumerate(sides):
            best[side] = max(best[side], best_rate(work, calls[side], repeats=1) * per_call)
    return best


def _partial_batches(seconds: float, repeats: int) -> list[Row]:
    """Partial batches of 8 of 16 against the full batch (sleeping sub-envs) and against
    EnvPool's asynchronous mode (Pong, when EnvPool is installed)."""
    zeros = functools.partial(np.zeros, dtype=np.int64)
    rows = []
    for pace, target in zip(PACES, (1.5, None), strict=True):
        sleeps = _sleeps(pace)
        fns = [functools.partial(SleepingEnv, row) for row in sleeps]
        full = AsyncVectorEnv(fns, num_workers=16)
        partial = AsyncVectorEnv(fns, num_workers=16, batch_size=8)
        full.reset(seed=0)
        partial.reset(seed=0)
        full_actions = zeros(16)
        rates = _alternate(
            [(_sender(partial, 16, 8, zeros), 8),
             (lambda: full.step(full_actions), 16)],  # noqa: B023 - used in this iteration
            seconds, repeats,
        )
        full.close()
        partial.close()
        name = f"AsyncVectorEnv batch 8 of 16, sleeps {pace} (ideal {ideal_ratio(sleeps, 8):.2f}x)"
        rows.append(Row(name, "/s", rates[0], rates[1], True, target))
    rows.extend(_atari_partial(seconds, repeats))
    print_rows("partial batches: env-steps per second (reference column: full batch / "
               "EnvPool)", rows)
    return rows


def _atari_partial(seconds: float, repeats: int) -> list[Row]:
    """16 Pongs in batches of 8, protogym's AtariVectorEnv against EnvPool's async mode
    (and ale-py's own vector env, printed). Only one library is alive at a time: ale-py's
    threads spin while they wait, so an idle env would take cores from the one timed."""
    try:
        import envpool  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        print("\nEnvPool: not installed, Atari partial batches skipped")
        return []
    import ale_py.vector_env
    from protogym_atari.vector import AtariVectorEnv

    threads = min(16, os.cpu_count() or 1)  # the same thread count for every library
    ring = np.random.default_rng(0).integers(0, 6, size=(64, 16))
    position = 0

    def actions(count: int) -> Any:
        nonlocal position
        position = (position + 1) % 64
        return ring[position, :count]

    def ours() -> tuple[Any, Stepper]:
        env = AtariVectorEnv(16, "pong", batch_size=8, num_threads=threads,
                             repeat_action_probability=0.25, autoreset_mode="next_step")
        _, infos = env.reset(seed=0)
        return env, _atari_sender(env, actions, infos["env_id"])

    def pool() -> tuple[Any, Stepper]:
        env = envpool.make_gymnasium(
            "Pong-v5", num_envs=16, batch_size=8, num_threads=threads,
            repeat_action_probability=0.25, reward_clip=True, episodic_life=False,
            max_episode_steps=27_000, seed=0,
        )
        env.async_reset()
        return env, _sender_after_reset(env, actions)

    def ale() -> tuple[Any, Stepper]:
        env = ale_py.vector_env.AtariVectorEnv(
            "pong", 16, batch_size=8, num_threads=threads, repeat_action_probability=0.25
        )
        env.reset(seed=0)

        def work() -> None:
            env.send(actions(8))
            env.recv()

        return env, work

    # This machine's speed drifts by up to a third between runs a few seconds apart (the
    # same library, same work): twice as many runs of half the length, alternating, give
    # each library more of the quiet moments its best is taken from.
    seconds, repeats = seconds / 2, repeats * 2
    rates = [0.0, 0.0, 0.0]
    cpu = [float("inf")] * 3
    for _ in range(repeats):
        for side, build in enumerate((ours, pool, ale)):
            env, work = build()
            calls = _calls_for(work, seconds)
            start = time.process_time()
            rates[side] = max(rates[side], best_rate(work, calls, repeats=1) * 8)
            cpu[side] = min(cpu[side], (time.process_time() - start) / (calls * 8) * 1e6)
            env.close()
    print(f"\nale-py's own vector env, batch 8 of 16: {rates[2]:.0f} env-steps/s, "
          f"{cpu[2]:.0f} us CPU per env-step (protogym's: {rates[0]:.0f}/s, {cpu[0]:.0f} us)")
    # On a shared machine the wall-clock rate follows each library's share of the cores;
    # the CPU time an env-step costs (every thread of this process) is steadier.
    return [
        Row("AtariVectorEnv Pong batch 8 of 16 vs EnvPool", "/s", rates[0], rates[1], True,
            1.0),
        Row("AtariVectorEnv Pong batch 8 of 16 vs EnvPool, CPU per env-step", "us", cpu[0],
            cpu[1], False, None),
    ]


def _atari_sender(env: Any, actions: Callable[[int], Any], first: Any) -> Stepper:
    """`send` to the sub-envs of the last batch (`first`: the reset's), then `recv` the
    next, per call."""
    ids = first

    def work() -> None:
        nonlocal ids
        env.send(actions(8), ids)
        *_, infos = env.recv()
        ids = infos["env_id"]

    return work


def _sender_after_reset(pool: Any, actions: Callable[[int], Any]) -> Stepper:
    """EnvPool after `async_reset`: `recv` a batch, `send` its sub-envs' actions."""

    def work() -> None:
        *_, infos = pool.recv()
        pool.send(actions(8), infos["env_id"])

    return work


if __name__ == "__main__":
    main()
