"""`env.spec` as a recipe: wrappers applied after `make` are recorded with their arguments,
and `make(env.spec)` builds the same stack; plus `make`'s Gymnasium arguments."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
import pytest

import protogym
from protogym.core import ObservationWrapper, RewardWrapper
from protogym.error import Error, InvalidMetadata, UnregisteredWrapper
from protogym.registration import EnvSpec, WrapperSpec
from protogym.wrappers import ClipReward, NormalizeReward, TimeAwareObservation, TimeLimit
from tests.core.core_test_envs import SeededCoin

WALK = "tests.core.core_test_envs:StructuralWalk"
COIN = "tests.core.core_test_envs:SeededCoin"


class AddOffset(ObservationWrapper[Any, Any, Any]):
    """A wrapper of the user's own, with a default argument and extra keywords."""

    def __init__(self, env: protogym.Env[Any, Any], offset: float = 1.0, **extra: Any) -> None:
        super().__init__(env)
        self.offset = offset
        self.extra = extra

    def observation(self, observation: Any) -> Any:
        return observation + self.offset


class Scaled(RewardWrapper[Any, Any]):
    """Takes its argument positionally only through *args: its arguments cannot be named."""

    def __init__(self, env: protogym.Env[Any, Any], *factors: float) -> None:
        super().__init__(env)
        self.factor = float(np.prod(factors))

    def reward(self, reward: Any) -> float:
        return float(reward) * self.factor


@pytest.fixture(autouse=True)
def _ids() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        protogym.register("recipe/Coin-v0", COIN, max_episode_steps=6)
        protogym.register("recipe/Walk-v0", WALK, max_episode_steps=6, kwargs={"size": 4})
    yield
    for env_id in [i for i in protogym.registry if i.startswith("recipe/")]:
        del protogym.registry[env_id]


def _rollout(env: Any, seed: int, steps: int) -> list[Any]:
    obs, _ = env.reset(seed=seed)
    seen = [np.asarray(obs).tolist()]
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(1)
        seen.append((np.asarray(obs).tolist(), float(reward), terminated, truncated))
    return seen


def test_wrappers_applied_after_make_are_recorded_with_all_their_arguments() -> None:
    env = NormalizeReward(TimeAwareObservation(protogym.make("recipe/Coin-v0")), gamma=0.8)
    assert env.spec is not None
    assert env.spec.additional_wrappers == (
        WrapperSpec(
            "TimeAwareObservation",
            "protogym.wrappers.stateful_observation:TimeAwareObservation",
            {"flatten": True, "normalize_time": False, "dict_time_key": "time"},
        ),
        WrapperSpec(
            "NormalizeReward",
            "protogym.wrappers.stateful_reward:NormalizeReward",
            {"gamma": 0.8, "epsilon": 1e-8},
        ),
    )
    assert env.spec.max_episode_steps == 6 and env.spec.id == "recipe/Coin-v0"


def test_make_of_a_recorded_spec_rebuilds_the_same_stack_and_trajectory() -> None:
    def build() -> Any:
        return NormalizeReward(TimeAwareObservation(protogym.make("recipe/Coin-v0")), gamma=0.8)

    spec = build().spec
    assert spec is not None
    rebuilt = protogym.make(spec)
    assert repr(rebuilt) == repr(build()) and rebuilt.spec == spec
    assert _rollout(rebuilt, 5, 7) == _rollout(build(), 5, 7)
    from_file = protogym.make(EnvSpec.from_json(spec.to_json()))
    assert from_file.spec == spec and _rollout(from_file, 5, 7) == _rollout(build(), 5, 7)


def test_every_layer_of_a_made_stack_rebuilds_itself() -> None:
    env: Any = ClipReward(
        TimeAwareObservation(protogym.make("recipe/Walk-v0", size=3)), max_reward=0.5
    )
    layers = []
    while hasattr(env, "env"):
        layers.append(type(env).__name__)
        rebuilt = protogym.make(env.spec)
        assert rebuilt.spec == env.spec, type(env).__name__
        assert repr(rebuilt) == repr(env)
        env = env.env
    assert layers == [
        "ClipReward", "TimeAwareObservation", "TimeLimit", "OrderEnforcing", "PassiveEnvChecker"
    ]


