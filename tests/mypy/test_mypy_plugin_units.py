"""The plugin's pieces that need no mypy run: the registry view and the source scan."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from mypy.nodes import MypyFile, SymbolTableNode

from protogym.mypy.deps import modules_named
from protogym.mypy.env_ids import EnvIds
from protogym.mypy.known_ids import (
    ENV_SPEC_PARAMETERS,
    FOREIGN_ID_PREFIXES,
    REGISTER_PARAMETERS,
    InstalledRegistry,
    KnownEnv,
    SourceRegistration,
    installation_digest,
    load_installed,
    plugin_packages,
    scan_registrations,
)
from protogym.mypy.make_types import VECTORIZE_MODE
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
    ids = EnvIds(installed, _no_modules)
    assert ids.unknown_id_message("CartPole-v1") == (
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


GYMNASIUM_STYLE = '''\
import protogym
from protogym.registration import EnvSpec, namespace

with protogym.registration.namespace("ns"), open("log") as log:
    protogym.register("Walk-v0", "my_envs:Walk")
    protogym.register("other/Run-v1", "my_envs:Run", None, False, 10, True, False, (),
                      "my_envs:RunVector", {"speed": 2})
    with namespace("inner"):
        protogym.register("Hop", "my_envs:Hop")

    def later():
        protogym.register("Later-v0", "my_envs:Later")

with namespace(NAME):
    protogym.register("Hidden-v0", "my_envs:Hidden")

protogym.registry["Item-v0"] = EnvSpec("Item-v0", "my_envs:Item", None, False, 5, True,
                                       False, {}, (), "my_envs:ItemVector", api="done")
protogym.registry[ITEM] = EnvSpec(ITEM, "my_envs:Computed")
cache["Cached-v0"] = EnvSpec("Cached-v0", "my_envs:Cached")
'''


def test_scan_reads_namespace_blocks_registry_items_and_positional_arguments(
    tmp_path: Path,
) -> None:
    path = tmp_path / "gym_style.py"
    path.write_text(GYMNASIUM_STYLE)
    found = scan_registrations(str(path), "gym_style")
    assert [(r.id, r.entry_point, r.api, r.vector_entry_point) for r in found] == [
        ("ns/Walk-v0", "my_envs:Walk", "terminated_truncated", None),
        # The block's namespace replaces the id's own, as register() does at run time.
        ("ns/Run-v1", "my_envs:Run", "terminated_truncated", "my_envs:RunVector"),
        ("inner/Hop", "my_envs:Hop", "terminated_truncated", None),
        # A function defined in the block registers when called, outside it.
        ("Later-v0", "my_envs:Later", "terminated_truncated", None),
        # An item is stored as it is: no namespace; EnvSpec's own positional order.
        ("Item-v0", "my_envs:Item", "done", "my_envs:ItemVector"),
    ]


def test_the_scanners_argument_orders_are_the_real_signatures() -> None:
    import inspect

    import attrs

    from protogym.registration.registry import Registry

    register = [
        p.name
        for p in inspect.signature(Registry.register).parameters.values()
        if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and p.name != "self"
    ]
    assert tuple(register) == REGISTER_PARAMETERS
    positional = [f.name for f in attrs.fields(EnvSpec) if not f.kw_only]
    assert tuple(positional) == ENV_SPEC_PARAMETERS


def test_vectorize_mode_values_are_the_member_names_in_lower_case() -> None:
    """The plugin reads `VectorizeMode.SYNC` as the mode "sync" by its name."""
    from protogym.registration import VectorizeMode

    assert {mode.name.lower(): mode.value for mode in VectorizeMode} == {
        mode.value: mode.value for mode in VectorizeMode
    }
    assert f"{VectorizeMode.__module__}.{VectorizeMode.__qualname__}" == VECTORIZE_MODE


def test_the_foreign_id_prefixes_are_the_registrys() -> None:
    from protogym.registration.registry import BUILTIN_ID_PREFIXES

    assert set(BUILTIN_ID_PREFIXES) == FOREIGN_ID_PREFIXES


def test_string_literals_bring_the_modules_of_what_they_name_into_the_build() -> None:
    specs = [
        EnvSpec(id="a/Walk-v1", entry_point="walk_envs.v1:Walk", vector_entry_point="walk_vec:W"),
        EnvSpec(id="a/Walk-v2", entry_point="walk_envs.v2:Walk"),
    ]
    wrappers = {"a/Scale": WrapperSpec(name="a/Scale", entry_point="scale_mod:Scale")}
    installed = InstalledRegistry(lambda: (specs, wrappers))
    assert modules_named("a/Walk-v1", installed) == ["walk_envs.v1", "walk_vec"]
    assert modules_named("a/Walk", installed) == ["walk_envs.v2", None]  # the newest version
    assert modules_named("a/Scale", installed) == ["scale_mod"]
    assert modules_named("my_envs.corridor:Corridor", installed) == ["my_envs.corridor"]
    # "module:id": the module that registers the id, and the id's own modules if installed.
    assert modules_named("my_envs:a/Walk-v2", installed) == ["my_envs", "walk_envs.v2", None]
    assert modules_named("my_envs:Corridor-v0", installed) == ["my_envs"]
    # Not ids: another library's registry, a URL, a "key:value" pair, a plain word.
    for literal in ["gymnasium:a/Walk-v2", "http://example.org", "key:value-x", "sync"]:
        assert modules_named(literal, installed) == [], literal


def _ids_with(installed: list[str], own: dict[str, str] | None = None) -> EnvIds:
    specs = [EnvSpec(id=env_id, entry_point="pkg:Env") for env_id in installed]
    registry = InstalledRegistry(lambda: (specs, {}))
    ids = EnvIds(registry, _no_modules)
    ids._own = ids._all = {
        env_id: SourceRegistration(
            id=env_id, entry_point=entry, api="terminated_truncated", module_id="mine",
            class_ref=None,
        )
        for env_id, entry in (own or {}).items()
    }
    return ids


def test_ids_are_found_as_make_finds_them() -> None:
    ids = _ids_with(["Walk-v1", "Walk-v3", "a/Hop-v0"], {"Walk-v4": "mine:Walk", "Run": "mine:Run"})
    found = {
        text: known.id if (known := ids.known(text)) is not None else None
        for text in [
            "Walk-v1", "Walk", "a/Hop", "Run", "some.module:Walk-v3", "some.module:Walk",
            "Walk-v2", "b/Hop", "gymnasium:Walk-v1",
        ]
    }
    assert found == {
        "Walk-v1": "Walk-v1",
        "Walk": "Walk-v4",  # the newest version, registered in the checked code
        "a/Hop": "a/Hop-v0",
        "Run": "Run",
        "some.module:Walk-v3": "Walk-v3",
        "some.module:Walk": "Walk-v4",
        "Walk-v2": None,
        "b/Hop": None,
        "gymnasium:Walk-v1": None,  # Gymnasium's registry: known only at run time
    }
    assert ids.problem("gymnasium:Walk-v1") is None
    assert ids.problem("Walk-v2") == ids.unknown_id_message("Walk-v2")
    assert ids.installed.newest("Walk") == "Walk-v3"
    assert ids.installed.newest("Walk-v1") is None


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
