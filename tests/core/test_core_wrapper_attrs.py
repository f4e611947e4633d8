"""Wrapper members Gymnasium 1.4 code uses: has/get/set_wrapper_attr, the seed and
generator through wrappers, class_name and wrapper_spec, and the recorded constructor
arguments behind `spec`."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.core import ActionWrapper, ObservationWrapper, RewardWrapper, Wrapper
from protogym.registration import EnvSpec, WrapperSpec
from protogym.spaces import Box
from protogym.utils.seeding import np_random
from tests.core.core_test_envs import SeededCoin, StructuralWalk


class Tagged(Wrapper[Any, Any, Any, Any]):
    """A wrapper with an attribute of its own, to see which layer answers."""

    def __init__(self, env: protogym.Env[Any, Any], tag: str = "outer") -> None:
        super().__init__(env)
        self.tag = tag


class Passthrough(Wrapper[Any, Any, Any, Any]):
    pass


def _stack() -> tuple[Tagged, Passthrough, SeededCoin]:
    coin = SeededCoin()
    middle = Passthrough(coin)
    return Tagged(middle), middle, coin


def test_wrapper_attributes_are_not_forwarded_implicitly() -> None:
    outer, _, coin = _stack()
    assert coin.closed == 0
    with pytest.raises(AttributeError):
        outer.closed  # type: ignore[attr-defined]  # noqa: B018


def test_has_and_get_wrapper_attr_search_from_the_outside_in() -> None:
    outer, middle, _ = _stack()
    assert outer.has_wrapper_attr("closed") and outer.get_wrapper_attr("closed") == 0
    assert outer.has_wrapper_attr("tag") and not middle.has_wrapper_attr("tag")
    assert not outer.has_wrapper_attr("nothing")
    with pytest.raises(AttributeError, match="neither Tagged nor any env inside it has"):
        outer.get_wrapper_attr("nothing")


def test_set_wrapper_attr_sets_the_outermost_layer_that_has_it() -> None:
    outer, middle, coin = _stack()
    assert outer.set_wrapper_attr("closed", 5) is True
    assert coin.closed == 5 and "closed" not in vars(outer) and "closed" not in vars(middle)
    assert outer.set_wrapper_attr("tag", "renamed") is True and outer.tag == "renamed"


def test_set_wrapper_attr_force_decides_about_a_new_attribute() -> None:
    outer, middle, coin = _stack()
    assert outer.set_wrapper_attr("fresh", 1, force=False) is False
    assert not outer.has_wrapper_attr("fresh")
    assert outer.set_wrapper_attr("fresh", 2) is True
    assert vars(outer)["fresh"] == 2 and not middle.has_wrapper_attr("fresh")
    inner: Any = coin  # Env's default members, for mypy only through the protogym plugin
    assert inner.set_wrapper_attr("other", 3, force=False) is False
    assert inner.set_wrapper_attr("other", 3) is True and vars(coin)["other"] == 3


def test_an_attribute_set_on_the_wrapper_shadows_the_inner_one() -> None:
    outer, middle, coin = _stack()
    outer.closed = 7  # type: ignore[attr-defined]
    assert outer.get_wrapper_attr("closed") == 7 and middle.get_wrapper_attr("closed") == 0
    assert coin.closed == 0


def test_structural_envs_get_the_same_attribute_search() -> None:
    outer = Tagged(StructuralWalk(size=7))
    assert outer.get_wrapper_attr("size") == 7 and outer.has_wrapper_attr("position")
    assert outer.set_wrapper_attr("size", 9) and vars(outer.unwrapped)["size"] == 9
    assert outer.set_wrapper_attr("brand_new", 1, force=False) is False
    assert not hasattr(outer.unwrapped, "brand_new")


def test_the_seed_and_generator_are_the_innermost_envs() -> None:
    outer, _, coin = _stack()
    outer.reset(seed=42)
    assert outer.np_random_seed == 42 == coin.np_random_seed
    outer.reset()
    assert outer.np_random_seed == 42
    assert outer.np_random is coin.np_random
    generator, _ = np_random(1)
    outer.np_random = generator
    assert coin.np_random is generator and outer.np_random_seed == -1
    with pytest.raises(AttributeError):
        outer.np_random_seed = 3  # type: ignore[misc]


def test_a_structural_env_gets_a_seed_and_generator_through_a_wrapper() -> None:
    outer = Tagged(StructuralWalk())
    seed = outer.np_random_seed
    assert isinstance(seed, int) and seed >= 0 and outer.np_random_seed == seed
    generator, _ = np_random(2)
    outer.np_random = generator
    assert outer.np_random is generator and outer.np_random_seed == -1


def test_a_wrapper_has_no_generator_of_its_own() -> None:
    outer, _, _ = _stack()
    with pytest.raises(AttributeError, match="Tagged is a wrapper and has no generator"):
        outer._np_random  # type: ignore[attr-defined]  # noqa: B018


def test_class_name_wrapper_spec_and_reprs() -> None:
    outer, _, coin = _stack()
    assert Tagged.class_name() == "Tagged" == outer.class_name()
    assert Tagged.wrapper_spec(tag="x") == WrapperSpec("Tagged", f"{__name__}:Tagged", {"tag": "x"})
    assert repr(outer) == str(outer) == "<Tagged<Passthrough<SeededCoin instance>>>"
    vars(coin)["spec"] = EnvSpec("Coin-v3")
    assert repr(outer) == "<Tagged<Passthrough<SeededCoin<Coin-v3>>>>" == f"{outer}"


def test_spec_appends_the_wrapper_with_the_arguments_it_was_built_with() -> None:
    coin = SeededCoin()
    assert Tagged(coin).spec is None  # no spec inside: nothing to extend
    vars(coin)["spec"] = EnvSpec("Coin-v0", "tests.core.core_test_envs:SeededCoin")
    outer = Tagged(Passthrough(coin), tag="blue")
    assert outer.spec is not None
    assert outer.spec.additional_wrappers == (
        WrapperSpec("Passthrough", f"{__name__}:Passthrough", {}),
        WrapperSpec("Tagged", f"{__name__}:Tagged", {"tag": "blue"}),
    )
    assert outer.spec is outer.spec  # computed once while the inner spec is the same
    default = Tagged(coin).spec
    assert default is not None and default.additional_wrappers[0].kwargs == {"tag": "outer"}


def test_saved_kwargs_name_the_recorded_arguments_and_can_be_assigned() -> None:
    tagged: Any = Tagged(SeededCoin(), tag="red")
    assert tagged._saved_kwargs == {"tag": "red"}
    rebuilt: Any = Tagged(SeededCoin(), **tagged._saved_kwargs)
    assert rebuilt.tag == "red"
    outer: Any = Tagged(SeededCoin())
    assert outer._saved_kwargs == {"tag": "outer"}

    class Starred(Wrapper[Any, Any, Any, Any]):
        def __init__(self, env: protogym.Env[Any, Any], *extra: int) -> None:
            super().__init__(env)

    starred: Any = Starred(SeededCoin(), 1, 2)
    assert starred._saved_kwargs is None  # given through *args: they cannot be named

    class Chosen(Wrapper[Any, Any, Any, Any]):
        def __init__(self, env: protogym.Env[Any, Any], level: int = 1) -> None:
            super().__init__(env)
            self._saved_kwargs = {"level": 9}

    coin = SeededCoin()
    vars(coin)["spec"] = EnvSpec("Coin-v0", "tests.core.core_test_envs:SeededCoin")
    chosen = Chosen(coin)
    assert chosen._saved_kwargs == {"level": 9}
    assert chosen.spec is not None
    assert chosen.spec.additional_wrappers[-1].kwargs == {"level": 9}


def test_recording_keeps_each_wrappers_signature() -> None:
    assert list(inspect.signature(Tagged).parameters) == ["env", "tag"]
    assert list(inspect.signature(Passthrough).parameters) == ["env"]
    assert Tagged.__init__.__qualname__ == "Tagged.__init__"


def test_observation_action_and_reward_wrappers_transform_what_they_say() -> None:
    class Ones(ObservationWrapper[Any, Any, Any]):
        def observation(self, observation: Any) -> Any:
            return np.ones(1)

    class Zero(ActionWrapper[Any, Any, Any]):
        def action(self, action: Any) -> Any:
            return 0

    class Seven(RewardWrapper[Any, Any]):
        def reward(self, reward: Any) -> float:
            return 7.0

    env = Seven(Zero(Ones(SeededCoin())))
    obs, _ = env.reset(seed=0)
    assert obs.tolist() == [1.0]
    obs, reward, *_ = env.step(1)
    assert obs.tolist() == [1.0] and reward == 7.0  # SeededCoin pays the action: 0 got there


def test_assigned_spaces_and_metadata_override_the_inner_ones() -> None:
    coin = SeededCoin()
    outer = Tagged(coin)
    assert outer.observation_space is coin.observation_space
    assert outer.metadata is coin.metadata
    outer.observation_space = Box(1.0, 2.0, (1,))
    outer.metadata = {"render_modes": ["rgb_array"]}
    assert outer.observation_space == Box(1.0, 2.0, (1,)) != coin.observation_space
    assert outer.metadata != coin.metadata


def test_a_space_set_before_the_base_constructor_is_kept() -> None:
    class Early(Wrapper[Any, Any, Any, Any]):
        def __init__(self, env: protogym.Env[Any, Any]) -> None:
            self.action_space = Box(-1.0, 1.0, (2,))
            super().__init__(env)

    assert Early(SeededCoin()).action_space == Box(-1.0, 1.0, (2,))
