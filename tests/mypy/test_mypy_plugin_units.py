"""The plugin's pieces that need no mypy run: the registry view and the source scan."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from mypy.nodes import MypyFile, SymbolTableNode

from protogym.mypy.known_ids import (
    InstalledRegistry,
    KnownEnv,
    SourceRegistration,
    installation_digest,
    load_installed,
    plugin_packages,
    scan_registrations,
)
from protogym.mypy.make_types import MakeTyper
from protogym.registration.env_spec import EnvSpec, WrapperSpec


def _no_modules() -> dict[str, MypyFile]:
    return {}


def _no_lookup(fullname: str) -> SymbolTableNode | None:
    return None


def _broken_registry() -> tuple[Iterable[Any], dict[str, Any]]:
    raise RuntimeError("plugin acme failed")


def test_installed_registry_is_read_from_specs() -> None:
    specs = [
        EnvSpec(id="a/Corridor-v0", entry_point="acme.envs:Corridor", plugin="acme-envs"),
        EnvSpec(id="a/Old-v0", entry_point=KnownEnv, api="done"),
        EnvSpec(id="a/Vector-v0", vector_entry_point="acme.vector:Corridors"),
    ]
    wrappers = {
        "acme/Scale": WrapperSpec(name="acme/Scale", entry_point="acme.wrappers:Scale"),
        "acme/Lambda": WrapperSpec(name="acme/Lambda"),
    }
    installed = load_installed(lambda: (specs, wrappers))
    assert installed.error is None
    assert installed.wrappers == {"acme/Scale": "acme.wrappers:Scale"}
    assert installed.envs == {
        "a/Corridor-v0": KnownEnv(
            id="a/Corridor-v0",
            entry_point="acme.envs:Corridor",
            api="terminated_truncated",
        ),
        "a/Old-v0": KnownEnv(
            id="a/Old-v0",
            entry_point="protogym.mypy.known_ids:KnownEnv",
            api="done",
        ),
        "a/Vector-v0": KnownEnv(
            id="a/Vector-v0",
            entry_point=None,
            api="terminated_truncated",
            vector_entry_point="acme.vector:Corridors",
        ),
    }


def test_a_broken_registry_only_disables_installed_ids_and_says_why() -> None:
    installed = InstalledRegistry(_broken_registry)
    assert installed.envs == {}
    assert installed.error == "RuntimeError: plugin acme failed"
    typer = MakeTyper(installed, _no_modules, _no_lookup)
    assert typer.unknown_id_message("CartPole-v1") == (
        'Unknown environment id "CartPole-v1" (ids come from the installed registry, listed by '
        "`protogym list`, and from literal register() calls in the checked code); the "
        "installed registry could not be loaded: RuntimeError: plugin acme failed"
    )


def test_installation_digest_follows_the_plugin_selection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROTOGYM_PLUGINS", raising=False)
    everything = installation_digest()
    assert installation_digest() == everything
    monkeypatch.setenv("PROTOGYM_PLUGINS", "none")
    assert installation_digest() != everything


def test_installation_digest_follows_an_editable_plugins_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing an editable install's plugin module (or a module beside it) changes no
    metadata, but must still invalidate the saved registry."""
    dist_info = tmp_path / "acme_envs-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "entry_points.txt").write_text("[protogym.plugins]\nacme = acme_envs.plugin\n")
    package = tmp_path / "acme_envs"
    package.mkdir()
    (package / "plugin.py").write_text("IDS = ['acme/A-v0']\n")
    (package / "table.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = installation_digest()
    assert installation_digest() == before
    (package / "table.py").write_text("X = 22\n")
    after_table = installation_digest()
    assert after_table != before
    (package / "plugin.py").write_text("IDS = ['acme/A-v0', 'acme/B-v0']\n")
    assert installation_digest() not in (before, after_table)
    assert "acme_envs" in plugin_packages()


SOURCE = '''\
import atexit
import protogym
from protogym import register
from my_envs import Corridor

register("mine/Direct-v0", Corridor)
protogym.register(id="mine/Old-v0", entry_point="my_envs:Old", api="done",
                  vector_entry_point="my_envs:OldVector")
protogym.register(id=ENV_ID, entry_point="my_envs:Computed")
atexit.register(print)


def protogym_register_envs(registry):
    registry.register(id="mine/Hooked-v0", entry_point=envs.Corridor)
'''


def test_scan_finds_literal_register_calls_in_both_spellings(tmp_path: Path) -> None:
    path = tmp_path / "my_package.py"
    path.write_text(SOURCE)
    found = scan_registrations(str(path), "my_package")
    assert [(r.id, r.entry_point, r.class_ref, r.api, r.vector_entry_point) for r in found] == [
        ("mine/Direct-v0", None, "Corridor", "terminated_truncated", None),
        ("mine/Old-v0", "my_envs:Old", None, "done", "my_envs:OldVector"),
        ("mine/Hooked-v0", None, "envs.Corridor", "terminated_truncated", None),
    ]
    assert all(isinstance(r, SourceRegistration) and r.module_id == "my_package" for r in found)


def test_scan_skips_files_that_do_not_mention_protogym_or_do_not_parse(tmp_path: Path) -> None:
    unrelated = tmp_path / "unrelated.py"
    unrelated.write_text('gymnasium.register(id="Other-v0", entry_point="x:Y")\n')
    broken = tmp_path / "broken.py"
    broken.write_text("import protogym\nprotogym.register(id='x-v0',\n")
    assert scan_registrations(str(unrelated), "unrelated") == []
    assert scan_registrations(str(broken), "broken") == []
    assert scan_registrations(str(tmp_path / "missing.py"), "missing") == []


def test_only_code_that_can_call_make_is_rechecked_when_plugins_change() -> None:
    """The cache key of an installed library that is neither protogym nor a plugin
    distribution does not follow the installed plugins: numpy or torch is not re-checked
    after `pip install` of an env plugin."""
    from mypy.options import Options
    from mypy.plugin import ReportConfigContext

    from protogym.mypy.plugin import ProtogymPlugin

    plugin = ProtogymPlugin(Options())
    site = os.path.join(os.sep, "venv", "lib", "site-packages")

    def key(module: str, path: str) -> str:
        return plugin.report_config_data(ReportConfigContext(module, path, is_check=False))

    assert key("torch.nn", os.path.join(site, "torch", "nn", "__init__.pyi")) == ""
    assert key("os", os.path.join(os.sep, "mypy", "typeshed", "stdlib", "os.pyi")) == ""
    digest = key("agent", os.path.join(os.sep, "home", "me", "agent.py"))
    assert digest != ""
    assert key("protogym.core", os.path.join(site, "protogym", "core.py")) == digest
    plugin_module = os.path.join(site, "protogym_toy_text", "frozen_lake.py")
    assert key("protogym_toy_text.frozen_lake", plugin_module) == digest


def test_the_installed_registry_is_saved_for_the_next_run_and_a_broken_one_is_not(
    tmp_path: Path,
) -> None:
    specs = [
        EnvSpec(id="a/Corridor-v0", entry_point="acme.envs:Corridor"),
        EnvSpec(id="a/Vector-v0", vector_entry_point="acme.vector:Corridors"),
    ]
    wrappers = {"acme/Scale": WrapperSpec(name="acme/Scale", entry_point="acme.wrappers:Scale")}
    saved = str(tmp_path / "cache" / "protogym-registry-abc.json")
    loaded = InstalledRegistry(lambda: (specs, wrappers), saved=saved).envs
    assert set(loaded) == {"a/Corridor-v0", "a/Vector-v0"}
    # The next run reads the file and never loads the registry (this loader would fail).
    second = InstalledRegistry(_broken_registry, saved=saved)
    assert second.envs == loaded
    assert second.wrappers == {"acme/Scale": "acme.wrappers:Scale"}
    assert second.error is None

    broken = str(tmp_path / "cache" / "protogym-registry-def.json")
    assert InstalledRegistry(_broken_registry, saved=broken).error is not None
    assert not Path(broken).exists()
    (tmp_path / "cache" / "protogym-registry-bad.json").write_text("{not json")
    garbled = InstalledRegistry(
        lambda: (specs, wrappers), saved=str(tmp_path / "cache" / "protogym-registry-bad.json")
    )
    assert set(garbled.envs) == {"a/Corridor-v0", "a/Vector-v0"}