def test_the_env_itself_holds_gymnasiums_bare_spec() -> None:
    env = protogym.make("recipe/Walk-v0", size=2)
    bare = vars(env.unwrapped)["spec"]
    assert bare is not None
    assert (bare.max_episode_steps, bare.order_enforce, bare.disable_env_checker) == (
        None, False, True
    )
    assert bare.kwargs == {"size": 2} and bare.additional_wrappers == ()
    assert env.spec is not None and env.spec.max_episode_steps == 6
    inner: Any = env
    assert inner.env.spec.order_enforce is True and inner.env.spec.max_episode_steps is None
    assert inner.env.env.spec.disable_env_checker is False


def test_a_wrapper_of_your_own_is_recorded_and_rebuilt_while_its_class_is_imported() -> None:
    env = AddOffset(protogym.make("recipe/Walk-v0"), offset=2.5, colour="red")
    assert env.spec is not None
    recorded = env.spec.additional_wrappers[-1]
    assert recorded == WrapperSpec(
        "AddOffset", f"{__name__}:AddOffset", {"offset": 2.5, "colour": "red"}
    )
    rebuilt: Any = protogym.make(env.spec)
    assert type(rebuilt) is AddOffset and rebuilt.extra == {"colour": "red"}
    assert rebuilt.reset(seed=0)[0].tolist() == [2.5]


def test_a_wrapper_named_only_by_a_module_not_imported_needs_trust() -> None:
    spec = protogym.spec("recipe/Walk-v0").evolve(
        additional_wrappers=(WrapperSpec("Hidden", "not_imported_pkg_zz.wrappers:Hidden", {}),)
    )
    with pytest.raises(UnregisteredWrapper, match=r"entry point .* is neither registered nor"):
        protogym.make(spec)
    with pytest.raises(ModuleNotFoundError, match="cannot import 'not_imported_pkg_zz"):
        protogym.make(spec, trust_entry_points=True)  # trusted: imported, and it is missing


def test_a_wrapper_whose_arguments_are_unknown_cannot_be_rebuilt() -> None:
    env = Scaled(protogym.make("recipe/Walk-v0"), 2.0, 3.0)
    assert env.spec is not None and env.spec.additional_wrappers[-1].kwargs is None
    with pytest.raises(ValueError, match=r"'Scaled' without the arguments it was built with"):
        protogym.make(env.spec)


def test_gymnasiums_record_constructor_args_take_precedence() -> None:
    class Recorded(AddOffset):
        def __init__(self, env: protogym.Env[Any, Any]) -> None:
            self._saved_kwargs = {"offset": 9.0}
            super().__init__(env, offset=9.0)

    env = Recorded(protogym.make("recipe/Walk-v0"))
    assert env.spec is not None and env.spec.additional_wrappers[-1].kwargs == {"offset": 9.0}


def test_registered_additional_wrappers_from_wrapper_spec() -> None:
    protogym.register(
        "recipe/Clipped-v0",
        COIN,
        additional_wrappers=(ClipReward.wrapper_spec(min_reward=0.0, max_reward=0.25),),
    )
    env: Any = protogym.make("recipe/Clipped-v0")
    assert type(env) is ClipReward and repr(env.env).startswith("<OrderEnforcing<")
    env.reset(seed=0)
    assert env.step(1)[1] == 0.25
    assert ClipReward.wrapper_spec(max_reward=1.0) == WrapperSpec(
        "ClipReward", "protogym.wrappers.transform_reward:ClipReward", {"max_reward": 1.0}
    )


def test_an_entry_point_returning_a_wrapped_env_is_not_wrapped_twice() -> None:
    def build() -> Any:
        return ClipReward(SeededCoin(), max_reward=0.5)

    protogym.register("recipe/Prewrapped-v0", build)
    env = NormalizeReward(protogym.make("recipe/Prewrapped-v0"))
    assert env.spec is not None
    assert [w.name for w in env.spec.additional_wrappers] == ["ClipReward", "NormalizeReward"]
    rebuilt = protogym.make(env.spec)
    assert repr(rebuilt) == repr(env)
    wrong = env.spec.evolve(additional_wrappers=(ClipReward.wrapper_spec(max_reward=1.0),))
    assert wrong.additional_wrappers != env.spec.additional_wrappers[:1]
    with pytest.raises(ValueError, match=r"returned an env wrapped in .*'ClipReward'"):
        protogym.make(wrong)


