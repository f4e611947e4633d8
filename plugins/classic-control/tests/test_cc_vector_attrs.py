"""The native vector envs answer `call`, `get_attr` and `set_attr` as SyncVectorEnv does, so
agent code does not depend on the vectorization mode."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import protogym

IDS = ["CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1"]


def _pair(env_id: str, **kwargs: Any) -> tuple[Any, Any]:
    native = protogym.make_vec(env_id, 3, vectorization_mode="vector_entry_point", **kwargs)
    sync = protogym.make_vec(env_id, 3, vectorization_mode="sync", **kwargs)
    native.reset(seed=4)
    sync.reset(seed=4)
    return native, sync


@pytest.mark.parametrize("env_id", IDS)
def test_get_attr_gives_one_value_per_sub_env_as_sync_does(env_id: str) -> None:
    native, sync = _pair(env_id)
    assert native.get_attr("render_mode") == sync.get_attr("render_mode") == (None,) * 3
    for ours, theirs in zip(native.get_attr("state"), sync.get_attr("state"), strict=True):
        np.testing.assert_allclose(np.asarray(ours, dtype=np.float64), theirs, rtol=1e-6)


def test_a_shared_constant_set_on_both_gives_the_same_dynamics() -> None:
    native, sync = _pair("CartPole-v1")
    native.set_attr("gravity", 3.0)
    sync.set_attr("gravity", [3.0, 3.0, 3.0])
    assert native.get_attr("gravity") == sync.get_attr("gravity") == (3.0, 3.0, 3.0)
    actions = np.array([0, 1, 1])
    for _ in range(20):
        a, b = native.step(actions), sync.step(actions)
        np.testing.assert_array_equal(a[0], b[0])


def test_per_sub_env_values_reach_batched_attributes_but_not_shared_constants() -> None:
    native, _ = _pair("CartPole-v1")
    rows = [np.full(4, float(i)) for i in range(3)]
    native.set_attr("state", rows)
    np.testing.assert_array_equal(np.stack(native.get_attr("state")), np.stack(rows))
    with pytest.raises(ValueError, match="keeps one 'gravity' for all its sub-envs"):
        native.set_attr("gravity", [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="got 2 values for 3 sub-envs"):
        native.set_attr("gravity", [1.0, 2.0])


def test_call_renders_each_sub_env_and_repeats_shared_results() -> None:
    native, sync = _pair("CartPole-v1", render_mode="rgb_array")
    ours, theirs = native.call("render"), sync.call("render")
    assert len(ours) == len(theirs) == 3
    for frame_a, frame_b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(frame_a, frame_b)
    assert native.call("gravity") == (9.8, 9.8, 9.8)
    native.close()
    with pytest.raises(protogym.error.ClosedEnvironmentError):
        native.call("render")
