"""Properties of the functional wrappers over random batches, limits and actions (numpy)."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protogym.functional.pure import pure
from protogym.functional.wrappers import autoreset, time_limit, vectorize
from tests.functional.envs import NumpyWalk

MODES = ("next_step", "same_step", "disabled")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(MODES),
    num_envs=st.integers(1, 4),
    limit=st.integers(1, 6),
    seed=st.integers(0, 2**16),
    steps=st.integers(1, 12),
)
def test_autoreset_and_time_limit_invariants(
    mode: str, num_envs: int, limit: int, seed: int, steps: int
) -> None:
    env = autoreset(vectorize(time_limit(pure(NumpyWalk()), limit), num_envs), mode)
    rng = np.random.default_rng(seed)
    state: Any = env.reset(rng).state
    for _ in range(steps):
        previous_done = np.asarray(state.done)
        previous_elapsed = np.asarray(state.inner.elapsed)
        actions: Any = rng.integers(0, 2, num_envs)
        out = env.step(rng, state, actions)
        state = out.state
        elapsed = np.asarray(state.inner.elapsed)
        ended = np.logical_or(out.terminated, out.truncated)
        assert np.asarray(out.obs).shape == (num_envs, 2)
        np.testing.assert_array_equal(state.done, ended)
        if mode == "next_step":
            # A copy that ended on the last step is reset: no reward, no end, count 0.
            assert (np.asarray(out.reward)[previous_done] == 0.0).all()
            assert not ended[previous_done].any()
            np.testing.assert_array_equal(elapsed[previous_done], 0)
            expected = np.where(previous_done, 0, previous_elapsed + 1)
        elif mode == "same_step":
            np.testing.assert_array_equal(elapsed[ended], 0)
            assert (np.abs(np.asarray(out.obs)[ended, 0]) <= 0.5).all()  # a new start
            np.testing.assert_array_equal(out.info["_final_obs"], ended)
            expected = np.where(ended, 0, previous_elapsed + 1)
        else:
            expected = previous_elapsed + 1
        np.testing.assert_array_equal(elapsed, expected)
        # The limit truncates exactly when a copy's count reaches it.
        stepped = ~previous_done if mode == "next_step" else np.ones(num_envs, dtype=bool)
        np.testing.assert_array_equal(
            np.asarray(out.truncated)[stepped], (previous_elapsed + 1 >= limit)[stepped]
        )
