"""Steps per second of protogym's MuJoCo envs against Gymnasium 1.4 and EnvPool, in one run.

1. Single envs through `make` (HalfCheetah, Hopper, Ant and Humanoid v5), protogym's and
   Gymnasium's, beside the physics floor: `mj_step` with the frame skip and
   `mj_rnePostConstraint` on one `MjData`, along the very same trajectory (the same seed and
   actions, the same resets), which is what both envs run underneath. Every timed run starts
   from ``reset(seed=0)`` and the runs alternate, so the machine's load hits all three
   alike; the clock is this thread's CPU time (everything here runs in this thread), the
   steadiest measure on a shared machine. Reported: the ratio to Gymnasium, each env's cost
   above the floor and protogym's as a fraction of Gymnasium's, and protogym's time as a
   multiple of the floor's.
2. The native vector env of HalfCheetah-v5 with 16 and 64 sub-envs on 1 and 2 of MuJoCo's
   threads, against Gymnasium's `SyncVectorEnv` of the same id and, when ``import envpool``
   works, EnvPool's HalfCheetah-v5 on the same thread count. Wall-clock agent-steps per
   second (a vector step of n sub-envs is n agent-steps), runs alternating, best kept.

Each number is printed with the load average when it was taken. EnvPool is never a
dependency of protogym: install it beside, e.g.
``pip install --target /tmp/envpool envpool==1.2.5 optree dm-env dm-tree
"envpool-assets<0.4" "envpool-assets-mujoco-large<0.4"`` with ``--no-deps``, then run with
``PYTHONPATH=/tmp/envpool``.

Run: ``.venv/bin/python benchmarks/bench_mujoco.py [--steps N] [--repeats R]``.
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

import gymnasium
import mujoco
import numpy as np

import protogym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import Result, table, write_results  # type: ignore[import-not-found, unused-ignore]

SINGLE_IDS = {  # id: protogym's target, as a ratio to Gymnasium's steps per second
    "HalfCheetah-v5": 1.12,
    "Hopper-v5": 1.15,
    "Ant-v5": 1.08,
    "Humanoid-v5": 1.08,
}
VECTOR_ID = "HalfCheetah-v5"
VECTOR_SIZES = (16, 64)
THREADS = (1, 2)
_INTEGRATION = mujoco.mjtState.mjSTATE_INTEGRATION


def load() -> float:
    return os.getloadavg()[0]


# -- single envs -------------------------------------------------------------------------


def trajectory(env_id: str, steps: int, actions: list[np.ndarray]) -> dict[int, np.ndarray]:
    """The steps after which protogym's env resets in a run from ``reset(seed=0)``, each
    with the state the reset leaves (for the physics floor to follow the same path)."""
    env = protogym.make(env_id)
    env.reset(seed=0)
    resets = {}
    for index in range(steps):
        _, _, terminated, truncated, _ = env.step(actions[index % len(actions)])
        if terminated or truncated:
            env.reset()
            state = np.empty(mujoco.mj_stateSize(env.unwrapped.model, _INTEGRATION))
            mujoco.mj_getState(env.unwrapped.model, env.unwrapped.data, state, _INTEGRATION)
            resets[index] = state
    env.close()
    return resets


def env_run(env: Any, steps: int, actions: list[np.ndarray]) -> Callable[[], float]:
    """A timed run of `steps` steps from ``reset(seed=0)``; returns the CPU seconds."""
    step, reset = env.step, env.reset
    count = len(actions)

    def run() -> float:
        reset(seed=0)
        start = time.thread_time()
        for index in range(steps):
            _, _, terminated, truncated, _ = step(actions[index % count])
            if terminated or truncated:
                reset()
        return time.thread_time() - start

    return run


def floor_run(env_id: str, steps: int, actions: list[np.ndarray]) -> Callable[[], float]:
    """The physics alone along the same trajectory: controls, `mj_step` with the frame
    skip, `mj_rnePostConstraint`, and the resets' states loaded where the env resets."""
    resets = trajectory(env_id, steps, actions)
    env = protogym.make(env_id)
    env.reset(seed=0)
    inner = env.unwrapped
    model, data, frame_skip = inner.model, inner.data, inner.frame_skip
    start_state = np.empty(mujoco.mj_stateSize(model, _INTEGRATION))
    mujoco.mj_getState(model, data, start_state, _INTEGRATION)
    mj_step, post, set_state = mujoco.mj_step, mujoco.mj_rnePostConstraint, mujoco.mj_setState
    ctrl, count = data.ctrl, len(actions)

    def run() -> float:
        set_state(model, data, start_state, _INTEGRATION)
        start = time.thread_time()
        for index in range(steps):
            ctrl[:] = actions[index % count]
            mj_step(model, data, frame_skip)
            post(model, data)
            reset_state = resets.get(index)
            if reset_state is not None:
                set_state(model, data, reset_state, _INTEGRATION)
        return time.thread_time() - start

    return run


