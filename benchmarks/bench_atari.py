"""Atari speed, protogym against Gymnasium 1.4 over ale-py 0.12.1's envs, in one run.

- single env: steps per second of one id through `make` (ours) and `gymnasium.make`
  (ale-py's env), same seed and actions; the emulator does most of the work, so near 1x;
- vector: agent-steps per second (steps x 8) of `AsyncVectorEnv` over 8 single envs, each
  wrapped in `AtariPreprocessing` (84x84 greyscale, frame skip 4 with max-pooling, no-op
  starts) and `FrameStackObservation(4)`: our AsyncVectorEnv over our env and wrappers
  against Gymnasium's over ale-py's env and Gymnasium's wrappers (which resize with OpenCV).
  The sub-envs are made with ``frameskip=1`` as AtariPreprocessing requires. Also ours
  with two workers of four envs each (no Gymnasium counterpart);
- vector CPU: processor time (parent and workers, from /proc on Linux) per agent-step over
  the same runs. On a machine shared with other jobs, throughput follows how the scheduler
  treats each library's processes as much as the work they do; the CPU time is the work.

The native vector env on ALEVectorInterface has its own benchmark, bench_atari_vector.py.
Runs are interleaved and the best kept.

Run: ``.venv/bin/python benchmarks/bench_atari.py [--steps N] [--repeats R] [--id ID]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ale_py
import gymnasium
import numpy as np

import protogym
from protogym.vector import AsyncVectorEnv
from protogym.wrappers import AtariPreprocessing, FrameStackObservation

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, interleaved_rates, print_rows, stepper
from results import from_row, table, write_results

NUM_ENVS = 8
VECTOR_TARGET = 1.5

gymnasium.register_envs(ale_py)


def ours_preprocessed(env_id: str) -> Any:
    env = protogym.make(env_id, frameskip=1)
    return FrameStackObservation(AtariPreprocessing(env), 4)


def gymnasium_preprocessed(env_id: str) -> Any:
    env = gymnasium.make(env_id, frameskip=1)
    return gymnasium.wrappers.FrameStackObservation(gymnasium.wrappers.AtariPreprocessing(env), 4)


def cpu_seconds() -> float:
    """Processor time of this process and its live children (the vector envs' workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    for child in multiprocessing.active_children():
        with open(f"/proc/{child.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    return total


def cpu_per_call(work: Callable[[], object], calls: int) -> float:
    """Milliseconds of processor time per call of `work` (parent plus workers)."""
    start = cpu_seconds()
    for _ in range(calls):
        work()
    return (cpu_seconds() - start) / calls * 1e3


def vector_stepper(vector: Any, steps: int) -> Callable[[], object]:
    """One batched step per call, with pre-drawn random actions (autoreset inside)."""
    vector.reset(seed=0)
    rng = np.random.default_rng(0)
    batches = [rng.integers(0, vector.single_action_space.n, NUM_ENVS) for _ in range(steps)]
    position = 0

    def work() -> None:
        nonlocal position
        vector.step(batches[position % steps])
        position += 1

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000, help="vector steps per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs, best is kept")
    parser.add_argument("--id", default="ALE/Breakout-v5", help="the id to time")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    env_id = args.id

    ours, theirs = protogym.make(env_id), gymnasium.make(env_id)
    theirs.action_space.seed(0)
    actions = [theirs.action_space.sample() for _ in range(4096)]
    rates = interleaved_rates(
        stepper(ours, actions), stepper(theirs, actions), args.steps * 4, args.repeats
    )
    single = [Row(f"{env_id} step (make)", "/s", *rates, True, None)]
    ours.close()
    theirs.close()

    def ours_fn() -> Any:
        return ours_preprocessed(env_id)

    def theirs_fn() -> Any:
        return gymnasium_preprocessed(env_id)

    our_vector = AsyncVectorEnv([ours_fn] * NUM_ENVS)
    their_vector = gymnasium.vector.AsyncVectorEnv([theirs_fn] * NUM_ENVS)
    two_workers = AsyncVectorEnv([ours_fn] * NUM_ENVS, num_workers=2)
    try:
        ours_rate, theirs_rate = interleaved_rates(
            vector_stepper(our_vector, args.steps),
            vector_stepper(their_vector, args.steps),
            args.steps,
            args.repeats,
        )
        their_work = vector_stepper(their_vector, args.steps)
        our_work = vector_stepper(our_vector, args.steps)
        our_cpu = min(cpu_per_call(our_work, args.steps) for _ in range(args.repeats))
        their_cpu = min(cpu_per_call(their_work, args.steps) for _ in range(args.repeats))
        grouped_rate, _ = interleaved_rates(
            vector_stepper(two_workers, args.steps),
            vector_stepper(their_vector, args.steps),
            args.steps,
            1,
        )
    finally:
        our_vector.close()
        their_vector.close()
        two_workers.close()
    vector = [
        Row(
            f"Async, {NUM_ENVS} x AtariPreprocessing+FrameStack",
            "/s",
            ours_rate * NUM_ENVS,
            theirs_rate * NUM_ENVS,
            True,
            VECTOR_TARGET,
        ),
        Row(
            "  the same, ours in 2 workers of 4 envs",
            "/s",
            grouped_rate * NUM_ENVS,
            theirs_rate * NUM_ENVS,
            True,
            None,
        ),
        Row(
            "  CPU per agent-step (parent + workers)",
            "ms",
            our_cpu / NUM_ENVS,
            their_cpu / NUM_ENVS,
            False,
            None,
        ),
    ]
    print_rows(f"atari: single env steps per second ({env_id})", single)
    print_rows(f"atari: agent-steps per second, {NUM_ENVS} envs ({env_id})", vector)
    write_results(
        "atari",
        [table(f"one env's steps per second ({env_id}), against ale-py's env in Gymnasium",
               [from_row(row, reference="ale-py") for row in single]),
         table(f"AsyncVectorEnv of {NUM_ENVS} preprocessed envs, agent-steps per second, "
               "against Gymnasium's over ale-py", [from_row(row) for row in vector])],
        title="Atari against ale-py 0.12.1 and Gymnasium 1.4",
    )


if __name__ == "__main__":
    main()
