"""Specs from files reach only entry points the registry knows, unless the caller opts in:
nothing a spec names is imported, let alone run, before that check."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import protogym
from protogym.error import UnregisteredWrapper, UntrustedEntryPoint
from protogym.registration import EnvSpec

MARKED = "tests.fixtures.import_side_effect_env:MarkedGridWorld"


def _system_spec(witness: Path, **fields: object) -> str:
    return json.dumps(
        {
            "id": "Innocent-v0",
            "entry_point": "os:system",
            "kwargs": {"command": f"touch {witness}"},
            **fields,
        }
    )


def test_a_spec_naming_os_system_never_runs_the_command(tmp_path: Path) -> None:
    witness = tmp_path / "ran"
    with pytest.raises(UntrustedEntryPoint, match=r"'os:system'.*trust_entry_points=True"):
        EnvSpec.from_json(_system_spec(witness))
    spec = EnvSpec.from_json(_system_spec(witness), trust_entry_points=True)  # parsing only
    with pytest.raises(UntrustedEntryPoint, match=r"make\(spec\) names the entry point"):
        protogym.make(spec)
    with pytest.raises(UntrustedEntryPoint):
        protogym.make_vec(spec, 2, vectorization_mode="sync")
    assert not witness.exists()


@pytest.mark.parametrize(
    "fields",
    [{"api": "done"}, {"entry_point": None, "vector_entry_point": "os:system"}],
    ids=["legacy-done-spec", "vector-entry-point"],
)
def test_legacy_and_vector_specs_follow_the_same_rule(
    tmp_path: Path, fields: dict[str, object]
) -> None:
    witness = tmp_path / "ran"
    with pytest.raises(UntrustedEntryPoint, match="'os:system'"):
        EnvSpec.from_json(_system_spec(witness, **fields))
    spec = EnvSpec.from_json(_system_spec(witness, **fields), trust_entry_points=True)
    with pytest.raises(UntrustedEntryPoint):
        protogym.make_vec(spec, 2)
    assert not witness.exists()


def test_a_module_with_import_side_effects_is_imported_only_on_opt_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = tmp_path / "mark"
    monkeypatch.setenv("PROTOGYM_TEST_IMPORT_MARK", str(mark))
    module = MARKED.partition(":")[0]
    sys.modules.pop(module, None)
    text = json.dumps({"id": "marked/Grid-v0", "entry_point": MARKED, "kwargs": {"size": 3}})
    with pytest.raises(UntrustedEntryPoint, match=r"tests\.fixtures\.import_side_effect_env"):
        EnvSpec.from_json(text)
    spec = EnvSpec.from_json(text, trust_entry_points=True)
    with pytest.raises(UntrustedEntryPoint):
        protogym.make(spec)
    assert not mark.exists() and module not in sys.modules
    env = protogym.make(spec, trust_entry_points=True)
    assert mark.read_text() == "imported"
    obs, _ = env.reset(seed=0)
    assert obs["agent"].tolist() == [0, 0]
    sys.modules.pop(module, None)


def test_registered_ids_round_trip_without_opting_in() -> None:
    env = protogym.make("FrozenLake-v1", wrappers=[("TimeAwareObservation", {})])
    assert env.spec is not None
    rebuilt = protogym.make(EnvSpec.from_json(env.spec.to_json()))
    assert rebuilt.spec == env.spec
    vector = protogym.make_vec(protogym.spec("CartPole-v1"), 2)
    vector.close()


def test_an_id_registered_after_the_file_was_written_is_trusted() -> None:
    text = json.dumps({"id": "marked/Later-v0", "entry_point": MARKED})
    protogym.register("marked/Later-v0", entry_point=MARKED)
    try:
        assert EnvSpec.from_json(text).entry_point == MARKED
    finally:
        protogym.registry.unregister("marked/Later-v0")


def test_wrappers_named_in_a_spec_are_looked_up_by_name_never_by_entry_point() -> None:
    spec = protogym.spec("CartPole-v1").to_dict()
    spec["additional_wrappers"] = [
        {"name": "ClipReward", "entry_point": "os:system", "kwargs": {"max_reward": 0.5}}
    ]
    env = protogym.make(EnvSpec.from_dict(spec))
    env.reset(seed=0)
    assert env.step(0)[1] == 0.5  # the registered ClipReward ran
    spec["additional_wrappers"] = [{"name": "os:system", "entry_point": "os:system"}]
    with pytest.raises(UnregisteredWrapper, match="no wrapper is registered as 'os:system'"):
        protogym.make(EnvSpec.from_dict(spec))


def test_gymnasium_prefixed_specs_are_trusted_through_their_prefix() -> None:
    env = protogym.make("gymnasium:CartPole-v1")
    assert env.spec is not None
    rebuilt = protogym.make(EnvSpec.from_json(env.spec.to_json()))
    assert rebuilt.spec is not None and rebuilt.spec.id == "gymnasium:CartPole-v1"

