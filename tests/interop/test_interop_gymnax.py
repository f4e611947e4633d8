"""protogym.interop.gymnax: gymnax envs as FuncEnvs replay gymnax's trajectories exactly, and
FuncEnvs work as gymnax envs through gymnax's own step, wrappers, jit and vmap."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytestmark = pytest.mark.jax

import gymnax  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from gymnax.environments import spaces as gymnax_spaces  # noqa: E402
from gymnax.wrappers import LogWrapper  # noqa: E402

from protogym import spaces  # noqa: E402
from protogym.functional import FuncEnv  # noqa: E402
from protogym.interop.gymnax import (  # noqa: E402
    GymnaxFuncEnv,
    from_gymnax,
    from_gymnax_space,
    to_gymnax,
    to_gymnax_space,
)

STEPS = 600
IDS = ["CartPole-v1", "Pendulum-v1", pytest.param("Acrobot-v1", marks=pytest.mark.slow),
       "MountainCar-v0"]


def _ours_with_gymnax_autoreset(
    func_env: GymnaxFuncEnv, params: Any, keys: jax.Array, actions: jax.Array
) -> Any:
    """Roll `func_env` the way gymnax's `step` does (its key split, its reset on termination
    or time limit), with protogym's time limit from `max_episode_steps`."""
    limit = func_env.max_episode_steps
    assert limit is not None

    def body(carry: Any, inputs: Any) -> Any:
        state, elapsed = carry
        key, action = inputs
        key_step, key_reset = jax.random.split(key)
        stepped = func_env.transition(state, action, key_step, params)
        terminated = func_env.terminal(stepped, key_step, params)
        truncated = elapsed + 1 >= limit
        fresh = func_env.initial(key_reset, params)
        done = terminated | truncated
        reward = func_env.reward(state, action, stepped, key_step, params)
        state = jax.tree.map(lambda a, b: jnp.where(done, a, b), fresh, stepped)
        obs = func_env.observation(state, key_step, params)
        elapsed = jnp.where(done, 0, elapsed + 1)
        return (state, elapsed), (obs, reward, terminated, truncated)

    first = func_env.initial(keys[0], params)
    _, rollout = jax.lax.scan(body, (first, jnp.int32(0)), (keys[1:], actions))
    return func_env.observation(first, keys[0], params), rollout


def _gymnax_rollout(env: Any, params: Any, keys: jax.Array, actions: jax.Array) -> Any:
    def body(state: Any, inputs: Any) -> Any:
        key, action = inputs
        obs, state, reward, terminated, truncated, _ = env.step(key, state, action, params)
        return state, (obs, reward, terminated, truncated)

    obs, state = env.reset(keys[0], params)
    _, rollout = jax.lax.scan(body, state, (keys[1:], actions))
    return obs, rollout


def _keys_and_actions(env: Any, params: Any, seed: int) -> tuple[jax.Array, jax.Array]:
    keys = jax.random.split(jax.random.PRNGKey(seed), STEPS + 1)
    action_keys = jax.random.split(jax.random.PRNGKey(seed + 1), STEPS)
    actions = jax.vmap(env.action_space(params).sample)(action_keys)
    return keys, actions


@pytest.mark.parametrize("gymnax_id", IDS)
def test_trajectories_equal_gymnax_step_with_its_autoreset(gymnax_id: str) -> None:
    env, params = gymnax.make(gymnax_id)
    func_env = from_gymnax(env, params)
    keys, actions = _keys_and_actions(env, params, seed=11)
    ours = jax.jit(_ours_with_gymnax_autoreset, static_argnums=0)(func_env, params, keys, actions)
    theirs = jax.jit(_gymnax_rollout, static_argnums=0)(env, params, keys, actions)
    for name, a, b in zip(("reset obs", "obs/reward/terminated/truncated"), ours, theirs,
                          strict=True):
        for mine, reference in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True):
            assert np.array_equal(np.asarray(mine), np.asarray(reference)), (gymnax_id, name)
    _, (_, _, terminated, truncated) = theirs
    # every rollout saw an episode end (and so a reset): termination or time limit
    assert bool(terminated.any()) or bool(truncated.any())


