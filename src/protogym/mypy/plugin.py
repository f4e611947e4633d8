"""Entry point of the mypy plugin: routes mypy's hooks to the modules that implement them.

- explicit `Env` subclasses get their inherited defaults (`env_defaults`);
- `make("<id>")` and `make_vec("<id>", ...)` get the registered env's ObsType and ActType,
  and an unknown literal id (there and in `spec("<id>")`) is an error with suggestions
  (`make_types`);
- `register(...)` and a plugin's `registry.register(...)` have their entry point checked
  (`register_check`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from mypy.nodes import MypyFile
from mypy.plugin import (
    ClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import FunctionLike, Type

from protogym.mypy.deps import ModuleLocator, env_module_dependencies
from protogym.mypy.env_defaults import ENV_FULLNAME, add_env_defaults
from protogym.mypy.known_ids import InstalledRegistry, installation_digest
from protogym.mypy.make_types import MakeTyper
from protogym.mypy.register_check import RegisterChecker

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
        installed = InstalledRegistry()
        self._digest = f"{installation_digest()}-{_plugin_digest()}"
        self._locator = ModuleLocator(self.options)
        self._installed = installed
        self._make = MakeTyper(installed, self._build_modules, self.lookup_fully_qualified)
        self._register = RegisterChecker(self._locator, self._build_modules)

    def set_modules(self, modules: dict[str, MypyFile]) -> None:
        # Called once per build (and again by the daemon when files change): what the
        # checked code registers is scanned afresh on next use.
        super().set_modules(modules)
        self._make.forget_build()
        self._locator.forget()

    def _build_modules(self) -> dict[str, MypyFile]:
        return self._modules if self._modules is not None else {}

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        if fullname == ENV_FULLNAME:
            return add_env_defaults
        return None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        name = _registration_name(fullname)
        if name == "make":
            return self._make.make
        if name == "make_vec":
            return self._make.make_vec
        if name == "register":
            return self._register.check
        return None

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        if _registration_name(fullname) in ("make", "make_vec", "spec"):
            return self._make.check_id
        return None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if _registration_name(fullname) == "register" and fullname.endswith(".Registry.register"):
            return self._register.check
        return None

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        return env_module_dependencies(file, self._installed, self._locator)

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        # A change in the installed plugins (or in this plugin) re-checks every module: any
        # of them may call make() with an id whose class moved.
        return self._digest


def plugin(version: str) -> type[Plugin]:
    return ProtogymPlugin
