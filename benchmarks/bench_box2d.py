"""Steps per second of the Box2D envs through `make`, protogym against Gymnasium 1.4.

Both libraries get the same id, seed and pre-drawn random actions (so episodes crash and
reset often, and resets, which build the terrain and bodies, are timed too). Runs are
interleaved and the best of each kept. With ``--cpu`` each run is timed by this thread's CPU
time instead of the wall clock: on a machine shared with other work the wall-clock ratio
swings with the load, the CPU-time ratio much less (every env here runs in this thread).

Run: ``.venv/bin/python benchmarks/bench_box2d.py [--steps N] [--repeats R] [--cpu] [ID ...]``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import gymnasium

import protogym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, interleaved_rates, print_rows, stepper
from results import from_row, table, write_results

ENV_IDS = (
    "LunarLander-v3",
    "LunarLanderContinuous-v3",
    "BipedalWalker-v3",
    "BipedalWalkerHardcore-v3",
    "CarRacing-v3",
)
TARGET = 1.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5_000, help="steps per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs, best is kept")
    parser.add_argument("--cpu", action="store_true", help="time by CPU, not wall clock")
    parser.add_argument("ids", nargs="*", default=ENV_IDS, help="env ids (default: all)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    clock = time.thread_time if args.cpu else time.perf_counter
    rows = []
    for env_id in args.ids:
        ours, theirs = protogym.make(env_id), gymnasium.make(env_id)
        theirs.action_space.seed(0)
        actions = [theirs.action_space.sample() for _ in range(4096)]
        rates = interleaved_rates(
            stepper(ours, actions), stepper(theirs, actions), args.steps, args.repeats, clock
        )
        target = 2.0 if env_id == "CarRacing-v3" else TARGET  # its drawing is Python
        rows.append(Row(f"{env_id} step (make)", "/s", *rates, True, target))
        ours.close()
        theirs.close()
    clock_name = "CPU time" if args.cpu else "wall clock"
    print_rows(f"box2d: steps per second through make ({clock_name})", rows)
    write_results(
        "box2d",
        [table(f"steps per second through make ({clock_name})", [from_row(r) for r in rows])],
        title="Box2D against Gymnasium 1.4",
    )


if __name__ == "__main__":
    main()
