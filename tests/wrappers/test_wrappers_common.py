"""TimeLimit, Autoreset, OrderEnforcing and RecordEpisodeStatistics: exact behaviour."""

from __future__ import annotations

from typing import Any

import attrs
import gymnasium
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protogym.error import ResetNeeded
from protogym.registration.env_spec import EnvSpec
from protogym.wrappers import (
    Autoreset,
    OrderEnforcing,
    RecordEpisodeStatistics,
    TimeLimit,
)
from tests.wrappers.wrapper_test_envs import (
    CountingEnv,
    SubclassedCountingEnv,
    assert_same_data,
    gym_twin,
    run_actions,
)


def flags(env: Any, steps: int) -> list[tuple[bool, bool]]:
    return [tuple(env.step(0)[2:4]) for _ in range(steps)]


# TimeLimit ---------------------------------------------------------------------------------


def test_wrappers_time_limit_truncates_on_the_last_step() -> None:
    env = TimeLimit(CountingEnv(), max_episode_steps=3)
    env.reset()
    assert flags(env, 3) == [(False, False), (False, False), (False, True)]
    assert env._elapsed_steps == 3
    env.reset()
    assert env._elapsed_steps == 0
    assert flags(env, 3)[-1] == (False, True)


def test_wrappers_time_limit_keeps_termination_and_data() -> None:
    env = TimeLimit(CountingEnv(terminate_at=2), max_episode_steps=2)
    env.reset()
    env.step(0)
    obs, reward, terminated, truncated, info = env.step(1)
    np.testing.assert_array_equal(obs, [2, 2, 2])
    assert (reward, terminated, truncated, info) == (2.0, True, True, {"t": 2})


def test_wrappers_time_limit_returns_inner_result_unchanged_before_limit() -> None:
    inner = CountingEnv()
    env = TimeLimit(inner, max_episode_steps=5)
    env.reset()
    result = env.step(0)
    assert result[2:] == (False, False, {"t": 1})
    assert env.max_episode_steps == 5


@given(st.integers(1, 30), st.integers(1, 60))
def test_wrappers_time_limit_truncates_exactly_at_the_limit(limit: int, steps: int) -> None:
    env = TimeLimit(CountingEnv(), max_episode_steps=limit)
    env.reset()
    truncated = [env.step(0)[3] for _ in range(steps)]
    assert truncated == [i + 1 >= limit for i in range(steps)]


@pytest.mark.parametrize("bad", [0, -3])
def test_wrappers_time_limit_rejects_non_positive_limit(bad: int) -> None:
    with pytest.raises(ValueError, match=f"max_episode_steps must be positive, got {bad}"):
        TimeLimit(CountingEnv(), max_episode_steps=bad)


@pytest.mark.parametrize("bad", [2.5, "10", True, None])
def test_wrappers_time_limit_rejects_non_int_limit(bad: Any) -> None:
    with pytest.raises(TypeError, match="max_episode_steps must be a positive int"):
        TimeLimit(CountingEnv(), max_episode_steps=bad)


def test_wrappers_time_limit_spec_records_the_limit() -> None:
    inner = CountingEnv()
    inner.spec = EnvSpec(id="Counting-v0", max_episode_steps=100)
    env = TimeLimit(inner, max_episode_steps=7)
    assert env.spec is not None
    assert env.spec.max_episode_steps == 7
    assert env.spec.id == "Counting-v0"
    made = attrs.evolve(inner.spec, max_episode_steps=9)
    env.spec = made
    assert env.spec is made
    assert TimeLimit(CountingEnv(), 3).spec is None


def test_wrappers_time_limit_matches_gymnasium() -> None:
    actions = [0, 1] * 6
    ours = run_actions(TimeLimit(CountingEnv(terminate_at=9), 4), actions[:4])
    theirs = run_actions(gymnasium.wrappers.TimeLimit(gym_twin(CountingEnv(terminate_at=9)), 4),
                         actions[:4])
    assert_same_data(ours, theirs)


# OrderEnforcing ----------------------------------------------------------------------------


def test_wrappers_order_enforcing_step_before_reset_raises() -> None:
    env = OrderEnforcing(CountingEnv())
    with pytest.raises(ResetNeeded, match=r"Cannot call env\.step\(\) before calling env\.reset"):
        env.step(0)
    assert not env.has_reset


def test_wrappers_order_enforcing_render_before_reset_raises_unless_disabled() -> None:
    env = OrderEnforcing(CountingEnv())
    with pytest.raises(ResetNeeded, match="disable_render_order_enforcing=True"):
        env.render()
    relaxed = OrderEnforcing(CountingEnv(), disable_render_order_enforcing=True)
    assert relaxed.render().shape == (4, 6, 3)


def test_wrappers_order_enforcing_is_a_passthrough_after_reset() -> None:
    inner = CountingEnv()
    env = OrderEnforcing(inner)
    info = env.reset(seed=5)[1]
    assert env.has_reset and info == {"reset": True} and inner.reset_seeds == [5]
    reward = env.step(1)[1]
    assert reward == 1.0 and inner.actions == [1]
    # From the first step on, this wrapper's step is the inner env's own bound method.
    assert env.step == inner.step
    assert env.step(0)[1] == 2.0
    assert env.render()[0, 0, 0] == 2


def test_wrappers_order_enforcing_binds_the_inner_step_as_it_is_after_one_step() -> None:
    inner = TimeLimit(CountingEnv(), 10)
    env = OrderEnforcing(inner)
    replacement = CountingEnv().step

    def swap_after_first_step(action: int) -> Any:
        inner.__dict__["step"] = replacement
        return TimeLimit.step(inner, action)

    inner.__dict__["step"] = swap_after_first_step
    env.reset()
    assert env.step(0)[1] == 1.0
    assert env.step == replacement


