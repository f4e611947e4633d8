"""Steps per second of every classic-control env, protogym against Gymnasium 1.4.

Both libraries get the same env id, the same seed and the same pre-drawn actions (drawn from
Gymnasium's action space, so discrete actions are numpy integers and continuous ones float32
arrays, as `action_space.sample()` gives them). Each env is timed twice: through each
library's own `make` (checker, order-enforcing and time-limit wrappers included, as a user
runs it) and as the bare env (`.unwrapped`), which isolates the env's own step from the
wrappers. An episode that ends is reset inside the timed loop. The two libraries' runs are
interleaved and the best of each is kept, so load on the machine hits both alike.

Run: ``.venv/bin/python benchmarks/bench_classic_control.py [--steps N] [--repeats R] [ID ...]``.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import gymnasium

import protogym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, interleaved_rates, print_rows, stepper
from results import from_row, table, write_results

ENV_IDS = (
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
)
# Through `make`: every env at least 3x Gymnasium (issue 14).
MAKE_TARGETS: dict[str, float] = {}
DEFAULT_TARGET = 3.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="steps per timed run")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs, best is kept")
    parser.add_argument("ids", nargs="*", default=ENV_IDS, help="env ids (default: all)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")

    made: list[Row] = []
    bare: list[Row] = []
    for env_id in args.ids:
        ours = protogym.make(env_id)
        theirs = gymnasium.make(env_id)
        theirs.action_space.seed(0)
        actions = [theirs.action_space.sample() for _ in range(4096)]

        rates = interleaved_rates(
            stepper(ours, actions), stepper(theirs, actions), args.steps, args.repeats
        )
        target = MAKE_TARGETS.get(env_id, DEFAULT_TARGET)
        made.append(Row(f"{env_id} step (make)", "/s", *rates, True, target))

        rates = interleaved_rates(
            stepper(ours.unwrapped, actions),
            stepper(theirs.unwrapped, actions),
            args.steps,
            args.repeats,
        )
        bare.append(Row(f"{env_id} step (bare env)", "/s", *rates, True, None))
        ours.close()
        theirs.close()
    print_rows("classic-control: steps per second through make", made)
    print_rows("classic-control: steps per second of the bare env", bare)
    write_results(
        "classic_control",
        [table("steps per second through make", [from_row(row) for row in made]),
         table("steps per second of the bare env", [from_row(row) for row in bare])],
        title="Classic control against Gymnasium 1.4",
    )


if __name__ == "__main__":
    main()
