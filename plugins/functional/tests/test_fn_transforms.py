"""Every functional env under jax's transformations: `jit` equals eager, `vmap` equals a
Python loop, the same key gives the same result, params are a traced argument, and what
comes out lies in the declared spaces."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from protogym_functional.phys2d.acrobot import AcrobotFunctional
from protogym_functional.phys2d.cartpole import CartPoleFunctional
from protogym_functional.phys2d.mountain_car import MountainCarFunctional
from protogym_functional.phys2d.mountain_car_continuous import MountainCarContinuousFunctional
from protogym_functional.phys2d.pendulum import PendulumFunctional
from protogym_functional.tabular.blackjack import BlackjackFunctional
from protogym_functional.tabular.cliffwalking import CliffWalkingFunctional
from protogym_functional.tabular.frozen_lake import FrozenLakeFunctional
from protogym_functional.tabular.taxi import TaxiFunctional

from protogym.checker.func_env import check_func_env

pytestmark = pytest.mark.jax

ENVS: dict[str, Any] = {
    "CartPole": CartPoleFunctional,
    "Pendulum": PendulumFunctional,
    "Acrobot": AcrobotFunctional,
    "MountainCar": MountainCarFunctional,
    "MountainCarContinuous": MountainCarContinuousFunctional,
    "Blackjack": BlackjackFunctional,
    "CliffWalking": CliffWalkingFunctional,
    "FrozenLake": FrozenLakeFunctional,
    "Taxi": TaxiFunctional,
}


def cases(names: Any, slow: tuple[str, ...] = ("Blackjack",)) -> list[Any]:
    """`names` as test cases, those in `slow` marked slow. Blackjack's dealer loop makes its
    eager steps and compilations the slowest by far; test_fn_tabular.py also checks its
    rules under jit."""
    return [pytest.param(n, marks=pytest.mark.slow) if n in slow else n for n in names]


# Params that change each parameterised env's behaviour, for the traced-params test.
OTHER_PARAMS: dict[str, dict[str, Any]] = {
    "CartPole": {"gravity": 12.0, "sutton_barto_reward": True},
    "Pendulum": {"g": 9.0, "max_torque": 1.0},
    "Acrobot": {"book": False, "link_mass_2": 1.5},
    "MountainCar": {"force": 0.002},
    "MountainCarContinuous": {"power": 0.003},
    "Blackjack": {"natural": True, "sutton_and_barto": False},
    "FrozenLake": {"is_slippery": False, "frozen_reward": -0.01},
    "Taxi": {"step_reward": -0.5},
}


def step(env: Any, state: Any, action: Any, key: jax.Array, params: Any) -> tuple[Any, ...]:
    """One transition and everything read from it."""
    next_state = env.transition(state, action, key, params)
    return (
        next_state,
        env.observation(next_state, key, params),
        env.reward(state, action, next_state, key, params),
        env.terminal(next_state, key, params),
    )


def rollout(env: Any, key: jax.Array, actions: jax.Array, params: Any) -> tuple[Any, ...]:
    """Observations, rewards and terminal flags of a `lax.scan` over `actions`."""
    key, init_key = jax.random.split(key)

    def body(state: Any, xs: tuple[jax.Array, jax.Array]) -> tuple[Any, tuple[Any, ...]]:
        action, step_key = xs
        next_state, obs, reward, terminal = step(env, state, action, step_key, params)
        return next_state, (obs, reward, terminal)

    keys = jax.random.split(key, actions.shape[0])
    _, outputs = jax.lax.scan(body, env.initial(init_key, params), (actions, keys))
    return tuple(outputs)


def sample_actions(env: Any, count: int, seed: int) -> list[Any]:
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(count)]


def assert_trees_close(left: Any, right: Any) -> None:
    # XLA may fuse a compiled step's float operations differently from the eager ones.
    for a, b in zip(jax.tree.leaves(left), jax.tree.leaves(right), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", cases(ENVS))
def test_jit_equals_eager(name: str) -> None:
    env = ENVS[name]()
    jitted_step = jax.jit(lambda s, a, k: step(env, s, a, k, None))
    key = jax.random.key(0)
    eager_state = jit_state = env.initial(key)
    assert_trees_close(jax.jit(env.initial)(key), eager_state)
    for action in sample_actions(env, 25, seed=0):
        key, step_key = jax.random.split(key)
        eager = step(env, eager_state, action, step_key, None)
        compiled = jitted_step(jit_state, action, step_key)
        assert_trees_close(compiled, eager)
        eager_state, jit_state = eager[0], compiled[0]


@pytest.mark.parametrize("name", cases(ENVS))
def test_vmap_equals_a_loop(name: str) -> None:
    env = ENVS[name]()
    keys = jax.random.split(jax.random.key(1), 8)
    actions = jnp.asarray(np.stack(sample_actions(env, 8, seed=1)))
    states = jax.vmap(env.initial)(keys)
    batched = jax.vmap(lambda s, a, k: step(env, s, a, k, None))(states, actions, keys)
    for i in range(8):
        state = env.initial(keys[i])
        assert_trees_close(jax.tree.map(lambda x, i=i: x[i], states), state)
        one = step(env, state, actions[i], keys[i], None)
        assert_trees_close(jax.tree.map(lambda x, i=i: x[i], batched), one)


@pytest.mark.parametrize("name", cases(ENVS))
def test_same_key_same_rollout(name: str) -> None:
    env = ENVS[name]()
    actions = jnp.asarray(np.stack(sample_actions(env, 40, seed=2)))
    run = jax.jit(lambda key: rollout(env, key, actions, None))
    first, again = run(jax.random.key(5)), run(jax.random.key(5))
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    if name != "CliffWalking":  # the only env without randomness
        other = run(jax.random.key(6))
        assert not np.array_equal(np.asarray(first[0]), np.asarray(other[0]))


@pytest.mark.parametrize("name", cases(ENVS))
def test_observations_lie_in_the_space(name: str) -> None:
    env = ENVS[name]()
    actions = jnp.asarray(np.stack(sample_actions(env, 200, seed=3)))
    keys = jax.random.split(jax.random.key(3), 16)
    observations, rewards, terminals = jax.jit(
        jax.vmap(lambda key: rollout(env, key, actions, None))
    )(keys)
    space = env.observation_space
    # Up to and including each episode's end: stepping on past it is undefined behaviour.
    ended = np.cumsum(np.asarray(terminals), axis=1)
    live = (ended == 0) | ((ended == 1) & np.asarray(terminals))
    flat = np.asarray(observations)[live]
    assert flat.dtype == space.dtype
    assert len(flat) > 16 and all(space.contains(obs) for obs in flat)
    assert np.asarray(rewards).dtype == np.float32
    assert np.asarray(terminals).dtype == np.bool_
    initial = env.observation(env.initial(jax.random.key(0)), None)
    assert space.contains(np.asarray(initial))


@pytest.mark.parametrize("name", cases(OTHER_PARAMS, slow=("Blackjack", "Acrobot")))
def test_params_are_a_traced_argument(name: str) -> None:
    env = ENVS[name]()
    # seed 1 sticks first for the two-action envs: a dealt natural is then paid
    actions = jnp.asarray(np.stack(sample_actions(env, 30, seed=1)))
    traces = 0

    def run(key: jax.Array, params: Any) -> tuple[Any, ...]:
        nonlocal traces
        traces += 1
        return rollout(env, key, actions, params)

    compiled = jax.jit(jax.vmap(run, in_axes=(0, None)))
    # Blackjack needs many hands for a dealt natural to show the payout rule
    keys = jax.random.split(jax.random.key(8), 128 if name == "Blackjack" else 8)
    default = env.get_default_params()
    other = env.get_default_params(**OTHER_PARAMS[name])
    with_default, with_other = compiled(keys, default), compiled(keys, other)
    assert traces == 1  # one compilation serves both parameterisations
    for params, outputs in ((default, with_default), (other, with_other)):
        first = jax.jit(lambda key, params=params: rollout(env, key, actions, params))(keys[0])
        assert_trees_close(jax.tree.map(lambda x: x[0], outputs), first)
    assert any(
        not np.array_equal(np.asarray(a), np.asarray(b))
        for a, b in zip(with_default, with_other, strict=True)
    )


@pytest.mark.parametrize("name", cases(ENVS))
def test_transform_vmap_then_jit_batches_every_method(name: str) -> None:
    """Gymnasium's way: `env.transform(jax.vmap)` then `jax.jit`; the methods never call
    each other, so a batched `reward` does not map a batched `terminal` a second time."""
    plain = ENVS[name]()
    batched = ENVS[name]().transform(jax.vmap).transform(jax.jit)
    keys = jax.random.split(jax.random.key(4), 5)
    actions = jnp.asarray(np.stack(sample_actions(plain, 5, seed=5)))
    states = batched.initial(keys)
    next_states = batched.transition(states, actions, keys)
    outputs = (
        next_states,
        batched.observation(next_states, keys),
        batched.reward(states, actions, next_states, keys),
        batched.terminal(next_states, keys),
    )
    for i in range(5):
        one = step(plain, plain.initial(keys[i]), actions[i], keys[i], None)
        assert_trees_close(jax.tree.map(lambda x, i=i: x[i], outputs), one)


@pytest.mark.slow  # the checker compiles a dozen programs per env
@pytest.mark.parametrize("name", ENVS)
def test_the_func_env_checker_finds_nothing_wrong(name: str) -> None:
    """protogym's `check_func_env` (jit equals eager, vmap equals a loop, same key same
    result, spaces, no Python control flow on traced values): hints at most."""
    report = check_func_env(ENVS[name](), num_steps=30, warn=False)
    assert report.errors == [] and report.warnings == []
    # only these hints may fire: float32 fused differently when compiled, or no randomness
    assert set(report.ids) <= {"PG381", "PG382"}