def test_wrappers_order_enforcing_spec_sets_order_enforce() -> None:
    inner = CountingEnv()
    inner.spec = EnvSpec(id="Counting-v0", order_enforce=False)
    spec = OrderEnforcing(inner).spec
    assert spec is not None and spec.order_enforce is True


# Autoreset ---------------------------------------------------------------------------------


def test_wrappers_autoreset_resets_on_the_step_after_termination() -> None:
    inner = CountingEnv(terminate_at=2)
    env = Autoreset(inner)
    env.reset(seed=1)
    assert env.step(0)[1:4] == (1.0, False, False)
    obs, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, info) == (2.0, True, False, {"t": 2})
    obs, reward, terminated, truncated, info = env.step(1)
    np.testing.assert_array_equal(obs, [0, 0, 0])
    assert (reward, terminated, truncated, info) == (0.0, False, False, {"reset": True})
    assert inner.actions == [0, 0]  # the action of the reset step is ignored
    assert inner.reset_seeds == [1, None]
    assert env.step(0)[1] == 1.0


def test_wrappers_autoreset_after_truncation_and_explicit_reset_clears_flag() -> None:
    env = Autoreset(TimeLimit(CountingEnv(), 1))
    env.reset()
    assert env.step(0)[3] is True
    assert env.autoreset
    env.reset()
    assert not env.autoreset
    assert env.step(0)[1] == 1.0


def test_wrappers_autoreset_matches_gymnasium() -> None:
    actions = [0, 1, 1, 0, 1, 0, 0]
    ours = run_actions(Autoreset(CountingEnv(terminate_at=3)), actions)
    theirs = run_actions(gymnasium.wrappers.Autoreset(gym_twin(CountingEnv(terminate_at=3))),
                         actions)
    assert_same_data(ours, theirs)


# RecordEpisodeStatistics -------------------------------------------------------------------


def test_wrappers_record_episode_statistics_adds_episode_info() -> None:
    env = RecordEpisodeStatistics(CountingEnv(terminate_at=3, rewards=[0.5, 1.5, 2.0]))
    env.reset()
    assert "episode" not in env.step(0)[4]
    assert "episode" not in env.step(0)[4]
    info = env.step(0)[4]
    episode = info["episode"]
    assert episode["r"] == 4.0 and episode["l"] == 3
    assert isinstance(episode["t"], float) and episode["t"] >= 0.0
    assert list(env.return_queue) == [4.0] and list(env.length_queue) == [3]
    assert len(env.time_queue) == 1 and env.episode_count == 1
    env.reset()
    assert env.episode_returns == 0.0 and env.episode_lengths == 0


def test_wrappers_record_episode_statistics_buffer_and_key() -> None:
    env = RecordEpisodeStatistics(TimeLimit(CountingEnv(), 2), buffer_length=2, stats_key="ep")
    for _ in range(3):
        env.reset()
        env.step(0)
        info = env.step(0)[4]
        assert info["ep"]["l"] == 2 and info["ep"]["r"] == 3.0
    assert list(env.length_queue) == [2, 2] and env.episode_count == 3


def test_wrappers_record_episode_statistics_refuses_to_overwrite_info_key() -> None:
    env = RecordEpisodeStatistics(TimeLimit(CountingEnv(), 1), stats_key="t")
    env.reset()
    with pytest.raises(ValueError, match="info already has the key 't'; pass another stats_key"):
        env.step(0)


@pytest.mark.parametrize("bad", [0, -1])
def test_wrappers_record_episode_statistics_rejects_bad_buffer(bad: int) -> None:
    with pytest.raises(ValueError, match="buffer_length must be at least 1"):
        RecordEpisodeStatistics(CountingEnv(), buffer_length=bad)


def test_wrappers_record_episode_statistics_matches_gymnasium_except_time() -> None:
    actions = [0] * 7
    ours = run_actions(RecordEpisodeStatistics(CountingEnv(terminate_at=7)), actions)
    theirs = run_actions(
        gymnasium.wrappers.RecordEpisodeStatistics(gym_twin(CountingEnv(terminate_at=7))),
        actions,
    )
    for result in (ours[-1][4], theirs[-1][4]):
        result["episode"].pop("t")
    assert_same_data(ours, theirs)


def test_wrappers_common_forward_spaces_and_unwrapped() -> None:
    inner = CountingEnv()
    env = RecordEpisodeStatistics(OrderEnforcing(TimeLimit(inner, 5)))
    assert env.observation_space is inner.observation_space
    assert env.action_space is inner.action_space
    assert str(env) == "<RecordEpisodeStatistics<OrderEnforcing<TimeLimit<CountingEnv instance>>>>"
    env.close()
    assert inner.closed
    assert env.unwrapped is inner


def test_wrappers_work_the_same_around_an_explicit_env_subclass() -> None:
    from protogym.wrappers import StickyAction

    structural, subclassed = CountingEnv(), SubclassedCountingEnv()
    runs = []
    for inner in (structural, subclassed):
        env = RecordEpisodeStatistics(TimeLimit(StickyAction(inner, 0.5), 6))
        env.reset(seed=3)
        runs.append([env.step(np.int64(i % 2))[1:4] for i in range(6)])
        assert env.unwrapped is inner
    assert runs[0] == runs[1]
    assert structural.actions == subclassed.actions != [0, 1, 0, 1, 0, 1]
