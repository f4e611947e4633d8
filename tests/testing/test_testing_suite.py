"""The conformance suite catches each break it is meant to catch, names the rule and the env,
and passes on a correct env; first-party plugins run it over their ids in their own tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

import protogym
from protogym.checker.rules import RULES, Severity
from protogym.testing import (
    CHECKS,
    ConformanceError,
    EnvConformance,
    check_conformance,
    conformance_tests,
    ids_of,
)
from protogym.testing.conformance import Subject, run_check
from protogym.vector import SyncVectorEnv
from protogym.vector.wrappers import TransformReward
from tests.checker.checker_testenvs import FAULTS, StructuralCorridor

# Faults of the checker's zoo that the suite must catch: every error and warning (hints are
# advice, not failures). The contract check catches each, but for closing twice, which
# check_env tries only on an env it can build again from a spec; the dedicated checks catch
# what needs a long rollout, two envs, a rendered frame or a second close.
CAUGHT = sorted(f for f in FAULTS if RULES[f].severity is not Severity.HINT and f != "PG250")
DEDICATED = {
    "PG113": "rollout",
    "PG122": "rollout",
    "PG123": "rollout",
    "PG210": "rollout",
    "PG130": "reproducible",
    "PG132": "reproducible",
    "PG142": "render-modes",
    "PG250": "close-twice",
}


def _corridor(fault: str) -> Subject:
    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("render_mode", "rgb_array")
        return StructuralCorridor(fault=fault, **kwargs)

    return Subject(f"Corridor[{fault}]", make, max_steps=50)


class TestAStructuralCorridor(EnvConformance):
    """The base class on a correct env that only has make_env (no registered id)."""

    def make_env(self, **kwargs: Any) -> Any:
        kwargs.setdefault("render_mode", "rgb_array")
        return StructuralCorridor(**kwargs)


@pytest.mark.parametrize("fault", CAUGHT)
def test_the_contract_check_names_each_broken_rule(fault: str) -> None:
    with pytest.raises(ConformanceError) as caught:
        run_check("contract", _corridor(fault))
    assert caught.value.rule == fault
    assert str(caught.value).startswith(f"[{fault} {RULES[fault].name}] Corridor[{fault}]:")


@pytest.mark.parametrize(("fault", "check"), sorted(DEDICATED.items()))
def test_dedicated_checks_catch_their_rule(fault: str, check: str) -> None:
    with pytest.raises(ConformanceError) as caught:
        run_check(check, _corridor(fault))
    assert caught.value.rule == fault


@pytest.fixture
def broken_ids() -> Iterator[dict[str, str]]:
    """Registered ids broken in the ways only the registry can show."""

    class Unpicklable(StructuralCorridor):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.lock = threading.Lock()

    def doubled_rewards(num_envs: int, **kwargs: Any) -> Any:
        sync = SyncVectorEnv([lambda: StructuralCorridor(**kwargs)] * num_envs)
        return TransformReward(sync, lambda rewards: rewards * 2)

    ids = {
        "pickle": "suite/Unpicklable-v0",
        "vector-entry-point": "suite/DoubledVector-v0",
        "spec-json": "suite/NotJson-v0",
        "legacy-path": "suite/Unseeded-v0",
    }
    protogym.register(ids["pickle"], Unpicklable)
    protogym.register(ids["vector-entry-point"], StructuralCorridor,
                      vector_entry_point=doubled_rewards)
    protogym.register(ids["spec-json"], StructuralCorridor, kwargs={"numpy_types": b"not json"})
    protogym.register(ids["legacy-path"], StructuralCorridor, kwargs={"fault": "PG130"})
    yield ids
    for env_id in ids.values():
        protogym.registry.unregister(env_id)


@pytest.mark.parametrize(
    ("check", "rule"),
    [("pickle", "PG171"), ("vector-entry-point", "PG172"), ("spec-json", "PG173"),
     ("legacy-path", "PG170")],
)
def test_registry_checks_catch_their_rule(
    broken_ids: dict[str, str], check: str, rule: str
) -> None:
    with pytest.raises(ConformanceError) as caught:
        run_check(check, Subject.of_id(broken_ids[check], max_steps=60))
    assert caught.value.rule == rule
    assert broken_ids[check] in str(caught.value)


def test_check_conformance_passes_on_a_first_party_id_and_fails_on_a_broken_one(
    broken_ids: dict[str, str],
) -> None:
    check_conformance("FrozenLake-v1", max_steps=50)
    with pytest.raises(ConformanceError, match="PG171"):
        check_conformance(broken_ids["pickle"], checks=["pickle"])


def test_the_helper_parametrizes_one_test_per_id_and_check() -> None:
    test = conformance_tests("protogym-toy-text")
    marks = {mark.args[0]: mark.args[1] for mark in test.pytestmark}  # type: ignore[attr-defined]
    assert marks["env_id"] == ids_of("protogym-toy-text")
    assert marks["check"] == list(CHECKS)


def test_bad_arguments_say_what_to_pass() -> None:
    with pytest.raises(ValueError, match=r"env plugins: \[.*'protogym-toy-text'"):
        ids_of("protogym-toytext")
    with pytest.raises(ValueError, match="a distribution name or a list of ids"):
        conformance_tests()
    with pytest.raises(ValueError, match="unknown conformance check 'speed'"):
        conformance_tests(ids=["CartPole-v1"], checks=["speed"])