def test_some_rollouts_end_by_time_limit_and_some_by_termination() -> None:
    ends = {}
    for gymnax_id in ("CartPole-v1", "Pendulum-v1"):
        env, params = gymnax.make(gymnax_id)
        keys, actions = _keys_and_actions(env, params, seed=11)
        _, (_, _, terminated, truncated) = jax.jit(_gymnax_rollout, static_argnums=0)(
            env, params, keys, actions
        )
        ends[gymnax_id] = (int(terminated.sum()), int(truncated.sum()))
    assert ends["CartPole-v1"][0] > 5 and ends["CartPole-v1"][1] == 0
    assert ends["Pendulum-v1"] == (0, 3)


def test_eager_initial_and_transition_are_reset_env_and_step_env() -> None:
    env, params = gymnax.make("CartPole-v1")
    func_env = from_gymnax(env, params)
    key = jax.random.PRNGKey(5)
    obs, gymnax_state = env.reset_env(key, params)
    state = func_env.initial(key)
    assert np.array_equal(func_env.observation(state, key), obs)
    for step in range(20):
        key, sub = jax.random.split(key)
        action = step % 2
        obs, gymnax_state, reward, terminated, info = env.step_env(
            sub, gymnax_state, action, params
        )
        previous, state = state, func_env.transition(state, action, sub)
        assert np.array_equal(func_env.observation(state, sub), obs)
        assert func_env.reward(previous, action, state, sub) == reward
        assert bool(func_env.terminal(state, sub)) == bool(terminated)
        assert func_env.transition_info(previous, action, state) == {
            "discount": info["discount"]
        }


def test_reset_and_stepped_states_have_one_structure_and_dtype() -> None:
    env, params = gymnax.make("CartPole-v1")
    func_env = from_gymnax(env, params)
    key = jax.random.PRNGKey(0)
    fresh = func_env.initial(key)
    stepped = func_env.transition(fresh, 1, key)

    def layout(tree: Any) -> Any:
        return jax.tree.map(lambda x: (x.shape, x.dtype, x.weak_type), tree)

    assert str(jax.tree.structure(fresh)) == str(jax.tree.structure(stepped))
    assert layout(fresh) == layout(stepped)
    # gymnax's reset state holds a Python int step count; ours holds an int32 array
    assert isinstance(env.reset_env(key, params)[1].time, int)
    assert fresh.env_state.time.dtype == jnp.int32


def test_spaces_params_and_time_limit() -> None:
    env, params = gymnax.make("Pendulum-v1")
    func_env = from_gymnax(env, params)
    assert isinstance(func_env, FuncEnv)
    assert func_env.get_default_params() is params
    assert func_env.max_episode_steps == 200
    assert func_env.action_space == spaces.Box(-2.0, 2.0, (1,), np.float32)
    high = np.array([1.0, 1.0, 8.0], np.float32)
    assert func_env.observation_space == spaces.Box(-high, high, (3,), np.float32)
    shorter = from_gymnax(env, params.replace(max_steps_in_episode=50))
    assert shorter.max_episode_steps == 50
    cartpole, _ = gymnax.make("CartPole-v1")
    assert from_gymnax(cartpole).action_space == spaces.Discrete(2, dtype=np.int32)


def test_from_gymnax_refuses_what_is_not_a_gymnax_env() -> None:
    env, _ = gymnax.make("CartPole-v1")
    with pytest.raises(TypeError, match="looks like a gymnax wrapper"):
        from_gymnax(LogWrapper(env))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs a gymnax Environment"):
        from_gymnax("CartPole-v1")  # type: ignore[arg-type]


def test_space_conversions_both_ways() -> None:
    box = spaces.Box(np.array([-1.0, 0.0], np.float32), np.array([1.0, 5.0], np.float32))
    nested = spaces.Dict({"a": spaces.Discrete(3), "b": spaces.Tuple((box,))})
    converted = to_gymnax_space(nested)
    assert isinstance(converted, gymnax_spaces.Dict)
    back = from_gymnax_space(converted)
    assert isinstance(back, spaces.Dict)
    assert back["b"] == spaces.Tuple((box,))
    assert back["a"] == spaces.Discrete(3, dtype=np.int32)
    with pytest.raises(ValueError, match="starts at 2, but gymnax's Discrete always starts"):
        to_gymnax_space(spaces.Discrete(3, start=2))
    with pytest.raises(TypeError, match="gymnax has no space like"):
        to_gymnax_space(spaces.MultiBinary(3))


