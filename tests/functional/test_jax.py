"""The functional API on jax: keys, jit, vmap, scan and grad, and the jax adapters."""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from protogym import Env, error
from protogym.envs.functional_jax_env import FunctionalJaxEnv, FunctionalJaxVectorEnv
from protogym.functional import FuncEnv
from protogym.functional.func_env import TRANSFORMED_MEMBERS
from protogym.functional.pure import Step, pure
from protogym.functional.wrappers import autoreset, time_limit, vectorize
from protogym.spaces import Box, Discrete
from tests.functional.jax_envs import Countdown, JaxWalk, PendulumState, Swing

pytestmark = pytest.mark.jax

Tree = Any


def assert_trees_equal(actual: Tree, expected: Tree) -> None:
    assert str(jax.tree.structure(actual)) == str(jax.tree.structure(expected))
    for left, right in zip(jax.tree.leaves(actual), jax.tree.leaves(expected), strict=True):
        np.testing.assert_allclose(np.asarray(left), np.asarray(right), rtol=1e-6, atol=1e-7)


class Draws(FuncEnv[jax.Array, jax.Array, jax.Array, jax.Array, jax.Array, None, None]):
    """Every random function returns a fresh uniform draw, so a reused key shows as a
    repeated number; episodes end after two steps (`terminal` reads the step count)."""

    observation_space = Box(0.0, 1.0, (), np.float32)
    action_space = Discrete(2)

    def initial(self, rng: Any, params: None = None) -> jax.Array:
        return jnp.stack([jax.random.uniform(rng), 0.0])

    def transition(
        self, state: jax.Array, action: jax.Array, rng: Any, params: None = None
    ) -> jax.Array:
        return jnp.stack([jax.random.uniform(rng), state[1] + 1])

    def observation(self, state: jax.Array, rng: Any, params: None = None) -> jax.Array:
        return jax.random.uniform(rng)

    def reward(self, state: jax.Array, action: jax.Array, next_state: jax.Array, rng: Any,
               params: None = None) -> jax.Array:
        return jax.random.uniform(rng)

    def terminal(self, state: jax.Array, rng: Any, params: None = None) -> jax.Array:
        return state[1] >= 2


def test_pure_reset_and_step_give_each_function_its_own_subkey() -> None:
    func_env = JaxWalk()
    env = pure(func_env)
    key = jax.random.PRNGKey(0)
    start = env.reset(key)
    initial_key, obs_key = jax.random.split(key, 2)
    state = func_env.initial(initial_key)
    assert_trees_equal(start.state, state)
    assert_trees_equal(start.obs, func_env.observation(state, obs_key))

    out = env.step(key, state, jnp.int32(1))
    transition_key, obs_key, reward_key, terminal_key = jax.random.split(key, 4)
    moved = func_env.transition(state, jnp.int32(1), transition_key)
    assert isinstance(out, Step)
    assert_trees_equal(out.state, moved)
    assert_trees_equal(out.obs, func_env.observation(moved, obs_key))
    assert out.truncated.dtype == jnp.bool_ and not out.truncated


def test_no_key_is_used_twice_across_copies_steps_and_resets() -> None:
    envs = FunctionalJaxVectorEnv(Draws(), 4, metadata={"autoreset_mode": "same_step"})
    draws = [envs.reset(seed=0)[0], np.asarray(envs.state.inner[:, 0])]
    for _ in range(5):  # episodes of two steps: resets on steps 2 and 4
        obs, reward, terminated, _, infos = envs.step(np.zeros(4, np.int64))
        draws += [obs, reward, np.asarray(envs.state.inner[:, 0])]
    values = np.concatenate([np.ravel(d) for d in draws])
    assert values.size == 4 * 17 and len(np.unique(values)) == values.size


