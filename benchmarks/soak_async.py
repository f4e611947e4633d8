"""Soak test: step an AsyncVectorEnv for millions of env-steps and report memory growth.

A leak of even a few bytes per step (an info dict kept, a pickled buffer never freed, a
shared-memory view recreated) shows up over 10 million env-steps. Resident memory of the
parent and of every worker is read from ``/proc`` after a warm-up and at the end; the
target is under 5 MB of growth in each process.

Run: ``.venv/bin/python benchmarks/soak_async.py [--env-steps N] [--num-envs E]
[--workers W] [--env-id ID]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import protogym
from protogym.vector import AsyncVectorEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import Result, table, write_results  # type: ignore[import-not-found, unused-ignore]

TARGET_MB = 5.0


def resident_mb(pid: int) -> float:
    """Resident set size of process `pid` in MB (Linux /proc; ru_maxrss elsewhere)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-steps", type=int, default=10_000_000)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    parser.add_argument("--env-id", default="CartPole-v1")
    args = parser.parse_args()
    warnings.simplefilter("ignore")

    env = AsyncVectorEnv(
        [lambda: protogym.make(args.env_id)] * args.num_envs, num_workers=args.workers
    )
    pids = {"parent": os.getpid()}
    for index, pid in enumerate(env.worker_pids):
        pids[f"worker {index}"] = pid
    sample = env.single_action_space
    sample.seed(0)
    actions = [
        np.stack([sample.sample() for _ in range(args.num_envs)]) for _ in range(256)
    ]
    env.reset(seed=0)

    vector_steps = max(1, args.env_steps // args.num_envs)
    warmup = min(vector_steps // 10, 20_000)
    for step in range(warmup):
        env.step(actions[step % 256])
    before = {name: resident_mb(pid) for name, pid in pids.items()}

    start = time.perf_counter()
    report_every = max(1, (vector_steps - warmup) // 10)
    for step in range(warmup, vector_steps):
        env.step(actions[step % 256])
        if (step - warmup + 1) % report_every == 0:
            done = (step + 1) * args.num_envs
            rate = (step - warmup + 1) * args.num_envs / (time.perf_counter() - start)
            parent = resident_mb(pids["parent"]) - before["parent"]
            print(f"{done:>12,} env-steps  {rate:>10,.0f}/s  parent RSS {parent:+.2f} MB",
                  flush=True)
    elapsed = time.perf_counter() - start
    after = {name: resident_mb(pid) for name, pid in pids.items()}
    env.close()

    total = vector_steps * args.num_envs
    print(f"\n{total:,} env-steps of {args.num_envs} {args.env_id} in "
          f"{len(pids) - 1} workers, {elapsed:.1f} s "
          f"({(vector_steps - warmup) * args.num_envs / elapsed:,.0f} env-steps/s)")
    print(f"{'process':<10} {'after warm-up':>14} {'at the end':>12} {'growth':>10}")
    worst = 0.0
    for name in pids:
        growth = after[name] - before[name]
        worst = max(worst, growth)
        print(f"{name:<10} {before[name]:>11.2f} MB {after[name]:>9.2f} MB {growth:>+7.2f} MB")
    verdict = "ok" if worst < TARGET_MB else "MISSED"
    print(f"largest growth {worst:+.2f} MB (target < {TARGET_MB:g} MB): {verdict}")
    write_results(
        "soak_async",
        [table(f"{total:,} env-steps of {args.num_envs} {args.env_id}: resident memory growth "
               "per process after warm-up (no Gymnasium run)", [
                   Result(name, "MB", False, {"protogym": after[name] - before[name]})
                   for name in pids
               ])],
        title="AsyncVectorEnv soak: memory over many steps",
        notes=f"{(vector_steps - warmup) * args.num_envs / elapsed:,.0f} env-steps per second.",
    )


if __name__ == "__main__":
    main()
