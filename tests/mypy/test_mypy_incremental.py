"""Incremental mypy runs follow the installed plugin distributions.

A distribution that declares `protogym.plugins` entry points is installed (its metadata
folder appears on the path), then removed, between runs that share one mypy cache and check
an unchanged file: each run must type the file as a fresh run would, never from a stale
cache.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

RunMypy = Callable[[Path, Iterable[Path]], dict[str, list[tuple[int, str, str]]]]

PLUGIN = """\
import protogym


@protogym.hookimpl
def protogym_register_envs(registry):
    registry.register(id="stride/Strider-v0", entry_point="stride_envs.walker:Walker")
"""
WALKER = '''\
from typing import Any, SupportsFloat

import numpy as np

import protogym
from protogym.spaces import Discrete


class Walker(protogym.Env[np.int64, np.int64]):
    """Walks right until it reaches 5."""

    metadata = {"render_modes": []}
    action_space: Discrete
    observation_space: Discrete

    def __init__(self, length: int = 5) -> None:
        self.action_space = Discrete(2)
        self.observation_space = Discrete(length)
        self.position = np.int64(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.int64, dict[str, Any]]:
        self.position = np.int64(0)
        return self.position, {}

    def step(
        self, action: np.int64
    ) -> tuple[np.int64, SupportsFloat, bool, bool, dict[str, Any]]:
        self.position += action
        return self.position, 0.0, bool(self.position == 4), False, {}

    def render(self) -> None:
        return None
'''
USER = """\
import protogym

env = protogym.make("stride/Strider-v0", length=7)
reveal_type(env.unwrapped)
"""
UNKNOWN = (
    'Unknown environment id "stride/Strider-v0" (ids come from the installed registry, listed '
    "by `protogym list`, and from literal register() calls in the checked code)  "
    "[protogym-env-id]"
)

ANY_ENV = 'Revealed type is "protogym.core.Env[Any, Any]"'


def _install(site: Path) -> Path:
    """A plugin distribution's metadata, as pip would leave it; returns its folder."""
    info = site / "stride_envs-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: stride-envs\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[protogym.plugins]\nstride = stride_envs.plugin\n"
    )
    return info


def test_installing_and_removing_a_plugin_distribution_retypes_unchanged_code(
    run_mypy: RunMypy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PROTOGYM_PLUGINS", raising=False)
    package = tmp_path / "stride_envs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text(PLUGIN)
    (package / "walker.py").write_text(WALKER)
    user = tmp_path / "user.py"
    user.write_text(USER)
    monkeypatch.syspath_prepend(str(tmp_path))

    unknown = {"user.py": [(3, "E", UNKNOWN), (4, "N", ANY_ENV)]}
    assert run_mypy(tmp_path, [user]) == unknown

    info = _install(tmp_path)
    installed = {"user.py": [(4, "N", 'Revealed type is "stride_envs.walker.Walker"')]}
    assert run_mypy(tmp_path, [user]) == installed

    shutil.rmtree(info)
    assert run_mypy(tmp_path, [user]) == unknown

    _install(tmp_path)
    user.write_text(USER.replace("length=7", "lenght=7"))
    typo = (
        '"Walker" (the entry point of "stride/Strider-v0") has no parameter "lenght"; did you '
        'mean "length"? (it takes: length)  [protogym-kwargs]'
    )
    assert run_mypy(tmp_path, [user]) == {
        "user.py": [(3, "E", typo), (4, "N", 'Revealed type is "stride_envs.walker.Walker"')]
    }


DEP = "def helper() -> int:\n    return 1\n"
REGISTERS_AND_MAKES = """\
import protogym

import dep

protogym.register(id="{id}", entry_point="protogym_classic_control.cartpole:CartPoleEnv")
env = protogym.make("{id}")
dep.helper()
"""


def test_modules_reparsed_when_a_dependency_changed_keep_their_registrations(
    run_mypy: RunMypy, tmp_path: Path
) -> None:
    """When a shared dependency's interface changes, mypy parses the modules its cache held
    one at a time, as it rechecks them: the ids they register are known all the same."""
    (tmp_path / "dep.py").write_text(DEP)
    files = [tmp_path / "dep.py"]
    for name, env_id in (("early", "early/A-v0"), ("late", "late/B-v0")):
        path = tmp_path / f"{name}.py"
        path.write_text(REGISTERS_AND_MAKES.format(id=env_id))
        files.append(path)
    assert run_mypy(tmp_path, files) == {}
    (tmp_path / "dep.py").write_text(DEP + "\n\ndef other() -> str:\n    return ''\n")
    assert run_mypy(tmp_path, files) == {}