def test_jit_equals_eager_and_vmap_equals_a_loop() -> None:
    env = autoreset(time_limit(pure(JaxWalk()), 2), "same_step")
    key = jax.random.PRNGKey(1)
    eager = env.reset(key)
    assert_trees_equal(jax.jit(env.reset)(key), eager)
    step = jax.jit(env.step)
    state_eager = state_jit = eager.state
    for index in range(3):  # a reset on the second step
        subkey = jax.random.fold_in(key, index)
        out_eager = env.step(subkey, state_eager, jnp.int32(index % 2))
        out_jit = step(subkey, state_jit, jnp.int32(index % 2))
        assert_trees_equal(out_jit, out_eager)
        state_eager, state_jit = out_eager.state, out_jit.state

    single = pure(JaxWalk())
    batched = vectorize(single, 4)
    keys = jax.random.split(key, 4)
    loop = [single.reset(k) for k in keys]
    start = batched.reset(key)
    assert_trees_equal(start, jax.tree.map(lambda *rows: jnp.stack(rows), *loop))
    actions = jnp.array([0, 1, 1, 0])
    out = batched.step(key, start.state, actions)
    loop_steps = [single.step(k, r.state, a) for k, r, a in zip(keys, loop, actions, strict=True)]
    assert_trees_equal(out, jax.tree.map(lambda *rows: jnp.stack(rows), *loop_steps))


@pytest.mark.slow
def test_a_scan_rollout_equals_stepping_in_python() -> None:
    env = autoreset(vectorize(time_limit(pure(JaxWalk()), 4), 3), "same_step")
    key = jax.random.PRNGKey(2)
    start = env.reset(key)
    keys = jax.random.split(key, 10)
    actions = jnp.tile(jnp.array([1, 0, 1]), (10, 1))

    def body(state: Tree, inputs: Tree) -> tuple[Tree, Tree]:
        out = env.step(inputs[0], state, inputs[1])
        return out.state, (out.obs, out.reward, out.terminated, out.truncated)

    final, history = jax.jit(lambda s: jax.lax.scan(body, s, (keys, actions)))(start.state)
    state = start.state
    step = jax.jit(env.step)
    for index in range(10):
        out = step(keys[index], state, actions[index])
        state = out.state
        assert_trees_equal(
            jax.tree.map(lambda leaf, i=index: leaf[i], history),
            (out.obs, out.reward, out.terminated, out.truncated),
        )
    assert_trees_equal(final, state)
    assert bool(history[3].any())  # the 4-step limit ended episodes inside the scan


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_every_way_of_computing_the_resets_gives_the_same_steps(mode: str) -> None:
    """Resetting only the ended copies (the default), the whole batch on steps where some
    ended, or the whole batch every step: the same bits, on steps where none, a few (up to
    an eighth of the batch) or many copies ended."""
    single = pure(Countdown())
    num_envs = 16
    ended_only = autoreset(vectorize(single, num_envs), mode)
    ways = [
        jax.jit(autoreset(vectorize(single, num_envs), mode, skip_idle_reset=choice).step)
        for choice in (True, False)
    ]
    key = jax.random.key(5)
    start = ended_only.reset(key)
    state = start.state
    step = jax.jit(ended_only.step)
    counts = set()
    for index in range(40):
        subkey = jax.random.fold_in(key, index)
        actions = jnp.arange(num_envs) % 2
        out = step(subkey, state, actions)
        for other in ways:
            jax.tree.map(np.testing.assert_array_equal, other(subkey, state, actions), out)
        resetting = np.asarray(state.done if mode == "next_step" else out.state.done)
        counts.add(min(int(resetting.sum()), 3))  # 0, 1, 2 or more than an eighth (2)
        # the reset's own info key is the reset's value where a copy reset, zero elsewhere
        np.testing.assert_array_equal(out.info["_start"], resetting)
        assert (np.asarray(out.info["start"])[~resetting] == 0).all()
        np.testing.assert_array_equal(
            np.asarray(out.obs)[resetting, 0], np.asarray(out.state.inner.value)[resetting]
        )
        state = out.state
    assert counts == {0, 1, 2, 3}
    with pytest.raises(TypeError, match="skip_idle_reset must be True, False or None"):
        autoreset(single, mode, skip_idle_reset=1)  # type: ignore[arg-type]


def test_reset_rows_equals_the_rows_of_the_batch_reset() -> None:
    batch = vectorize(pure(Countdown()), 12)
    assert batch.reset_rows is not None
    rows = jnp.array([11, 0, 5])
    for key in (jax.random.key(3), jax.random.PRNGKey(3)):
        whole = batch.reset(key)
        chosen = jax.jit(batch.reset_rows)(key, rows)
        jax.tree.map(
            lambda part, full: np.testing.assert_array_equal(part, np.asarray(full)[rows]),
            chosen, whole,
        )


