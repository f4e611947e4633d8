"""Per-step cost of the wrappers on the hot path, protogym against Gymnasium 1.4.

Each library wraps a trivial env whose `step` returns a prebuilt tuple (so nearly all of the
time measured is the wrappers'), and the cost of a wrapper is the time per step of the
wrapped env minus that of the bare env. The rows compare that added cost (lower is better,
so the ratio is Gymnasium's cost over ours). Both libraries are timed in this process, in
alternation, best of R runs.

The first row is `make`'s default stack (PassiveEnvChecker + OrderEnforcing + TimeLimit),
whose added cost should stay under 0.3 microseconds per step.

Run: ``.venv/bin/python benchmarks/bench_wrappers.py [--steps N] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, print_rows
from results import from_row, table, write_results

from protogym.spaces import Box, Discrete
from protogym.wrappers import (
    ClipAction,
    FrameStackObservation,
    NormalizeObservation,
    OrderEnforcing,
    PassiveEnvChecker,
    RecordEpisodeStatistics,
    TimeLimit,
)

MAKE_STACK_BUDGET_NS = 300.0
LIMIT = 10**12  # a time limit that never truncates inside the benchmark
OBS = np.zeros(4, dtype=np.float32)


class TrivialEnv:
    """A structural protogym env whose `step` costs one attribute load."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012
    render_mode = None

    def __init__(self, continuous: bool) -> None:
        self.observation_space = Box(-np.inf, np.inf, (4,), np.float32)
        self.action_space = Box(-1.0, 1.0, (2,), np.float32) if continuous else Discrete(2)
        self._result: tuple[Any, ...] = (OBS, 1.0, False, False, {})

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        return OBS.copy(), {}

    def step(self, action: Any) -> Any:
        return self._result

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


class GymTrivialEnv(gymnasium.Env):
    """The same env for Gymnasium."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(self, continuous: bool) -> None:
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (4,), np.float32)
        self.action_space = (
            gymnasium.spaces.Box(-1.0, 1.0, (2,), np.float32)
            if continuous
            else gymnasium.spaces.Discrete(2)
        )
        self._result: tuple[Any, ...] = (OBS, 1.0, False, False, {})

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        return OBS.copy(), {}

    def step(self, action: Any) -> Any:
        return self._result


def ours_make_stack(env: Any) -> Any:
    return TimeLimit(OrderEnforcing(PassiveEnvChecker(env)), LIMIT)


def gym_make_stack(env: Any) -> Any:
    gw = gymnasium.wrappers
    return gw.TimeLimit(gw.OrderEnforcing(gw.PassiveEnvChecker(env)), LIMIT)


# name -> (continuous actions?, protogym wrapping, Gymnasium wrapping)
CASES: dict[str, tuple[bool, Callable[[Any], Any], Callable[[Any], Any]]] = {
    "make stack (checker+order+time limit)": (False, ours_make_stack, gym_make_stack),
    "TimeLimit": (False, lambda e: TimeLimit(e, LIMIT),
                  lambda e: gymnasium.wrappers.TimeLimit(e, LIMIT)),
    "OrderEnforcing": (False, OrderEnforcing, gymnasium.wrappers.OrderEnforcing),
    "RecordEpisodeStatistics": (False, RecordEpisodeStatistics,
                                gymnasium.wrappers.RecordEpisodeStatistics),
    "ClipAction": (True, ClipAction, gymnasium.wrappers.ClipAction),
    "NormalizeObservation": (False, NormalizeObservation,
                             gymnasium.wrappers.NormalizeObservation),
    "FrameStackObservation(4)": (False, lambda e: FrameStackObservation(e, 4),
                                 lambda e: gymnasium.wrappers.FrameStackObservation(e, 4)),
}


def seconds_per_step(env: Any, action: Any, steps: int) -> float:
    """Time of `steps` calls of `env.step(action)` after a reset and two warm-up steps."""
    env.reset(seed=0)
    env.step(action)
    env.step(action)  # wrappers that rebind after their first step are now in final form
    step = env.step
    start = time.perf_counter()
    for _ in range(steps):
        step(action)
    return (time.perf_counter() - start) / steps


def added_ns(
    wrap: Callable[[Any], Any], make_env: Callable[[], Any], action: Any, steps: int
) -> float:
    """Nanoseconds per step that `wrap` adds to the bare env (one paired measurement)."""
    bare = seconds_per_step(make_env(), action, steps)
    wrapped = seconds_per_step(wrap(make_env()), action, steps)
    return (wrapped - bare) * 1e9


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # Gymnasium's checker warns about the trivial env
    rows: list[Row] = []
    make_stack_ns = float("nan")
    for name, (continuous, ours, theirs) in CASES.items():
        action: Any = np.zeros(2, np.float32) if continuous else 0
        best_ours = best_theirs = float("inf")
        for _ in range(args.repeats):
            best_ours = min(best_ours, added_ns(
                ours, partial(TrivialEnv, continuous), action, args.steps))
            best_theirs = min(best_theirs, added_ns(
                theirs, partial(GymTrivialEnv, continuous), action, args.steps))
        if name.startswith("make stack"):
            make_stack_ns = best_ours
        # A wrapper that is free after reset can measure at or below zero: report 1 ns.
        rows.append(Row(name, "ns", max(best_ours, 1.0), max(best_theirs, 1.0),
                        higher_is_better=False, target=None))
    print_rows("Wrapper cost per step (added to a trivial env; lower is better)", rows)
    verdict = "ok" if make_stack_ns < MAKE_STACK_BUDGET_NS else "OVER BUDGET"
    print(f"\nmake's default stack adds {make_stack_ns:.0f} ns per step "
          f"(budget {MAKE_STACK_BUDGET_NS:.0f} ns): {verdict}")
    write_results(
        "wrappers",
        [table("nanoseconds a wrapper adds to each step (lower is better)",
               [from_row(row) for row in rows])],
        title="Wrappers against Gymnasium 1.4",
        notes="Each wrapper's cost is the time per step of a trivial env wrapped minus bare; "
        "a cost at or below zero is reported as 1 ns.",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
