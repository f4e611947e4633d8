"""`protogym check`: the report as a table, exit code 1 exactly when a contract error fired."""

from __future__ import annotations

import argparse
import io

import pytest

from protogym.checker import RULES, check_env
from protogym.cli import check
from tests.checker.checker_testenvs import StructuralCorridor, register_corridors


def faulty_pg122() -> StructuralCorridor:
    return StructuralCorridor(fault="PG122")


def faulty_pg210() -> StructuralCorridor:
    return StructuralCorridor(fault="PG210")


CORRIDOR_INSTANCE = StructuralCorridor()
MODULE = "tests.checker.test_checker_cli"


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    check.add_parser(parser.add_subparsers())
    args = parser.parse_args(["check", *argv])
    code: int = args.func(args)
    return code


def test_checker_cli_correct_class_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("tests.checker.checker_testenvs:StructuralCorridor", "--plain") == 0
    assert capsys.readouterr().out == (
        "PASS StructuralCorridor: 0 error(s), 0 warning(s), 0 hint(s)\n"
    )


def test_checker_cli_registered_id_with_render_check(capsys: pytest.CaptureFixture[str]) -> None:
    env_id = register_corridors()["subclassed"]
    assert run(env_id, "--render", "--plain") == 0
    assert capsys.readouterr().out == (
        f"PASS SubclassedCorridor<{env_id}>: 0 error(s), 0 warning(s), 0 hint(s)\n"
    )


def test_checker_cli_contract_error_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(f"{MODULE}:faulty_pg122", "--plain") == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["rule", "severity", "name", "message"]
    assert out[1].split()[:3] == ["PG122", "error", "flag-not-bool"]
    assert out[1].endswith("step() returned terminated=0 of type int, not a bool.")
    assert out[2].strip() == "fix: Return `bool(...)` for both flags."
    assert out[-1] == "FAIL StructuralCorridor: 2 error(s), 0 warning(s), 0 hint(s)"


def test_checker_cli_warnings_exit_0_and_skip_silences(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(f"{MODULE}:faulty_pg210", "--plain") == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "PASS StructuralCorridor: 0 error(s), 1 warning(s), 0 hint(s)"
    )
    assert run(f"{MODULE}:faulty_pg122", "--plain", "--skip", "PG210,PG122") == 0
    assert capsys.readouterr().out == (
        "PASS StructuralCorridor: 0 error(s), 0 warning(s), 0 hint(s); silenced: PG122\n"
    )


def test_checker_cli_checks_an_env_object_as_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(f"{MODULE}:CORRIDOR_INSTANCE", "--plain") == 0
    capsys.readouterr()


def test_checker_cli_rich_table_names_rule_and_fix() -> None:
    report = check_env(faulty_pg210(), warn=False)
    out = io.StringIO()
    check.render_report(report, out=out, width=300)
    text = out.getvalue()
    assert "PG210" in text and "reward-not-finite" in text
    assert "Return a finite reward." in text
    assert text.rstrip().endswith("PASS StructuralCorridor: 0 error(s), 1 warning(s), 0 hint(s)")


def test_checker_cli_bad_targets_say_what_is_wrong() -> None:
    with pytest.raises(SystemExit, match="protogym check: cannot import 'no_such_module_x'"):
        run("no_such_module_x:Env")
    with pytest.raises(SystemExit, match=f"protogym check: module {MODULE!r} has no attribute "
                       "'Missing'"):
        run(f"{MODULE}:Missing")


def test_checker_cli_lists_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--rules", "--plain") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "PG100  error    not-an-env: The object lacks members of the Env protocol, or its "
        "metadata is not a mapping."
    )
    assert len(lines) == 2 * len(RULES)


def test_checker_cli_vector(capsys: pytest.CaptureFixture[str]) -> None:
    env_id = register_corridors()["structural"]
    assert run(env_id, "--vector", "2", "--plain") == 0
    assert capsys.readouterr().out == (
        "PASS SyncVectorEnv: 0 error(s), 0 warning(s), 0 hint(s)\n"
    )
    with pytest.raises(SystemExit, match="--vector N takes a registered id and N >= 1"):
        run(env_id, "--vector", "0")


def test_checker_cli_needs_a_target() -> None:
    with pytest.raises(SystemExit, match="give an env id or module:Class"):
        run()