def test_grad_flows_through_a_differentiable_rollout() -> None:
    env = pure(Swing())
    start = PendulumState(jnp.float32(0.5), jnp.float32(-0.2))
    key = jax.random.PRNGKey(0)

    def total_reward(torques: jax.Array) -> jax.Array:
        def body(state: PendulumState, torque: jax.Array) -> tuple[PendulumState, jax.Array]:
            out = env.step(key, state, torque[None])
            return out.state, out.reward

        return jax.lax.scan(body, start, torques)[1].sum()

    torques = jnp.linspace(-1.0, 1.0, 12)
    gradient = jax.jit(jax.grad(total_reward))(torques)
    assert gradient.shape == (12,) and bool(jnp.all(jnp.isfinite(gradient)))
    for index in (0, 5, 10):
        bump = jnp.zeros(12).at[index].set(1e-2)
        slope = (total_reward(torques + bump) - total_reward(torques - bump)) / 2e-2
        np.testing.assert_allclose(gradient[index], slope, rtol=2e-2, atol=1e-3)
    assert float(jnp.abs(gradient[0])) > float(jnp.abs(gradient[-1]))  # early torques matter more


def test_single_env_adapter() -> None:
    env = FunctionalJaxEnv(JaxWalk())
    assert isinstance(env, Env)
    obs, info = env.reset(seed=4)
    assert info == {}
    key, used = jax.random.split(jax.random.PRNGKey(4))
    expected = pure(JaxWalk()).reset(used)
    assert_trees_equal(obs, expected.obs)
    step = pure(JaxWalk()).step
    state = expected.state
    for action in (1, 1, 0):
        key, used = jax.random.split(key)
        wanted = step(used, state, jnp.int32(action))
        state = wanted.state
        obs, reward, terminated, truncated, info = env.step(jnp.int32(action))
        assert type(reward) is float and type(terminated) is bool and truncated is False
        assert_trees_equal((obs, reward, terminated, info),
                           (wanted.obs, wanted.reward, wanted.terminated, wanted.info))
    unseeded = [FunctionalJaxEnv(JaxWalk()).reset()[0] for _ in range(2)]
    assert not np.array_equal(unseeded[0], unseeded[1])


def test_single_env_renders_through_render_init_and_render_image() -> None:
    func_env = Swing()
    env = FunctionalJaxEnv(func_env, render_mode="rgb_array")
    with pytest.raises(error.ResetNeeded, match="before render"):
        env.render()
    env.reset(seed=0)
    first = env.render()
    env.step(jnp.array([2.0]))
    second = env.render()
    assert first.shape == second.shape == (16, 16, 3) and first.dtype == np.uint8
    assert env.render_state == [int(np.flatnonzero(first[0, :, 0])[0]),
                                int(np.flatnonzero(second[0, :, 0])[0])]
    frames = env.render_state
    env.close()
    assert frames == [] and env.render_state is None  # render_close ran, once
    env.close()
    assert FunctionalJaxEnv(func_env).render() is None


def test_vector_env_renders_a_frame_per_copy() -> None:
    envs = FunctionalJaxVectorEnv(Swing(), 2, max_episode_steps=4, render_mode="rgb_array")
    with pytest.raises(error.ResetNeeded, match="before render"):
        envs.render()
    obs, _ = envs.reset(seed=0)
    frames = envs.render()
    assert frames is not None and len(frames) == 2
    columns = [int(np.flatnonzero(frame[0, :, 0])[0]) for frame in frames]
    assert columns == [int(np.clip(8 + 4 * angle, 0, 15)) for angle in obs[:, 0]]
    assert envs.render_state == columns
    envs.close()
    assert envs.render_state is None


ROLLOUT_STEPS = 8


@functools.cache
def rollout(mode: str) -> tuple[FunctionalJaxVectorEnv[Any, Any], list[tuple[Any, ...]]]:
    """Three walks with a 5-step limit from seed 7: copy 0 walks right and ends after 3 or
    4 steps, copies 1 and 2 wander back and forth until the limit truncates them."""
    envs = FunctionalJaxVectorEnv(
        JaxWalk(), 3, max_episode_steps=5, metadata={"autoreset_mode": mode}
    )
    envs.reset(seed=7)
    steps = [envs.step(np.array([1, index % 2, 1 - index % 2])) for index in range(ROLLOUT_STEPS)]
    return envs, steps


