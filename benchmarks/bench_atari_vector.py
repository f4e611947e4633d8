"""Agent-steps per second of protogym's native Atari vector env against the alternatives.

One run, 8 sub-envs of ALE/Pong-v5 (frame skip 4, sticky actions 0.25, 84x84 grayscale,
frame stack 4, no-op and FIRE starts), every library stepping the same pre-drawn random
actions; timed runs alternate and the best of each is kept, so load hits all alike. An
agent step is one sub-env's step (4 emulator frames); a vector step of 8 is 8 agent-steps.

- protogym's `AtariVectorEnv` (``make_vec(..., vectorization_mode="vector_entry_point")``)
  against ale-py's own vector env (``gymnasium.make_vec`` of the same id, the same
  settings). ale-py restarts ended episodes in the next step, so protogym's is timed in
  next-step mode for the ratio; its default same-step mode is reported beside it.
- against Gymnasium's `AsyncVectorEnv` of ale-py's single envs under `AtariPreprocessing`
  and `FrameStackObservation` (the Python-process route to the same observations).
- against EnvPool's Pong-v5 with the same settings, only if ``import envpool`` works.

A second table gives the CPU time each agent-step costs (all threads, and the worker
processes of the asynchronous env; the least of the timed runs). On a machine shared with
other work, wall-clock rates follow each library's share of the cores (more threads or
processes win more of it), while the CPU cost stays what a dedicated machine would see.

Run: ``.venv/bin/python benchmarks/bench_atari_vector.py [--seconds S] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ale_py
import gymnasium
import numpy as np
from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

import protogym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, best_rate, print_rows  # type: ignore[import-not-found, unused-ignore]
from results import from_row, table, write_results  # type: ignore[import-not-found, unused-ignore]

ENV_ID = "ALE/Pong-v5"
NUM_ENVS = 8
_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Timed:
    """One vector step per `work()` call, and a clock of the CPU time it uses."""

    work: Callable[[], object]
    cpu: Callable[[], float]


def timed(env: Any, seed: int | None = 0, workers: Sequence[int] = ()) -> Timed:
    """Steps over a ring of pre-drawn actions (Pong has 6). EnvPool takes its seed when
    made, so its reset gets `seed=None`; `workers` are the pids of worker processes."""
    env.reset() if seed is None else env.reset(seed=seed)
    actions = list(np.random.default_rng(0).integers(0, 6, size=(64, NUM_ENVS)))
    step = env.step
    position = 0

    def work() -> None:
        nonlocal position
        step(actions[position])
        position = (position + 1) % 64

    def cpu() -> float:
        return time.process_time() + sum(_process_cpu(pid) for pid in workers)

    return Timed(work, cpu)


def _process_cpu(pid: int) -> float:
    """User + system CPU seconds of process `pid`, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def calls_for(work: Callable[[], object], seconds: float) -> int:
    """How many calls of `work` take about `seconds` (after a warm-up)."""
    for _ in range(10):
        work()
    start = time.perf_counter()
    calls = 0
    while time.perf_counter() - start < seconds / 4:
        work()
        calls += 1
    return max(10, calls * 4)


def compare(
    ours: Timed, theirs: Timed, seconds: float, repeats: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    """(agent-steps per second, CPU microseconds per agent-step) of each: the best rate
    and the least CPU of `repeats` alternating timed runs."""
    calls = min(calls_for(ours.work, seconds), calls_for(theirs.work, seconds))
    rates = [0.0, 0.0]
    costs = [float("inf"), float("inf")]
    for _ in range(repeats):
        for side, subject in enumerate((ours, theirs)):
            start = subject.cpu()
            rates[side] = max(rates[side], best_rate(subject.work, calls, repeats=1))
            spent = subject.cpu() - start
            costs[side] = min(costs[side], spent / (calls * NUM_ENVS) * 1e6)
    return (rates[0] * NUM_ENVS, rates[1] * NUM_ENVS), (costs[0], costs[1])


def preprocessed(env: gymnasium.Env[Any, Any]) -> gymnasium.Wrapper[Any, Any, Any, Any]:
    return FrameStackObservation(AtariPreprocessing(env, frame_skip=4), 4)


def native_env(mode: str) -> Any:
    return protogym.make_vec(
        ENV_ID, NUM_ENVS, vectorization_mode="vector_entry_point", autoreset_mode=mode
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs, best is kept")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    gymnasium.register_envs(ale_py)
    rates: list[Row] = []
    costs: list[Row] = []
    references: list[str] = []

    def add(name: str, measured: Any, target: float | None, reference: str) -> None:
        (rate_ours, rate_theirs), (cost_ours, cost_theirs) = measured
        rates.append(Row(name, "/s", rate_ours, rate_theirs, True, target))
        costs.append(Row(name, "us", cost_ours, cost_theirs, False, None))
        references.append(reference)

    reference = gymnasium.make_vec(
        ENV_ID, num_envs=NUM_ENVS, vectorization_mode="vector_entry_point"
    )
    theirs = timed(reference)
    for mode, target in (("next_step", 0.95), ("same_step", None)):
        native = native_env(mode)
        add(f"native ({mode}) vs ale-py vector env", compare(
            timed(native), theirs, args.seconds, args.repeats
        ), target, "ale-py")
        native.close()
    reference.close()

    native = native_env("next_step")
    ours = timed(native)
    processes = gymnasium.make_vec(
        ENV_ID, num_envs=NUM_ENVS, vectorization_mode="async", wrappers=[preprocessed],
        frameskip=1,
    )
    async_env: Any = processes.unwrapped
    workers = [process.pid for process in async_env.processes]
    add("native vs Gymnasium Async + AtariPreprocessing", compare(
        ours, timed(processes, workers=workers), args.seconds, args.repeats
    ), 2.5, "gymnasium")
    processes.close()

    pool = make_envpool()
    if pool is not None:
        add("native vs EnvPool", compare(
            ours, timed(pool, seed=None), args.seconds, args.repeats
        ), None, "envpool")
    native.close()
    title = "8 x ALE/Pong-v5, {} (second column: the library named in the row)"
    print_rows(title.format("agent-steps per second"), rates)
    print_rows(title.format("CPU microseconds per agent-step, lower is better"), costs)
    if pool is None:
        print("\nEnvPool: not importable, skipped (it is not a dependency of protogym)")
    print(f"\n{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    write_results(
        "atari_vector",
        [table("8 x ALE/Pong-v5, agent-steps per second",
               [from_row(r, ref) for r, ref in zip(rates, references, strict=True)]),
         table("CPU microseconds per agent-step (lower is better)",
               [from_row(r, ref) for r, ref in zip(costs, references, strict=True)])],
        title="Native Atari vector env against ale-py, EnvPool and Gymnasium",
        notes="" if pool is not None else "EnvPool was not installed for this run.",
    )


def make_envpool() -> Any:
    """EnvPool's Pong with ALE/Pong-v5's settings, or None when it is not installed."""
    try:
        import envpool  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    # ale-py's C++ runs min(num_envs, cores) threads; EnvPool gets as many, so that on a
    # loaded machine neither wins a bigger share of the cores by having more threads.
    threads = min(NUM_ENVS, os.cpu_count() or 1)
    return envpool.make_gymnasium(
        "Pong-v5", num_envs=NUM_ENVS, batch_size=NUM_ENVS, num_threads=threads,
        repeat_action_probability=0.25, reward_clip=True, episodic_life=False,
        max_episode_steps=27_000, seed=0,
    )


if __name__ == "__main__":
    main()
