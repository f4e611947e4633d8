"""`make_vec` with Gymnasium's arguments: `VectorizeMode`, a vector env's spec that
`make_vec` rebuilds from, and the errors and warnings Gymnasium gives."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import protogym
from protogym import VectorizeMode
from protogym.error import Error, RegistrationError
from protogym.vector import AutoresetMode, SyncVectorEnv
from protogym.wrappers import ClipReward, TimeAwareObservation


@pytest.fixture(autouse=True)
def _ids() -> Iterator[None]:
    yield
    for env_id in [i for i in protogym.registry if i.startswith("vecspec/")]:
        del protogym.registry[env_id]


def test_vectorize_mode_has_gymnasiums_members_and_is_accepted_beside_strings() -> None:
    assert [(m.name, m.value) for m in VectorizeMode][:3] == [
        ("ASYNC", "async"), ("SYNC", "sync"), ("VECTOR_ENTRY_POINT", "vector_entry_point")
    ]
    assert protogym.registration.VectorizeMode is VectorizeMode
    by_enum: Any = protogym.make_vec("CartPole-v1", 2, vectorization_mode=VectorizeMode.SYNC)
    by_text: Any = protogym.make_vec("CartPole-v1", 2, vectorization_mode="sync")
    assert type(by_enum) is type(by_text) is SyncVectorEnv
    assert by_enum.spec is not None and by_enum.spec.kwargs["vectorization_mode"] == "sync"
    native: Any = protogym.make_vec("CartPole-v1", 2, VectorizeMode.VECTOR_ENTRY_POINT)
    assert type(native).__name__ == "CartPoleVectorEnv"


def test_a_bad_mode_or_id_is_explained() -> None:
    with pytest.raises(ValueError, match=r"one of \['sync', 'async', 'vector_entry_point', 'r"):
        protogym.make_vec("CartPole-v1", vectorization_mode=123)  # type: ignore[call-overload]
    with pytest.raises(Error, match=r"takes an env id .* got int: 5"):
        protogym.make_vec(5)  # type: ignore[call-overload]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"num_envs": 3},
        {"vectorization_mode": "sync", "vector_kwargs": {"copy": False}},
        {"vectorization_mode": "sync", "wrappers": (TimeAwareObservation,)},
        {"vectorization_mode": "sync", "max_episode_steps": 5, "sutton_barto_reward": True},
        {"render_mode": "rgb_array"},
    ],
    ids=["defaults", "num_envs", "vector_kwargs", "wrappers", "env_kwargs", "render_mode"],
)
def test_make_vec_rebuilds_from_a_vector_envs_spec(kwargs: dict[str, Any]) -> None:
    envs: Any = protogym.make_vec("CartPole-v1", **kwargs)
    again: Any = protogym.make_vec(envs.spec)
    try:
        assert again.spec == envs.spec
        assert type(again) is type(envs) and again.num_envs == envs.num_envs
        assert again.single_observation_space == envs.single_observation_space
        first, second = envs.reset(seed=3)[0], again.reset(seed=3)[0]
        assert np.array_equal(first, second)
        actions = np.ones(envs.num_envs, dtype=np.int64)
        assert np.array_equal(envs.step(actions)[0], again.step(actions)[0])
    finally:
        envs.close()
        again.close()


def test_the_spec_keeps_the_vector_arguments_in_gymnasiums_layout() -> None:
    envs: Any = protogym.make_vec(
        "CartPole-v1", 1, "sync", {"copy": False}, [TimeAwareObservation], sutton_barto_reward=True
    )
    assert envs.spec.kwargs == {
        "sutton_barto_reward": True,
        "vectorization_mode": "sync",
        "vector_kwargs": {"copy": False},
        "wrappers": [TimeAwareObservation],
    }
    three: Any = protogym.make_vec("CartPole-v1", 3)
    assert three.spec.kwargs == {"num_envs": 3, "vectorization_mode": "vector_entry_point"}
    # The spec's vector arguments win over make_vec's, as in Gymnasium.
    assert protogym.make_vec(three.spec, 5).num_envs == 3


def test_native_mode_refuses_what_it_cannot_do_with_gymnasiums_error() -> None:
    protogym.register(
        "vecspec/Clipped-v0",
        "tests.core.core_test_envs:SeededCoin",
        vector_entry_point="protogym_classic_control.vector.cartpole:CartPoleVectorEnv",
        additional_wrappers=(ClipReward.wrapper_spec(max_reward=0.5),),
    )
    with pytest.raises(Error, match="spec's additional_wrappers"):
        protogym.make_vec("vecspec/Clipped-v0")
    envs: Any = protogym.make_vec("vecspec/Clipped-v0", 2, "sync")
    assert all(type(sub_env) is ClipReward for sub_env in envs.envs)
    with pytest.raises(Error, match=r"only 'autoreset_mode' in vector_kwargs, got \['copy'\]"):
        protogym.make_vec("CartPole-v1", vector_kwargs={"copy": False})
    with pytest.raises(RegistrationError, match="'Pendulum-v1' has no vector_entry_point"):
        protogym.make_vec(
            protogym.spec("Pendulum-v1").evolve(vector_entry_point=None), 1, "vector_entry_point"
        )


class _NoAutoresetMode:
    """A structural vector env that does not say how it autoresets."""

    def __init__(self, num_envs: int, mode: Any = None) -> None:
        self.num_envs = num_envs
        self.metadata: dict[str, Any] = (
            {"render_fps": 1} if mode is None else {"autoreset_mode": mode}
        )

    def __repr__(self) -> str:
        return "NoAutoresetMode()"


def test_a_vector_env_without_an_autoreset_mode_warns() -> None:
    here = "tests.registration.test_registration_make_vec_specs:_NoAutoresetMode"
    protogym.register("vecspec/Silent-v0", vector_entry_point=here)
    with pytest.warns(UserWarning, match=r"NoAutoresetMode\(\) has no 'autoreset_mode'"):
        protogym.make_vec("vecspec/Silent-v0")
    with pytest.warns(UserWarning, match=r"\['autoreset_mode'\] = 'next_step', a str"):
        protogym.make_vec("vecspec/Silent-v0", mode="next_step")
    quiet: Any = protogym.make_vec("vecspec/Silent-v0", mode=AutoresetMode.NEXT_STEP)
    assert quiet.metadata == {"autoreset_mode": AutoresetMode.NEXT_STEP}


def test_sub_envs_are_made_with_the_spec_and_the_call_kwargs() -> None:
    protogym.register(
        "vecspec/Walk-v0", "tests.core.core_test_envs:StructuralWalk", max_episode_steps=2,
        kwargs={"size": 4},
    )
    envs: Any = protogym.make_vec("vecspec/Walk-v0", 2, "sync", max_episode_steps=3)
    sub = envs.envs[0]
    assert sub.spec.max_episode_steps == 3 and sub.spec.kwargs == {"size": 4}
    assert envs.spec.kwargs == {
        "size": 4, "max_episode_steps": 3, "num_envs": 2, "vectorization_mode": "sync"
    }
