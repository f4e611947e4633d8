"""Which env a literal id names, found the way `make` finds it, and why an id names none.

An id is known if the installed registry has it or a literal registration in mypy's build
makes it (see `known_ids`). `make` also accepts two other spellings, and so does the plugin:
``"module:Name-vN"`` imports `module` first, for the ids it registers, then looks up
``Name-vN``; and ``Name`` without a version is the newest registered version of that name.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from mypy.nodes import MypyFile

from protogym.mypy.deps import ModuleLocator
from protogym.mypy.known_ids import (
    InstalledRegistry,
    KnownEnv,
    ScannedLibraries,
    SourceRegistration,
    foreign,
    installed_elsewhere,
    module_prefix,
    newest_versions,
    parse_id,
    scan_registrations,
    unversioned_key,
)

_WHERE_IDS_COME_FROM = (
    " (ids come from the installed registry, listed by `protogym list`, and from literal "
    "register() calls in the checked code)"
)


class EnvIds:
    """The ids of the installed registry and of the build, and look-ups in them."""

    def __init__(
        self,
        installed: InstalledRegistry,
        modules: Callable[[], dict[str, MypyFile]],
        locator: ModuleLocator | None = None,
        scanned: ScannedLibraries | None = None,
    ) -> None:
        self._installed = installed
        self._modules = modules
        self._locator = locator
        self._scanned = scanned or ScannedLibraries(None)
        self._own: dict[str, SourceRegistration] = {}
        self._all: dict[str, SourceRegistration] | None = None
        self._libraries: list[tuple[str, str]] = []
        self._libraries_scanned = 0  # how many of `_libraries` `_all` has read
        self._seen: set[str] = set()  # the modules of the build already sorted out

    @property
    def installed(self) -> InstalledRegistry:
        return self._installed

    def in_build(self, *, installed_libraries: bool = True) -> dict[str, SourceRegistration]:
        """Ids registered by literal registrations in the files in mypy's build.

        Scanned only when an id is not installed (most programs only make installed envs,
        and those never pay for the scan), each file once per build, the checked code first,
        then, only for an id still unknown, the installed libraries' files too (thousands of
        them when the build holds torch). Modules join the build while it runs (mypy parses a
        module its cache held when a dependency turns out to have changed), so each call
        also reads the modules that joined since the last one.
        """
        modules = self._modules()
        if len(modules) != len(self._seen):
            for module_id, tree in list(modules.items()):
                if module_id in self._seen:
                    continue
                self._seen.add(module_id)
                if module_id == "protogym" or module_id.startswith("protogym."):
                    continue
                if not tree.path or tree.path.endswith(".pyi"):
                    continue
                if installed_elsewhere(tree.path):
                    self._libraries.append((module_id, tree.path))
                    continue
                found = scan_registrations(tree.path, module_id)
                for registration in found:
                    self._own.setdefault(registration.id, registration)
                if found:  # the checked code's registrations come before the libraries'
                    self._all, self._libraries_scanned = None, 0
        if not installed_libraries:
            return self._own
        if self._all is None:
            self._all = dict(self._own)
        if self._libraries_scanned < len(self._libraries):
            for module_id, path in self._libraries[self._libraries_scanned :]:
                for registration in self._scanned.scan(path, module_id):
                    self._all.setdefault(registration.id, registration)
            self._libraries_scanned = len(self._libraries)
            self._scanned.save()
        return self._all

    def forget_build(self) -> None:
        self._own, self._all = {}, None
        self._libraries, self._libraries_scanned = [], 0
        self._seen = set()

    def known(self, env_id: str) -> KnownEnv | None:
        """The env that `make(env_id)` builds: the id as written, else ``module:id``'s id,
        else the newest version of an unversioned name.

        Installed libraries' registrations are read last: only for an id that neither the
        installed registry nor the checked code has, in any of these forms.
        """
        found = self._installed.envs.get(env_id)
        if found is None:
            found = self.in_build(installed_libraries=False).get(env_id)
        if found is not None or foreign(env_id):
            return found
        prefixed = module_prefix(env_id)
        if prefixed is not None:
            return self.known(prefixed[1])
        newest = self._newest(env_id)
        if newest is not None:
            return self._registered(newest)
        return self.in_build().get(env_id)

    def _registered(self, env_id: str) -> KnownEnv | None:
        return (
            self._installed.envs.get(env_id)
            or self.in_build(installed_libraries=False).get(env_id)
            or self.in_build().get(env_id)
        )

    def _newest(self, env_id: str) -> str | None:
        """The highest registered version of an unversioned `env_id`'s name.

        The installed ids and the checked code's are compared; installed libraries' own
        registrations are read only for a name neither has.
        """
        key = unversioned_key(env_id)
        if key is None:
            return None
        own = newest_versions(self.in_build(installed_libraries=False)).get(key)
        candidates = [found for found in (self._installed.newest(env_id), own) if found]
        if not candidates:
            return newest_versions(self.in_build()).get(key)
        return max(candidates, key=_version)

    def problem(self, env_id: str) -> str | None:
        """Why `make(env_id)` cannot find an env, or None if it can (or the plugin cannot
        tell: another library's id, or a ``module:`` installed without types)."""
        if foreign(env_id):
            return None
        prefixed = module_prefix(env_id)
        if prefixed is None:
            return None if self.known(env_id) is not None else self.unknown_id_message(env_id)
        if self._registered(env_id) is not None:
            return None  # an id with a colon in its name, registered as it is written
        module, rest = prefixed
        if module not in self._modules():
            if self._locator is None or self._locator.status(module) != "missing":
                return None  # it exists, but mypy cannot look inside for its registrations
            return (
                f'Unknown environment id "{env_id}": make imports "{module}" first, for the '
                "ids it registers, and no module of that name is in the checked code or "
                "installed"
            )
        if self.known(rest) is not None:
            return None
        return self.unknown_id_message(rest, f' (looked up after importing "{module}")')

    def unknown_id_message(self, env_id: str, where: str = "") -> str:
        ids = sorted(set(self._installed.envs) | set(self.in_build()))
        message = f'Unknown environment id "{env_id}"{where}'
        parts = parse_id(env_id)
        same_name = []
        if parts is not None:
            for known in ids:
                other = parse_id(known)
                if other is not None and other[:2] == parts[:2]:
                    same_name.append(known)
        if same_name:
            message += "; registered versions: " + ", ".join(f'"{i}"' for i in same_name)
        else:
            close = difflib.get_close_matches(env_id, ids, n=3, cutoff=0.6)
            if close:
                message += "; did you mean " + " or ".join(f'"{i}"' for i in close) + "?"
        message += _WHERE_IDS_COME_FROM
        if self._installed.error is not None:
            message += f"; the installed registry could not be loaded: {self._installed.error}"
        return message


def _version(env_id: str) -> int:
    parts = parse_id(env_id)
    return parts[2] if parts is not None and parts[2] is not None else -1
