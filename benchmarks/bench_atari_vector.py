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

Run: ``.venv/bin/python benchmarks/bench_atari_vector.py [--seconds S] [--repeats R]``.
"""

from __future__ import annotations

import argparse
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
from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

import protogym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, interleaved_rates, print_rows  # type: ignore[import-not-found, unused-ignore]

ENV_ID = "ALE/Pong-v5"
NUM_ENVS = 8
Stepper = Callable[[], object]


def stepper(env: Any, seed: int | None = 0) -> Stepper:
    """One vector step per call over a ring of pre-drawn actions (Pong has 6); EnvPool
    takes its seed when made, so its reset gets `seed=None`."""
    env.reset() if seed is None else env.reset(seed=seed)
    actions = list(np.random.default_rng(0).integers(0, 6, size=(64, NUM_ENVS)))
    step = env.step
    position = 0

    def work() -> None:
        nonlocal position
        step(actions[position])
        position = (position + 1) % 64

    return work


def calls_for(work: Stepper, seconds: float) -> int:
    """How many calls of `work` take about `seconds` (after a warm-up)."""
    for _ in range(10):
        work()
    start = time.perf_counter()
    calls = 0
    while time.perf_counter() - start < seconds / 4:
        work()
        calls += 1
    return max(10, calls * 4)


def agent_steps(
    ours: Stepper, theirs: Stepper, seconds: float, repeats: int
) -> tuple[float, float]:
    """Best agent-steps per second of each, timed alternately."""
    calls = min(calls_for(ours, seconds), calls_for(theirs, seconds))
    rate_ours, rate_theirs = interleaved_rates(ours, theirs, calls, repeats)
    return rate_ours * NUM_ENVS, rate_theirs * NUM_ENVS


def preprocessed(env: gymnasium.Env[Any, Any]) -> gymnasium.Wrapper[Any, Any, Any, Any]:
    return FrameStackObservation(AtariPreprocessing(env, frame_skip=4), 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs, best is kept")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    gymnasium.register_envs(ale_py)
    rows: list[Row] = []

    reference = gymnasium.make_vec(
        ENV_ID, num_envs=NUM_ENVS, vectorization_mode="vector_entry_point"
    )
    theirs = stepper(reference)
    for mode, target in (("next_step", 0.95), ("same_step", None)):
        native = protogym.make_vec(
            ENV_ID, NUM_ENVS, vectorization_mode="vector_entry_point", autoreset_mode=mode
        )
        rates = agent_steps(stepper(native), theirs, args.seconds, args.repeats)
        name = f"native, 8 Pong ({mode}) vs ale-py vector env"
        rows.append(Row(name, "/s", *rates, True, target))
        native.close()
    reference.close()

    native = protogym.make_vec(
        ENV_ID, NUM_ENVS, vectorization_mode="vector_entry_point", autoreset_mode="next_step"
    )
    ours = stepper(native)
    processes = gymnasium.make_vec(
        ENV_ID, num_envs=NUM_ENVS, vectorization_mode="async", wrappers=[preprocessed],
        frameskip=1,
    )
    rates = agent_steps(ours, stepper(processes), args.seconds, args.repeats)
    name = "native vs Gymnasium Async + AtariPreprocessing"
    rows.append(Row(name, "/s", *rates, True, 2.5))
    processes.close()

    pool = make_envpool()
    if pool is not None:
        rates = agent_steps(ours, stepper(pool, seed=None), args.seconds, args.repeats)
        rows.append(Row("native vs EnvPool", "/s", *rates, True, None))
    native.close()
    print_rows(
        "Atari vector envs, 8 x ALE/Pong-v5: agent-steps per second (second column: the "
        "library named in the row)",
        rows,
    )
    if pool is None:
        print("\nEnvPool: not importable, skipped (it is not a dependency of protogym)")
    print(f"\n{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")


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
        repeat_action_probability=0.25,
        reward_clip=True, episodic_life=False, max_episode_steps=27_000, seed=0,
    )


if __name__ == "__main__":
    main()
