"""What the interop adapters cost, protogym against Gymnasium 1.4 in one process.

- ``gymnasium.make("protogym/CartPole-v1")`` (protogym's CartPole behind `to_gymnasium`,
  with Gymnasium's own checker, order-enforcing and time-limit wrappers) against Gymnasium's
  ``gymnasium.make("CartPole-v1")``: steps per second.
- Stable-Baselines3's stepping: `to_sb3_vec_env` over 8 native protogym CartPole envs
  against SB3's `DummyVecEnv` over 8 Gymnasium CartPole envs: env-steps per second.

Both sides get the same pre-drawn actions; runs are interleaved and the best of each kept.

Run: ``.venv/bin/python benchmarks/bench_interop.py [--steps N] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv

import protogym
from protogym.interop import gymnasium as _registers_protogym_ids  # noqa: F401
from protogym.interop.sb3 import to_sb3_vec_env

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, interleaved_rates, print_rows, stepper
from results import from_row, table, write_results

NUM_ENVS = 8


def _vec_stepper(venv: Any, actions: list[np.ndarray]) -> Callable[[], object]:
    """One SB3 `step` per call; SB3 vector envs reset finished sub-envs themselves."""
    venv.reset()
    step = venv.step
    next_action = itertools.cycle(actions).__next__
    return lambda: step(next_action())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="steps per timed run")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs, best is kept")
    args = parser.parse_args()
    warnings.simplefilter("ignore")

    ours = gymnasium.make("protogym/CartPole-v1")
    theirs = gymnasium.make("CartPole-v1")
    theirs.action_space.seed(0)
    actions = [theirs.action_space.sample() for _ in range(4096)]
    single = interleaved_rates(
        stepper(ours, actions), stepper(theirs, actions), args.steps, args.repeats
    )

    ours_vec = to_sb3_vec_env(protogym.make_vec("CartPole-v1", NUM_ENVS))
    theirs_vec = DummyVecEnv([lambda: gymnasium.make("CartPole-v1") for _ in range(NUM_ENVS)])
    rng = np.random.default_rng(0)
    batches = [rng.integers(0, 2, size=NUM_ENVS) for _ in range(512)]
    calls = max(1, args.steps // NUM_ENVS)
    per_call = interleaved_rates(
        _vec_stepper(ours_vec, batches), _vec_stepper(theirs_vec, batches), calls, args.repeats
    )
    env_steps = (per_call[0] * NUM_ENVS, per_call[1] * NUM_ENVS)

    rows = [
        Row("gymnasium.make CartPole-v1 step", "/s", *single, True, 2.0),
        Row(f"SB3 VecEnv, {NUM_ENVS} CartPole, env-steps", "/s", *env_steps, True, 5.0),
    ]
    print_rows("interop: protogym envs inside Gymnasium and Stable-Baselines3", rows)
    write_results(
        "interop",
        [table("protogym's CartPole inside Gymnasium and SB3, against Gymnasium's own",
               [from_row(row) for row in rows])],
        title="protogym envs inside Gymnasium and Stable-Baselines3",
    )
    ours_vec.close()
    theirs_vec.close()


if __name__ == "__main__":
    main()