# -- protogym -> gymnax ----------------------------------------------------------------------


class Corridor(FuncEnv[jax.Array, Any, Any, jax.Array, jax.Array, None, None]):
    """A noisy walk on [0, 10): action 1 moves right, 0 left; the end is at 10."""

    observation_space = spaces.Box(0.0, 10.0, (1,), np.float32)
    action_space = spaces.Discrete(2)

    def initial(self, rng: Any, params: None = None) -> jax.Array:
        return jax.random.uniform(rng, (1,), jnp.float32, 0.0, 2.0)

    def transition(
        self, state: jax.Array, action: jax.Array, rng: Any, params: None = None
    ) -> jax.Array:
        noise = jax.random.uniform(rng, (1,), jnp.float32, -0.1, 0.1)
        return jnp.clip(state + jnp.where(action == 1, 1.0, -1.0) + noise, 0.0, 10.0)

    def observation(self, state: jax.Array, rng: Any, params: None = None) -> jax.Array:
        return state

    def reward(
        self, state: jax.Array, action: jax.Array, next_state: jax.Array, rng: Any,
        params: None = None,
    ) -> jax.Array:
        return (next_state - state)[0]

    def terminal(self, state: jax.Array, rng: Any, params: None = None) -> jax.Array:
        return state[0] >= 10.0


def test_to_gymnax_step_env_is_protogyms_pure_step() -> None:
    from protogym.functional.pure import pure_reset, pure_step

    corridor = Corridor()
    env = to_gymnax(corridor, max_steps_in_episode=30)
    params = env.default_params
    key = jax.random.PRNGKey(2)
    obs, state = env.reset_env(key, params)
    reset = pure_reset(corridor)(key)
    assert np.array_equal(obs, reset.obs) and np.array_equal(state.state, reset.state)
    step = pure_step(corridor)(key, reset.state, jnp.int32(1))
    obs, state, reward, terminated, info = env.step_env(key, state, jnp.int32(1), params)
    assert np.array_equal(obs, step.obs) and reward == step.reward
    assert bool(terminated) == bool(step.terminated) and info == step.info
    assert int(state.time) == 1


def test_to_gymnax_runs_in_gymnax_step_jit_vmap_and_its_log_wrapper() -> None:
    env = LogWrapper(to_gymnax(Corridor(), max_steps_in_episode=30))
    params = env.default_params
    num_envs, steps = 4, 80
    reset_keys = jax.random.split(jax.random.PRNGKey(0), num_envs)
    obs, state = jax.vmap(env.reset, in_axes=(0, None))(reset_keys, params)
    assert obs.shape == (num_envs, 1)
    step = jax.jit(jax.vmap(env.step, in_axes=(0, 0, 0, None)))
    key = jax.random.PRNGKey(1)
    ended = np.zeros(num_envs, int)
    for _ in range(steps):
        key, action_key, step_key = jax.random.split(key, 3)
        actions = jax.random.bernoulli(action_key, 0.8, (num_envs,)).astype(jnp.int32)
        obs, state, reward, terminated, truncated, info = step(
            jax.random.split(step_key, num_envs), state, actions, params
        )
        assert bool(((obs >= 0.0) & (obs <= 10.0)).all())
        ended += np.asarray(terminated | truncated)
    assert ended.min() >= 2  # episodes ended (mostly at the wall) and were reset
    assert info["returned_episode"].dtype == jnp.bool_
    returns = np.asarray(info["returned_episode_returns"])
    assert ((returns > 5.0) & (returns < 11.0)).all()


