"""The registry as Gymnasium's code uses it: a dict of id -> EnvSpec, namespaces, the errors
of a look-up, and the names of `gymnasium.envs.registration` under protogym's paths."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import protogym
import protogym.envs
import protogym.envs.registration
import protogym.registration
from protogym.error import (
    DependencyNotInstalled,
    DeprecatedEnv,
    Error,
    NameNotFound,
    NamespaceNotFound,
    PluginWarning,
    RegistrationError,
    UnregisteredEnv,
    VersionNotFound,
)
from protogym.registration import EnvSpec, Registry

WALK = "tests.core.core_test_envs:StructuralWalk"


@pytest.fixture(autouse=True)
def _clean() -> Iterator[None]:
    """Remove every id these tests register under the `dict/` namespace or `DictTest`."""
    yield
    for env_id in [i for i in protogym.registry if i.startswith(("dict/", "DictTest"))]:
        del protogym.registry[env_id]


def test_item_assignment_deletion_pop_and_copy_work_as_on_a_dict() -> None:
    registry = protogym.registry
    spec = EnvSpec("dict/Walk-v0", WALK, max_episode_steps=3)
    registry["dict/Walk-v0"] = spec
    assert registry["dict/Walk-v0"] is spec and protogym.spec("dict/Walk-v0") is spec
    assert "dict/Walk-v0" in registry.keys()  # noqa: SIM118 - Gymnasium code spells it so
    assert "dict/Walk-v0" in list(registry)
    copied = registry.copy()
    assert type(copied) is dict and copied["dict/Walk-v0"] is spec
    del registry["dict/Walk-v0"]
    assert "dict/Walk-v0" not in registry and "dict/Walk-v0" in copied
    registry["dict/Walk-v0"] = spec
    assert registry.pop("dict/Walk-v0") is spec
    assert registry.pop("dict/Walk-v0", None) is None
    with pytest.raises(KeyError):
        registry.pop("dict/Walk-v0")
    with pytest.raises(NamespaceNotFound, match="no environment namespace 'dict'"):
        del registry["dict/Walk-v0"]


def test_assigning_an_id_the_registry_has_replaces_it_without_a_warning() -> None:
    protogym.register("dict/Walk-v0", WALK)
    replacement = EnvSpec("dict/Walk-v0", WALK, max_episode_steps=9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        protogym.registry["dict/Walk-v0"] = replacement
    assert protogym.make("dict/Walk-v0").spec.max_episode_steps == 9  # type: ignore[union-attr]


def test_deleting_before_discovery_is_not_undone_by_discovery() -> None:
    calls: list[str] = []

    def discover(registry: Registry) -> None:
        calls.append("discovered")
        with registry.plugin_scope("some-plugin"):
            registry.register("p/Walk-v0", WALK)

    registry = Registry(discover=discover)
    del registry["p/Walk-v0"]
    assert calls == ["discovered"] and "p/Walk-v0" not in registry
    registry["p/Walk-v1"] = EnvSpec("p/Walk-v1", WALK)
    assert calls == ["discovered"] and list(registry) == ["p/Walk-v1"]


def test_namespace_context_registers_into_it_and_is_read_live() -> None:
    assert protogym.registration.current_namespace is None
    with protogym.registration.namespace("dict"):
        assert protogym.registration.current_namespace == "dict"
        assert protogym.envs.registration.current_namespace == "dict"
        protogym.register("Walk-v0", WALK)
        protogym.register("other/Walk-v1", WALK)  # the context's namespace wins
    protogym.register("DictTestWalk-v0", WALK)
    assert protogym.registration.current_namespace is None
    assert {"dict/Walk-v0", "dict/Walk-v1", "DictTestWalk-v0"} <= set(protogym.registry)
    assert "other/Walk-v1" not in protogym.registry


def test_namespace_context_warns_when_kwargs_ask_for_another_namespace() -> None:
    with (
        protogym.registration.namespace("dict"),
        pytest.warns(UserWarning, match="asks for namespace 'elsewhere' inside namespace"),
    ):
        protogym.register("Walk-v0", WALK, kwargs={"namespace": "elsewhere"})
    assert "dict/Walk-v0" in protogym.registry


def test_namespace_context_is_restored_after_an_error() -> None:
    with pytest.raises(RegistrationError), protogym.registration.namespace("dict"):
        protogym.register("Walk-v0")  # no entry point
    assert protogym.registration.current_namespace is None


def test_an_id_cannot_exist_with_and_without_a_version() -> None:
    protogym.register("dict/Walk-v2", WALK)
    with pytest.raises(RegistrationError, match=r"unversioned id 'dict/Walk' while .*'dict/W"):
        protogym.register("dict/Walk", WALK)
    del protogym.registry["dict/Walk-v2"]
    protogym.register("dict/Walk", WALK)
    with pytest.raises(RegistrationError, match=r"versioned id 'dict/Walk-v0' while the unver"):
        protogym.register("dict/Walk-v0", WALK)


def test_a_plugins_clashing_version_is_refused_with_a_warning_not_an_error() -> None:
    registry = Registry()
    registry.register("x/Walk-v1", WALK)
    with (
        pytest.warns(PluginWarning, match=r"plugin 'late': cannot register the unversioned id"),
        registry.plugin_scope("late"),
    ):
        assert registry.register("x/Walk", WALK) is None
        assert registry.register("x/Run", WALK) is not None  # the rest of the plugin stays
    assert sorted(registry) == ["x/Run", "x/Walk-v1"]


def test_malformed_ids_and_missing_entry_points_are_registration_errors() -> None:
    for bad in ["“Breakout-v0”", "Walk-vNone\n", "a///Walk-v0"]:
        with pytest.raises(RegistrationError, match="malformed environment id"):
            protogym.register(bad, WALK)
    with pytest.raises(Error, match="needs an entry_point"):
        protogym.register("dict/Walk-v0")
    # Gymnasium accepts any entry point text at registration; make says what is wrong.
    protogym.register("dict/Walk-v0", "no-entry-point")  # type: ignore[protogym-entry-point]
    with pytest.raises(RegistrationError, match=r"not of the form 'package\.module:Attribute'"):
        protogym.make("dict/Walk-v0")


@pytest.mark.parametrize(
    ("env_id", "error", "words"),
    [
        ("dcit/Walk-v1", NamespaceNotFound,
         "namespace 'dcit' is registered (looking up 'dcit/Walk-v1'). Did you mean 'dict'?"),
        ("dict/Wakl-v1", NameNotFound, "no env is named 'Wakl' in namespace 'dict'. Did you mean"),
        ("dict/walk-v1", NameNotFound, "Did you mean 'dict/Walk-v3'?"),
        ("dict/Rnu-v0", NameNotFound, "Did you mean 'dict/Run'?"),
        ("dict/Walk-v9", VersionNotFound, "registered versions of 'Walk': 'dict/Walk-v1', 'dict/"),
        ("dict/Walk-v0", DeprecatedEnv, "is no longer registered; use 'dict/Walk-v3'"),
        ("dict/Walk-v2", DeprecatedEnv, "use 'dict/Walk-v3'"),
        ("dict/Run-v0", DeprecatedEnv, "'Run' is registered without a version, as 'dict/Run'"),
    ],
)
def test_a_missing_id_raises_what_gymnasium_raises_there(
    env_id: str, error: type[Exception], words: str
) -> None:
    protogym.register("dict/Walk-v1", WALK)
    protogym.register("dict/Walk-v3", WALK)
    protogym.register("dict/Run", WALK)
    with pytest.raises(error) as caught:
        protogym.spec(env_id)
    assert words in str(caught.value)
    assert isinstance(caught.value, UnregisteredEnv) or error is DeprecatedEnv


def test_an_unversioned_id_makes_the_newest_version_with_a_warning() -> None:
    protogym.register("dict/Walk-v1", WALK, max_episode_steps=1)
    protogym.register("dict/Walk-v4", WALK, max_episode_steps=4)
    with pytest.warns(UserWarning, match="'dict/Walk' has no version; using .* 'dict/Walk-v4'"):
        env = protogym.make("dict/Walk")
    assert env.spec is not None and env.spec.id == "dict/Walk-v4"
    assert protogym.registration.find_highest_version("dict", "Walk") == 4
    assert protogym.registration.find_highest_version("dict", "Nothing") is None


def test_module_colon_id_imports_the_module_that_registers_the_id() -> None:
    module = "tests.registration.dict_registering_module"
    assert module not in sys.modules and "DictTestImported-v0" not in protogym.registry
    try:
        env = protogym.make("tests.registration.dict_registering_module:DictTestImported-v0")
        assert env.spec is not None and env.spec.id == "DictTestImported-v0"
        # The plugin reports the missing module too (the ignore is the test's point).
        with pytest.raises(ModuleNotFoundError, match="'no_such_module_q' to register"):
            protogym.make("no_such_module_q:DictTestImported-v0")  # type: ignore[protogym-env-id]
    finally:
        sys.modules.pop(module, None)


def test_a_missing_dependency_of_an_env_module_says_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "dict_needs_a_package.py").write_text(
        "from protogym.error import DependencyNotInstalled\n"
        "raise DependencyNotInstalled('install acme-physics: pip install acme-physics')\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        protogym.register("dict/Needy-v0", "dict_needs_a_package:Needy")  # type: ignore[protogym-entry-point]
        with pytest.raises(DependencyNotInstalled, match="pip install acme-physics"):
            protogym.make("dict/Needy-v0")
    finally:
        sys.path.remove(str(tmp_path))


def test_a_non_string_id_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"an environment id is a str .* got int: 3"):
        protogym.make(3)  # type: ignore[call-overload]


def test_gymnasium_envs_paths_hold_the_registration_names() -> None:
    for name in ("registry", "register", "make", "make_vec", "spec", "pprint_registry"):
        assert getattr(protogym.envs, name) is getattr(protogym, name)
    module: Any = protogym.envs.registration
    for name in ("EnvSpec", "WrapperSpec", "EnvCreator", "VectorEnvCreator", "VectorizeMode",
                 "registry", "namespace", "parse_env_id", "get_env_id", "find_highest_version",
                 "load_env_creator", "register_envs", "make", "make_vec", "spec", "ENV_ID_RE"):
        assert getattr(module, name) is getattr(protogym.registration, name), name
    assert module.parse_env_id("ns/Walk-v2") == ("ns", "Walk", 2)
    assert module.get_env_id("ns", "Walk", None) == "ns/Walk"
    assert module.load_env_creator(WALK).__name__ == "StructuralWalk"
    assert protogym.register_envs(protogym.envs) is None  # type: ignore[func-returns-value]
