"""protogym envs as dm_env environments, checked by dm_env's own test mixin, and back."""

from __future__ import annotations

import re
import sys
import unittest
from collections.abc import Iterator
from typing import Any

import dm_env
import numpy as np
import pytest
from absl.testing import absltest
from dm_env import specs, test_utils

import protogym
from protogym import spaces
from protogym.interop.dm_env import (
    DmEnv,
    from_dm_env,
    space_of_spec,
    spec_of_space,
    to_dm_env,
)
from protogym.wrappers import TimeLimit
from tests.interop.interop_ids import first_party_ids, quiet_make


def _mixin_case(env_id: str) -> type[unittest.TestCase]:
    """dm_env's EnvironmentTestMixin over `to_dm_env(make(env_id))`, with random actions
    long enough to end episodes, so the end-of-episode contract is checked too."""

    class Case(test_utils.EnvironmentTestMixin, absltest.TestCase):
        def make_object_under_test(self) -> DmEnv:
            return to_dm_env(quiet_make(env_id), seed=0)

        def make_action_sequence(self) -> Iterator[Any]:
            space = quiet_make(env_id).action_space
            space.seed(1)
            for _ in range(300):
                yield space.sample()

    Case.__name__ = Case.__qualname__ = "TestDmEnvMixin_" + re.sub(r"\W", "_", env_id)
    return Case


for _env_id in first_party_ids():
    _case = _mixin_case(_env_id)
    setattr(sys.modules[__name__], _case.__name__, _case)


def test_the_mixin_runs_for_every_first_party_id() -> None:
    cases = [name for name in globals() if name.startswith("TestDmEnvMixin_")]
    assert len(cases) == len(first_party_ids()) >= 15


def test_terminated_ends_with_discount_0_and_truncated_with_discount_1() -> None:
    falls = to_dm_env(protogym.make("CartPole-v1"), seed=0)
    step = falls.reset()
    assert step.step_type is dm_env.StepType.FIRST and step.reward is None
    while not step.last():
        step = falls.step(np.int64(1))
        assert step.discount == (0.0 if step.last() else 1.0)
    limited = to_dm_env(protogym.make("CartPole-v1", max_episode_steps=3), seed=0)
    limited.reset()
    steps = [limited.step(i % 2) for i in range(3)]
    assert [s.step_type for s in steps] == [dm_env.StepType.MID] * 2 + [dm_env.StepType.LAST]
    assert steps[-1].discount == 1.0
    assert limited.step(0).step_type is dm_env.StepType.FIRST


def test_the_round_trip_keeps_the_trajectory_and_the_end_kind() -> None:
    direct = protogym.make("CartPole-v1", max_episode_steps=40)
    back = TimeLimit(from_dm_env(to_dm_env(protogym.make("CartPole-v1"))), 40)
    direct.action_space.seed(5)
    actions = [direct.action_space.sample() for _ in range(200)]
    for seed in (3, 4):
        a, _ = direct.reset(seed=seed)
        b, _ = back.reset(seed=seed)
        np.testing.assert_array_equal(a, b)
        for action in actions:
            ra, rb = direct.step(action), back.step(action)
            np.testing.assert_array_equal(ra[0], rb[0])
            assert ra[1:4] == rb[1:4]
            if ra[2] or ra[3]:
                break


def test_from_dm_env_reads_last_with_a_positive_discount_as_truncation() -> None:
    inner = to_dm_env(protogym.make("CartPole-v1", max_episode_steps=2))
    env = from_dm_env(inner)
    env.reset(seed=0)
    assert env.step(0)[2:4] == (False, False)
    assert env.step(0)[2:4] == (False, True)
    protogym.check_env(env)


def test_specs_and_spaces_map_both_ways() -> None:
    box = spaces.Box(-1.0, 2.0, (3,), np.float32)
    spec = spec_of_space(box)
    assert isinstance(spec, specs.BoundedArray) and spec.shape == (3,)
    assert space_of_spec(spec) == box
    assert isinstance(spec_of_space(spaces.Discrete(4)), specs.DiscreteArray)
    assert space_of_spec(spec_of_space(spaces.Discrete(4))) == spaces.Discrete(4)
    shifted = spec_of_space(spaces.Discrete(3, start=2))
    assert (int(shifted.minimum), int(shifted.maximum)) == (2, 4)
    nested = spec_of_space(spaces.Dict(a=spaces.MultiBinary(2), b=spaces.MultiDiscrete([3, 4])))
    assert set(nested) == {"a", "b"}
    unbounded = spaces.Box(-np.inf, np.inf, (2,), np.float64)
    assert space_of_spec(specs.Array((2,), np.float64)) == unbounded
    assert space_of_spec((specs.DiscreteArray(2),)) == spaces.Tuple([spaces.Discrete(2)])


def test_bad_inputs_are_type_errors_that_name_them() -> None:
    with pytest.raises(TypeError, match=r"dm_env has no spec for Text.*\(Text\)"):
        spec_of_space(spaces.Text(5))
    with pytest.raises(TypeError, match=r"to_dm_env needs a protogym env, got 1 \(int\)"):
        to_dm_env(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"from_dm_env needs a dm_env.Environment"):
        from_dm_env(protogym.make("CartPole-v1"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="is not a dm_env spec"):
        space_of_spec("spec")


def test_an_unseedable_dm_env_says_how_to_seed_it() -> None:
    class Plain(dm_env.Environment):
        def reset(self) -> dm_env.TimeStep:
            return dm_env.restart(np.zeros(1, np.float32))

        def step(self, action: Any) -> dm_env.TimeStep:
            return dm_env.termination(1.0, np.zeros(1, np.float32))

        def observation_spec(self) -> Any:
            return specs.Array((1,), np.float32)

        def action_spec(self) -> Any:
            return specs.DiscreteArray(2)

    env = from_dm_env(Plain())
    assert env.reset()[0].shape == (1,)
    with pytest.raises(ValueError, match=r"no seed; pass from_dm_env\(env, seeder=\.\.\.\)"):
        env.reset(seed=1)
    seeds: list[int] = []
    from_dm_env(Plain(), seeder=seeds.append).reset(seed=9)
    assert seeds == [9]
