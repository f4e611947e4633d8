"""Rough throughput probes (steps, constructions, renders per second), Gymnasium's names.

Each runs for about `target_duration` seconds of wall-clock time (`time.time`, read once
per call, so a probe runs slightly over) and returns calls per second. They are for quick
comparisons while debugging; the side-by-side benchmarks live in the repository's
``benchmarks/``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["benchmark_init", "benchmark_render", "benchmark_step", "benchmark_vector_step"]


def benchmark_step(env: Any, target_duration: float = 5, seed: int | None = None) -> float:
    """Steps per second of `env` under random actions, resetting when an episode ends.

    `seed` seeds the first reset; one action is sampled before the clock starts, so a
    lazily built sampler is not timed.
    """
    env.reset(seed=seed)
    env.action_space.sample()
    steps = 0
    start = end = time.time()
    while end - start <= target_duration:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        steps += 1
        if terminated or truncated:
            env.reset()
        end = time.time()
    return steps / (end - start)


def benchmark_vector_step(env: Any, target_duration: float = 5, seed: int | None = None) -> float:
    """Sub-env steps per second of vector env `env` under random actions.

    One step is taken and the env reset before the clock starts (lazy set-up and compilers
    are not timed). Steps that only reset a sub-env (next-step autoreset) are not counted;
    with autoreset disabled, ended sub-envs are reset through ``options={"reset_mask": ...}``.
    """
    from protogym.vector import AutoresetMode

    env.action_space.seed(seed)
    env.reset(seed=seed)
    env.step(env.action_space.sample())
    env.reset(seed=seed)
    mode = AutoresetMode(env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP))
    resetting = np.zeros(env.num_envs, dtype=np.bool_)  # next-step: reset on this step
    steps = 0
    start = end = time.time()
    while end - start <= target_duration:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        ended = np.logical_or(terminated, truncated)
        if mode is AutoresetMode.NEXT_STEP:
            steps += env.num_envs - int(np.count_nonzero(resetting))
            resetting = ended
        else:
            steps += env.num_envs
            if mode is AutoresetMode.DISABLED and ended.any():
                env.reset(options={"reset_mask": ended})
        end = time.time()
    return steps / (end - start)


def benchmark_init(
    env_lambda: Callable[[], Any], target_duration: float = 5, seed: int | None = None
) -> float:
    """Envs built (by `env_lambda`) and reset (with `seed`) per second."""
    inits = 0
    start = end = time.time()
    while end - start <= target_duration:
        env_lambda().reset(seed=seed)
        inits += 1
        end = time.time()
    return inits / (end - start)


def benchmark_render(env: Any, target_duration: float = 5) -> float:
    """Calls of ``env.render()`` per second (not for ``render_mode="human"``, which waits
    for the frame rate)."""
    renders = 0
    start = end = time.time()
    while end - start <= target_duration:
        env.render()
        renders += 1
        end = time.time()
    return renders / (end - start)
