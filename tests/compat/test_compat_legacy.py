"""The legacy done API: both conversions, StepCompatibility, and api="done" registration."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

import protogym
from protogym.compat import (
    LegacyEnv,
    LegacyEnvAdapter,
    convert_to_done_step_api,
    convert_to_terminated_truncated_step_api,
    step_api_compatibility,
)
from protogym.wrappers import StepCompatibility
from tests.core.core_test_envs import LegacyWalk, LegacyWithInfo, StructuralWalk

# (terminated, truncated) -> (done, info["TimeLimit.truncated"] or absent)
NEW_TO_OLD = [
    ((False, False), (False, None)),
    ((True, False), (True, False)),
    ((False, True), (True, True)),
    # The old API cannot say both: termination wins, so nobody bootstraps from a terminal state.
    ((True, True), (True, False)),
]


@pytest.mark.parametrize(("flags", "expected"), NEW_TO_OLD)
def test_new_to_old_mapping(flags: tuple[bool, bool], expected: tuple[bool, bool | None]) -> None:
    info: dict[str, Any] = {"x": 1}
    obs, reward, done, new_info = convert_to_done_step_api(("o", 1.0, *flags, info))
    assert (obs, reward, done) == ("o", 1.0, expected[0])
    assert new_info.get("TimeLimit.truncated") == expected[1]
    assert ("TimeLimit.truncated" in new_info) == (expected[1] is not None)
    assert info == {"x": 1}, "the env's own info dict must not be changed"


@pytest.mark.parametrize(
    ("done", "flag", "expected"),
    [
        (False, None, (False, False)),
        (True, None, (True, False)),
        (True, False, (True, False)),
        (True, True, (False, True)),
        # A stale flag on a step that did not end means nothing.
        (False, True, (False, False)),
    ],
)
def test_old_to_new_mapping(done: bool, flag: bool | None, expected: tuple[bool, bool]) -> None:
    info: dict[str, Any] = {"x": 1} if flag is None else {"x": 1, "TimeLimit.truncated": flag}
    obs, reward, terminated, truncated, new_info = convert_to_terminated_truncated_step_api(
        ("o", 2.0, done, info)
    )
    assert (terminated, truncated) == expected
    assert new_info == {"x": 1}
    assert "TimeLimit.truncated" in info or flag is None


def test_round_trip_old_new_old_keeps_every_case() -> None:
    for flags, _ in NEW_TO_OLD:
        old = convert_to_done_step_api((0, 0.0, *flags, {}))
        _, _, terminated, truncated, _ = convert_to_terminated_truncated_step_api(old)
        # both-at-once comes back as terminated: the documented loss of the old API
        assert (terminated, truncated) == ((True, False) if flags == (True, True) else flags)


def test_vector_results_convert_elementwise() -> None:
    terminated = np.array([False, True, False, True])
    truncated = np.array([False, False, True, True])
    obs, _, done, info = convert_to_done_step_api((0, 0, terminated, truncated, {}))
    assert done.tolist() == [False, True, True, True]
    assert info["TimeLimit.truncated"].tolist() == [False, False, True, False]
    assert info.keys() == {"TimeLimit.truncated"}, "no `_` mask: Gymnasium's layout"
    back = convert_to_terminated_truncated_step_api((obs, 0, done, info))
    assert back[2].tolist() == [False, True, False, True]
    assert back[3].tolist() == [False, False, True, False]
    assert back[4] == {}


def test_step_api_compatibility_chooses_the_output_api() -> None:
    assert len(step_api_compatibility((0, 0.0, False, {}), output_truncation_bool=True)) == 5
    assert len(step_api_compatibility((0, 0.0, False, False, {}), False)) == 4


def test_malformed_step_results_are_explained() -> None:
    with pytest.raises(ValueError, match="has 4 \\(legacy\\) or 5 values, got 3"):
        convert_to_terminated_truncated_step_api((0, 0.0, False))
    with pytest.raises(TypeError, match="info of a legacy step must be a dict, got list"):
        convert_to_terminated_truncated_step_api((0, 0.0, False, []))


def test_step_compatibility_legacy_view() -> None:
    walk: protogym.Env[NDArray[np.int64], int | np.integer[Any]] = StructuralWalk(size=2)
    env = protogym.wrappers.TimeLimit(walk, max_episode_steps=3)
    legacy = StepCompatibility(env, return_two_dones=False)
    assert isinstance(legacy, LegacyEnv)
    assert legacy.reset().tolist() == [0]
    obs, info = legacy.reset(return_info=True)
    assert (obs.tolist(), info) == ([0], {"start": 0})
    assert legacy.step(0) == (legacy.step(0)[0], 0.0, False, {})
    # third step: the time limit truncates before the walk reaches the end
    obs, reward, done, info = legacy.step(1)
    assert (obs.tolist(), done, info) == ([1], True, {"TimeLimit.truncated": True})
    legacy.reset()
    legacy.step(1)
    obs, reward, done, info = legacy.step(1)
    assert (obs.tolist(), reward, done, info) == ([2], 1.0, True, {"TimeLimit.truncated": False})
    assert repr(legacy) == "<StepCompatibility<TimeLimit<StructuralWalk instance>>>"


def test_step_compatibility_default_passes_the_five_tuple_through() -> None:
    env: protogym.Env[NDArray[np.int64], int | np.integer[Any]] = StructuralWalk()
    modern = StepCompatibility(env)
    assert modern.reset() == (modern.reset()[0], {"start": 0})
    assert len(modern.step(1)) == 5
    with pytest.raises(TypeError, match=r"return_info=\.\.\.\) belongs to the legacy API"):
        modern.reset(return_info=True)  # type: ignore[call-arg]


def test_step_compatibility_rejects_bad_arguments() -> None:
    with pytest.raises(TypeError, match="return_two_dones must be a bool, got 'no'"):
        StepCompatibility(StructuralWalk(), return_two_dones="no")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="needs an environment, got int"):
        StepCompatibility(3, return_two_dones=False)  # type: ignore[call-overload]


@pytest.fixture
def legacy_ids() -> Iterator[None]:
    protogym.register(
        "compat/LegacyWalk-v0", entry_point=LegacyWalk, api="done", max_episode_steps=10
    )
    protogym.register("compat/LegacyInfo-v0", entry_point=LegacyWithInfo, api="done")
    protogym.register("compat/Walk-v0", entry_point=StructuralWalk, max_episode_steps=2)
    yield
    for env_id in [i for i in protogym.registry if i.startswith("compat/")]:
        protogym.registry.unregister(env_id)


@pytest.mark.usefixtures("legacy_ids")
def test_make_with_return_two_dones_false_gives_the_seeds_loop() -> None:
    env = protogym.make("compat/Walk-v0", return_two_dones=False)
    observation, info = env.reset(seed=42, return_info=True)
    dones = []
    for _ in range(4):
        observation, reward, done, info = env.step(env.action_space.sample())
        dones.append((done, info.get("TimeLimit.truncated")))
        if done:
            observation, info = env.reset(return_info=True)
    assert all(d == (False, None) or d[0] for d in dones)
    assert (True, True) in dones  # max_episode_steps=2 truncates a walk of 5


@pytest.mark.usefixtures("legacy_ids")
def test_old_api_env_is_converted_to_the_new_api() -> None:
    env = protogym.make("compat/LegacyWalk-v0")
    assert repr(env) == (
        "<TimeLimit<OrderEnforcing<PassiveEnvChecker<LegacyEnvAdapter<LegacyWalk>>>>>"
    )
    obs, info = env.reset(seed=5)
    assert (obs, info) == (0, {})
    # The adapter has a wrapper's members, so `unwrapped` reaches the old env itself.
    assert isinstance(env.unwrapped, LegacyWalk)
    assert env.unwrapped.seeded == 5
    results = [env.step(1) for _ in range(3)]
    assert results[-1] == (3, 1.0, True, False, {"position": 3})


@pytest.mark.usefixtures("legacy_ids")
def test_old_api_time_limit_flag_becomes_truncated() -> None:
    env = protogym.make("compat/LegacyInfo-v0")
    obs, info = env.reset(seed=1)
    assert (obs, info) == (0, {"fresh": True})
    env.step(1)
    assert env.step(1) == (2, 1.0, False, True, {"position": 2})


@pytest.mark.usefixtures("legacy_ids")
def test_old_api_env_through_both_conversions() -> None:
    env = protogym.make("compat/LegacyInfo-v0", return_two_dones=False)
    env.reset()
    env.step(1)
    assert env.step(1) == (2, 1.0, True, {"position": 2, "TimeLimit.truncated": True})


def test_adapter_refuses_a_new_api_env_registered_as_done() -> None:
    adapter: LegacyEnvAdapter[Any, Any] = LegacyEnvAdapter(StructuralWalk())
    adapter.reset()
    with pytest.raises(ValueError, match="returned 5 values, so it already uses the"):
        adapter.step(1)


def test_adapter_renders_through_the_old_mode_argument() -> None:
    adapter: LegacyEnvAdapter[Any, Any] = LegacyEnvAdapter(LegacyWalk(), render_mode="ansi")
    adapter.reset()
    assert adapter.render() == "ansi:0"


def test_adapter_reports_options_an_old_env_cannot_take() -> None:
    adapter: LegacyEnvAdapter[Any, Any] = LegacyEnvAdapter(LegacyWalk())
    with pytest.raises(TypeError, match=r"LegacyWalk\.reset takes no options"):
        adapter.reset(options={"start": 1})