def test_to_gymnax_truncates_at_its_time_limit() -> None:
    env = to_gymnax(Corridor(), max_steps_in_episode=3)
    params = env.default_params
    _, state = env.reset(jax.random.PRNGKey(0), params)
    flags = []
    for number in range(7):
        _, state, _, terminated, truncated, _ = env.step(
            jax.random.PRNGKey(number), state, 0, params
        )
        flags.append((bool(terminated), bool(truncated)))
    assert flags == [(False, False), (False, False), (False, True)] * 2 + [(False, False)]


def test_to_gymnax_spaces_and_names() -> None:
    env = to_gymnax(Corridor())
    assert env.num_actions == 2 and env.name == "Corridor"
    assert isinstance(env.action_space(), gymnax_spaces.Discrete)
    box = env.observation_space(env.default_params)
    assert isinstance(box, gymnax_spaces.Box) and box.shape == (1,)
    assert env.default_params.max_steps_in_episode == np.iinfo(np.int32).max
    with pytest.raises(ValueError, match="max_steps_in_episode must be a positive int"):
        to_gymnax(Corridor(), max_steps_in_episode=0)
    with pytest.raises(TypeError, match="to_gymnax needs a protogym FuncEnv"):
        to_gymnax(object())  # type: ignore[arg-type]


@pytest.mark.parametrize("gymnax_id", ["CartPole-v1", "Pendulum-v1"])
def test_round_trip_replays_gymnax_under_protogyms_key_split(gymnax_id: str) -> None:
    """to_gymnax(from_gymnax(e)) is e, driven by the keys protogym's pure reset and step hand
    to `initial` and `transition` (the first of 2 and of 4 subkeys)."""
    env, params = gymnax.make(gymnax_id)
    round_trip = to_gymnax(from_gymnax(env, params))
    assert round_trip.default_params.max_steps_in_episode == params.max_steps_in_episode
    keys, actions = _keys_and_actions(env, params, seed=4)
    ours = jax.jit(_gymnax_rollout, static_argnums=0)(
        round_trip, round_trip.default_params, keys, actions
    )

    def reference(params: Any, keys: jax.Array, actions: jax.Array) -> Any:
        def body(state: Any, inputs: Any) -> Any:
            key, action = inputs
            key_step, key_reset = jax.random.split(key)
            obs, stepped, reward, terminated, _ = env.step_env(
                jax.random.split(key_step, 4)[0], state, action, params
            )
            truncated = env.is_truncated(stepped, params)
            obs_reset, fresh = env.reset_env(jax.random.split(key_reset, 2)[0], params)
            done = terminated | truncated
            state = jax.tree.map(lambda a, b: jnp.where(done, a, b), fresh, stepped)
            obs = jnp.where(done, obs_reset, obs)
            return state, (obs, reward, terminated, truncated)

        obs, state = env.reset_env(jax.random.split(keys[0], 2)[0], params)
        state = jax.tree.map(jnp.asarray, state)
        return obs, jax.lax.scan(body, state, (keys[1:], actions))[1]

    theirs = jax.jit(reference)(params, keys, actions)
    for mine, expected in zip(jax.tree.leaves(ours), jax.tree.leaves(theirs), strict=True):
        assert np.array_equal(np.asarray(mine), np.asarray(expected))


# -- "gymnax:" ids -----------------------------------------------------------------------------


def test_make_gymnax_id_truncates_at_gymnax_time_limit() -> None:
    import protogym

    env = protogym.make("gymnax:Pendulum-v1")
    assert env.spec is not None and env.spec.max_episode_steps == 200
    env.reset(seed=3)
    env.action_space.seed(3)
    flags = []
    for _ in range(200):
        _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        assert isinstance(reward, float) and reward <= 0.0
        flags.append((terminated, truncated))
    assert flags == [(False, False)] * 199 + [(False, True)]
    env.close()


def test_make_gymnax_cartpole_terminates_and_keeps_gymnax_reward() -> None:
    import protogym

    env = protogym.make("gymnax:CartPole-v1")
    env.reset(seed=0)
    steps, terminated, truncated = 0, False, False
    while not (terminated or truncated):
        _, reward, terminated, truncated, _ = env.step(1)  # always push right: it falls
        steps += 1
        assert reward == 1.0
    assert terminated and not truncated and 5 < steps < 30
    env.close()