def first_end(steps: list[tuple[Any, ...]]) -> int:
    return next(index for index, out in enumerate(steps) if (out[2] | out[3]).any())


def test_next_step_autoreset_keeps_the_transitions_of_copies_that_do_not_reset() -> None:
    _, plain = rollout("disabled")
    _, next_step = rollout("next_step")
    end = first_end(next_step)
    assert next_step[end][2].tolist() == [True, False, False]  # copy 0 alone terminated
    for index in range(end + 1):  # identical until an episode ends
        assert_trees_equal(next_step[index][:4], plain[index][:4])
    obs, rewards, terminated, truncated, infos = next_step[end + 1]
    twin_obs, twin_rewards, *_ = plain[end + 1]
    assert rewards[0] == 0.0 and abs(obs[0, 0]) <= 0.5  # copy 0 reset
    assert not terminated[0] and not truncated[0]
    assert infos["_moves"].tolist() == [False, True, True]
    np.testing.assert_array_equal(obs[1:], twin_obs[1:])  # copies 1 and 2 stepped on
    np.testing.assert_array_equal(rewards[1:], twin_rewards[1:])


def test_same_step_final_obs_is_the_ending_step_observation() -> None:
    _, plain = rollout("disabled")
    _, same = rollout("same_step")
    end = first_end(same)
    obs, rewards, terminated, truncated, infos = same[end]
    assert terminated.tolist() == [True, False, False]
    np.testing.assert_array_equal(infos["final_obs"][0], plain[end][0][0])
    assert infos["final_obs"][1] is None and infos["final_obs"][2] is None
    assert infos["_final_obs"].tolist() == infos["_final_info"].tolist() == [True, False, False]
    assert infos["final_info"]["moves"][0] == end + 1
    np.testing.assert_array_equal(rewards, plain[end][1])
    assert abs(obs[0, 0]) <= 0.5  # the batch holds copy 0's new start
    np.testing.assert_array_equal(obs[1:], plain[end][0][1:])
    assert all("final_obs" not in out[4] for out in same[:end])
    assert [out[3].tolist()[1:] for out in same[3:5]] == [[False, False], [True, True]]


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_the_vector_step_compiles_once(mode: str) -> None:
    envs, steps = rollout(mode)
    assert all(isinstance(out[0], np.ndarray) for out in steps)
    assert any((out[2] | out[3]).any() for out in steps)
    if mode == "disabled":
        envs.reset(options={"reset_mask": np.array([True, False, True])})
        envs.reset(options={"reset_mask": np.array([False, True, False])})
        assert envs._partial_reset_fn._cache_size() == 1  # type: ignore[attr-defined]
    assert envs._step_fn._cache_size() == 1  # type: ignore[attr-defined]
    for _ in range(3):  # jax actions stay on the device: one more signature, then no more
        envs.step(jnp.array([0, 1, 1]))
        envs.step(np.array([1, 1, 0]))
    assert envs._step_fn._cache_size() == 2  # type: ignore[attr-defined]


def test_the_callers_func_env_is_never_changed() -> None:
    envs, _ = rollout("next_step")
    func_env = envs.func_env
    assert not set(TRANSFORMED_MEMBERS) & set(vars(func_env))
    assert func_env.initial(jax.random.PRNGKey(0)).position.shape == ()


def test_vector_env_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="num_envs must be a positive int, got 0"):
        FunctionalJaxVectorEnv(JaxWalk(), 0)
    with pytest.raises(ValueError, match="autoreset_mode must be an AutoresetMode"):
        FunctionalJaxVectorEnv(JaxWalk(), 2, metadata={"autoreset_mode": "eventually"})
    envs = FunctionalJaxVectorEnv(JaxWalk(), 2)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="leading dimension of 2, got shape \\(1,\\)"):
        envs.step(np.array([1]))
    with pytest.raises(error.InvalidSeed, match="one int seed"):
        envs.reset(seed=[0, 1])
    obs, _ = envs.reset(seed=11)
    again, _ = envs.reset(seed=11)
    np.testing.assert_array_equal(obs, again)
