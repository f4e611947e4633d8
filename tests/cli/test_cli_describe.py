"""`protogym describe ID` says what the env's docs page says: the one-paragraph summary, the
spec and spaces, and the constructor arguments with their defaults and what the id sets."""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from importlib import metadata

import pytest

import protogym
from protogym.cli import env_info, main
from tests.cli import gymnasium_corridor

ENTRY_POINT = "tests.cli.gymnasium_corridor:ProtogymCorridor"


@pytest.fixture
def short_corridor() -> Iterator[str]:
    protogym.register("describe-test/Corridor-v0", entry_point=ENTRY_POINT,
                      max_episode_steps=20, kwargs={"length": 3})
    try:
        yield "describe-test/Corridor-v0"
    finally:
        protogym.registry.unregister("describe-test/Corridor-v0")


def cells(out: str) -> list[list[str]]:
    return [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()]


def test_describe_opens_with_the_summary_and_lists_the_arguments(
    short_corridor: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["describe", short_corridor, "--plain"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"{short_corridor} (Registered in code)"
    assert lines[1] == ("The same corridor as a structural protogym env (no base class), for "
                        "the plain, namespaced and module:Class forms of a target.")
    rows = cells(out)
    assert ["max episode steps", "20"] in rows
    assert ["registered arguments", "length=3"] in rows
    assert ["observation space", "Discrete(3)"] in rows
    assert ["render modes", "rgb_array"] in rows
    header = rows.index(["argument", "default", "set by the id"])
    assert rows[header + 2 : header + 4] == [["length", "5", "3"], ["render_mode", "None"]]


def test_describe_names_the_plugin_family_and_its_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["describe", "CartPole-v1", "--plain"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    version = metadata.version("protogym-classic-control")
    assert first == f"CartPole-v1 (Classic control: protogym-classic-control {version})"


def test_a_gymnasium_id_is_described_by_gymnasium_s_own_class(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["describe", gymnasium_corridor.PROTOGYM_ID, "--plain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{gymnasium_corridor.PROTOGYM_ID} (from Gymnasium's registry)"
    assert lines[1] == ("Walk a corridor of `length` cells from the left end; reaching the right "
                        "end pays 1.")
    assert ["length", "5"] in cells("\n".join(lines))


def test_summary_is_the_first_paragraph_without_headings_or_link_targets() -> None:
    def documented() -> None:
        """## Description

        Balance a pole, as in
        [Barto et al.](https://example.org/paper).

        More detail that the summary leaves out.
        """

    assert env_info.summary(documented) == "Balance a pole, as in Barto et al.."


def test_summary_follows_a_pointer_to_the_module_docstring(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = types.ModuleType("describe_fixture_module", "Land softly on the pad.\n\nDetails.")
    cls = type("Lander", (), {"__doc__": "Land; see the module docstring for the spaces.",
                              "__module__": module.__name__})
    monkeypatch.setitem(sys.modules, module.__name__, module)
    assert env_info.summary(cls) == "Land softly on the pad."


@pytest.mark.parametrize(
    ("distribution", "name", "slug"),
    [
        ("protogym-classic-control", "Classic control", "classic-control"),
        ("protogym-toy-text", "Toy text", "toy-text"),
        ("protogym-box2d", "Box2D", "box2d"),
        ("protogym-atari", "Atari", "atari"),
        ("protogym-mujoco", "MuJoCo", "mujoco"),
        ("acme-robot_envs", "Acme robot envs", "acme-robot-envs"),
        (None, "Registered in code", "registered-in-code"),
    ],
)
def test_family_names_are_spelled_as_people_spell_them(
    distribution: str | None, name: str, slug: str
) -> None:
    assert env_info.family_name(distribution) == name
    assert env_info.family_slug(distribution) == slug


def test_short_space_fits_on_one_line() -> None:
    from protogym.spaces import Box, Dict, Discrete

    assert env_info.short_space(Box(0, 255, (210, 160, 3), "uint8")) == "Box(210, 160, 3) uint8"
    assert env_info.short_space(Discrete(4)) == "Discrete(4)"
    long = Dict({f"key{i}": Discrete(2) for i in range(20)})
    text = env_info.short_space(long, limit=40)
    assert len(text) == 40 and text.endswith("…") and "\n" not in text
