"""`register`, `make`, `wrap`, `spec` and the registry, with envs registered in code."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import DeprecatedEnv, RegistrationError, UnregisteredEnv, UnregisteredWrapper
from protogym.registration import EnvSpec, Registry, WrapperSpec
from protogym.registration.env_spec import parse_env_id
from protogym.registration.plugins import plugin_order, selected_plugins
from tests.core.core_test_envs import SeededCoin, StructuralWalk

WALK = "tests.core.core_test_envs:StructuralWalk"


@pytest.fixture(autouse=True)
def _test_ids() -> Iterator[None]:
    """Register the test ids for one test and remove them afterwards."""
    registry = protogym.registry
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        protogym.register("reg/Walk-v0", entry_point=WALK, max_episode_steps=4)
        protogym.register("reg/Path-v0", entry_point=WALK, max_episode_steps=4)
        protogym.register("reg/Walk-v1", entry_point=WALK, max_episode_steps=8,
                          kwargs={"size": 3})
        protogym.register("reg/Coin-v0", entry_point=SeededCoin)
    yield
    for env_id in [i for i in registry if i.startswith("reg/")]:
        registry.unregister(env_id)


def test_ids_parse_into_namespace_name_version() -> None:
    assert parse_env_id("CartPole-v1") == (None, "CartPole", 1)
    assert parse_env_id("acme/Corridor-v0") == ("acme", "Corridor", 0)
    assert parse_env_id("Blank") == (None, "Blank", None)
    with pytest.raises(RegistrationError, match="malformed environment id 'a/b/c-v1'"):
        parse_env_id("a/b/c-v1")


def test_registry_item_assignment_keeps_an_id_to_its_own_spec() -> None:
    assert protogym.registry["reg/Path-v0"].max_episode_steps == 4
    assert "reg/Walk-v1" in protogym.registry
    with pytest.raises(RegistrationError, match=r"given the spec of 'reg/Path-v0'"):
        protogym.registry["reg/X-v0"] = protogym.registry["reg/Path-v0"]
    with pytest.raises(TypeError, match="the registry holds EnvSpec values, got str"):
        protogym.registry["reg/X-v0"] = "reg/Path-v0"  # type: ignore[assignment]


def test_make_applies_the_default_stack_and_time_limit() -> None:
    env = protogym.make("reg/Path-v0")
    assert repr(env) == (
        "<TimeLimit<OrderEnforcing<PassiveEnvChecker<StructuralWalk<reg/Path-v0>>>>>"
    )
    env.reset()
    results = [env.step(1) for _ in range(4)]
    assert [r[2] for r in results] == [False, False, False, False]
    assert [r[3] for r in results] == [False, False, False, True]
    assert env.spec is not None and env.spec.max_episode_steps == 4
    assert vars(env.unwrapped)["spec"] == env.spec.evolve(
        max_episode_steps=None, order_enforce=False, disable_env_checker=True
    )


def test_make_kwargs_override_the_spec_and_are_recorded() -> None:
    env = protogym.make("reg/Walk-v1", size=2, max_episode_steps=50)
    assert env.get_wrapper_attr("size") == 2
    assert env.spec is not None
    assert env.spec.kwargs == {"size": 2}
    assert env.spec.max_episode_steps == 50


def test_step_before_reset_is_a_clear_error() -> None:
    env = protogym.make("reg/Path-v0")
    with pytest.raises(protogym.error.ResetNeeded, match="reset"):
        env.step(1)


def test_unknown_keyword_names_env_and_keyword() -> None:
    with pytest.raises(TypeError) as caught:
        protogym.make("reg/Path-v0", sise=3)
    assert str(caught.value) == (
        "environment 'reg/Path-v0' got an unexpected keyword argument 'sise'; it accepts "
        "'size', 'render_mode'"
    )
    with pytest.raises(TypeError, match=r"unexpected keyword arguments 'sise', 'colour'"):
        protogym.make("reg/Path-v0", sise=3, colour="red")


def test_unknown_id_suggests_close_matches() -> None:
    with pytest.raises(UnregisteredEnv) as caught:
        protogym.make("reg/Wakl-v0")  # type: ignore[protogym-env-id]
    assert type(caught.value) is protogym.error.NameNotFound
    assert "no env is named 'Wakl' in namespace 'reg'. Did you mean 'reg/Walk-v1'?" in str(
        caught.value
    )


def test_missing_version_lists_the_registered_ones() -> None:
    with pytest.raises(protogym.error.VersionNotFound) as caught:
        protogym.make("reg/Walk-v7")  # type: ignore[protogym-env-id]
    assert str(caught.value) == (
        "'reg/Walk-v7' is not registered; registered versions of 'Walk': 'reg/Walk-v0', "
        "'reg/Walk-v1'"
    )


def test_removed_old_version_points_to_the_newest() -> None:
    protogym.registry.unregister("reg/Walk-v0")
    protogym.register("reg/Walk-v2", entry_point=WALK)
    with pytest.raises(DeprecatedEnv, match="use 'reg/Walk-v2'"):
        protogym.make("reg/Walk-v0")


def test_old_version_warns_and_names_the_newest() -> None:
    with pytest.warns(DeprecationWarning, match="newest version is 'reg/Walk-v1'"):
        protogym.make("reg/Walk-v0")


def test_make_from_json_spec_rebuilds_the_same_env() -> None:
    env = protogym.make("reg/Coin-v0", max_episode_steps=5)
    assert env.spec is not None
    rebuilt = protogym.make(EnvSpec.from_json(env.spec.to_json()))
    assert repr(rebuilt) == repr(env)
    first = [env.reset(seed=3)[0].tolist()] + [env.step(0)[0].tolist() for _ in range(5)]
    again = [rebuilt.reset(seed=3)[0].tolist()] + [rebuilt.step(0)[0].tolist() for _ in range(5)]
    assert first == again


def test_spec_of_a_callable_entry_point_serialises_by_path() -> None:
    assert protogym.spec("reg/Coin-v0").to_dict()["entry_point"] == (
        "tests.core.core_test_envs:SeededCoin"
    )


def test_unserialisable_kwargs_say_which_value() -> None:
    env = protogym.make("reg/Walk-v1", wrappers=[("TransformReward", {"func": abs})])
    assert env.spec is not None
    with pytest.raises(ValueError, match="cannot be written as JSON"):
        env.spec.to_json()


def test_from_dict_rejects_unknown_fields() -> None:
    with pytest.raises(ValueError, match=r"unknown EnvSpec field\(s\) \['colour'\]"):
        EnvSpec.from_dict({"id": "x-v0", "colour": "red"})


def test_named_wrappers_apply_in_order_and_are_recorded() -> None:
    env = protogym.make(
        "reg/Walk-v1",
        wrappers=["RecordEpisodeStatistics", ("ClipReward", {"min_reward": 0, "max_reward": 0.5})],
    )
    assert repr(env).startswith("<ClipReward<RecordEpisodeStatistics<TimeLimit<")
    assert env.spec is not None
    assert [w.name for w in env.spec.additional_wrappers] == [
        "RecordEpisodeStatistics",
        "ClipReward",
    ]
    assert env.spec.additional_wrappers[1].kwargs == {"min_reward": 0, "max_reward": 0.5}
    env.reset()
    rewards = [env.step(1)[1] for _ in range(3)]
    assert rewards == [0.0, 0.0, 0.5]


def test_wrap_applies_by_name_and_extends_the_spec() -> None:
    env = protogym.make("reg/Walk-v1")
    wrapped = protogym.wrap(env, "ClipReward", min_reward=0.0, max_reward=0.25)
    assert wrapped.spec is not None
    assert wrapped.spec.additional_wrappers == (
        WrapperSpec(
            name="ClipReward",
            entry_point="protogym.wrappers.transform_reward:ClipReward",
            kwargs={"min_reward": 0.0, "max_reward": 0.25},
        ),
    )
    with pytest.raises(UnregisteredWrapper, match="Did you mean 'ClipReward'"):
        protogym.wrap(env, "ClipRewards")  # type: ignore[protogym-env-id]
    with pytest.raises(TypeError, match="wrapper 'ClipReward' got an unexpected keyword"):
        protogym.wrap(env, "ClipReward", low=0)  # type: ignore[protogym-kwargs]


def test_bad_wrapper_request_is_explained() -> None:
    with pytest.raises(TypeError, match=r"a wrapper request is 'Name', \('Name', \{kwargs\}\)"):
        protogym.make("reg/Path-v0", wrappers=[3])  # type: ignore[list-item]


def test_render_mode_list_collects_frames() -> None:
    env = protogym.make("reg/Path-v0", render_mode="ansi_list")
    assert repr(env).startswith("<RenderCollection<TimeLimit<")
    env.reset()
    env.step(1)
    assert env.render() == ["o.....", ".o...."]
    assert env.spec is not None and env.spec.kwargs["render_mode"] == "ansi_list"


def test_human_render_of_an_rgb_array_env_adds_human_rendering() -> None:
    with pytest.warns(UserWarning, match="'reg/Path-v0' does not render in 'human' mode"):
        env = protogym.make("reg/Path-v0", render_mode="human")
    assert repr(env).startswith("<HumanRendering<TimeLimit<")
    assert env.unwrapped.render_mode == "rgb_array"
    env.close()


def test_an_unlisted_render_mode_is_passed_on_with_a_warning_naming_the_modes() -> None:
    with pytest.warns(UserWarning, match=r"render_mode='svg', which its metadata does not list"):
        env = protogym.make("reg/Path-v0", render_mode="svg")
    assert env.render_mode == "svg"


def test_make_checks_that_the_entry_point_builds_an_env() -> None:
    protogym.register("reg/NotAnEnv-v0", entry_point=lambda: 42)  # type: ignore[protogym-env-protocol]
    with pytest.raises(TypeError, match="returned int, which is not an environment: it lacks"):
        protogym.make("reg/NotAnEnv-v0")


def test_bad_entry_points_are_explained() -> None:
    protogym.register("reg/Typo-v0", entry_point="tests.core.core_test_envs:StructuralWlak")  # type: ignore[protogym-entry-point]
    with pytest.raises(AttributeError, match="has no attribute 'StructuralWlak'"):
        protogym.make("reg/Typo-v0")
    protogym.register("reg/NoModule-v0", entry_point="no_such_module_x:Env")  # type: ignore[protogym-entry-point]
    with pytest.raises(ModuleNotFoundError, match="cannot import 'no_such_module_x'") as caught:
        protogym.make("reg/NoModule-v0")
    assert caught.value.name == "no_such_module_x"
    protogym.register("reg/NoColon-v0", entry_point="no_colon")  # type: ignore[protogym-entry-point]
    with pytest.raises(RegistrationError, match=r"not of the form 'package\.module:Attribute'"):
        protogym.make("reg/NoColon-v0")


def test_register_needs_an_entry_point() -> None:
    with pytest.raises(RegistrationError, match="needs an entry_point"):
        protogym.register("reg/Nothing-v0")


def test_reregistering_in_code_warns_and_overrides() -> None:
    with pytest.warns(UserWarning, match="overriding environment 'reg/Coin-v0'"):
        protogym.register("reg/Coin-v0", entry_point=WALK)
    assert protogym.spec("reg/Coin-v0").entry_point == WALK


def test_a_plugin_cannot_take_over_an_id() -> None:
    registry = Registry()
    registry.register("x/A-v0", entry_point=WALK)
    with (
        pytest.warns(protogym.error.PluginWarning, match="'late-plugin' tried to register"),
        registry.plugin_scope("late-plugin"),
    ):
        assert registry.register("x/A-v0", entry_point="elsewhere:Env") is None  # type: ignore[protogym-entry-point]
    assert registry["x/A-v0"].entry_point == WALK


def test_a_failing_plugin_leaves_nothing_registered() -> None:
    registry = Registry()
    with pytest.raises(RuntimeError), registry.plugin_scope("half-plugin"):
        registry.register("x/B-v0", entry_point=WALK)
        registry.register_wrapper("x/W", entry_point="somewhere:W")
        raise RuntimeError("boom")
    assert "x/B-v0" not in registry
    assert "x/W" not in registry.wrappers


def test_plugin_selection_variable_parsing() -> None:
    assert selected_plugins(None) is None
    assert selected_plugins("all") is None
    assert selected_plugins("none") == frozenset()
    assert selected_plugins(" acme, toy-text ,") == frozenset({"acme", "toy-text"})


def test_first_party_plugins_sort_before_third_parties() -> None:
    from importlib.metadata import EntryPoint

    class Dist:
        def __init__(self, name: str) -> None:
            self.name = name

    def entry(dist: str, name: str) -> Any:
        ep: Any = EntryPoint(name=name, value=f"{name}.plugin", group="protogym.plugins")
        return ep._for(Dist(dist))

    entries = [entry("aardvark-envs", "a"), entry("protogym-toy-text", "toy-text"),
               entry("zebra", "z"), entry("protogym-classic-control", "classic-control")]
    ordered = [ep.name for ep in sorted(entries, key=plugin_order)]
    assert ordered == ["classic-control", "toy-text", "a", "z"]


def test_pprint_registry_groups_by_namespace() -> None:
    text = protogym.pprint_registry(disable_print=True)
    assert text is not None
    lines = text.splitlines()
    start = lines.index("===== reg =====")
    assert lines[start + 1].split() == ["reg/Coin-v0", "reg/Path-v0", "reg/Walk-v0"]
    assert lines[start + 2].split() == ["reg/Walk-v1"]
    assert "===== protogym-classic-control =====" in lines


def test_spec_pprint_hides_defaults() -> None:
    assert protogym.spec("reg/Path-v0").pprint(disable_print=True) == (
        "id=reg/Path-v0\nmax_episode_steps=4"
    )


def test_passive_checker_warns_of_an_out_of_space_action_with_space_and_value() -> None:
    env = protogym.make("reg/Path-v0")
    env.reset()
    expected = r"action 5 \(int\), which is not in the action space Discrete\(2\)"
    with pytest.warns(UserWarning, match=expected):
        env.step(5)


def test_make_from_a_spec_object_needs_no_registration() -> None:
    spec = EnvSpec(id="unregistered/Walk-v0", entry_point=StructuralWalk, max_episode_steps=2)
    env = protogym.make(spec)
    env.reset()
    assert env.step(1)[3] is False and env.step(1)[3] is True
    assert np.array_equal(env.reset()[0], [0])


def test_unregister_removes_and_says_when_missing() -> None:
    spec = protogym.registry.unregister("reg/Coin-v0")
    assert spec.id == "reg/Coin-v0" and "reg/Coin-v0" not in protogym.registry
    with pytest.raises(UnregisteredEnv, match="no environment is registered as 'reg/Coin-v0'"):
        protogym.registry.unregister("reg/Coin-v0")
