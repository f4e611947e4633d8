"""PPO for a functional env, the whole training run one `jax.jit` call.

The docs page on functional envs shows this file section by section (the ``--8<--`` marks),
and tests/docs/test_functional_ppo.py trains CartPole with it, so the page shows code that
is known to learn. Only jax is needed: the network is two small MLPs in `jax.numpy` and the
optimiser a few lines of Adam.

The env comes in as a batch of sub-envs with a pure reset and step, as protogym's
functional wrappers make it: ``autoreset(vectorize(time_limit(pure(env), limit), n),
"same_step")``, where a step that ends an episode returns the first observation of the next
one and keeps the last observation of the ended one in ``info["final_obs"]``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from protogym.functional.pure import PureEnv

# --8<-- [start:types]
BatchedEnv = PureEnv[Any, jax.Array, Any, jax.Array, jax.Array, Any]


class Config(NamedTuple):
    """The training run's settings: `num_updates` rollouts of `num_steps` steps of every
    sub-env (how many there are is the env's batch shape)."""

    num_steps: int = 128
    num_updates: int = 100
    epochs: int = 4
    minibatches: int = 4
    learning_rate: float = 2.5e-3
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    hidden: int = 64
# --8<-- [end:types]


# --8<-- [start:network]
Layer = tuple[jax.Array, jax.Array]
Network = dict[str, list[Layer]]


def _mlp(key: jax.Array, sizes: list[int], last_scale: float) -> list[Layer]:
    """Orthogonal weights (scale sqrt 2 for hidden layers), zero biases."""
    keys = jax.random.split(key, len(sizes) - 1)
    layers = []
    for i, (key_i, fan_in, fan_out) in enumerate(zip(keys, sizes, sizes[1:], strict=False)):
        scale = last_scale if i == len(sizes) - 2 else 2.0**0.5
        weights = jax.nn.initializers.orthogonal(scale)(key_i, (fan_in, fan_out))
        layers.append((weights, jnp.zeros(fan_out)))
    return layers


def _forward(layers: list[Layer], x: jax.Array) -> jax.Array:
    for weights, bias in layers[:-1]:
        x = jnp.tanh(x @ weights + bias)
    weights, bias = layers[-1]
    return x @ weights + bias


def init_network(key: jax.Array, obs_size: int, num_actions: int, hidden: int) -> Network:
    """A policy (logits over the actions) and a value function, each an MLP of its own."""
    policy_key, value_key = jax.random.split(key)
    return {
        "policy": _mlp(policy_key, [obs_size, hidden, hidden, num_actions], 0.01),
        "value": _mlp(value_key, [obs_size, hidden, hidden, 1], 1.0),
    }


def value_of(network: Network, obs: jax.Array) -> jax.Array:
    return _forward(network["value"], obs)[..., 0]


def logits_and_value(network: Network, obs: jax.Array) -> tuple[jax.Array, jax.Array]:
    return _forward(network["policy"], obs), value_of(network, obs)
# --8<-- [end:network]


# --8<-- [start:adam]
class Adam(NamedTuple):
    """Adam's running moments and step count, a pytree like the network."""

    steps: jax.Array
    mean: Network
    square: Network


def adam_init(network: Network) -> Adam:
    zeros = jax.tree.map(jnp.zeros_like, network)
    return Adam(jnp.zeros((), jnp.int32), zeros, zeros)


def adam_step(
    network: Network, grads: Network, adam: Adam, learning_rate: jax.Array, max_norm: float
) -> tuple[Network, Adam]:
    """One Adam update after scaling the gradient to a global norm of at most `max_norm`."""
    norm = jnp.sqrt(sum(jnp.sum(g**2) for g in jax.tree.leaves(grads)))
    grads = jax.tree.map(lambda g: g * jnp.minimum(1.0, max_norm / (norm + 1e-6)), grads)
    steps = adam.steps + 1
    mean = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, adam.mean, grads)
    square = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g**2, adam.square, grads)
    mean_scale = 1.0 / (1.0 - 0.9**steps)
    square_scale = 1.0 / (1.0 - 0.999**steps)
    network = jax.tree.map(
        lambda p, m, v: p - learning_rate * m * mean_scale / (jnp.sqrt(v * square_scale) + 1e-5),
        network, mean, square,
    )
    return network, Adam(steps, mean, square)
