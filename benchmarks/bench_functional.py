"""Functional CartPole on CPU jax: protogym against gymnax 1.0 and Gymnasium 1.4, in one run.

Random actions, env-steps per second at 16, 1,024 and 8,192 sub-envs, and beside each rate
the time of the first call (tracing and XLA compilation included):

- compiled rollout: `jit` + `vmap` + `lax.scan` of 1,000 steps with the actions drawn
  inside, protogym's pure step (time limit and same-step autoreset wrappers over
  `CartPoleFunctional`) against gymnax's `step` (its autoreset built in);
- a Python loop of single steps: protogym's vector env through the Gymnasium API
  (`make_vec("phys2d/CartPole-v1", n, vectorization_mode="vector_entry_point")`, numpy
  actions in, numpy out), against gymnax's `jit(vmap(step))` called from Python (jax
  arrays in and out, not waited for until the end of a timed run), Gymnasium's
  `FunctionalJaxVectorEnv` from its `make_vec` (16 and 1,024 only: it compiles again for
  each new number of sub-envs that reset in a step), and protogym's native numba CartPole
  (`make_vec("CartPole-v1", n)`) for scale;
- one env through `make("phys2d/CartPole-v1")`, protogym's against Gymnasium's.

The contenders of a row take turns for each timed run and the best run of each is kept,
so load on the machine hits all alike. Everything runs in this one process on jax's CPU
backend.

Run: ``.venv/bin/python benchmarks/bench_functional.py [--seconds S] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import gymnasium
import gymnax  # type: ignore[import-untyped, unused-ignore]
import jax
import jax.numpy as jnp
import numpy as np
from protogym_functional.phys2d.cartpole import CartPoleFunctional

import protogym
from protogym.functional.pure import pure
from protogym.functional.wrappers import autoreset, time_limit, vectorize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import Result, table, write_results  # type: ignore[import-not-found, unused-ignore]

ROLLOUT_STEPS = 1000
LOOP_CHUNK = 50  # host-loop steps per timed call; jax's dispatch is waited for after each chunk
SIZES = (16, 1024, 8192)
GYMNASIUM_SIZES = (16, 1024)
ENV_ID = "phys2d/CartPole-v1"

Work = Callable[[], object]
# (state, obs, reward) after one batched step of random actions.
BatchedStep = Callable[[jax.Array, Any, jax.Array], tuple[Any, jax.Array, jax.Array]]


class Contender:
    """One library's way of doing a row's work, and how long its first call took: `build`
    makes the first call (a reset and one step, or one rollout) and returns the work."""

    def __init__(self, name: str, build: Callable[[], Work], steps_per_call: int) -> None:
        start = time.perf_counter()
        self.work = build()
        self.first_call = time.perf_counter() - start
        self.name = name
        self.steps_per_call = steps_per_call
        self.best = 0.0

    def calls_for(self, seconds: float) -> int:
        """How many calls take about `seconds` (at least one), after a warm-up call."""
        self.work()
        start = time.perf_counter()
        calls = 0
        while time.perf_counter() - start < seconds / 4:
            self.work()
            calls += 1
        return max(1, round(calls * seconds / (time.perf_counter() - start)))


def race(contenders: list[Contender], seconds: float, repeats: int) -> dict[str, float]:
    """Best env-steps per second of each contender, taking turns for every timed run."""
    calls = [each.calls_for(seconds) for each in contenders]
    for _ in range(repeats):
        for each, count in zip(contenders, calls, strict=True):
            start = time.perf_counter()
            for _ in range(count):
                each.work()
            rate = count * each.steps_per_call / (time.perf_counter() - start)
            each.best = max(each.best, rate)
    return {each.name: each.best for each in contenders}


# -- compiled rollouts ---------------------------------------------------------------------


def _rollout(step: BatchedStep, state: Any, obs: jax.Array, num_envs: int) -> Work:
    """A jitted scan of `ROLLOUT_STEPS` random-action steps; each call waits for the result.

    The observation and the sum of rewards are carried, so that XLA keeps all the work a
    training loop would use.
    """

    def run(key: jax.Array, state: Any, obs: jax.Array) -> tuple[Any, jax.Array, jax.Array]:
        def body(
            carry: tuple[Any, jax.Array, jax.Array], key: jax.Array
        ) -> tuple[tuple[Any, jax.Array, jax.Array], None]:
            state, _, total = carry
            action_key, step_key = jax.random.split(key)
            action = jax.random.randint(action_key, (num_envs,), 0, 2)
            state, obs, reward = step(step_key, state, action)
            return (state, obs, total + reward), None

        keys = jax.random.split(key, ROLLOUT_STEPS)
        carry, _ = jax.lax.scan(body, (state, obs, jnp.zeros(num_envs)), keys)
        return carry

    compiled = jax.jit(run)
    key = jax.random.key(0)

    def work() -> None:
        _ready(compiled(key, state, obs))

    work()
    return work


def ours_rollout(num_envs: int) -> Work:
    env = autoreset(vectorize(time_limit(pure(CartPoleFunctional()), 500), num_envs),
                    "same_step")
    state, obs, _ = jax.jit(env.reset)(jax.random.key(1))

    def step(key: jax.Array, state: Any, action: jax.Array) -> tuple[Any, jax.Array, jax.Array]:
        state, obs, reward, *_ = env.step(key, state, action)
        return state, obs, reward

    return _rollout(step, state, obs, num_envs)


def _gymnax_step(num_envs: int) -> tuple[Any, Any, Any, Any]:
    """gymnax's CartPole-v1, its params, and a reset batch of `num_envs` sub-envs."""
    env, params = gymnax.make("CartPole-v1")
    keys = jax.random.split(jax.random.key(1), num_envs)
    obs, state = jax.jit(jax.vmap(env.reset, in_axes=(0, None)))(keys, params)
    return env, params, state, obs