def test_an_entry_point_that_returns_a_wrapper_is_returned_as_it_is() -> None:
    protogym.register(
        "recipe/Bare-v0", lambda: NormalizeReward(SeededCoin()),
        order_enforce=False, disable_env_checker=True,
    )
    env: Any = protogym.make("recipe/Bare-v0")
    assert type(env) is NormalizeReward and type(env.env) is SeededCoin
    protogym.register("recipe/Bare-v1", SeededCoin, order_enforce=False, disable_env_checker=True,
                      additional_wrappers=(NormalizeReward.wrapper_spec(),))
    env = protogym.make("recipe/Bare-v1")
    assert type(env) is NormalizeReward and type(env.env) is SeededCoin


def test_max_episode_steps_minus_one_drops_the_time_limit() -> None:
    env = protogym.make("recipe/Walk-v0", max_episode_steps=-1)
    assert not any(isinstance(layer, TimeLimit) for layer in _layers(env))
    assert env.spec is not None and env.spec.max_episode_steps is None
    assert protogym.make(env.spec).spec == env.spec


def test_max_episode_steps_and_disable_env_checker_are_positional_too() -> None:
    env = protogym.make("recipe/Walk-v0", 3, True)
    assert repr(env) == "<TimeLimit<OrderEnforcing<StructuralWalk<recipe/Walk-v0>>>>"
    assert env.spec is not None and env.spec.max_episode_steps == 3


def _layers(env: Any) -> list[Any]:
    found = [env]
    while hasattr(found[-1], "env"):
        found.append(found[-1].env)
    return found


class _RendersFrames(SeededCoin):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 4}


class _OldRender(SeededCoin):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"]}

    def __init__(self) -> None:  # the old API: no render_mode argument
        super().__init__()


class _NoModes(SeededCoin):
    metadata: ClassVar[dict[str, Any]] = {"render_fps": 4}


class _BadMetadata(SeededCoin):
    metadata: ClassVar[Any] = ["rgb_array"]


def test_render_mode_warnings_and_errors_follow_gymnasium() -> None:
    here = "tests.registration.test_registration_recipes"
    protogym.register("recipe/RendersFrames-v0", f"{here}:_RendersFrames")
    protogym.register("recipe/OldRender-v0", f"{here}:_OldRender")
    protogym.register("recipe/NoModes-v0", f"{here}:_NoModes")
    protogym.register("recipe/BadMetadata-v0", f"{here}:_BadMetadata")
    with pytest.warns(UserWarning, match="'recipe/RendersFrames-v0' does not render in 'human"):
        env = protogym.make("recipe/RendersFrames-v0", render_mode="human")
    assert type(env).__name__ == "HumanRendering"
    env.close()
    with pytest.warns(UserWarning, match="render_mode='svg', which its metadata does not list"):
        env = protogym.make("recipe/RendersFrames-v0", render_mode="svg")
    assert env.unwrapped.render_mode == "svg"
    with pytest.warns(UserWarning), pytest.raises(Error, match="entry point takes no render_mode"):
        protogym.make("recipe/OldRender-v0", render_mode="human")
    with pytest.warns(UserWarning, match=r"has no 'render_modes' \(its keys: \['render_fps'"):
        protogym.make("recipe/NoModes-v0")
    with pytest.raises(InvalidMetadata, match="is a list; it must be a dict"):
        protogym.make("recipe/BadMetadata-v0")


def test_wrap_records_the_registered_name() -> None:
    env = protogym.wrap(protogym.make("recipe/Coin-v0"), "ClipReward", max_reward=0.5)
    assert env.spec is not None
    assert env.spec.additional_wrappers == (
        WrapperSpec("ClipReward", "protogym.wrappers.transform_reward:ClipReward",
                    {"max_reward": 0.5}),
    )
    assert protogym.make(env.spec).spec == env.spec
