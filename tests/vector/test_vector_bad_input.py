"""Bad action batches fail at once with a ValueError, before any sub-env is stepped, and the
vector env stays usable; a wait with nothing pending raises NoAsyncCallError, never blocks."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protogym import Env
from protogym.error import NoAsyncCallError
from protogym.spaces import Box
from protogym.vector import AsyncVectorEnv, SyncVectorEnv
from tests.vector.vector_helpers import Countdown, countdowns

MakeVector = Callable[[list[Any]], Any]
KINDS: dict[str, MakeVector] = {
    "sync": SyncVectorEnv,
    "async": lambda fns: AsyncVectorEnv(fns, num_workers=2),
    "async-pipes": lambda fns: AsyncVectorEnv(fns, num_workers=2, shared_memory=False),
}


class Arm(Countdown):
    """Countdown with a Box action of shape (2,) that accepts any array (no own check), so
    only the vector env can catch a batch of the wrong shape."""

    def __init__(self, ident: int = 0) -> None:
        super().__init__(ident=ident, length=100)
        self.action_space = Box(-1.0, 1.0, shape=(2,), dtype=np.float32)  # type: ignore[assignment]

    def step(self, action: Any) -> Any:
        obs, _, terminated, truncated, info = super().step(np.int64(0))
        return obs, float(np.sum(action)), terminated, truncated, info


def arms(num: int) -> list[Callable[[], Env[Any, Any]]]:
    return [functools.partial(Arm, ident=i) for i in range(num)]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("actions", "got"),
    [
        (np.zeros(3, dtype=np.int64), r"shape \(3,\)"),
        (np.zeros(5, dtype=np.int64), r"shape \(5,\)"),
        (np.zeros((4, 1), dtype=np.int64), r"shape \(4, 1\)"),
        (np.zeros((4, 2), dtype=np.int64), r"shape \(4, 2\)"),
    ],
)
def test_discrete_batch_of_the_wrong_length_or_shape_is_a_value_error(
    kind: str, actions: np.ndarray[Any, Any], got: str
) -> None:
    with KINDS[kind](countdowns(4, length=50)) as env:
        before, _ = env.reset(seed=1)
        pattern = r"needs (a batch of 4 actions, an array of shape \(4,\)|one action per sub-env)"
        with pytest.raises(ValueError, match=pattern):
            env.step(actions)
        with pytest.raises(ValueError, match=got):
            env.step(actions)
        # nothing was stepped, and the env goes on as if the bad call never happened
        obs, rewards, *_ = env.step(np.ones(4, dtype=np.int64))
        assert obs[:, 0].tolist() == [1, 1, 1, 1]
        assert rewards.tolist() == [2.0, 2.0, 2.0, 2.0]
        assert before[:, 0].tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("kind", KINDS)
def test_box_batch_of_the_wrong_row_shape_is_caught_by_the_vector_env(kind: str) -> None:
    with KINDS[kind](arms(3)) as env:
        env.reset(seed=0)
        for shape in [(3,), (3, 3), (3, 2, 1), (2, 2)]:
            with pytest.raises(ValueError) as caught:
                env.step(np.zeros(shape, dtype=np.float32))
            message = str(caught.value)
            assert "an array of shape (3, 2) (an action of shape (2,) per sub-env)" in message
            assert f"got an array of shape {shape}" in message
            assert "env.action_space.sample() has the right shape" in message
        obs, rewards, *_ = env.step(np.full((3, 2), 0.5, dtype=np.float32))
        assert rewards.tolist() == [1.0, 1.0, 1.0]
        assert obs[:, 0].tolist() == [1, 1, 1]  # one step taken, not more


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple))
def test_any_other_shape_is_refused_by_sync_and_async_alike(shape: tuple[int, ...]) -> None:
    if shape == (3, 2):
        shape = (3, 2, 1)
    actions = np.zeros(shape, dtype=np.float32)
    errors = []
    makers: list[MakeVector] = [SyncVectorEnv, lambda fns: AsyncVectorEnv(fns, num_workers=1)]
    for make in makers:
        with make(arms(3)) as env:
            env.reset(seed=0)
            with pytest.raises(ValueError) as caught:
                env.step(actions)
            errors.append(caught.value)
    assert all("needs" in str(error) for error in errors)


def test_a_ragged_list_is_a_value_error_in_async() -> None:
    with AsyncVectorEnv(arms(2), num_workers=1) as env:
        env.reset(seed=0)
        with pytest.raises(ValueError, match=r"needs a batch of 2 actions"):
            env.step([[0.0, 0.0], [0.0]])
        env.step(np.zeros((2, 2), dtype=np.float32))


@pytest.mark.parametrize("wait", ["step_wait", "reset_wait", "call_wait"])
def test_a_wait_with_nothing_pending_raises_no_async_call_error(wait: str) -> None:
    with AsyncVectorEnv(countdowns(2), num_workers=1) as env:
        env.reset(seed=0)
        with pytest.raises(NoAsyncCallError, match=rf"{wait}\(\) was called with no"):
            getattr(env, wait)()
        env.step(np.zeros(2, dtype=np.int64))
        with pytest.raises(NoAsyncCallError):
            env.step_wait()  # the step's own wait already collected it
