"""`protogym list`: families of ids by default, one row per id with --all, filters."""

from __future__ import annotations

import pytest

from protogym.cli import main
from protogym.registration import EnvSpec
from protogym.registration.pprint import compact_ids, env_families


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal wide enough that rich neither wraps nor shortens the table's cells."""
    monkeypatch.setenv("COLUMNS", "200")


def spec(env_id: str, plugin: str | None = "acme") -> EnvSpec:
    return EnvSpec(id=env_id, entry_point="acme:Env", plugin=plugin)


def test_families_gather_versions_namespaces_and_capitalised_variants() -> None:
    specs = [
        spec("ALE/Pong-v5"), spec("PongNoFrameskip-v4"), spec("Pong-v4"), spec("Pong-v0"),
        spec("PongNoFrameskip-v0"), spec("Pitfall-v0"), spec("ALE/Pitfall2-v5"),
        spec("Pong-v1", plugin="other"), spec("Walker"),
    ]
    assert env_families(specs) == [
        ("Pitfall", "acme", ["Pitfall-v0"]),
        ("Pitfall2", "acme", ["ALE/Pitfall2-v5"]),  # a digit suffix is another game
        ("Pong", "acme", ["Pong-v0", "Pong-v4", "PongNoFrameskip-v0", "PongNoFrameskip-v4",
                          "ALE/Pong-v5"]),
        ("Walker", "acme", ["Walker"]),
        ("Pong", "other", ["Pong-v1"]),  # families never span plugins
    ]


def test_compact_ids_join_the_versions_of_one_name() -> None:
    ids = ["Pong-v0", "Pong-v4", "PongNoFrameskip-v0", "ALE/Pong-v5", "Walker"]
    assert compact_ids(ids) == "Pong-v0/v4, PongNoFrameskip-v0, ALE/Pong-v5, Walker"


def test_list_shows_one_row_per_family_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "cartpole"]) == 0
    out = capsys.readouterr().out
    assert "CartPole-v0/v1" in out and "protogym-classic-control" in out
    assert "2 ids in 1 families from 1 plugin;" in out


def test_list_all_and_filters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "MountainCar", "--all"]) == 0
    out = capsys.readouterr().out
    assert "MountainCarContinuous-v0" in out and "max steps" in out and "999" in out
    assert main(["list", "--plugin", "protogym-toy-text", "taxi"]) == 0
    assert "Taxi-v3/v4" in capsys.readouterr().out
    assert main(["list", "nothing-like-this", "--namespace", "acme"]) == 1
    assert "matches the pattern 'nothing-like-this' and namespace 'acme'" in (
        capsys.readouterr().out
    )