def single_env_rows(steps: int, repeats: int) -> list[Result]:
    rows = []
    print(f"\nsingle env through make, {steps} steps a run, best of {repeats} (CPU time)")
    print(f"{'id':<16}{'protogym':>10}{'Gymnasium':>11}{'physics':>9}  us/step   ratio"
          "  (target)  above physics: ours/theirs  x floor  load")  # fmt: skip
    for env_id, target in SINGLE_IDS.items():
        ours, theirs = protogym.make(env_id), gymnasium.make(env_id)
        space = ours.action_space
        rng = np.random.default_rng(0)
        actions = [rng.uniform(space.low, space.high).astype(np.float32) for _ in range(256)]
        runs = {
            "protogym": env_run(ours, steps, actions),
            "gymnasium": env_run(theirs, steps, actions),
            "floor": floor_run(env_id, steps, actions),
        }
        best = dict.fromkeys(runs, float("inf"))
        loads = []
        for _ in range(repeats):
            for name, run in runs.items():
                best[name] = min(best[name], run())
            loads.append(load())
        us = {name: seconds / steps * 1e6 for name, seconds in best.items()}
        above_ours = us["protogym"] - us["floor"]
        above_theirs = us["gymnasium"] - us["floor"]
        ratio = us["gymnasium"] / us["protogym"]
        fraction = above_ours / above_theirs
        times_floor = us["protogym"] / us["floor"]
        mean_load = sum(loads) / len(loads)
        print(
            f"{env_id:<16}{us['protogym']:>10.1f}{us['gymnasium']:>11.1f}{us['floor']:>9.1f}"
            f"          {ratio:5.2f}x  (>= {target}x)  {above_ours:5.1f} / {above_theirs:5.1f} ="
            f" {fraction:.2f}   {times_floor:.3f}x  {mean_load:.1f}"
        )
        rows.append(
            Result(
                f"{env_id} step (make)",
                "/s",
                higher_is_better=True,
                values={
                    "protogym": 1e6 / us["protogym"],
                    "gymnasium": 1e6 / us["gymnasium"],
                    "physics": 1e6 / us["floor"],
                },
                target=target,
                note=(
                    f"cost above the physics: protogym {above_ours:.1f} us, Gymnasium "
                    f"{above_theirs:.1f} us ({fraction:.2f} of it); protogym takes "
                    f"{times_floor:.3f}x the physics' time; load average {mean_load:.1f}"
                ),
            )
        )
        ours.close()
        theirs.close()
    return rows


# -- vector envs -------------------------------------------------------------------------


def vector_run(env: Any, steps: int, actions: list[np.ndarray], seed: int | None = 0) -> Any:
    """A timed run of `steps` vector steps; returns the wall-clock seconds."""
    if seed is None:
        env.reset()
    else:
        env.reset(seed=seed)
    step, count = env.step, len(actions)

    def run() -> float:
        start = time.perf_counter()
        for index in range(steps):
            step(actions[index % count])
        return time.perf_counter() - start

    return run


