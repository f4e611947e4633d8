"""Every command takes every id form: a plain id, a namespaced id, ``gymnasium:ID``,
``gymnasium:PKG:ID`` (tried as an id first, never read as attribute ``PKG:ID`` of module
``gymnasium``) and ``module:Class``; bad targets get a message that says what was tried."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import protogym
from protogym.cli import main
from protogym.cli.targets import TargetError, load_env
from tests.cli import gymnasium_corridor

PLAIN = "CliCorridor-v0"
NAMESPACED = "cli-targets/Corridor-v0"
ENTRY_POINT = "tests.cli.gymnasium_corridor:ProtogymCorridor"
TARGETS = {
    "plain": PLAIN,
    "namespaced": NAMESPACED,
    "gymnasium:ID": "gymnasium:CartPole-v1",
    "gymnasium:PKG:ID": gymnasium_corridor.PROTOGYM_ID,
    "module:Class": ENTRY_POINT,
}
FORMS = pytest.mark.parametrize("target", list(TARGETS.values()), ids=list(TARGETS))


@pytest.fixture(autouse=True)
def corridor_ids() -> Iterator[None]:
    protogym.register(PLAIN, entry_point=ENTRY_POINT, max_episode_steps=20, kwargs={"length": 3})
    protogym.register(NAMESPACED, entry_point=ENTRY_POINT, max_episode_steps=20)
    try:
        yield
    finally:
        protogym.registry.unregister(PLAIN)
        protogym.registry.unregister(NAMESPACED)


@FORMS
def test_check_takes_the_target(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", target, "--plain"]) == 0
    verdict = capsys.readouterr().out.splitlines()[-1]
    assert verdict.startswith("PASS ") and ": 0 error(s)" in verdict
    if target != ENTRY_POINT:
        assert f"<{target}>:" in verdict


@FORMS
def test_describe_takes_the_target(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["describe", target, "--plain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(target)
    assert lines[1]  # the summary paragraph
    assert any(line.split()[:2] == ["action", "space"] and "Discrete(2)" in line
               for line in lines)


@FORMS
def test_run_takes_the_target(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", target, "--episodes", "2", "--seed", "0", "--plain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{target}: random agent, 2 episodes, seed 0\n")
    assert "mean return" in out


@FORMS
def test_record_takes_the_target(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["record", target, "--out", str(tmp_path), "--seed", "0", "--max-steps",
                 "10"]) == 0
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0


@FORMS
def test_play_takes_the_target(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[Any] = []

    def player(env: Any, **kwargs: Any) -> None:
        played.append(env.render_mode)

    monkeypatch.setattr("protogym.utils.play.play", player)
    assert main(["play", target]) == 0
    assert played == ["rgb_array"]


def test_a_gymnasium_package_id_is_an_id_not_module_and_attribute() -> None:
    env = load_env(gymnasium_corridor.PROTOGYM_ID)
    try:
        assert env.spec is not None and env.spec.id == gymnasium_corridor.PROTOGYM_ID
        assert env.spec.max_episode_steps == 20
    finally:
        env.close()


def test_a_missing_gymnasium_package_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    target = "gymnasium:no_such_package_x:Corridor-v0"
    with pytest.raises(SystemExit) as raised:
        main(["check", target])
    assert "no_such_package_x" in str(raised.value)
    assert "has no attribute" not in str(raised.value)
    for command in ("describe", "run", "play"):
        assert main([command, target]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"protogym {command}: ") and "no_such_package_x" in err


def test_an_unknown_id_says_so_in_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("describe", "run", "play"):
        assert main([command, "NoSuchCorridor-v0"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"protogym {command}: no environment is registered as "
                              "'NoSuchCorridor-v0'")
    with pytest.raises(SystemExit, match="protogym check: no environment is registered as"):
        main(["check", "NoSuchCorridor-v0"])


def test_a_bad_entry_point_says_it_is_no_id_either() -> None:
    with pytest.raises(TargetError, match=r"cannot import 'no_such_module_x': .*\('no_such_module_x"
                       r":Env' is no registered id either\)"):
        load_env("no_such_module_x:Env")
    with pytest.raises(TargetError, match=r"module 'tests\.cli\.gymnasium_corridor' has no "
                       r"attribute 'Missing'"):
        load_env("tests.cli.gymnasium_corridor:Missing")


def test_entry_points_are_refused_where_a_command_takes_ids_only() -> None:
    with pytest.raises(TargetError, match="no environment is registered as"):
        load_env(ENTRY_POINT, entry_points=False)


def test_a_make_failure_is_reported_with_the_id() -> None:
    with pytest.raises(TargetError, match=f"cannot make '{PLAIN}': .*'no_such_argument'"):
        protogym.registry.unregister(PLAIN)
        protogym.register(PLAIN, entry_point=ENTRY_POINT, kwargs={"no_such_argument": 1})
        load_env(PLAIN)


def test_an_entry_point_gets_the_render_mode_and_a_time_limit() -> None:
    env = load_env(ENTRY_POINT, render_mode="rgb_array", max_episode_steps=2)
    env.reset(seed=0)
    assert env.unwrapped.render_mode == "rgb_array"
    assert env.step(0)[3] is False and env.step(0)[3] is True  # truncated at the limit
