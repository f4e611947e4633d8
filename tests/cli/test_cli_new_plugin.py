"""`protogym new-plugin`: what it writes, what it refuses, and that the scaffold works as
written: installed editable, its tests and `mypy --strict` pass and `protogym list` shows it."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from protogym.cli import main
from protogym.cli.new_plugin import package_name, scaffold


def test_the_scaffold_holds_a_package_an_env_tests_and_the_entry_point(tmp_path: Path) -> None:
    files = scaffold("acme-envs", "GridWalk", tmp_path)
    root = tmp_path / "acme-envs"
    assert sorted(str(path.relative_to(root)) for path in files) == [
        "README.md",
        "pyproject.toml",
        "src/acme_envs/__init__.py",
        "src/acme_envs/grid_walk.py",
        "src/acme_envs/plugin.py",
        "src/acme_envs/py.typed",
        "tests/test_conformance.py",
        "tests/test_grid_walk.py",
    ]
    pyproject = (root / "pyproject.toml").read_text()
    assert '[project.entry-points."protogym.plugins"]\nacme_envs = "acme_envs.plugin"' in pyproject
    plugin = (root / "src/acme_envs/plugin.py").read_text()
    assert 'id="acme_envs/GridWalk-v0"' in plugin
    assert 'entry_point="acme_envs.grid_walk:GridWalk"' in plugin
    assert 'conformance_tests("acme-envs")' in (root / "tests/test_conformance.py").read_text()


def test_existing_files_are_never_overwritten(tmp_path: Path) -> None:
    scaffold("acme-envs", "Corridor", tmp_path)
    readme = tmp_path / "acme-envs" / "README.md"
    readme.write_text("mine")
    with pytest.raises(ValueError, match=r"refusing to overwrite existing files: .*README\.md"):
        scaffold("acme-envs", "Other", tmp_path)
    assert readme.read_text() == "mine"
    assert not (tmp_path / "acme-envs" / "src" / "acme_envs" / "other.py").exists()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("acme envs", "not a valid distribution name"),
        ("-acme", "not a valid distribution name"),
        ("1acme", "which Python cannot import"),
        ("class", "which Python cannot import"),
        ("protogym", "would shadow the 'protogym' package"),
    ],
)
def test_bad_names_are_refused_with_the_reason(name: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        package_name(name)


def test_the_command_reports_bad_input_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-plugin", "ok-envs", "--env", "lower", "--dir", str(tmp_path)]) == 2
    assert "--env 'lower' is not a class name" in capsys.readouterr().out
    assert main(["new-plugin", "ok-envs", "--dir", str(tmp_path)]) == 0
    assert "wrote 8 files" in capsys.readouterr().out


@pytest.mark.slow
def test_a_scaffolded_plugin_installs_and_passes_its_tests_and_mypy(tmp_path: Path) -> None:
    """In a throwaway venv that sees this one's packages, so the editable install never
    touches the environment the other tests run in."""
    scaffold("acme-envs", "GridWalk", tmp_path)
    root = tmp_path / "acme-envs"
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(site, "_parent_env.pth").write_text(f"import site; site.addsitedir({ours!r})\n")

    wide = {**os.environ, "COLUMNS": "250"}  # rich's table keeps whole ids

    def ok(*command: str | Path, cwd: Path = root) -> str:
        result = subprocess.run(
            command, capture_output=True, text=True, cwd=cwd, timeout=600, env=wide
        )
        assert result.returncode == 0, f"{command}:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
        return result.stdout

    ok(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
       "--no-build-isolation", "-e", root)
    assert "passed" in ok(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ok(python, "-m", "mypy", "--strict", "--cache-dir", tmp_path / "mypy", "src", "tests")
    listed = ok(python, "-c", "from protogym.cli import main; main(['list'])")
    assert "acme_envs/GridWalk-v0" in listed