def gymnax_rollout(num_envs: int) -> Work:
    env, params, state, obs = _gymnax_step(num_envs)
    step_all = jax.vmap(env.step, in_axes=(0, 0, 0, None))

    def step(key: jax.Array, state: Any, action: jax.Array) -> tuple[Any, jax.Array, jax.Array]:
        obs, state, reward, *_ = step_all(jax.random.split(key, num_envs), state, action, params)
        return state, obs, reward

    return _rollout(step, state, obs, num_envs)


# -- Python loops of single steps -----------------------------------------------------------


def gymnax_host_loop(num_envs: int) -> Work:
    """`jit(vmap(step))` called from Python, `LOOP_CHUNK` steps a call; waits at the end."""
    env, params, state, _ = _gymnax_step(num_envs)

    @jax.jit
    def step(key: jax.Array, state: Any, action: jax.Array) -> tuple[Any, ...]:
        key, step_key = jax.random.split(key)
        keys = jax.random.split(step_key, num_envs)
        return key, *jax.vmap(env.step, in_axes=(0, 0, 0, None))(keys, state, action, params)

    actions = [jnp.asarray(row) for row in _actions(num_envs)]
    # (key, obs, state, reward, terminated, truncated, info) of the last step
    out: tuple[Any, ...] = _ready(step(jax.random.key(2), state, actions[0]))

    def work() -> None:
        nonlocal out
        for index in range(LOOP_CHUNK):
            out = step(out[0], out[2], actions[index % len(actions)])
        _ready(out)

    return work


def api_loop(env: Any, num_envs: int, chunk: int = LOOP_CHUNK) -> Work:
    """`chunk` steps of a vector env through its `step`, numpy actions in."""
    actions = list(_actions(num_envs))
    env.reset(seed=0)
    step = env.step
    _ready(step(actions[0])[:4])

    def work() -> None:
        out: Any = None
        for index in range(chunk):
            out = step(actions[index % len(actions)])
        _ready(out[:4])

    return work


def single_loop(env: Any) -> Work:
    """`LOOP_CHUNK` steps of one env through `make`, resetting when an episode ends."""
    actions = [int(a) for a in np.random.default_rng(0).integers(0, 2, size=64)]
    env.reset(seed=0)
    step, reset = env.step, env.reset
    step(actions[0])

    def work() -> None:
        for index in range(LOOP_CHUNK):
            _, _, terminated, truncated, _ = step(actions[index % 64])
            if terminated or truncated:
                reset()

    return work


def _ready(tree: Any) -> Any:
    """`tree` once jax has computed it (jax's dispatch is asynchronous)."""
    return jax.block_until_ready(tree)  # type: ignore[no-untyped-call]