# --8<-- [end:adam]


# --8<-- [start:rollout]
class Batch(NamedTuple):
    """What one rollout step records for every sub-env; arrays of (num_steps, num_envs)."""

    obs: jax.Array
    action: jax.Array
    log_prob: jax.Array
    value: jax.Array
    reward: jax.Array
    done: jax.Array
    next_value: jax.Array
    ended_return: jax.Array  # the episode's return where `done`, else 0


class Runner(NamedTuple):
    """The carry of the training loop: everything that one update changes."""

    network: Network
    adam: Adam
    env_state: Any
    obs: jax.Array
    episode_return: jax.Array  # of each sub-env's episode so far
    key: jax.Array


def rollout(env: BatchedEnv, params: Any, config: Config, runner: Runner) -> tuple[Runner, Batch]:
    """`num_steps` steps of all sub-envs, sampled from the current policy (a scan).

    `next_value` is what the return is bootstrapped with: 0 after termination, the value of
    ``info["final_obs"]`` after truncation (the time limit is not part of the task), and
    the value of the next observation otherwise.
    """

    def one_step(carry: Runner, _: None) -> tuple[Runner, Batch]:
        key, action_key, step_key = jax.random.split(carry.key, 3)
        logits, value = logits_and_value(carry.network, carry.obs)
        action = jax.random.categorical(action_key, logits)
        log_prob = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], 1)[:, 0]
        env_state, obs, reward, terminated, truncated, info = env.step(
            step_key, carry.env_state, action, params
        )
        final_value = value_of(carry.network, info["final_obs"])
        next_value = jnp.where(
            terminated, 0.0, jnp.where(truncated, final_value, value_of(carry.network, obs))
        )
        done = terminated | truncated
        reward = reward.astype(jnp.float32)
        episode_return = carry.episode_return + reward
        record = Batch(carry.obs, action, log_prob, value, reward, done, next_value,
                       jnp.where(done, episode_return, 0.0))
        carry = carry._replace(env_state=env_state, obs=obs, key=key,
                               episode_return=jnp.where(done, 0.0, episode_return))
        return carry, record

    return jax.lax.scan(one_step, runner, None, config.num_steps)
# --8<-- [end:rollout]


# --8<-- [start:gae]
def advantages(batch: Batch, config: Config) -> jax.Array:
    """Generalised advantage estimates, from the last step back (a reverse scan)."""
    deltas = batch.reward + config.gamma * batch.next_value - batch.value
    discount = config.gamma * config.gae_lambda * (1.0 - batch.done)

    def back(following: jax.Array, step: tuple[jax.Array, jax.Array]) -> tuple[
        jax.Array, jax.Array
    ]:
        delta, factor = step
        advantage = delta + factor * following
        return advantage, advantage

    _, found = jax.lax.scan(back, jnp.zeros_like(deltas[0]), (deltas, discount), reverse=True)
    return found
# --8<-- [end:gae]


# --8<-- [start:loss]
def loss(
    network: Network, config: Config, batch: Batch, advantage: jax.Array, target: jax.Array
) -> jax.Array:
    """The clipped surrogate, plus the value error, minus an entropy bonus."""
    logits, value = logits_and_value(network, batch.obs)
    log_probs = jax.nn.log_softmax(logits)
    log_prob = jnp.take_along_axis(log_probs, batch.action[:, None], 1)[:, 0]
    ratio = jnp.exp(log_prob - batch.log_prob)
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    clipped = jnp.clip(ratio, 1.0 - config.clip, 1.0 + config.clip)
    policy_loss = -jnp.minimum(ratio * advantage, clipped * advantage).mean()
    value_loss = 0.5 * ((value - target) ** 2).mean()
    entropy = -(jnp.exp(log_probs) * log_probs).sum(-1).mean()
    return policy_loss + config.value_coef * value_loss - config.entropy_coef * entropy
# --8<-- [end:loss]


