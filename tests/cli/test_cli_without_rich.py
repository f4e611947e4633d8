"""Without the `cli` extra (no rich), every command works and prints plain text."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from protogym.cli import build_parser, main

BOX_DRAWING = set("┏┓┗┛┃━│─┡┩╇")


@pytest.fixture(autouse=True)
def no_rich(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """rich as if it were not installed: importing it or any of its modules fails."""
    for name in [name for name in sys.modules if name == "rich" or name.startswith("rich.")]:
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("rich", "rich.console", "rich.table", "rich.progress"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError):
        from rich.console import Console  # noqa: F401
    yield


def plain(out: str) -> str:
    assert not BOX_DRAWING & set(out), f"rich's tables in the output:\n{out}"
    return out


def test_every_command_is_tested_here() -> None:
    (subcommands,) = [
        action for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    commands = set(subcommands.choices)
    assert commands == {"list", "describe", "run", "check", "play", "record", "stubs",
                        "new-plugin"}


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = plain(capsys.readouterr().out)
    assert out.splitlines()[0].split() == ["family", "plugin", "envs", "ids"]
    assert main(["list", "CartPole", "--all"]) == 0
    assert "CartPole-v1" in plain(capsys.readouterr().out)


def test_describe(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["describe", "FrozenLake-v1"]) == 0
    out = plain(capsys.readouterr().out)
    assert re.search(r"^observation space +Discrete\(16\)$", out, re.M)
    assert re.search(r"^is_slippery +True$", out, re.M)


def test_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "CartPole-v1", "--episodes", "2", "--seed", "0"]) == 0
    out = plain(capsys.readouterr().out)
    assert out.startswith("CartPole-v1: random agent, 2 episodes, seed 0\n")
    assert "mean return" in out


def test_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "FrozenLake-v1"]) == 0
    assert plain(capsys.readouterr().out).startswith("PASS ")
    assert main(["check", "--rules"]) == 0
    assert plain(capsys.readouterr().out).startswith("PG100")


def test_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "CartPole-v1", "--out", str(tmp_path), "--seed", "0"]) == 0
    assert "episode 0:" in plain(capsys.readouterr().out)


def test_play(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[Any] = []
    monkeypatch.setattr("protogym.utils.play.play", lambda env, **kwargs: played.append(env))
    assert main(["play", "FrozenLake-v1"]) == 0
    assert len(played) == 1


def test_stubs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stubs", "--output", str(tmp_path)]) == 0
    plain(capsys.readouterr().out)
    assert any(tmp_path.rglob("*.pyi"))


def test_new_plugin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-plugin", "plain-envs", "--dir", str(tmp_path)]) == 0
    assert "wrote 8 files" in plain(capsys.readouterr().out)
