"""Vector envs both ways, the autoreset mode carried over with its info keys."""

from __future__ import annotations

from typing import Any, Literal

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode as GymnasiumMode

import protogym
from protogym.interop.gymnasium import from_gymnasium_vector, to_gymnasium_vector
from protogym.vector import AutoresetMode, SyncVectorEnv


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("same_step", GymnasiumMode.SAME_STEP),
        ("next_step", GymnasiumMode.NEXT_STEP),
        ("disabled", GymnasiumMode.DISABLED),
    ],
)
def test_the_autoreset_mode_is_carried_both_ways(ours: str, theirs: GymnasiumMode) -> None:
    converted = to_gymnasium_vector(
        protogym.make_vec("CartPole-v1", 2, vector_kwargs={"autoreset_mode": ours})
    )
    assert isinstance(converted, gymnasium.vector.VectorEnv)
    assert converted.metadata["autoreset_mode"] is theirs
    back = from_gymnasium_vector(
        gymnasium.make_vec("CartPole-v1", 2, "sync", vector_kwargs={"autoreset_mode": theirs})
    )
    assert back.autoreset_mode is AutoresetMode(ours)
    assert back.metadata["autoreset_mode"] is AutoresetMode(ours)
    converted.close()
    back.close()


def _run_until_an_episode_ends(env: Any, steps: int = 200) -> dict[str, Any]:
    env.reset(seed=3)
    for _ in range(steps):
        *_, terminated, truncated, infos = env.step(np.ones(env.num_envs, dtype=np.int64))
        if np.any(terminated | truncated):
            return dict(infos)
    raise AssertionError("no episode ended")


@pytest.mark.parametrize("mode", ["sync", "vector_entry_point"])
def test_same_step_final_observations_are_gymnasiums_layout_both_ways(
    mode: Literal["sync", "vector_entry_point"],
) -> None:
    theirs = _run_until_an_episode_ends(
        to_gymnasium_vector(protogym.make_vec("CartPole-v1", 2, vectorization_mode=mode))
    )
    assert {"final_obs", "_final_obs", "final_info", "_final_info"} <= set(theirs)
    assert "final_observation" not in theirs
    _assert_one_final_observation_per_ended_sub_env(theirs)
    gym_vector = gymnasium.make_vec(
        "CartPole-v1", 2, "sync", vector_kwargs={"autoreset_mode": GymnasiumMode.SAME_STEP}
    )
    ours = _run_until_an_episode_ends(from_gymnasium_vector(gym_vector))
    assert {"final_obs", "_final_obs", "final_info", "_final_info"} <= set(ours)
    _assert_one_final_observation_per_ended_sub_env(ours)


def _assert_one_final_observation_per_ended_sub_env(infos: dict[str, Any]) -> None:
    finals = infos["final_obs"]
    assert finals.dtype == object and finals.shape == (2,)
    for index, ended in enumerate(infos["_final_obs"].tolist()):
        if ended:
            assert isinstance(finals[index], np.ndarray) and finals[index].shape == (4,)
        else:
            assert finals[index] is None


def test_a_converted_vector_env_steps_like_the_original() -> None:
    original = protogym.make_vec("CartPole-v1", 3, vectorization_mode="sync")
    converted = to_gymnasium_vector(protogym.make_vec("CartPole-v1", 3, vectorization_mode="sync"))
    a, _ = original.reset(seed=9)
    b, _ = converted.reset(seed=9)
    np.testing.assert_array_equal(a, b)
    actions = np.array([0, 1, 1])
    for _ in range(30):
        ra = original.step(actions)
        rb = converted.step(actions)
        for x, y in zip(ra[:4], rb[:4], strict=True):
            np.testing.assert_array_equal(x, y)


def test_from_gymnasium_vector_satisfies_the_protocol_and_protogym_wrappers() -> None:
    vector = from_gymnasium_vector(gymnasium.make_vec("CartPole-v1", 2, "sync"))
    assert isinstance(vector, protogym.vector.VectorEnv)
    assert isinstance(vector.single_observation_space, protogym.spaces.Box)
    wrapped = protogym.vector.wrappers.RecordEpisodeStatistics(vector)
    wrapped.reset(seed=0)
    wrapped.step(np.zeros(2, dtype=np.int64))
    wrapped.close()
    assert vector.closed


def test_non_vector_envs_are_type_errors() -> None:
    with pytest.raises(TypeError, match=r"needs a protogym vector env, got 1 \(int\)"):
        to_gymnasium_vector(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"needs a gymnasium\.vector\.VectorEnv"):
        from_gymnasium_vector(SyncVectorEnv([lambda: protogym.make("CartPole-v1")]))  # type: ignore[arg-type]