def test_make_vec_gymnax_id_uses_the_functional_vector_env() -> None:
    import protogym

    envs = protogym.make_vec("gymnax:MountainCar-v0", 3, vectorization_mode="vector_entry_point")
    assert type(envs).__name__ == "FunctionalJaxVectorEnv"
    obs, _ = envs.reset(seed=1)
    assert obs.shape == (3, 2) and isinstance(obs, np.ndarray)
    for number in range(200):
        obs, rewards, terminations, truncations, infos = envs.step(np.array([0, 1, 2]))
        assert (rewards == -1.0).all() and not terminations.any()
        assert (truncations == (number == 199)).all()
    assert infos["_final_obs"].all()
    envs.close()


def test_unknown_gymnax_id_lists_close_matches() -> None:
    import protogym
    from protogym.error import UnregisteredEnv

    with pytest.raises(UnregisteredEnv, match=r"gymnax has no env 'Cartpole-v1'\. Did you "
                       r"mean 'gymnax:CartPole-v1'\?"):
        protogym.make("gymnax:Cartpole-v1")


def test_gymnax_ids_refuse_a_render_mode() -> None:
    import protogym
    from protogym.error import UnsupportedMode

    with pytest.raises(UnsupportedMode, match=r"'gymnax:CartPole-v1' cannot render "
                       r"\(render_mode='rgb_array'\)"):
        protogym.make("gymnax:CartPole-v1", render_mode="rgb_array")
    with pytest.raises(UnsupportedMode, match="cannot render"):
        protogym.make_vec("gymnax:CartPole-v1", 2, vectorization_mode="vector_entry_point",
                          render_mode="rgb_array")


def test_missing_gymnax_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "gymnax", None)
    monkeypatch.delitem(sys.modules, "protogym.interop.gymnax")
    with pytest.raises(ImportError, match=r'pip install --no-deps "gymnax==1\.0\.\*"'):
        importlib.import_module("protogym.interop.gymnax")


@pytest.mark.slow
def test_protogyms_phys2d_cartpole_runs_as_a_gymnax_env() -> None:
    """protogym's functional CartPole under gymnax's own step (with its autoreset and time
    limit), jit and vmap, matches protogym's pure step with autoreset under the same keys."""
    from protogym_functional.phys2d.cartpole import CartPoleFunctional

    from protogym.functional.pure import pure_reset, pure_step

    func_env = CartPoleFunctional()
    env = to_gymnax(func_env, max_steps_in_episode=500)
    params = env.default_params
    assert env.num_actions == 2 and isinstance(env.action_space(params), gymnax_spaces.Discrete)
    num_envs, steps = 16, 120
    reset_keys = jax.random.split(jax.random.PRNGKey(0), num_envs)
    obs, state = jax.vmap(env.reset, in_axes=(0, None))(reset_keys, params)
    step = jax.jit(jax.vmap(env.step, in_axes=(0, 0, 0, None)))
    reset_one, step_one = pure_reset(func_env), pure_step(func_env)
    key = jax.random.PRNGKey(1)
    ended = 0
    for _ in range(steps):
        key, action_key, step_key = jax.random.split(key, 3)
        actions = jax.random.randint(action_key, (num_envs,), 0, 2)
        keys = jax.random.split(step_key, num_envs)
        previous = state
        obs, state, reward, terminated, truncated, _ = step(keys, state, actions, params)
        # sub-env 0 by hand: gymnax splits (step, reset), then protogym's pure functions
        key_step, key_reset = jax.random.split(keys[0])
        first_state = jax.tree.map(lambda leaf: leaf[0], previous.state)
        expected = step_one(key_step, first_state, actions[0])
        expected_obs = reset_one(key_reset).obs if bool(expected.terminated) else expected.obs
        # compiled and batched against eager: equal up to XLA's float reassociation
        np.testing.assert_allclose(obs[0], expected_obs, rtol=1e-5, atol=1e-6)
        assert bool(terminated[0]) == bool(expected.terminated)
        ended += int(terminated.sum())
    assert ended > 5 and not bool(truncated.any())
