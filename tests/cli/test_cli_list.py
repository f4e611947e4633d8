"""`protogym list`: a count per plugin family first, then each family's envs (Atari's games as
one row unless asked for), one row per id with --all, filters, and Gymnasium's ids."""

from __future__ import annotations

import re

import pytest

from protogym.cli import main
from protogym.registration import EnvSpec
from protogym.registration.pprint import compact_ids, env_families


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal wide enough that rich neither wraps nor shortens the table's cells."""
    monkeypatch.setenv("COLUMNS", "200")


def rows(text: str | list[str]) -> list[list[str]]:
    """The cells of each line of plain output (columns are two or more spaces apart)."""
    lines = text.splitlines() if isinstance(text, str) else text
    return [re.split(r"\s{2,}", line.strip()) for line in lines]


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
    assert "phys2d/CartPole-v0/v1" in out and "protogym-functional" in out
    assert "4 ids from 2 plugins;" in out


def test_the_first_screen_counts_each_family_then_lists_the_small_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["list", "--plain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["family", "plugin", "envs", "ids"]
    counts = {}
    for line in lines[2:]:
        if not line:
            break
        *name, _distribution, _version, envs, ids = line.split()
        counts[" ".join(name)] = (int(envs), int(ids))
    assert counts["Classic control"] == (4, 6)
    assert counts["Atari"] == (104, 352)
    # families spelled as people spell them, alphabetical, and the large one last, as one row
    assert {"Box2D", "Classic control", "Toy text"} <= set(counts)
    assert list(counts)[:-1] == sorted(list(counts)[:-1], key=str.lower)
    assert list(counts)[-1] == "Atari"
    text = "\n".join(lines)
    assert ["CartPole", "CartPole-v0/v1"] in rows(lines)
    assert "Atari (protogym-atari " in text and ": 104 envs, Adventure, AirRaid," in text
    assert "Pong-v0/v4" not in text
    assert "`protogym list --plugin atari` lists them with their ids" in text


def test_a_family_filter_or_a_pattern_lists_every_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for filters in (["--plugin", "atari"], ["--plugin", "Atari"], ["--plugin", "protogym-atari"]):
        assert main(["list", "--plain", *filters]) == 0
        out = capsys.readouterr().out
        assert ["Pong", "Pong-v0/v4, PongNoFrameskip-v0/v4, ALE/Pong-v5"] in rows(out)
        assert "352 ids from 1 plugin;" in out
    assert main(["list", "--plain", "pong"]) == 0
    assert "Pong-v0/v4, PongNoFrameskip-v0/v4, ALE/Pong-v5" in capsys.readouterr().out


def test_list_reads_gymnasium_ids_as_make_spells_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["list", "--plain", "gymnasium:ale_py:pong"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[2:-1]] == [
        "gymnasium:ale_py:ALE/Pong-v5", "gymnasium:ale_py:Pong-v0", "gymnasium:ale_py:Pong-v4",
        "gymnasium:ale_py:PongNoFrameskip-v0", "gymnasium:ale_py:PongNoFrameskip-v4",
    ]
    assert out[-1] == "5 Gymnasium ids; each works wherever protogym takes an id"
    assert main(["list", "--plain", "gymnasium:CartPole-v1"]) == 0
    cartpole = "gymnasium.envs.classic_control.cartpole:CartPoleEnv"
    assert ["gymnasium:CartPole-v1", "500", cartpole] in rows(capsys.readouterr().out)
    assert main(["list", "gymnasium:no_such_package_x:Foo"]) == 2
    assert "cannot list 'gymnasium:no_such_package_x:Foo': No module named" in (
        capsys.readouterr().err
    )


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