# --8<-- [start:train]
def make_train(
    env: BatchedEnv, params: Any, obs_size: int, num_actions: int, config: Config
) -> Callable[[jax.Array], tuple[Network, jax.Array]]:
    """The whole training run on the batched `env` as one function of a key, for `jax.jit`.

    It returns the trained network and, for each rollout, the mean return of the episodes
    that ended in it (0 if none did).
    """
    if len(env.batch_shape) != 1:
        raise ValueError(f"make_train needs a batch of sub-envs (vectorize(env, n)), "
                         f"got batch shape {env.batch_shape}")
    num_envs = env.batch_shape[0]
    batch_size = num_envs * config.num_steps
    minibatch_size = batch_size // config.minibatches
    total_steps = config.num_updates * config.epochs * config.minibatches
    grad = jax.grad(loss)

    def learning_rate(steps: jax.Array) -> jax.Array:
        """Decays linearly to 0 over the run."""
        return config.learning_rate * (1.0 - steps / total_steps)

    def minibatch_update(
        state: tuple[Network, Adam], chunk: tuple[Batch, jax.Array, jax.Array]
    ) -> tuple[tuple[Network, Adam], None]:
        network, adam = state
        batch, advantage, target = chunk
        grads = grad(network, config, batch, advantage, target)
        rate = learning_rate(adam.steps.astype(jnp.float32))
        return adam_step(network, grads, adam, rate, config.max_grad_norm), None

    def update(runner: Runner, _: None) -> tuple[Runner, jax.Array]:
        runner, batch = rollout(env, params, config, runner)
        advantage = advantages(batch, config)
        data = (batch, advantage, advantage + batch.value)

        def epoch(
            carry: tuple[Network, Adam, jax.Array], _: None
        ) -> tuple[tuple[Network, Adam, jax.Array], None]:
            network, adam, key = carry
            key, shuffle_key = jax.random.split(key)
            order = jax.random.permutation(shuffle_key, batch_size)

            def shuffled(x: jax.Array) -> jax.Array:
                flat = x.reshape((batch_size, *x.shape[2:]))[order]
                return flat.reshape((config.minibatches, minibatch_size, *x.shape[2:]))

            chunks = jax.tree.map(shuffled, data)
            (network, adam), _ = jax.lax.scan(minibatch_update, (network, adam), chunks)
            return (network, adam, key), None

        (network, adam, key), _ = jax.lax.scan(
            epoch, (runner.network, runner.adam, runner.key), None, config.epochs
        )
        ended = jnp.maximum(batch.done.sum(), 1)
        mean_return = batch.ended_return.sum() / ended
        return runner._replace(network=network, adam=adam, key=key), mean_return

    def train(key: jax.Array) -> tuple[Network, jax.Array]:
        network_key, reset_key, key = jax.random.split(key, 3)
        network = init_network(network_key, obs_size, num_actions, config.hidden)
        env_state, obs, _ = env.reset(reset_key, params)
        start = jnp.zeros(num_envs)
        runner = Runner(network, adam_init(network), env_state, obs, start, key)
        runner, returns = jax.lax.scan(update, runner, None, config.num_updates)
        return runner.network, returns

    return train
# --8<-- [end:train]


# --8<-- [start:evaluate]
def evaluate(
    env: BatchedEnv, params: Any, network: Network, key: jax.Array, max_steps: int
) -> jax.Array:
    """The return of one greedy episode in each sub-env of the batched `env`.

    Each sub-env's rewards count until its first episode ends (`max_steps` must cover the
    env's time limit); the steps after that, in the next episode, are ignored.
    """
    reset_key, key = jax.random.split(key)
    state, obs, _ = env.reset(reset_key, params)
    num_episodes = obs.shape[0]

    def one_step(
        carry: tuple[Any, jax.Array, jax.Array, jax.Array], step_key: jax.Array
    ) -> tuple[tuple[Any, jax.Array, jax.Array, jax.Array], None]:
        state, obs, returns, running = carry
        logits, _ = logits_and_value(network, obs)
        state, obs, reward, terminated, truncated, _ = env.step(
            step_key, state, jnp.argmax(logits, -1), params
        )
        returns = returns + jnp.where(running, reward, 0.0)
        return (state, obs, returns, running & ~(terminated | truncated)), None

    start = (state, obs, jnp.zeros(num_episodes), jnp.ones(num_episodes, bool))
    (_, _, returns, _), _ = jax.lax.scan(one_step, start, jax.random.split(key, max_steps))
    return returns
# --8<-- [end:evaluate]
