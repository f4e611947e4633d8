"""`EnvSpec` and `WrapperSpec` built as Gymnasium code builds them, their `pprint`, and
`pprint_registry` over a registry of your own."""

from __future__ import annotations

import attrs
import pytest

import protogym
from protogym.error import Error
from protogym.registration import EnvSpec, WrapperSpec

WALK = "tests.core.core_test_envs:StructuralWalk"


def test_env_spec_fields_come_positionally_in_gymnasiums_order() -> None:
    wrappers = (WrapperSpec("ClipReward", "protogym.wrappers.transform_reward:ClipReward", {}),)
    spec = EnvSpec(
        "ns/Walk-v3", WALK, 1.5, True, 7, False, True, {"size": 2}, wrappers, "v.mod:VecWalk"
    )
    assert (spec.id, spec.entry_point, spec.reward_threshold, spec.nondeterministic) == (
        "ns/Walk-v3", WALK, 1.5, True
    )
    assert (spec.max_episode_steps, spec.order_enforce, spec.disable_env_checker) == (
        7, False, True
    )
    assert (spec.kwargs, spec.additional_wrappers, spec.vector_entry_point) == (
        {"size": 2}, wrappers, "v.mod:VecWalk"
    )
    assert (spec.namespace, spec.name, spec.version) == ("ns", "Walk", 3)
    assert [field.name for field in attrs.fields(EnvSpec)][:10] == [
        "id", "entry_point", "reward_threshold", "nondeterministic", "max_episode_steps",
        "order_enforce", "disable_env_checker", "kwargs", "additional_wrappers",
        "vector_entry_point",
    ]


def test_protogyms_own_fields_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        EnvSpec("Walk-v0", WALK, None, False, None, True, False, {}, (), None, "done")  # type: ignore[call-arg]
    spec = EnvSpec("Walk-v0", WALK, api="done", plugin="acme-envs")
    assert (spec.api, spec.plugin) == ("done", "acme-envs")


def test_an_env_spec_checks_its_id_as_gymnasiums_does() -> None:
    with pytest.raises(Error, match="malformed environment id 'a/b/c-v0'"):
        EnvSpec("a/b/c-v0", WALK)
    assert EnvSpec("Walk-vfinal-v2").name == "Walk-vfinal"
    assert EnvSpec("Walk--").version is None


def test_wrapper_spec_is_positional_and_may_not_know_its_kwargs() -> None:
    spec = WrapperSpec("ClipReward", "protogym.wrappers.transform_reward:ClipReward", None)
    assert spec.kwargs is None
    assert WrapperSpec("ClipReward").kwargs == {}
    assert WrapperSpec.from_dict(spec.to_dict()) == spec
    with pytest.raises(ValueError, match="is an object with a 'name'"):
        WrapperSpec.from_dict({"kwargs": {}})


def _recipe() -> EnvSpec:
    return EnvSpec(
        "ns/Walk-v0",
        WALK,
        reward_threshold=2.0,
        max_episode_steps=9,
        kwargs={"size": 3},
        additional_wrappers=(
            WrapperSpec("ClipReward", "protogym.wrappers.transform_reward:ClipReward",
                        {"max_reward": 1.0}),
            WrapperSpec("RecordEpisodeStatistics", "protogym.wrappers.common:X", {}),
        ),
    )


def test_pprint_shows_the_fields_that_differ_from_the_defaults() -> None:
    assert _recipe().pprint(disable_print=True) == (
        "id=ns/Walk-v0\n"
        "reward_threshold=2.0\n"
        "max_episode_steps=9\n"
        "kwargs={'size': 3}\n"
        "additional_wrappers=[\n"
        "\tname=ClipReward, kwargs={'max_reward': 1.0},\n"
        "\tname=RecordEpisodeStatistics, kwargs={}\n"
        "]"
    )
    assert EnvSpec("Walk-v0", WALK).pprint(disable_print=True) == "id=Walk-v0"


def test_pprint_with_entry_points_and_everything() -> None:
    spec = _recipe().evolve(additional_wrappers=(), plugin="acme-envs")
    assert spec.pprint(disable_print=True, include_entry_points=True) == (
        f"id=ns/Walk-v0\nentry_point={WALK}\nreward_threshold=2.0\nmax_episode_steps=9\n"
        "kwargs={'size': 3}\nplugin=acme-envs"
    )
    assert spec.pprint(disable_print=True, print_all=True) == (
        f"id=ns/Walk-v0\nentry_point={WALK}\nreward_threshold=2.0\nnondeterministic=False\n"
        "max_episode_steps=9\norder_enforce=True\ndisable_env_checker=False\n"
        "kwargs={'size': 3}\napi=terminated_truncated\nvector_entry_point=None\n"
        "plugin=acme-envs\nadditional_wrappers=[]"
    )
    wrapped = _recipe().pprint(disable_print=True, include_entry_points=True)
    assert "\tname=ClipReward, entry_point=protogym.wrappers.transform_reward:ClipReward, " in (
        wrapped
    )


def test_pprint_prints_unless_disabled(capsys: pytest.CaptureFixture[str]) -> None:
    assert _recipe().pprint() is None
    assert capsys.readouterr().out == _recipe().pprint(disable_print=True) + "\n"


def _example_registry() -> dict[str, EnvSpec]:
    return {
        "Walk-v0": EnvSpec("Walk-v0", "acme.envs.walking.walk:Walk"),
        "Walk-v1": EnvSpec("Walk-v1", "acme.walking:Walk"),
        "Run-v0": EnvSpec("Run-v0", "walking:Run"),
        "Jump-v0": EnvSpec("Jump-v0", lambda: None),
        "Hop-v0": EnvSpec("Hop-v0", WALK, plugin="acme-envs"),
        "ns/Walk-v2": EnvSpec("ns/Walk-v2", "acme.walking:Walk"),
        "ns/LongerName-v0": EnvSpec("ns/LongerName-v0", "acme.walking:Walk"),
    }


def test_pprint_registry_groups_ids_in_gymnasiums_layout() -> None:
    text = protogym.pprint_registry(_example_registry(), disable_print=True)
    assert text == (
        "===== walking =====\n"
        "Walk-v0 Walk-v1\n"
        "===== Run =====\n"
        "Run-v0\n"
        "===== None =====\n"
        "Jump-v0\n"
        "===== acme-envs =====\n"
        "Hop-v0\n"
        "===== ns =====\n"
        "ns/LongerName-v0 ns/Walk-v2"
    )


def test_pprint_registry_columns_and_excluded_groups() -> None:
    registry = {f"Walk-v{i}": EnvSpec(f"Walk-v{i}", WALK) for i in range(5)}
    registry["Walk-v10"] = EnvSpec("Walk-v10", WALK)
    assert protogym.pprint_registry(registry, num_cols=2, disable_print=True) == (
        "===== core_test_envs =====\n"
        "Walk-v0  Walk-v1\n"
        "Walk-v10 Walk-v2\n"
        "Walk-v3  Walk-v4"
    )
    text = protogym.pprint_registry(
        _example_registry(), exclude_namespaces=["walking", "ns", "None"], disable_print=True
    )
    assert text == "===== Run =====\nRun-v0\n===== acme-envs =====\nHop-v0"
    with pytest.raises(ValueError, match="num_cols must be a positive int, got 0"):
        protogym.pprint_registry(registry, num_cols=0)


def test_pprint_registry_prints_the_global_registry_by_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert protogym.pprint_registry() is None
    printed = capsys.readouterr().out
    assert "===== protogym-classic-control =====" in printed and "CartPole-v1" in printed