def vector_rows(steps: int, repeats: int) -> list[Result]:
    try:
        import envpool
    except ImportError:
        envpool = None
        print("\nEnvPool is not importable: its columns are left out")
    rows = []
    print(f"\n{VECTOR_ID} vector envs, {steps} vector steps a run, best of {repeats} (wall clock)")
    for size in VECTOR_SIZES:
        rng = np.random.default_rng(0)
        actions = [rng.uniform(-1, 1, (size, 6)).astype(np.float32) for _ in range(64)]
        runs: dict[str, Callable[[], float]] = {}
        for threads in THREADS:
            native = protogym.make_vec(VECTOR_ID, size, num_threads=threads)
            runs[f"protogym {threads}"] = vector_run(native, steps, actions)
            if envpool is not None:
                pool = envpool.make(
                    VECTOR_ID, env_type="gymnasium", num_envs=size, num_threads=threads, seed=0
                )
                runs[f"envpool {threads}"] = vector_run(pool, steps, actions, seed=None)
        sync = gymnasium.make_vec(VECTOR_ID, size, vectorization_mode="sync")
        runs["gymnasium"] = vector_run(sync, steps, actions)
        best = dict.fromkeys(runs, float("inf"))
        loads = []
        for _ in range(repeats):
            for name, run in runs.items():
                best[name] = min(best[name], run())
            loads.append(load())
        mean_load = sum(loads) / len(loads)
        rate = {name: size * steps / seconds for name, seconds in best.items()}
        for threads in THREADS:
            ours = rate[f"protogym {threads}"]
            values = {"protogym": ours, "gymnasium": rate["gymnasium"]}
            line = (
                f"  {size:>3} sub-envs, {threads} thread(s): protogym {ours:>9.0f}/s, "
                f"Sync {rate['gymnasium']:>8.0f}/s ({ours / rate['gymnasium']:.2f}x)"
            )
            if envpool is not None:
                values["envpool"] = rate[f"envpool {threads}"]
                line += f", EnvPool {values['envpool']:>8.0f}/s ({ours / values['envpool']:.2f}x)"
            print(f"{line}, load {mean_load:.1f}")
            rows.append(
                Result(
                    f"{size} x {VECTOR_ID}, {threads} thread{'s' if threads > 1 else ''}",
                    "/s",
                    higher_is_better=True,
                    values=values,
                    target=1.6 if threads == 2 else None,
                    note=f"load average {mean_load:.1f}",
                )
            )
        scaling = rate["protogym 2"] / rate["protogym 1"]
        print(f"  protogym from 1 to 2 threads: {scaling:.2f}x")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="single-env steps a run")
    parser.add_argument("--vector-steps", type=int, default=200, help="vector steps a run")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # Gymnasium's checker notes; MuJoCo's model notice
    mujoco.set_mju_user_warning(lambda message: None)
    print(f"{os.cpu_count()} cores, load average {load():.1f} at the start")
    single = single_env_rows(args.steps, args.repeats)
    vector = vector_rows(args.vector_steps, args.repeats)
    print(f"\nload average {load():.1f} at the end")
    write_results(
        "mujoco",
        [
            table("single env through make, steps per second (CPU time)", single),
            table(f"native vector env, {VECTOR_ID}: agent-steps per second", vector),
        ],
        title="MuJoCo envs against Gymnasium 1.4 and EnvPool",
        notes=(
            "Single envs: protogym's and Gymnasium's make(id) beside the physics alone "
            "(mj_step with the frame skip and mj_rnePostConstraint) along the same trajectory; "
            "runs alternate. Vector: protogym's native env on 1 and 2 MuJoCo threads against "
            "Gymnasium's SyncVectorEnv and EnvPool 1.2.5 on the same thread count. Each row's "
            "note gives the load average of the shared 2-core machine when it was measured."
        ),
        labels={"physics": "MuJoCo physics alone"},
    )


if __name__ == "__main__":
    main()
