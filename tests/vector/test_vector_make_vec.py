"""`make_vec`: the vectorization modes, per-sub-env wrappers, kwargs and its errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import RegistrationError
from protogym.registration.make_vec import make_vec
from protogym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv
from protogym.wrappers import TransformReward


def test_sync_builds_sub_envs_with_make_and_records_the_spec() -> None:
    env = make_vec("CartPole-v1", 3, vectorization_mode="sync", max_episode_steps=4)
    assert isinstance(env, SyncVectorEnv)
    assert isinstance(env, VectorEnv)
    assert env.num_envs == 3
    assert env.spec is not None and env.spec.id == "CartPole-v1"
    assert env.spec.kwargs["num_envs"] == 3
    assert env.spec.kwargs["vectorization_mode"] == "sync"
    env.reset(seed=0)
    for _ in range(3):
        _, _, _, truncated, _ = env.step(np.zeros(3, dtype=np.int64))
    _, _, terminated, truncated, _ = env.step(np.zeros(3, dtype=np.int64))
    assert (terminated | truncated).all()  # the time limit of 4 applies to each sub-env
    env.close()


def test_async_with_vector_kwargs() -> None:
    env = make_vec(
        "CartPole-v1", 2, vectorization_mode="async",
        vector_kwargs={"num_workers": 1, "autoreset_mode": "next_step"},
    )
    try:
        assert isinstance(env, AsyncVectorEnv)
        assert env.num_workers == 1
        assert env.autoreset_mode is AutoresetMode.NEXT_STEP
    finally:
        env.close()


def test_wrappers_as_callables_and_registered_names() -> None:
    env = make_vec(
        "CartPole-v1",
        2,
        vectorization_mode="sync",
        wrappers=[
            lambda e: TransformReward(e, lambda r: float(r) * 2),
            ("TransformReward", {"func": lambda r: float(r) + 0.5}),
        ],
    )
    env.reset(seed=0)
    _, rewards, *_ = env.step(np.zeros(2, dtype=np.int64))
    assert rewards.tolist() == [2.5, 2.5]


def test_default_mode_prefers_the_vector_entry_point() -> None:
    env: Any = make_vec("CartPole-v1", 4)
    assert type(env).__name__ == "CartPoleVectorEnv"
    assert env.spec is not None and env.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    assert env.unwrapped.max_episode_steps == 500
    env = make_vec("CartPole-v1", 2, max_episode_steps=20,
                   vector_kwargs={"autoreset_mode": "disabled"})
    assert env.autoreset_mode is AutoresetMode.DISABLED
    assert env.unwrapped.max_episode_steps == 20
    assert type(make_vec("Acrobot-v1", 1, vectorization_mode="sync")) is SyncVectorEnv


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="num_envs to be a positive int, got 0"):
        make_vec("CartPole-v1", 0)
    with pytest.raises(ValueError, match=r"vectorization_mode must be one of \['sync'"):
        make_vec("CartPole-v1", 1, vectorization_mode="threads")  # type: ignore[call-overload]
    with pytest.raises(ValueError, match=r"does not accept vector_kwargs \['speed'\]"):
        make_vec("CartPole-v1", 1, vectorization_mode="sync", vector_kwargs={"speed": 2})
    with pytest.raises(protogym.error.Error, match="only 'autoreset_mode' in vector_kwargs"):
        make_vec("CartPole-v1", 1, vector_kwargs={"num_workers": 2})
    with pytest.raises(protogym.error.Error, match="cannot apply per-sub-env wrappers"):
        make_vec("CartPole-v1", 1, wrappers=[lambda e: e])
    with pytest.raises(TypeError, match="wrappers must be callables"):
        make_vec("CartPole-v1", 1, wrappers=[3])  # type: ignore[list-item]
    spec = protogym.registry["CartPole-v1"].evolve(vector_entry_point=None)
    with pytest.raises(RegistrationError, match="has no vector_entry_point"):
        make_vec(spec, 1, vectorization_mode="vector_entry_point")
    with pytest.raises(RegistrationError):
        make_vec("NoSuchEnv-v0", 1)  # type: ignore[protogym-env-id]


def test_make_vec_returns_vector_envs_of_each_kind() -> None:
    kinds: list[Any] = [
        make_vec("CartPole-v1", 2, vectorization_mode=mode)
        for mode in ("sync", "async", "vector_entry_point")
    ]
    try:
        first = [env.reset(seed=8)[0] for env in kinds]
        for obs in first[1:]:
            np.testing.assert_array_equal(first[0], obs)
    finally:
        for env in kinds:
            env.close()