def _actions(num_envs: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    return np.random.default_rng(0).integers(0, 2, size=(64, num_envs))


# -- the run -------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs, best is kept")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    load = os.getloadavg()[0]

    rollouts: list[Result] = []
    loops: list[Result] = []
    first_calls: list[Result] = []
    for num_envs in SIZES:
        name = f"x{num_envs:,}"
        print(f"\n{num_envs} sub-envs", flush=True)
        contenders = [
            Contender("protogym", partial(ours_rollout, num_envs), num_envs * ROLLOUT_STEPS),
            Contender("gymnax", partial(gymnax_rollout, num_envs), num_envs * ROLLOUT_STEPS),
        ]
        rates = race(contenders, args.seconds, args.repeats)
        _show(f"compiled rollout {name}", rates, contenders)
        target = None if num_envs < 1024 else 1.0
        rollouts.append(Result(f"compiled rollout {name}", "/s", True, rates, target))
        first_calls.append(Result(f"compiled rollout {name}", "s", False, _first(contenders)))

        steps = num_envs * LOOP_CHUNK
        ours_env = protogym.make_vec(ENV_ID, num_envs, vectorization_mode="vector_entry_point")
        native = protogym.make_vec("CartPole-v1", num_envs)
        contenders = [
            Contender("protogym", partial(api_loop, ours_env, num_envs), steps),
            Contender("gymnax", partial(gymnax_host_loop, num_envs), steps),
        ]
        if num_envs in GYMNASIUM_SIZES:
            theirs = gymnasium.make_vec(ENV_ID, num_envs=num_envs,
                                        vectorization_mode="vector_entry_point")
            # one step a call: at 1,024 sub-envs its steps take a good part of a second
            contenders.append(Contender("gymnasium", partial(api_loop, theirs, num_envs, 1),
                                        num_envs))
        contenders.append(Contender("numba", partial(api_loop, native, num_envs), steps))
        rates = race(contenders, args.seconds, args.repeats)
        _show(f"step loop {name}", rates, contenders)
        target = 1.0 if num_envs == 1024 else None
        loops.append(Result(f"step loop {name}", "/s", True, rates, target))
        first_calls.append(Result(f"step loop {name}", "s", False, _first(contenders)))
        ours_env.close()
        native.close()

    print("\none env through make", flush=True)
    ours_single = protogym.make(ENV_ID)
    theirs_single = gymnasium.make(ENV_ID)
    contenders = [
        Contender("protogym", partial(single_loop, ours_single), LOOP_CHUNK),
        Contender("gymnasium", partial(single_loop, theirs_single), LOOP_CHUNK),
    ]
    rates = race(contenders, args.seconds, args.repeats)
    _show("one env", rates, contenders)
    single = [Result("one env through make", "/s", True, rates, 5.0)]
    first_calls.append(Result("one env through make", "s", False, _first(contenders)))

    versions = ", ".join(f"{lib} {metadata.version(lib)}" for lib in ("jax", "jaxlib", "gymnax"))
    notes = (
        f"CPU jax ({versions}); load average {load:.2f} when the run started. "
        f"Compiled rollouts: {ROLLOUT_STEPS:,} steps in one jitted call. Step loops: "
        "protogym's vector env and Gymnasium's through their step (numpy actions), gymnax's "
        "jit(vmap(step)) from Python; numba is protogym's native CartPole-v1 vector env."
    )
    write_results(
        "functional",
        [
            table("compiled rollout (jit + vmap + scan): env-steps per second", rollouts),
            table("a Python loop of vector steps: env-steps per second", loops),
            table("one env through make: steps per second", single),
            table("first call (tracing and compiling included)", first_calls),
        ],
        title="Functional CartPole on CPU jax against gymnax 1.0 and Gymnasium 1.4",
        notes=notes,
        labels={"gymnax": "gymnax 1.0", "numba": "protogym native (numba)"},
    )


def _first(contenders: list[Contender]) -> dict[str, float]:
    return {each.name: each.first_call for each in contenders}


def _show(name: str, rates: dict[str, float], contenders: list[Contender]) -> None:
    ours = rates["protogym"]
    for each in contenders:
        ratio = "" if each.name == "protogym" else f"  protogym {ours / rates[each.name]:.2f}x"
        print(f"  {name:<26} {each.name:<10} {rates[each.name]:>14,.0f}/s  "
              f"first call {each.first_call:7.3f} s{ratio}", flush=True)


if __name__ == "__main__":
    main()
