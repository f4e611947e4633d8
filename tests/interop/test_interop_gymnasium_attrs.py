"""`from_gymnasium` hides nothing and leaks nothing: attribute look-ups walk the Gymnasium
wrapper chain outermost first, after the adapter's own (converted) members, and vector envs'
`get_attr`/`set_attr` over it see what Gymnasium's vector envs see."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.wrappers import FlattenObservation, RecordEpisodeStatistics

import protogym
from protogym import spaces
from protogym.interop.gymnasium import ProtogymEnv, from_gymnasium, to_gymnasium
from protogym.vector import AsyncVectorEnv, SyncVectorEnv


class Labelled(gymnasium.Wrapper[Any, Any, Any, Any]):
    """A Gymnasium wrapper with an attribute its env has too, under the same name."""

    def __init__(self, env: gymnasium.Env[Any, Any], label: str) -> None:
        super().__init__(env)
        self.label = label


def _flat_blackjack() -> ProtogymEnv:
    return from_gymnasium(FlattenObservation(gymnasium.make("Blackjack-v1")))


def _labelled_cartpole() -> ProtogymEnv:
    inner = gymnasium.make("CartPole-v1")
    inner.unwrapped.label = "env"  # type: ignore[attr-defined]
    return from_gymnasium(Labelled(RecordEpisodeStatistics(inner), "outer"))


def test_the_adapters_own_spaces_come_first() -> None:
    env = _flat_blackjack()
    assert isinstance(env.get_wrapper_attr("observation_space"), spaces.Box)
    assert env.get_wrapper_attr("observation_space") is env.observation_space
    assert env.has_wrapper_attr("observation_space")


def test_other_attributes_come_from_the_outermost_gymnasium_layer_that_has_them() -> None:
    env = _labelled_cartpole()
    assert env.label == "outer"
    assert env.get_wrapper_attr("label") == "outer"
    assert env.get_wrapper_attr("episode_count") == 0  # RecordEpisodeStatistics's own
    assert env.get_wrapper_attr("gravity") == 9.8  # the env's, through both wrappers
    assert env.has_wrapper_attr("gravity") and not env.has_wrapper_attr("nothing_here")
    with pytest.raises(AttributeError, match=r"any layer of the Gymnasium env.*'nothing_here'"):
        env.get_wrapper_attr("nothing_here")
    with pytest.raises(AttributeError, match="'nothing_here'"):
        _ = env.nothing_here


def test_setting_goes_where_gymnasium_would_set_it() -> None:
    env = _labelled_cartpole()
    wrapper = env.gymnasium_env
    assert env.set_wrapper_attr("label", "changed")
    assert wrapper.label == "changed"  # type: ignore[attr-defined]
    assert wrapper.unwrapped.label == "env"  # type: ignore[attr-defined]
    env.gravity = 1.0
    assert wrapper.unwrapped.gravity == 1.0  # type: ignore[attr-defined]
    assert "gravity" not in vars(env)
    assert not env.set_wrapper_attr("brand_new", 1, force=False)
    assert env.set_wrapper_attr("brand_new", 2)
    assert vars(env)["brand_new"] == 2
    # The adapter's own members stay its own.
    box = spaces.Box(0, 1, (4,))
    env.observation_space = box
    assert env.observation_space is box
    assert isinstance(wrapper.observation_space, gymnasium.spaces.Box)


def test_made_envs_walk_protogyms_wrappers_then_gymnasiums() -> None:
    made = protogym.make("gymnasium:CartPole-v1")
    assert made.get_wrapper_attr("gravity") == 9.8
    assert isinstance(made.get_wrapper_attr("observation_space"), spaces.Box)


def test_gymnasium_code_reaches_protogym_wrappers_before_the_env() -> None:
    class Tagged(protogym.Wrapper[Any, Any, Any, Any]):
        tag = "protogym wrapper"

    inner = protogym.make("CartPole-v1")
    inner.unwrapped.tag = "env"  # type: ignore[attr-defined]
    adapted = to_gymnasium(Tagged(inner))
    assert adapted.get_wrapper_attr("tag") == "protogym wrapper"
    assert adapted.get_wrapper_attr("gravity") == 9.8


@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv], ids=["sync", "async"])
def test_vector_envs_over_a_space_changing_gymnasium_wrapper(vector: Any) -> None:
    envs = vector([_flat_blackjack, _flat_blackjack])
    try:
        found = envs.get_attr("observation_space")
        assert all(isinstance(space, spaces.Box) and space.shape == (45,) for space in found)
        reference = gymnasium.vector.SyncVectorEnv(
            [lambda: FlattenObservation(gymnasium.make("Blackjack-v1"))] * 2,
            autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
        )
        obs, _ = envs.reset(seed=5)
        expected, _ = reference.reset(seed=5)
        np.testing.assert_array_equal(obs, expected)
        for action in ([0, 1], [1, 1], [0, 0], [1, 0]):
            step = envs.step(np.array(action))
            theirs = reference.step(np.array(action))
            for mine, other in zip(step[:4], theirs[:4], strict=True):
                np.testing.assert_array_equal(mine, other)
        reference.close()
    finally:
        envs.close()


@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv], ids=["sync", "async"])
def test_vector_get_and_set_attr_walk_the_gymnasium_chain(vector: Any) -> None:
    envs = vector([_labelled_cartpole, _labelled_cartpole])
    try:
        assert envs.get_attr("label") == ("outer", "outer")
        envs.set_attr("label", ["a", "b"])
        assert envs.get_attr("label") == ("a", "b")
        envs.set_attr("gravity", 3.0)
        assert envs.call("get_wrapper_attr", "gravity") == (3.0, 3.0)
        assert envs.get_attr("gravity") == (3.0, 3.0)
    finally:
        envs.close()
