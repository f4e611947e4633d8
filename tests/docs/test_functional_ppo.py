"""The PPO of the functional-envs guide (tests/docs/functional_ppo.py): its advantage
estimates by hand, and a full training run on phys2d/CartPole-v1 inside one `jax.jit`."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from protogym_functional.phys2d.cartpole import CartPoleFunctional

from protogym.functional.pure import pure
from protogym.functional.wrappers import autoreset, time_limit, vectorize
from tests.docs.functional_ppo import Batch, Config, advantages, evaluate, make_train

pytestmark = pytest.mark.jax


def column(*values: float) -> jax.Array:
    """Three steps of one sub-env."""
    return jnp.array(values, dtype=jnp.float32)[:, None]


def test_advantages_follow_the_recursion_back_from_the_last_step() -> None:
    # One sub-env, three steps; the second ends its episode by termination, so its
    # bootstrap value is 0 and the third step's advantage does not flow back past it.
    batch = Batch(
        obs=jnp.zeros((3, 1, 4)), action=jnp.zeros((3, 1), jnp.int32),
        log_prob=column(0, 0, 0), value=column(0.5, 0.4, 0.3), reward=column(1, 1, 1),
        done=column(0, 1, 0), next_value=column(0.4, 0.0, 0.2), ended_return=column(0, 2, 0),
    )
    found = advantages(batch, Config(gamma=0.9, gae_lambda=0.5))
    # deltas: 1 + 0.9 * 0.4 - 0.5 = 0.86, 1 - 0.4 = 0.6, 1 + 0.9 * 0.2 - 0.3 = 0.88
    expected = column(0.86 + 0.45 * 0.6, 0.6, 0.88)
    assert jnp.allclose(found, expected, atol=1e-6), found


def test_training_needs_a_batch_of_sub_envs() -> None:
    single = time_limit(pure(CartPoleFunctional()), 500)
    with pytest.raises(ValueError, match=r"needs a batch of sub-envs \(vectorize\(env, n\)\), "
                                         r"got batch shape \(\)"):
        make_train(single, None, 4, 2, Config())


# --8<-- [start:usage]
def train_cartpole(seed: int) -> tuple[jax.Array, jax.Array]:
    """Train on 16 CartPoles; the mean return of each rollout's ended episodes, and the
    trained policy's greedy return in 64 fresh episodes."""
    cartpole = CartPoleFunctional()
    params = cartpole.get_default_params()
    # each sub-env cut at 500 steps and restarted in the step that ends its episode
    env = autoreset(vectorize(time_limit(pure(cartpole), 500), 16), "same_step")
    config = Config(num_steps=128, num_updates=150)  # 307,200 env steps
    train = jax.jit(make_train(env, params, obs_size=4, num_actions=2, config=config))
    network, returns = train(jax.random.key(seed))

    eval_env = autoreset(vectorize(time_limit(pure(cartpole), 500), 64), "same_step")
    run_eval = jax.jit(evaluate, static_argnums=(0, 4))
    scores = run_eval(eval_env, params, network, jax.random.key(seed + 1), 500)
    return returns, scores
# --8<-- [end:usage]


@pytest.mark.slow
def test_ppo_learns_cartpole_inside_one_jit() -> None:
    returns, scores = train_cartpole(seed=0)
    assert returns.shape == (150,)
    assert float(returns[0]) < 100.0  # the untrained policy drops the pole quickly
    assert float(scores.mean()) >= 475.0, scores
