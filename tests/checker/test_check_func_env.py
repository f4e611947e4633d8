"""check_func_env: a correct functional env passes every rule, and each deliberately broken
env breaks exactly its rule (hints aside)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")
pytestmark = pytest.mark.jax

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from protogym import check_func_env, spaces  # noqa: E402
from protogym.checker import ContractError, ContractTypeError, Severity  # noqa: E402
from protogym.functional import FuncEnv  # noqa: E402

STEPS = 30


class Walk(FuncEnv[Any, Any, Any, Any, Any, None, None]):
    """A noisy walk on [0, 10] in jax: action 1 moves right, 0 left; the end is at 10."""

    observation_space = spaces.Box(0.0, 10.0, (1,), np.float32)
    action_space = spaces.Discrete(2)

    def initial(self, rng: Any, params: None = None) -> Any:
        return jax.random.uniform(rng, (1,), jnp.float32, 0.0, 2.0)

    def transition(self, state: Any, action: Any, rng: Any, params: None = None) -> Any:
        noise = jax.random.uniform(rng, (1,), jnp.float32, -0.1, 0.1)
        return jnp.clip(state + jnp.where(action == 1, 1.5, -0.5) + noise, 0.0, 10.0)

    def observation(self, state: Any, rng: Any, params: None = None) -> Any:
        return state

    def reward(self, state: Any, action: Any, next_state: Any, rng: Any,
               params: None = None) -> Any:
        return (next_state - state)[0]

    def terminal(self, state: Any, rng: Any, params: None = None) -> Any:
        return state[0] >= 10.0


def _check(env: Any, **kwargs: Any) -> Any:
    try:
        return check_func_env(env, num_steps=STEPS, warn=False, **kwargs)
    except ContractError as error:
        return error.report


def _not_hints(report: Any) -> list[str]:
    return list(dict.fromkeys(r.id for r in report.results if r.severity is not Severity.HINT))


def test_a_correct_jax_env_has_no_findings() -> None:
    report = check_func_env(Walk(), num_steps=STEPS)
    assert report.results == [] and report.ok


def test_not_a_func_env_is_pg180() -> None:
    class Half:
        observation_space = Walk.observation_space
        action_space = Walk.action_space

        def initial(self, rng: Any) -> Any:
            return 0

    with pytest.raises(ContractTypeError, match=r"PG180 not-a-func-env: Half lacks transition, "
                                                r"observation, reward, terminal"):
        check_func_env(Half())


def test_a_function_that_raises_is_pg181() -> None:
    class RaisingReward(Walk):
        def reward(self, state: Any, action: Any, next_state: Any, rng: Any,
                   params: None = None) -> Any:
            raise KeyError("no reward table")

    report = _check(RaisingReward())
    assert _not_hints(report) == ["PG181"]
    assert "reward() raised KeyError: 'no reward table'" in str(report)


def test_an_observation_outside_the_space_is_pg182() -> None:
    class Scaled(Walk):
        def observation(self, state: Any, rng: Any, params: None = None) -> Any:
            return state * 100.0

    report = _check(Scaled())
    assert _not_hints(report) == ["PG182"]


def test_a_batched_reward_or_float_terminal_is_pg183() -> None:
    class VectorReward(Walk):
        def reward(self, state: Any, action: Any, next_state: Any, rng: Any,
                   params: None = None) -> Any:
            return next_state - state

        def terminal(self, state: Any, rng: Any, params: None = None) -> Any:
            return (state[0] >= 10.0).astype(jnp.float32)

    report = _check(VectorReward())
    assert _not_hints(report) == ["PG183"]
    messages = [r.message for r in report.results if r.id == "PG183"]
    assert any("reward()" in m and "not a real scalar" in m for m in messages)
    assert any("terminal()" in m and "not a bool scalar" in m for m in messages)


class NumpyWalk(FuncEnv[Any, Any, Any, Any, Any, None, None]):
    """`Walk` in numpy, its random source a `numpy.random.Generator`."""

    observation_space = spaces.Box(0.0, 10.0, (1,), np.float32)
    action_space = spaces.Discrete(2)

    def initial(self, rng: Any, params: None = None) -> Any:
        return rng.uniform(0.0, 2.0, (1,)).astype(np.float32)

    def transition(self, state: Any, action: Any, rng: Any, params: None = None) -> Any:
        step = 1.5 if action == 1 else -0.5
        noise = rng.uniform(-0.1, 0.1, (1,)).astype(np.float32)
        return np.clip(state + np.float32(step) + noise, 0.0, 10.0).astype(np.float32)

    def observation(self, state: Any, rng: Any, params: None = None) -> Any:
        return state

    def reward(self, state: Any, action: Any, next_state: Any, rng: Any,
               params: None = None) -> Any:
        return np.float32((next_state - state)[0])

    def terminal(self, state: Any, rng: Any, params: None = None) -> Any:
        return np.bool_(state[0] >= 10.0)


def test_a_numpy_env_passes_and_says_the_jax_rules_were_skipped() -> None:
    report = check_func_env(NumpyWalk(), num_steps=STEPS)
    assert report.ids == ["PG380"]
    assert "PG185 (traced control flow), PG186 (jit) and PG187 (vmap) were not checked" in str(
        report
    )


def test_randomness_outside_the_rng_is_pg184() -> None:
    class GlobalRandom(NumpyWalk):
        def initial(self, rng: Any, params: None = None) -> Any:
            return np.random.uniform(0.0, 2.0, (1,)).astype(np.float32)

    report = _check(GlobalRandom())
    assert _not_hints(report) == ["PG184"]


def test_python_branching_on_a_traced_value_is_pg185_naming_the_function() -> None:
    class Branching(Walk):
        def terminal(self, state: Any, rng: Any, params: None = None) -> Any:
            if state[0] >= 10.0:
                return jnp.bool_(True)
            return jnp.bool_(False)

    report = _check(Branching())
    assert _not_hints(report) == ["PG185"]
    (finding,) = [r for r in report.results if r.id == "PG185"]
    assert finding.message.startswith(
        "terminal() branches in Python on a traced value under jax.jit "
        "(TracerBoolConversionError"
    )


def test_a_function_that_behaves_otherwise_when_traced_is_pg186() -> None:
    class TracedDiffers(Walk):
        def reward(self, state: Any, action: Any, next_state: Any, rng: Any,
                   params: None = None) -> Any:
            bonus = 1.0 if "Jaxpr" in type(state).__name__ else 0.0  # traced by jit
            return (next_state - state)[0] + bonus

    report = _check(TracedDiffers())
    assert _not_hints(report) == ["PG186"]
    assert "jax.jit(reward) gave" in str(report)


def test_a_callback_that_is_not_batch_aware_is_pg187() -> None:
    class CallbackReward(Walk):
        def reward(self, state: Any, action: Any, next_state: Any, rng: Any,
                   params: None = None) -> Any:
            def host_sum(delta: np.ndarray) -> np.ndarray:
                # one sum over everything it is given: a whole batch under vmap
                return np.full(delta.shape[:-1], delta.sum(), np.float32)

            result = jax.eval_shape(lambda: jnp.float32(0.0))  # a scalar float32
            return jax.pure_callback(host_sum, result, next_state - state,
                                     vmap_method="expand_dims")

    report = _check(CallbackReward())
    assert _not_hints(report) == ["PG187"]
    assert "jax.vmap(reward) over 3 copies differs" in str(report)


def test_a_state_that_changes_structure_is_pg188() -> None:
    class GrowingState(Walk):
        def initial(self, rng: Any, params: None = None) -> Any:
            return {"pos": super().initial(rng)}

        def transition(self, state: Any, action: Any, rng: Any, params: None = None) -> Any:
            pos = super().transition(state["pos"], action, rng)
            return {"pos": pos, "moved": pos != state["pos"]}

        def observation(self, state: Any, rng: Any, params: None = None) -> Any:
            return state["pos"]

        def reward(self, state: Any, action: Any, next_state: Any, rng: Any,
                   params: None = None) -> Any:
            return (next_state["pos"] - state["pos"])[0]

        def terminal(self, state: Any, rng: Any, params: None = None) -> Any:
            return state["pos"][0] >= 10.0

    report = _check(GrowingState())
    assert _not_hints(report) == ["PG188"]
    assert "through protogym's time limit and same-step autoreset raised" in str(report)


def test_a_dtype_that_changes_is_pg188() -> None:
    class IntegerStart(Walk):
        def initial(self, rng: Any, params: None = None) -> Any:
            return jax.random.randint(rng, (1,), 0, 2)

        def transition(self, state: Any, action: Any, rng: Any, params: None = None) -> Any:
            return super().transition(state.astype(jnp.float32), action, rng)

    report = _check(IntegerStart())
    assert "PG188" in _not_hints(report)
    assert "initial() gave" in str(report)


def test_an_env_that_ignores_its_keys_gets_hint_pg381() -> None:
    class Deterministic(Walk):
        def initial(self, rng: Any, params: None = None) -> Any:
            return jnp.ones((1,), jnp.float32)

        def transition(self, state: Any, action: Any, rng: Any, params: None = None) -> Any:
            return jnp.clip(state + jnp.where(action == 1, 1.5, -0.5), 0.0, 10.0)

    report = check_func_env(Deterministic(), num_steps=STEPS)
    assert report.ids == ["PG381"] and report.ok


def test_params_reach_every_function() -> None:
    class Scaled(Walk):
        def get_default_params(self, **kwargs: Any) -> Any:
            return jnp.float32(1.0)

        def transition(self, state: Any, action: Any, rng: Any, params: Any = None) -> Any:
            assert params is not None
            return super().transition(state, action, rng) * params

    assert check_func_env(Scaled(), jnp.float32(1.0), num_steps=STEPS).results == []
    report = _check(Scaled(), params=jnp.float32(50.0))
    assert _not_hints(report) == ["PG182"]


def test_bad_arguments_say_what_to_pass() -> None:
    with pytest.raises(ValueError, match="num_steps must be a positive int, got 0"):
        check_func_env(Walk(), num_steps=0)
    with pytest.raises(ValueError, match="backend must be 'jax', 'numpy' or None"):
        check_func_env(Walk(), backend="torch")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown rule id"):
        check_func_env(Walk(), skip=("PG999",))


def test_skip_silences_a_rule_into_the_report() -> None:
    class Scaled(Walk):
        def observation(self, state: Any, rng: Any, params: None = None) -> Any:
            return state * 100.0

    report = check_func_env(Scaled(), num_steps=STEPS, skip=("PG182",))
    assert report.ok and {r.id for r in report.silenced} == {"PG182"}


@pytest.mark.slow
def test_gymnax_cartpole_through_from_gymnax_has_no_errors() -> None:
    import gymnax

    from protogym.interop.gymnax import from_gymnax

    env, params = gymnax.make("CartPole-v1")
    report = check_func_env(from_gymnax(env, params), num_steps=STEPS, warn=False)
    assert _not_hints(report) == []


def test_check_env_compares_the_jax_arrays_of_a_functional_env() -> None:
    """check_env's reproducibility rules read jax observations as arrays (they were never
    equal before, so every FunctionalJaxEnv broke PG130)."""
    from protogym.checker import check_env
    from protogym.envs.functional_jax_env import FunctionalJaxEnv

    env = FunctionalJaxEnv(Walk(), metadata={"render_modes": []})
    report = check_env(env, warn=False)
    assert report.errors == []
    assert {r.id for r in report.warnings} == {"PG201"}  # jax arrays, not numpy ones
