"""Bring env modules into mypy's build: the modules that the checked code's ids point to.

`make("CartPole-v1")` names its class only through the registry, so mypy would never load the
class's module on its own. For each checked file that imports protogym, the plugin looks for
string literals that are installed ids, registered wrapper names or ``"module:attribute"``
entry points and adds their modules as dependencies, which also makes mypy re-check the file
when an env's types change. Only modules that mypy can find with types are added, so a
missing module is reported once, by the plugin's own check of the `register` call, rather
than as an import error.
"""

from __future__ import annotations

import os
import re
from typing import Literal

from mypy.build import PRI_LOW, default_data_dir
from mypy.modulefinder import (
    FindModuleCache,
    ModuleNotFoundReason,
    SearchPaths,
    compute_search_paths,
)
from mypy.nodes import Import, ImportAll, ImportFrom, MypyFile
from mypy.options import Options

from protogym.mypy.known_ids import (
    InstalledRegistry,
    foreign,
    looks_like_id,
    module_prefix,
    split_entry_point,
)

ModuleStatus = Literal["typed", "untyped", "missing"]

# A quoted string made of the characters that ids and entry points use.
_LITERAL_RE = re.compile(r"""(["'])([\w.:/-]+)\1""")
_DOTTED = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
ENTRY_POINT_RE = re.compile(rf"^(?P<module>{_DOTTED}):(?P<attr>{_DOTTED})$")


class ModuleLocator:
    """Answers "can mypy load this module with types?" the way mypy's own build does."""

    def __init__(self, options: Options) -> None:
        self._options = options
        self._finder: FindModuleCache | None = None
        self._answers: dict[str, ModuleStatus] = {}
        self._source_roots: list[str] = []

    def forget(self) -> None:
        """Drop cached answers: the daemon's next build may see new or deleted modules."""
        self._finder = None
        self._answers.clear()
        self._source_roots.clear()

    def add_source_root(self, tree: MypyFile) -> None:
        """Search the folder that `tree`'s package hierarchy starts in, as mypy does.

        mypy also looks for modules beside the files it was given (`mypy src/pkg/a.py` finds
        `pkg.b`); the locator has only the file trees, so it derives those folders from them.
        """
        if not tree.path or tree.path.endswith(".pyi"):
            return
        root = os.path.dirname(os.path.abspath(tree.path))
        for _ in range(tree.fullname.count(".") + (1 if tree.is_package_init_file() else 0)):
            root = os.path.dirname(root)
        if root not in self._source_roots:
            self._source_roots.append(root)
            self._finder = None
            self._answers = {k: v for k, v in self._answers.items() if v == "typed"}

    def status(self, module: str) -> ModuleStatus:
        """"typed" (mypy loads it), "untyped" (installed without types) or "missing"."""
        answer = self._answers.get(module)
        if answer is None:
            if self._finder is None:
                paths = compute_search_paths([], self._options, default_data_dir())
                with_roots = SearchPaths(
                    tuple(dict.fromkeys([*paths.python_path, *self._source_roots])),
                    paths.mypy_path,
                    paths.package_path,
                    paths.typeshed_path,
                )
                self._finder = FindModuleCache(with_roots, None, self._options)
            result = self._finder.find_module(module)
            if isinstance(result, str):
                answer = "typed"
            elif result in (
                ModuleNotFoundReason.FOUND_WITHOUT_TYPE_HINTS,
                ModuleNotFoundReason.APPROVED_STUBS_NOT_INSTALLED,
            ):
                answer = "untyped"
            else:
                answer = "missing"
            self._answers[module] = answer
        return answer


def imports_protogym(tree: MypyFile) -> bool:
    """True if the file imports protogym (or a module of it) by absolute name."""
    for imp in tree.imports:
        if isinstance(imp, Import):
            if any(_is_protogym(name) for name, _ in imp.ids):
                return True
        elif isinstance(imp, ImportFrom | ImportAll) and imp.relative == 0 and _is_protogym(imp.id):
            return True
    return False


def _is_protogym(module: str) -> bool:
    return module == "protogym" or module.startswith("protogym.")


def env_module_dependencies(
    tree: MypyFile, installed: InstalledRegistry, locator: ModuleLocator
) -> list[tuple[int, str, int]]:
    """``(priority, module, line)`` for each env module that `tree`'s string literals name."""
    if _is_protogym(tree.fullname) or not tree.path or not imports_protogym(tree):
        return []
    locator.add_source_root(tree)
    try:
        with open(tree.path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        return []
    found: dict[str, int] = {}
    for match in _LITERAL_RE.finditer(text):
        for module in modules_named(match.group(2), installed):
            if module is None or module in found or module == tree.fullname:
                continue
            if locator.status(module) == "typed":
                found[module] = text.count("\n", 0, match.start()) + 1
    return [(PRI_LOW, module, line) for module, line in found.items()]


def modules_named(literal: str, installed: InstalledRegistry) -> list[str | None]:
    """The modules a string literal brings into the build: an installed id's env modules
    (an unversioned name's newest id's), a wrapper's module, an entry point's module, or
    for ``"module:Name-vN"`` the module that `make` imports for its registrations."""
    known = installed.envs.get(literal)
    if known is None:
        newest = installed.newest(literal)
        known = installed.envs.get(newest) if newest is not None else None
    if known is not None:
        return [
            split_entry_point(known.entry_point)[0],
            split_entry_point(known.vector_entry_point)[0],
        ]
    wrapper = installed.wrappers.get(literal)
    if wrapper is not None:
        return [split_entry_point(wrapper)[0]]
    entry = ENTRY_POINT_RE.match(literal)
    if entry is not None:
        return [entry.group("module")]
    prefixed = module_prefix(literal)
    if prefixed is None or not looks_like_id(prefixed[1]) or foreign(literal):
        return []
    module, env_id = prefixed
    return [module, *modules_named(env_id, installed)]
