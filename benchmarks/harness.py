"""Shared timing for the side-by-side benchmarks: best-of-N rates and a ratio table.

Each `bench_*.py` module builds pairs of callables (protogym's and Gymnasium's doing the same
work) and hands them to `compare`, which times both in this one process and prints the
ratio. Nothing here asserts: benchmarks report, tests test.
"""

from __future__ import annotations

import gc
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Row:
    name: str
    unit: str
    ours: float
    reference: float
    higher_is_better: bool
    target: float | None

    @property
    def ratio(self) -> float:
        """How many times better protogym is (>1 is better, whichever way the unit runs)."""
        if self.higher_is_better:
            return self.ours / self.reference
        return self.reference / self.ours


def best_rate(
    work: Callable[[], object],
    calls: int,
    repeats: int = 5,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Calls per second of `work`, best of `repeats` runs of `calls` calls each.

    `clock` is the wall clock unless given; `time.thread_time` (this thread's CPU time) is
    steadier on a machine shared with other work, for code that runs in this thread only.
    """
    best = float("inf")
    gc.collect()
    for _ in range(repeats):
        start = clock()
        for _ in range(calls):
            work()
        best = min(best, clock() - start)
    return calls / best


def stepper(env: Any, actions: Sequence[Any]) -> Callable[[], object]:
    """A closure doing one step of `env` per call, cycling through `actions` and resetting
    when an episode ends.

    The loop's own overhead is kept small (bound methods, a cycling iterator), since it is
    paid by both libraries alike and only dilutes the ratio.
    """
    env.reset(seed=0)
    step, reset = env.step, env.reset
    next_action = itertools.cycle(actions).__next__

    def work() -> None:
        _, _, terminated, truncated, _ = step(next_action())
        if terminated or truncated:
            reset()

    return work


def interleaved_rates(
    ours: Callable[[], object],
    theirs: Callable[[], object],
    calls: int,
    repeats: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float]:
    """Best calls per second of each, alternating single timed runs, so that load on the
    machine hits both libraries alike (`clock` as in `best_rate`)."""
    best_ours = best_theirs = 0.0
    for _ in range(repeats):
        best_ours = max(best_ours, best_rate(ours, calls, repeats=1, clock=clock))
        best_theirs = max(best_theirs, best_rate(theirs, calls, repeats=1, clock=clock))
    return best_ours, best_theirs


def best_time(work: Callable[[], object], repeats: int = 5) -> float:
    """Seconds that one call of `work` takes, best of `repeats`."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def print_rows(title: str, rows: list[Row]) -> None:
    print(f"\n{title}")
    print(f"{'benchmark':<48} {'protogym':>14} {'gymnasium':>14} {'ratio':>8}  target")
    for row in rows:
        target = "" if row.target is None else f">= {row.target:g}x"
        met = "" if row.target is None else ("ok" if row.ratio >= row.target else "MISSED")
        print(
            f"{row.name:<48} {row.ours:>12.4g}{row.unit:>2} {row.reference:>12.4g}{row.unit:>2} "
            f"{row.ratio:>7.2f}x  {target} {met}"
        )
