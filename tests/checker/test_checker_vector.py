"""check_vector_env: batch shapes and dtypes, autoreset promises, final-observation info."""

from __future__ import annotations

import warnings

import pytest

from protogym.checker import CheckerWarning, ContractError, check_vector_env
from tests.checker.checker_testenvs import VECTOR_FAULTS, CorridorVector

MODES = ("same_step", "next_step", "disabled")


@pytest.mark.parametrize("mode", MODES)
def test_checker_vector_correct_env_has_no_findings(mode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = check_vector_env(CorridorVector(autoreset_mode=mode))
    assert report.results == []


@pytest.mark.parametrize("fault", sorted(VECTOR_FAULTS.keys() - {"PG260"}))
def test_checker_vector_error_rules_fire_alone(fault: str) -> None:
    mode = "next_step" if fault == "PG164" else "same_step"
    with pytest.raises(ContractError) as info:
        check_vector_env(CorridorVector(autoreset_mode=mode, fault=fault))
    assert info.value.report.ids == [fault]
    # With a wrong batched space silenced, the batches then disagree with it (PG162).
    silenced = (fault, "PG162") if fault == "PG161" else (fault,)
    report = check_vector_env(CorridorVector(autoreset_mode=mode, fault=fault), skip=silenced)
    assert report.results == []
    assert {r.id for r in report.silenced} == set(silenced)


def test_checker_vector_missing_autoreset_metadata_warns() -> None:
    with pytest.warns(CheckerWarning, match="^PG260 vector-autoreset-metadata: "
                      "CorridorVector.metadata has no 'autoreset_mode'."):
        report = check_vector_env(CorridorVector(fault="PG260"))
    assert report.ids == ["PG260"]


def test_checker_vector_messages_name_the_sub_env_and_values() -> None:
    with pytest.raises(ContractError) as info:
        check_vector_env(CorridorVector(autoreset_mode="next_step", fault="PG164"))
    assert info.value.report.errors[0].message == (
        "next_step autoreset: sub-env 0 ended, but the following step gave reward=1.0, "
        "terminated=False, truncated=False; expected 0, False, False."
    )
    with pytest.raises(ContractError) as info:
        check_vector_env(CorridorVector(fault="PG163"))
    assert info.value.report.errors[0].message == (
        "vector step() returned rewards as a list; expected an array of 3 numbers."
    )
    with pytest.raises(ContractError) as info:
        check_vector_env(CorridorVector(fault="PG161"))
    assert info.value.report.errors[0].message == (
        "observation_space has shape (2,) and dtype float32; batching "
        "single_observation_space over 3 envs gives shape (3, 2) and dtype float32."
    )


@pytest.mark.parametrize("mode", MODES)
def test_checker_vector_protogym_sync_vector_env_is_silent(mode: str) -> None:
    from protogym.vector import SyncVectorEnv
    from tests.checker.checker_testenvs import StructuralCorridor

    envs = SyncVectorEnv([StructuralCorridor for _ in range(3)], autoreset_mode=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_vector_env(envs).results == []


@pytest.mark.parametrize("mode", ["SameStep", "NextStep", "Disabled"])
def test_checker_vector_gymnasium_vector_env_is_silent(mode: str) -> None:
    gym = pytest.importorskip("gymnasium")
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    envs = SyncVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(2)],
                         autoreset_mode=AutoresetMode(mode))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_vector_env(envs).results == []


def test_checker_vector_env_given_to_check_env_is_pointed_to_check_vector_env() -> None:
    from protogym.checker import check_env

    with pytest.raises(ContractError) as info:
        check_env(CorridorVector())
    assert [r.message for r in info.value.report] == [
        "CorridorVector is a vector env; check it with protogym.checker.check_vector_env."
    ]
