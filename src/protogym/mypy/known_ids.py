"""Which env ids the plugin knows, and where each one's class lives.

Two sources: the registry as the user has it installed (what `protogym.registry` holds in a
fresh process: the installed plugins' ids; discovery imports plugin modules but no env
module), and literal registrations in the files mypy is checking (``register(id=..., ...)``,
inside ``with namespace(...)`` too, and ``registry["id"] = EnvSpec(...)``). The
second source is read from the source text with `ast`, not from mypy's trees: modules loaded
from mypy's incremental cache have no statements left to look at, and a program that
registers an id in one module and makes it in another must not get a false error when only
the second one changed.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

_ENTRY_POINT_SEP = ":"
# The names of `protogym.registration.plugins`, repeated so that the cache key can be computed
# without importing the registry (and pluggy).
PLUGIN_GROUP = "protogym.plugins"
SELECTION_ENV_VAR = "PROTOGYM_PLUGINS"


@dataclass(frozen=True, kw_only=True)
class KnownEnv:
    """An env id and what the plugin needs to type `make(id)`.

    `entry_point` is ``"module:attribute"`` (an attribute path may be dotted), or None for an
    id whose entry point is not written literally (a vector-only env, or a lambda).
    `vector_entry_point` is the same for the id's native vector env.
    """

    id: str
    entry_point: str | None
    api: str
    vector_entry_point: str | None = None


def split_entry_point(entry_point: str | None) -> tuple[str | None, str | None]:
    """``"module:attribute"`` -> ``(module, attribute)``; `(None, None)` if not of that form."""
    if entry_point is None or _ENTRY_POINT_SEP not in entry_point:
        return None, None
    module, attribute = entry_point.split(_ENTRY_POINT_SEP, 1)
    return module, attribute


# "[namespace/]Name[-vN]" (the registry's own pattern would cost the checker an import of the
# registry); lenient, since it only groups ids, never rejects one.
_ID_PARTS = re.compile(r"(?:(?P<namespace>[^/]*)/)?(?P<name>[^/]+?)(?:-v(?P<version>\d+))?")
_MODULE_PREFIX = re.compile(r"(?P<module>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):(?P<rest>.+)")

IdParts = tuple[str | None, str, int | None]


def parse_id(env_id: str) -> IdParts | None:
    """``(namespace, name, version)`` of an id, or None if it has none of that shape."""
    match = _ID_PARTS.fullmatch(env_id)
    if match is None:
        return None
    version = match["version"]
    return match["namespace"], match["name"], None if version is None else int(version)


def module_prefix(env_id: str) -> tuple[str, str] | None:
    """``"module:Name-vN"`` -> ``("module", "Name-vN")``: `make` imports the module first,
    for the ids it registers, then looks the rest up. None for any other id."""
    match = _MODULE_PREFIX.fullmatch(env_id)
    return None if match is None else (match["module"], match["rest"])


def looks_like_id(text: str) -> bool:
    """Whether `text` has a version or a namespace, as most ids do: what makes a string
    literal ``"a:b"`` worth reading as ``"module:id"`` (``"key:value"`` is not)."""
    parts = parse_id(text)
    return parts is not None and (parts[0] is not None or parts[2] is not None)


# The registry's `BUILTIN_ID_PREFIXES`, repeated: importing the registry costs the checker
# tens of milliseconds (a unit test keeps the two equal).
FOREIGN_ID_PREFIXES = frozenset({"gymnasium", "gymnax"})


def foreign(env_id: str) -> bool:
    """Whether `env_id` reaches another library's registry (``gymnasium:...``): its types
    are unknown until run time, so it is typed like any env, never an unknown id."""
    prefix, colon, _ = env_id.partition(":")
    return bool(colon) and prefix in FOREIGN_ID_PREFIXES


def newest_versions(ids: Iterable[str]) -> dict[tuple[str | None, str], str]:
    """``(namespace, name)`` -> the id of its highest version, among the versioned `ids`:
    what `make` builds for an id given without its version."""
    best: dict[tuple[str | None, str], tuple[int, str]] = {}
    for env_id in ids:
        parts = parse_id(env_id)
        if parts is None or parts[2] is None:
            continue
        key = (parts[0], parts[1])
        if key not in best or parts[2] > best[key][0]:
            best[key] = (parts[2], env_id)
    return {key: env_id for key, (_, env_id) in best.items()}


def unversioned_key(env_id: str) -> tuple[str | None, str] | None:
    """``(namespace, name)`` of an id written without a version, else None."""
    parts = parse_id(env_id)
    return None if parts is None or parts[2] is not None else (parts[0], parts[1])


def entry_point_text(entry_point: object) -> str | None:
    """``"module:qualname"`` for a string or an importable callable, else None."""
    if isinstance(entry_point, str):
        return entry_point
    module = getattr(entry_point, "__module__", None)
    qualname = getattr(entry_point, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    return f"{module}{_ENTRY_POINT_SEP}{qualname}"


# What loading the installed registry yields: env specs, and wrapper specs by name.
Loaded = tuple[Iterable[Any], Mapping[str, Any]]


@dataclass(frozen=True)
class Installed:
    """The installed registry as the plugin needs it."""

    envs: dict[str, KnownEnv]
    wrappers: dict[str, str]
    """Registered wrapper name -> ``"module:Class"`` (wrappers registered as callables are
    left out: there is no class to read types from)."""
    error: str | None = None
    """Why loading failed, if it did."""


def load_installed(load: Callable[[], Loaded] | None = None) -> Installed:
    """The installed registry's envs and wrappers, or why it could not be loaded.

    `load` returns the registry's env specs and wrapper specs; by default those of the
    installed plugins. A broken registry must not crash mypy: the plugin then knows only the
    ids registered in the checked program, and says why once.
    """
    try:
        with warnings.catch_warnings():
            # A plugin that fails to load is reported by `protogym list` and by `make`; the
            # type checker stays quiet about it and treats its ids as unknown.
            warnings.simplefilter("ignore")
            specs, wrapper_specs = load() if load is not None else _registry_specs()
            specs = list(specs)
    except Exception as exc:
        return Installed({}, {}, f"{type(exc).__name__}: {exc}")
    envs = {
        spec.id: KnownEnv(
            id=spec.id,
            entry_point=entry_point_text(spec.entry_point),
            api=str(spec.api),
            vector_entry_point=entry_point_text(spec.vector_entry_point),
        )
        for spec in specs
    }
    wrappers = {
        name: spec.entry_point
        for name, spec in wrapper_specs.items()
        if isinstance(spec.entry_point, str)
    }
    return Installed(envs, wrappers)


def _registry_specs() -> Loaded:
    """What `protogym.registry` holds in a fresh process: every installed plugin's ids.

    A new `Registry` runs the same discovery, but leaves out whatever the process running
    mypy registered in code (when mypy runs in-process, from a test suite for instance):
    those registrations are not part of the installation.
    """
    from protogym.registration.plugins import discover_plugins
    from protogym.registration.registry import Registry

    registry = Registry(discover=discover_plugins)
    return list(registry.values()), dict(registry.wrappers)


class InstalledRegistry:
    """The installed registry, loaded on first use.

    A warm mypy run with nothing to re-check calls no hook, so it never pays for importing
    the registry and the plugins. With a `saved` file (in mypy's cache folder, named for the
    installation's digest), a run that re-checks code reads the registry from there instead
    of importing the plugins again; a different installation has a different file.
    """

    def __init__(
        self, load: Callable[[], Loaded] | None = None, saved: str | None = None
    ) -> None:
        self._load = load
        self._saved = saved
        self._loaded: Installed | None = None
        self._newest: dict[tuple[str | None, str], str] | None = None

    def _get(self) -> Installed:
        if self._loaded is None:
            self._loaded = self._read_saved()
        if self._loaded is None:
            self._loaded = load_installed(self._load)
            self._write_saved(self._loaded)
        return self._loaded

    def _read_saved(self) -> Installed | None:
        if self._saved is None:
            return None
        try:
            with open(self._saved, encoding="utf-8") as handle:
                data = json.load(handle)
            envs = {item["id"]: KnownEnv(**item) for item in data["envs"]}
            return Installed(envs, dict(data["wrappers"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None  # absent or unreadable: load the registry

    def _write_saved(self, installed: Installed) -> None:
        if self._saved is None or installed.error is not None:
            return
        data = {
            "envs": [dataclasses.asdict(env) for env in installed.envs.values()],
            "wrappers": installed.wrappers,
        }
        partial = f"{self._saved}.{os.getpid()}"
        try:
            os.makedirs(os.path.dirname(self._saved) or ".", exist_ok=True)
            with open(partial, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.replace(partial, self._saved)  # parallel runs never read half a file
        except OSError:
            return  # a read-only cache only costs the next run the import

    @property
    def envs(self) -> dict[str, KnownEnv]:
        return self._get().envs

    @property
    def wrappers(self) -> dict[str, str]:
        return self._get().wrappers

    @property
    def error(self) -> str | None:
        return self._get().error

    def newest(self, env_id: str) -> str | None:
        """The installed id that an unversioned `env_id` makes: its name's highest version."""
        key = unversioned_key(env_id)
        if key is None:
            return None
        if self._newest is None:
            self._newest = newest_versions(self.envs)
        return self._newest.get(key)


_INSTALLED_FOLDERS = (
    f"{os.sep}site-packages{os.sep}",
    f"{os.sep}dist-packages{os.sep}",
    f"{os.sep}typeshed{os.sep}",
)


def installed_elsewhere(path: str) -> bool:
    """Whether `path` is an installed library's file (or a typeshed stub), not checked code."""
    return any(folder in path for folder in _INSTALLED_FOLDERS)


def installation_digest() -> str:
    """A short hash of what decides the installed registry, cheap enough for every run.

    It covers every installed distribution that declares `protogym.plugins` entry points
    (its metadata folder's name, which holds its version, and the entry points), the size and
    modification time of the source files beside each plugin module (so that editing an
    editable install's `plugin.py`, or a table it imports, is seen without reinstalling), and
    the `PROTOGYM_PLUGINS` selection. The metadata folders are read directly: going through
    `importlib.metadata` costs ten times as much, and this runs even when mypy has nothing to
    re-check.
    """
    found = [f"selection={os.environ.get(SELECTION_ENV_VAR, '')}"]
    for name, text in _plugin_metadata():
        found.append(f"{name}\n{text}")
        found.extend(_source_stamps(module) for module in _entry_point_modules(text))
    digest = hashlib.sha1(usedforsecurity=False)
    digest.update("\n".join(sorted(found)).encode())
    return digest.hexdigest()[:16]


def plugin_packages() -> frozenset[str]:
    """The top-level packages that installed plugin distributions' entry points name."""
    return frozenset(
        module.split(".", 1)[0]
        for _, text in _plugin_metadata()
        for module in _entry_point_modules(text)
    )


def _entry_point_modules(entry_points_text: str) -> list[str]:
    """The modules named in the `protogym.plugins` group of an ``entry_points.txt``."""
    section = f"[{PLUGIN_GROUP}]"
    modules = []
    in_group = False
    for line in entry_points_text.splitlines():
        line = line.strip()
        if line.startswith("["):
            in_group = line == section
        elif in_group and "=" in line:
            modules.append(line.split("=", 1)[1].strip().split(":", 1)[0].strip())
    return modules


def _source_stamps(module: str) -> str:
    """Size and mtime of the ``.py`` files in the folder of `module`'s file, found on sys.path
    without importing anything; empty when the module is not a plain file there."""
    parts = module.split(".")
    for entry in sys.path:
        folder = os.path.join(entry or ".", *parts[:-1])
        if not os.path.isfile(os.path.join(folder, f"{parts[-1]}.py")):
            continue
        stamps = [module]
        with os.scandir(folder) as files:
            for file in files:
                if file.name.endswith(".py"):
                    stat = file.stat()
                    stamps.append(f"{file.name}:{stat.st_size}:{stat.st_mtime_ns}")
        return " ".join(sorted(stamps))
    return module


def _plugin_metadata() -> list[tuple[str, str]]:
    """``(metadata folder name, entry_points.txt text)`` of each plugin distribution."""
    section = f"[{PLUGIN_GROUP}]"
    found = []
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            if section in text:
                found.append((name, text))
    return found


@dataclass(frozen=True, kw_only=True)
class SourceRegistration(KnownEnv):
    """A literal `register` call found in a checked file."""

    module_id: str
    class_ref: str | None
    """The dotted name of a class or callable passed directly as the entry point."""


def scan_registrations(path: str, module_id: str) -> list[SourceRegistration]:
    """The ids that one file registers with literal calls, as `_RegistrationFinder` reads them.

    Most files in a build never mention protogym: they are skipped before decoding.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return []
    if b"protogym" not in data or b"regist" not in data:  # register(...) or registry[...]
        return []
    text = data.decode("utf-8", errors="replace")
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError):
        return []
    finder = _RegistrationFinder(module_id)
    finder.visit(tree)
    return finder.found


# The parameters of `register` and of `EnvSpec` in their positional order (Gymnasium's);
# `api` is keyword-only in both. A unit test holds them to the real signatures.
REGISTER_PARAMETERS = (
    "id",
    "entry_point",
    "reward_threshold",
    "nondeterministic",
    "max_episode_steps",
    "order_enforce",
    "disable_env_checker",
    "additional_wrappers",
    "vector_entry_point",
    "kwargs",
)
ENV_SPEC_PARAMETERS = (
    "id",
    "entry_point",
    "reward_threshold",
    "nondeterministic",
    "max_episode_steps",
    "order_enforce",
    "disable_env_checker",
    "kwargs",
    "additional_wrappers",
    "vector_entry_point",
)
_UNKNOWN_NAMESPACE = "<not a literal>"


class _RegistrationFinder(ast.NodeVisitor):
    """Finds the registrations a module makes with literal ids, as the registry sees them.

    Three spellings: ``register(...)`` (``protogym.register``, a plugin hook's
    ``registry.register``), with arguments by keyword or in their positional order;
    ``registry["id"] = EnvSpec(...)``; and either inside
    ``with namespace("ns"):``, which moves a `register`ed id into namespace ``ns`` (a
    registry item is stored as it is). The entry point may be a ``"module:attribute"``
    literal or a (dotted) name, kept for the checker to resolve in the module's namespace.
    """

    def __init__(self, module_id: str) -> None:
        self.found: list[SourceRegistration] = []
        self._module_id = module_id
        self._namespace: str | None = None

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        outer = self._namespace
        for item in node.items:
            self.visit(item)
            namespace = _namespace_block(item.context_expr)
            if namespace is not None:
                self._namespace = namespace
        for statement in node.body:
            self.visit(statement)
        self._namespace = outer

    def visit_AsyncWith(self, node: ast.AsyncWith) -> None:
        self.visit_With(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        # A function's body runs when it is called, outside the block that defines it.
        outer, self._namespace = self._namespace, None
        self.generic_visit(node)
        self._namespace = outer

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.visit_FunctionDef(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.visit_FunctionDef(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _callee_name(node.func) == "register":
            args = _call_arguments(node, REGISTER_PARAMETERS)
            env_id = _constant_str(args.get("id"))
            if env_id is not None and self._namespace != _UNKNOWN_NAMESPACE:
                self._add(_in_namespace(env_id, self._namespace), args)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        target = node.targets[0] if len(node.targets) == 1 else None
        value = node.value
        if (
            isinstance(target, ast.Subscript)
            and _callee_name(target.value) == "registry"
            and isinstance(value, ast.Call)
            and _callee_name(value.func) == "EnvSpec"
        ):
            env_id = _constant_str(target.slice)
            if env_id is not None:
                self._add(env_id, _call_arguments(value, ENV_SPEC_PARAMETERS))
        self.generic_visit(node)

    def _add(self, env_id: str, args: dict[str, ast.expr]) -> None:
        entry = args.get("entry_point")
        entry_point = _constant_str(entry)
        class_ref = _dotted(entry) if entry is not None and entry_point is None else None
        self.found.append(
            SourceRegistration(
                id=env_id,
                entry_point=entry_point,
                api=_constant_str(args.get("api")) or "terminated_truncated",
                module_id=self._module_id,
                class_ref=class_ref,
                vector_entry_point=_constant_str(args.get("vector_entry_point")),
            )
        )


def _namespace_block(expr: ast.expr) -> str | None:
    """The namespace of ``namespace("ns")`` (any spelling of the callee), else None;
    `_UNKNOWN_NAMESPACE` for a namespace that is not a literal."""
    if not isinstance(expr, ast.Call) or _callee_name(expr.func) != "namespace":
        return None
    args = _call_arguments(expr, ("ns",))
    return _constant_str(args.get("ns")) or _UNKNOWN_NAMESPACE


def _in_namespace(env_id: str, namespace: str | None) -> str:
    """`env_id` moved into `namespace`, as `register` does inside ``namespace(...)``."""
    parts = parse_id(env_id)
    if namespace is None or parts is None:
        return env_id
    _, name, version = parts
    return f"{namespace}/{name}" + (f"-v{version}" if version is not None else "")


class ScannedLibraries:
    """Installed libraries' files known to hold no literal `register` call, between runs.

    Looking for registrations in the installed libraries of a build (thousands of files when
    it holds torch) costs a read per file; a file whose size and modification time are those
    it had when it was found to hold none is skipped. Kept in mypy's cache folder; without
    one (`saved` None), every file is read.
    """

    def __init__(self, saved: str | None) -> None:
        self._saved = saved
        self._stamps: dict[str, list[int]] | None = None
        self._changed = False

    def scan(self, path: str, module_id: str) -> list[SourceRegistration]:
        stamps = self._load()
        try:
            stat = os.stat(path)
        except OSError:
            return []
        stamp = [stat.st_mtime_ns, stat.st_size]
        if stamps.get(path) == stamp:
            return []
        found = scan_registrations(path, module_id)
        if not found:
            stamps[path] = stamp
            self._changed = True
        return found

    def save(self) -> None:
        if self._saved is None or not self._changed or self._stamps is None:
            return
        partial = f"{self._saved}.{os.getpid()}"
        try:
            with open(partial, "w", encoding="utf-8") as handle:
                json.dump(self._stamps, handle)
            os.replace(partial, self._saved)
        except OSError:
            return  # a read-only cache only costs the next run the reads
        self._changed = False

    def _load(self) -> dict[str, list[int]]:
        if self._stamps is None:
            self._stamps = {}
            if self._saved is not None:
                try:
                    with open(self._saved, encoding="utf-8") as handle:
                        loaded = json.load(handle)
                    if isinstance(loaded, dict):
                        self._stamps = loaded
                except (OSError, ValueError):
                    pass
        return self._stamps


def _callee_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _call_arguments(call: ast.Call, parameters: tuple[str, ...]) -> dict[str, ast.expr]:
    """A call's arguments by parameter name, the positional ones named by `parameters`."""
    named: dict[str, ast.expr] = {}
    for name, value in zip(parameters, call.args, strict=False):
        if isinstance(value, ast.Starred):
            break
        named[name] = value
    for keyword in call.keywords:
        if keyword.arg is not None:
            named[keyword.arg] = keyword.value
    return named


def _constant_str(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None
