"""The conformance suite checks functional envs with check_func_env: ids whose env adapts a
FuncEnv, and bare FuncEnv factories through FuncEnvConformance, in an author's own pytest run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import protogym

pytest.importorskip("jax")
pytestmark = pytest.mark.jax
pytest_plugins = ("pytester",)

ENVS = '''
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import protogym
from protogym import spaces
from protogym.envs.functional_jax_env import FunctionalJaxEnv
from protogym.functional import FuncEnv


class Walk(FuncEnv):
    observation_space = spaces.Box(0.0, 10.0, (1,), np.float32)
    action_space = spaces.Discrete(2)

    def initial(self, rng: Any, params: Any = None) -> Any:
        return jax.random.uniform(rng, (1,), jnp.float32, 0.0, 2.0)

    def transition(self, state: Any, action: Any, rng: Any, params: Any = None) -> Any:
        noise = jax.random.uniform(rng, (1,), jnp.float32, -0.1, 0.1)
        return jnp.clip(state + jnp.where(action == 1, 1.5, -0.5) + noise, 0.0, 10.0)

    def observation(self, state: Any, rng: Any, params: Any = None) -> Any:
        return state

    def reward(self, state: Any, action: Any, next_state: Any, rng: Any,
               params: Any = None) -> Any:
        return (next_state - state)[0]

    def terminal(self, state: Any, rng: Any, params: Any = None) -> Any:
        return state[0] >= 10.0


class Branching(Walk):
    def terminal(self, state: Any, rng: Any, params: Any = None) -> Any:
        return jnp.bool_(True) if state[0] >= 10.0 else jnp.bool_(False)


def walk_env(render_mode: Any = None) -> Any:
    return FunctionalJaxEnv(Walk(), metadata={"render_modes": []}, render_mode=render_mode)


def branching_env(render_mode: Any = None) -> Any:
    return FunctionalJaxEnv(Branching(), metadata={"render_modes": []},
                            render_mode=render_mode)


protogym.register("suite/FuncWalk-v0", walk_env, max_episode_steps=40,
                  disable_env_checker=True)
protogym.register("suite/FuncBranching-v0", branching_env, max_episode_steps=40,
                  disable_env_checker=True)
'''


def test_func_env_conformance_passes_a_correct_func_env_and_names_the_broken_rule(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(envs_under_test=ENVS)
    pytester.makepyfile(test_author='''
from envs_under_test import Branching, Walk
from protogym.testing import FuncEnvConformance


class TestWalk(FuncEnvConformance):
    max_steps = 20

    def make_func_env(self):
        return Walk()


class TestBranching(FuncEnvConformance):
    max_steps = 20

    def make_func_env(self):
        return Branching()
''')
    result = pytester.runpytest("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*ConformanceError: [[]PG185 func-traced-control-flow[]] TestBranching: PG185 "
        "func-traced-control-flow: terminal() branches in Python on a traced value under "
        "jax.jit (TracerBoolConversionError*",
        "FAILED test_author.py::TestBranching::test_func_env*",
    ])


@pytest.fixture
def registered_ids() -> Iterator[None]:
    """The ids ENVS registers in this process, unregistered afterwards."""
    yield
    for env_id in ("suite/FuncWalk-v0", "suite/FuncBranching-v0"):
        if env_id in protogym.registry:
            protogym.registry.unregister(env_id)


def test_conformance_tests_run_check_func_env_on_functional_ids(
    pytester: pytest.Pytester, registered_ids: None
) -> None:
    pytester.makepyfile(envs_under_test=ENVS)
    pytester.makepyfile(test_ids='''
import envs_under_test  # registers the ids
from protogym.testing import conformance_tests

test_conformance = conformance_tests(
    ids=["suite/FuncWalk-v0", "suite/FuncBranching-v0", "FrozenLake-v1"], checks=["func-env"]
)
''')
    result = pytester.runpytest("-p", "no:randomly", "-p", "no:cacheprovider",
                                "--protogym-max-steps", "20")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([
        "*ConformanceError: [[]PG185 func-traced-control-flow[]] suite/FuncBranching-v0: "
        "*terminal() branches*",
        "FAILED test_ids.py::test_conformance[[]suite/FuncBranching-v0-func-env[]]*",
    ])


def test_env_conformance_has_the_func_env_check() -> None:
    from protogym.testing import CHECKS, EnvConformance

    assert "func-env" in CHECKS
    assert callable(EnvConformance.test_func_env)


def test_a_func_env_conformance_without_a_factory_says_what_to_override() -> None:
    from protogym.testing import FuncEnvConformance

    class TestNothing(FuncEnvConformance):
        pass

    with pytest.raises(NotImplementedError, match="TestNothing needs make_func_env"):
        TestNothing().test_func_env()
