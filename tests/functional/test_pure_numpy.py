"""Pure reset/step and the functional wrappers on a numpy FuncEnv (no jax anywhere)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from protogym.functional.pure import Reset, Step, pure
from protogym.functional.wrappers import (
    AutoresetState,
    TimeLimitState,
    autoreset,
    partial_reset,
    time_limit,
    vectorize,
)
from tests.functional.envs import NumpyWalk, WalkParams, WalkState


def test_pure_reset_and_step_draw_in_the_documented_order() -> None:
    env = pure(NumpyWalk())
    start = env.reset(np.random.default_rng(7))
    replay = np.random.default_rng(7)
    position = np.float32(replay.uniform(-0.5, 0.5))  # initial
    assert isinstance(start, Reset)
    assert start.state == WalkState(position, 0)
    np.testing.assert_array_equal(start.obs, np.array([position, replay.uniform()], np.float32))
    assert start.info == {"start": position}

    generator = np.random.default_rng(8)
    replay = np.random.default_rng(8)
    out = env.step(generator, start.state, np.int64(1), WalkParams(step_size=0.25))
    moved = np.float32(position + (0.25 + replay.normal() * 0.01))  # transition
    assert isinstance(out, Step)
    assert out.state == WalkState(moved, 1)
    np.testing.assert_array_equal(out.obs, np.array([moved, replay.uniform()], np.float32))
    assert out.reward == float(moved - position)
    assert out.terminated is False and not out.truncated and out.truncated.dtype == np.bool_
    assert out.info == {"moves": 1}


def test_params_reach_every_function() -> None:
    env = pure(NumpyWalk())
    generator = np.random.default_rng(0)
    state = WalkState(np.float32(0.0), np.int32(0))
    out = env.step(generator, state, np.int64(0), WalkParams(step_size=0.5, bound=0.4))
    assert out.terminated is True
    assert env.step(generator, state, np.int64(0)).terminated is False


def test_time_limit_counts_steps_in_the_state_and_truncates_on_the_last() -> None:
    env = time_limit(pure(NumpyWalk()), 3)
    generator = np.random.default_rng(0)
    state = env.reset(generator).state
    assert isinstance(state, TimeLimitState) and state.elapsed == 0
    truncations = []
    for action in (1, 0, 1):
        out = env.step(generator, state, np.int64(action))
        state = out.state
        truncations.append(bool(out.truncated))
    assert truncations == [False, False, True]
    assert state.elapsed == 3 and state.elapsed.dtype == np.int32


@pytest.mark.parametrize(
    ("steps", "error", "message"),
    [(0, ValueError, "at least 1, got 0"), (2.5, TypeError, "must be an int, got 2.5"),
     (True, TypeError, "must be an int, got True")],
)
def test_time_limit_rejects_bad_limits(steps: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        time_limit(pure(NumpyWalk()), steps)  # type: ignore[arg-type]


def test_time_limit_goes_inside_vectorize() -> None:
    with pytest.raises(ValueError, match="apply time_limit before vectorize"):
        time_limit(vectorize(pure(NumpyWalk()), 2), 5)


@pytest.mark.parametrize("count", [0, -1, 2.0, True])
def test_vectorize_rejects_bad_counts(count: object) -> None:
    with pytest.raises(ValueError, match="num_envs must be a positive int"):
        vectorize(pure(NumpyWalk()), count)  # type: ignore[arg-type]


def test_autoreset_rejects_unknown_modes() -> None:
    with pytest.raises(ValueError, match="autoreset_mode must be an AutoresetMode or one of"):
        autoreset(pure(NumpyWalk()), "every_step")


def run(mode: str, actions: list[int]) -> list[Step]:  # type: ignore[type-arg]
    """A single walk with a 3-step limit under `mode`, from seed 0."""
    env = autoreset(time_limit(pure(NumpyWalk()), 3), mode)
    generator = np.random.default_rng(0)
    state = env.reset(generator).state
    steps = []
    for action in actions:
        out = env.step(generator, state, np.int64(action))
        state = out.state
        steps.append(out)
    return steps


def test_next_step_autoreset_resets_on_the_step_after_the_end() -> None:
    steps = run("next_step", [1, 1, 1, 1, 0])
    ends = [(bool(s.terminated), bool(s.truncated)) for s in steps]
    assert ends == [(False, False), (False, False), (True, True), (False, False), (False, False)]
    reset_step = steps[3]
    assert reset_step.reward == 0.0
    assert isinstance(reset_step.state, AutoresetState)
    assert reset_step.state.inner.elapsed == 0  # a fresh episode, its count restarted
    assert reset_step.state.inner.inner.moves == 0
    assert reset_step.obs[0] == reset_step.state.inner.inner.position
    assert reset_step.info["start"] == reset_step.state.inner.inner.position
    assert steps[4].state.inner.elapsed == 1


def test_same_step_autoreset_resets_in_the_ending_step_and_keeps_the_final_obs() -> None:
    steps = run("same_step", [1, 1, 1, 0])
    ending = steps[2]
    assert ending.terminated and ending.truncated
    assert ending.state.inner.elapsed == 0 and ending.state.inner.inner.moves == 0
    assert ending.obs[0] == ending.state.inner.inner.position
    assert ending.info["final_obs"][0] > 1.5  # the last observation, beyond the bound
    assert ending.info["final_info"] == {"moves": 3}
    assert ending.reward > 0  # the reward of the ending step itself
    assert steps[3].state.inner.elapsed == 1
    assert steps[0].info["final_obs"] is steps[0].obs  # always there, same structure


def test_disabled_autoreset_never_resets() -> None:
    steps = run("disabled", [1, 1, 1, 1])
    assert [int(s.state.inner.elapsed) for s in steps] == [1, 2, 3, 4]
    assert steps[3].state.done


def test_vectorized_same_step_masks_infos_per_copy() -> None:
    env = autoreset(vectorize(pure(NumpyWalk()), 3), "same_step")
    generator = np.random.default_rng(1)
    start = env.reset(generator)
    assert start.state.done.tolist() == [False] * 3
    np.testing.assert_array_equal(start.info["_start"], [True, True, True])
    state = WalkState(np.array([1.4, 0.0, -1.4], np.float32), np.array([5, 0, 5], np.int32))
    actions: Any = np.array([1, 1, 0])
    out = env.step(generator, AutoresetState(state, start.state.done), actions)
    assert np.asarray(out.terminated).tolist() == [True, False, True]
    assert out.state.inner.moves.tolist() == [0, 1, 0]
    assert out.info["_moves"].tolist() == [False, True, False]
    assert out.info["_start"].tolist() == [True, False, True]
    assert out.info["_final_obs"].tolist() == [True, False, True]
    assert out.info["final_info"]["moves"].tolist() == [6, 1, 6]


def test_partial_reset_resets_only_the_masked_copies() -> None:
    env = vectorize(pure(NumpyWalk()), 3)
    generator = np.random.default_rng(2)
    first = env.reset(generator)
    again = partial_reset(env, generator, first.state, first.obs, np.array([False, True, False]))
    assert again.state.position[[0, 2]].tolist() == first.state.position[[0, 2]].tolist()
    assert again.state.position[1] != first.state.position[1]
    np.testing.assert_array_equal(again.obs[[0, 2]], first.obs[[0, 2]])
    assert again.info["_start"].tolist() == [False, True, False]
    with pytest.raises(ValueError, match="partial_reset needs a batched env"):
        partial_reset(pure(NumpyWalk()), generator, first.state, first.obs, True)
