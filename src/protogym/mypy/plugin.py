"""Entry point of the mypy plugin: routes mypy's hooks to the modules that implement them.

- explicit `Env` and `VectorEnv` subclasses get their inherited defaults (`env_defaults`);
- `make("<id>")` and `make_vec("<id>", ...)` get the registered env's ObsType and ActType
  (also for ``"module:id"``, an unversioned name, and a spec from `spec("<id>")`), and an
  unknown literal id (there and in `spec("<id>")`) is an error with suggestions
  (`make_types`, with the ids from `env_ids`);
- `register(...)` and a plugin's `registry.register(...)` have their entry point checked
  (`register_check`);
- `make`'s, `make_vec`'s and `wrap`'s keyword arguments are checked against the
  constructor they reach (`constructor_kwargs`), `wrap(env, "Name")` is typed from the
  registered wrapper class, and `env.unwrapped` is the innermost env's class through the
  wrappers the plugin sees (`wrapper_calls`);
- `spaces.Dict[TD]({...})` is checked against the TypedDict, and `FilterObservation` keeps
  a TypedDict's kept keys (`typed_dict_obs`).
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from mypy.nodes import MypyFile, TypeInfo
from mypy.plugin import (
    AttributeContext,
    ClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import FunctionLike, Type

from protogym.mypy.deps import ModuleLocator, env_module_dependencies
from protogym.mypy.env_defaults import (
    ENV_FULLNAME,
    VECTOR_ENV_FULLNAME,
    add_env_defaults,
    add_vector_env_defaults,
)
from protogym.mypy.env_ids import EnvIds
from protogym.mypy.known_ids import (
    InstalledRegistry,
    ScannedLibraries,
    installation_digest,
    installed_elsewhere,
    plugin_packages,
)
from protogym.mypy.make_types import MakeTyper
from protogym.mypy.register_check import RegisterChecker
from protogym.mypy.typed_dict_obs import DICT_SPACE_FULLNAME, check_dict_space
from protogym.mypy.wrapper_calls import (
    SPACES,
    WRAPPER_FULLNAME,
    WrapperCalls,
    space_attribute,
    unwrapped_attribute,
)

_REGISTRATION = "protogym.registration."


def _registration_name(fullname: str) -> str | None:
    """The last component of a callable defined in `protogym.registration`, else None."""
    if not fullname.startswith(_REGISTRATION):
        return None
    return fullname.rsplit(".", 1)[1]


def _plugin_digest() -> str:
    """A hash of this package's sources: a changed plugin must not reuse cached results."""
    digest = hashlib.sha1(usedforsecurity=False)
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class ProtogymPlugin(Plugin):
    def __init__(self, options: object) -> None:
        super().__init__(options)  # type: ignore[arg-type]
        plugin_digest = _plugin_digest()
        self._digest = f"{installation_digest()}-{plugin_digest}"
        saved_registry = self._saved_path(f"protogym-registry-{self._digest}.json")
        installed = InstalledRegistry(saved=saved_registry)
        self._affected_packages = plugin_packages() | {"protogym"}
        self._locator = ModuleLocator(self.options)
        self._installed = installed
        # Named for the plugin's sources: files another version's scanner passed over may
        # hold registrations this one reads.
        scanned = ScannedLibraries(
            self._saved_path(f"protogym-scanned-libraries-{plugin_digest}.json")
        )
        self._ids = EnvIds(installed, self._build_modules, self._locator, scanned)
        self._make = MakeTyper(self._ids, self._build_modules, self.lookup_fully_qualified)
        self._register = RegisterChecker(self._locator, self._build_modules)
        self._wrappers = WrapperCalls(self._build_modules)
        self._is_wrapper_class: dict[str, bool] = {}

    def _saved_path(self, name: str) -> str | None:
        """Where the plugin keeps `name` between runs: mypy's cache folder, if it has one."""
        cache_dir = self.options.cache_dir
        if not self.options.incremental or not cache_dir or cache_dir == os.devnull:
            return None
        return os.path.join(cache_dir, name)

    def set_modules(self, modules: dict[str, MypyFile]) -> None:
        # Called once per build (and again by the daemon when files change): what the
        # checked code registers is scanned afresh on next use.
        super().set_modules(modules)
        self._ids.forget_build()
        self._locator.forget()
        self._is_wrapper_class.clear()

    def _build_modules(self) -> dict[str, MypyFile]:
        return self._modules if self._modules is not None else {}

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        if fullname == ENV_FULLNAME:
            return add_env_defaults
        if fullname == VECTOR_ENV_FULLNAME:
            return add_vector_env_defaults
        return None

    def _wrapper_class(self, fullname: str) -> bool:
        """Whether `fullname` is a subclass of `protogym.Wrapper` (a constructor call)."""
        known = self._is_wrapper_class.get(fullname)
        if known is None:
            known = False
            if self._modules is not None and "." in fullname:
                symbol = self.lookup_fully_qualified(fullname)
                node = symbol.node if symbol is not None else None
                known = isinstance(node, TypeInfo) and node.has_base(WRAPPER_FULLNAME)
            self._is_wrapper_class[fullname] = known
        return known

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        name = _registration_name(fullname)
        if name == "make":
            return self._make.make
        if name == "make_vec":
            return self._make.make_vec
        if name == "wrap":
            return self._make.wrap
        if name == "spec":
            return self._make.spec
        if name == "register":
            return self._register.check
        if fullname == DICT_SPACE_FULLNAME:
            return check_dict_space
        if self._wrapper_class(fullname):
            return self._wrappers.constructed
        return None

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        name = _registration_name(fullname)
        if name in ("make", "make_vec", "spec"):
            return self._make.check_id
        if name == "wrap":
            return self._make.check_wrap
        if self._wrapper_class(fullname):
            return self._wrappers.structural_env_signature
        return None

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        if fullname == f"{WRAPPER_FULLNAME}.unwrapped":
            return unwrapped_attribute
        owner, _, name = fullname.rpartition(".")
        if owner == WRAPPER_FULLNAME and name in SPACES:
            return functools.partial(space_attribute, name)
        return None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if _registration_name(fullname) == "register" and fullname.endswith(".Registry.register"):
            return self._register.check
        return None

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        return env_module_dependencies(file, self._installed, self._locator)

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        # A change in the installed plugins (or in this plugin) re-checks every module that
        # may call make() with an id whose class moved: the checked code, protogym and the
        # plugin distributions. Installed libraries that are none of these (numpy, torch,
        # the standard library) keep their cache; their types do not depend on the plugin.
        if installed_elsewhere(ctx.path) and ctx.id.split(".")[0] not in self._affected_packages:
            return ""
        return self._digest


def plugin(version: str) -> type[Plugin]:
    return ProtogymPlugin
