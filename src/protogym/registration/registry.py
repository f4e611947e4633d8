"""The registry: a mapping of env id -> `EnvSpec` (Gymnasium's ``dict[str, EnvSpec]``:
``registry[id] = spec``, ``del registry[id]``, `pop`, `copy`), plus the named wrappers.

Plugins are discovered on the first look-up, not on import. Who owns an id is decided by a
fixed rule (see `docs/plugins.md`): an id registered in code before discovery keeps it;
among plugins, protogym's own come first, then third parties sorted by distribution and
entry-point name, and the first to register an id keeps it. Every refused claim is named
in a `PluginWarning`; nothing is taken over silently.
"""

from __future__ import annotations

import difflib
import importlib
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

from protogym.error import (
    DeprecatedEnv,
    NameNotFound,
    NamespaceNotFound,
    PluginWarning,
    RegistrationError,
    UnregisteredEnv,
    UnregisteredWrapper,
    UntrustedEntryPoint,
    VersionNotFound,
)
from protogym.registration.env_spec import (
    EnvSpec,
    StepApi,
    WrapperSpec,
    get_env_id,
    parse_env_id,
)

BUILTIN_ID_PREFIXES: Mapping[str, str] = MappingProxyType(
    {
        "gymnasium": "protogym.interop.gymnasium:gymnasium_env_spec",
        "gymnax": "protogym.interop.gymnax:gymnax_env_spec",
    }
)
"""Id prefixes every registry knows: ``gymnasium:[module:]id`` makes an id of Gymnasium's
registry (needs the `gymnasium` extra), ``gymnax:id`` one of gymnax's (needs jax and gymnax,
docs/interop/gymnax.md); each module is imported only then."""


class Registry(MutableMapping[str, EnvSpec]):
    """Environment specs by id and wrapper specs by name, filled by code and by plugins.

    Item assignment and deletion work as on Gymnasium's registry dict; they run plugin
    discovery first, so a plugin cannot bring back an id deleted before its first look-up.
    `current_namespace` (set by `protogym.registration.namespace`) prefixes the ids that
    `register` is given.
    """

    def __init__(self, *, discover: Callable[[Registry], None] | None = None) -> None:
        self._specs: dict[str, EnvSpec] = {}
        self._wrappers: dict[str, WrapperSpec] = {}
        self._wrapper_owners: dict[str, str | None] = {}
        self._wrapper_callables: dict[str, Callable[..., Any]] = {}
        self._discover = discover
        self._current_plugin: str | None = None
        self._newest: dict[tuple[str | None, str], int] | None = None
        self._id_prefixes: dict[str, str | Callable[[str], EnvSpec]] = dict(BUILTIN_ID_PREFIXES)
        self._policies: dict[str, dict[str, str | Callable[[Any], Any]]] = {}
        self.current_namespace: str | None = None

    # -- discovery ---------------------------------------------------------------------

    def ensure_discovered(self) -> None:
        """Run plugin discovery once; later calls cost one attribute test."""
        discover, self._discover = self._discover, None
        if discover is not None:
            discover(self)

    @contextmanager
    def plugin_scope(self, distribution: str) -> Iterator[None]:
        """Attribute registrations to `distribution`; if the block raises, undo them all."""
        envs_before, wrappers_before = set(self._specs), set(self._wrappers)
        self._current_plugin = distribution
        try:
            yield
        except BaseException:
            for env_id in set(self._specs) - envs_before:
                self.unregister(env_id)
            for name in set(self._wrappers) - wrappers_before:
                del self._wrappers[name]
                self._wrapper_owners.pop(name, None)
                self._wrapper_callables.pop(name, None)
            raise
        finally:
            self._current_plugin = None

    # -- Mapping -----------------------------------------------------------------------

    def __getitem__(self, env_id: str) -> EnvSpec:
        if self._discover is not None:
            self.ensure_discovered()
        return self._specs[env_id]

    def __iter__(self) -> Iterator[str]:
        if self._discover is not None:
            self.ensure_discovered()
        return iter(self._specs)

    def __len__(self) -> int:
        if self._discover is not None:
            self.ensure_discovered()
        return len(self._specs)

    def __contains__(self, env_id: object) -> bool:
        if self._discover is not None:
            self.ensure_discovered()
        return env_id in self._specs

    def __setitem__(self, env_id: str, spec: EnvSpec) -> None:
        """Store `spec` as it is, as a dict would (no override warning, no version check)."""
        if not isinstance(spec, EnvSpec):
            raise TypeError(
                f"the registry holds EnvSpec values, got {type(spec).__name__} for {env_id!r}; "
                "build one with EnvSpec(id, entry_point, ...) or call protogym.register"
            )
        if spec.id != env_id:
            raise RegistrationError(
                f"registry[{env_id!r}] was given the spec of {spec.id!r}; an id maps to its "
                f"own spec (use spec.evolve(id={env_id!r}) for a copy under the new id)"
            )
        self.ensure_discovered()
        self._specs[env_id] = spec
        self._newest = None

    def __delitem__(self, env_id: str) -> None:
        self.unregister(env_id)

    def copy(self) -> dict[str, EnvSpec]:
        """A plain dict of the registered specs (Gymnasium's registry is a dict)."""
        return dict(self.items())

    def __repr__(self) -> str:
        return f"<Registry of {len(self)} environments and {len(self.wrappers)} wrappers>"

    @property
    def wrappers(self) -> Mapping[str, WrapperSpec]:
        """Registered wrappers by name (read-only view)."""
        if self._discover is not None:
            self.ensure_discovered()
        return MappingProxyType(self._wrappers)

    # -- registering -------------------------------------------------------------------

    def register(
        self,
        id: str,
        entry_point: str | Callable[..., Any] | None = None,
        reward_threshold: float | None = None,
        nondeterministic: bool = False,
        max_episode_steps: int | None = None,
        order_enforce: bool = True,
        disable_env_checker: bool = False,
        additional_wrappers: tuple[WrapperSpec, ...] = (),
        vector_entry_point: str | Callable[..., Any] | None = None,
        kwargs: Mapping[str, Any] | None = None,
        *,
        api: StepApi = "terminated_truncated",
    ) -> EnvSpec | None:
        """Register an env; returns its spec, or None if a plugin's claim was refused.

        The arguments come in Gymnasium's order. Inside ``namespace(ns)`` the id is moved to
        that namespace. An id cannot exist both with and without a version (``Walk`` and
        ``Walk-v0``): that is a `RegistrationError` in code, a refused claim for a plugin.
        """
        namespace, name, version = parse_env_id(id)
        if entry_point is None and vector_entry_point is None:
            raise RegistrationError(
                f"register({id!r}) needs an entry_point ('module:Class' or a callable) or a "
                "vector_entry_point"
            )
        if self.current_namespace is not None:
            asked = (kwargs or {}).get("namespace")
            if asked is not None and asked != self.current_namespace:
                warnings.warn(
                    f"register({id!r}) asks for namespace {asked!r} inside "
                    f"namespace({self.current_namespace!r}); the context's namespace is used",
                    UserWarning,
                    stacklevel=3,
                )
            id = get_env_id(self.current_namespace, name, version)
        spec = EnvSpec(
            id,
            entry_point,
            reward_threshold,
            nondeterministic,
            max_episode_steps,
            order_enforce,
            disable_env_checker,
            dict(kwargs or {}),
            additional_wrappers,
            vector_entry_point,
            api=api,
            plugin=self._current_plugin,
        )
        existing = self._specs.get(id)
        if existing is None:
            clash = self._version_clash(spec)
            if clash is not None:
                if self._current_plugin is None:
                    raise RegistrationError(clash)
                warnings.warn(
                    f"plugin {self._current_plugin!r}: {clash}; the registration was ignored",
                    PluginWarning,
                    stacklevel=3,
                )
                return None
        elif self._current_plugin is not None:
            owner = existing.plugin or "code registered before plugin discovery"
            warnings.warn(
                f"plugin {self._current_plugin!r} tried to register {id!r}, which "
                f"{owner!r} already provides; the registration was ignored. Ask one of "
                "the two to rename the id, or limit discovery with PROTOGYM_PLUGINS.",
                PluginWarning,
                stacklevel=3,
            )
            return None
        else:
            warnings.warn(
                f"overriding environment {id!r} (previously from "
                f"{existing.plugin or 'code'}) with a new registration",
                UserWarning,
                stacklevel=3,
            )
        self._specs[id] = spec
        self._newest = None
        return spec

    def _version_clash(self, spec: EnvSpec) -> str | None:
        """Why `spec` cannot join the ids of its name, if one of them has the other kind of
        version (an unversioned id beside versioned ones, or the reverse)."""
        namespace, name, version = parse_env_id(spec.id)
        for known in self._specs:
            ns, nm, other = parse_env_id(known)
            if ns != namespace or nm != name or (other is None) == (version is None):
                continue
            if version is None:
                return (
                    f"cannot register the unversioned id {spec.id!r} while the versioned "
                    f"{known!r} exists; make({spec.id!r}) already builds the newest version"
                )
            return (
                f"cannot register the versioned id {spec.id!r} while the unversioned "
                f"{known!r} exists; unregister {known!r} first or give it a version too"
            )
        return None

    def register_id_prefix(self, prefix: str, resolver: str | Callable[[str], EnvSpec]) -> None:
        """Let ids spelled ``prefix:rest`` reach another library's registry.

        `resolver` (a callable, or "module:function" imported on first use) turns `rest` into
        the `EnvSpec` that `make` builds. The registry asks it only for ids it does not hold.
        """
        if not prefix.isidentifier():
            raise RegistrationError(
                f"an id prefix must be an identifier such as 'gymnasium', got {prefix!r}"
            )
        self._id_prefixes[prefix] = resolver

    def _resolve_prefixed(self, env_id: str) -> EnvSpec | None:
        prefix, colon, rest = env_id.partition(":")
        resolver = self._id_prefixes.get(prefix) if colon else None
        if resolver is None:
            return None
        if isinstance(resolver, str):
            module_name, _, attribute = resolver.partition(":")
            resolver = getattr(importlib.import_module(module_name), attribute)
            assert callable(resolver)
        return resolver(rest)

    def register_policy(
        self, env_id: str, name: str, entry_point: str | Callable[[Any], Any]
    ) -> None:
        """Name a policy for `env_id`: a callable from one observation to one action (or its
        "module:function" path, imported on first use). `protogym run ID --policy NAME` and
        the docs gallery use them, so a new user sees an env do what it is for."""
        if not name.isidentifier():
            raise RegistrationError(
                f"a policy name must be an identifier such as 'heuristic', got {name!r}"
            )
        self._policies.setdefault(env_id, {})[name] = entry_point

    def policies(self, env_id: str) -> list[str]:
        """The names of the policies registered for `env_id`."""
        self.ensure_discovered()
        return sorted(self._policies.get(env_id, {}))

    def policy(self, env_id: str, name: str) -> Callable[[Any], Any]:
        """The policy `name` of `env_id`, or a KeyError-based error that lists the names."""
        self.ensure_discovered()
        found = self._policies.get(env_id, {}).get(name)
        if found is None:
            known = ", ".join(repr(n) for n in self.policies(env_id)) or "none"
            raise UnregisteredEnv(
                f"no policy {name!r} is registered for {env_id!r} (its policies: {known}); "
                "plugins name them with registry.register_policy()"
            )
        if isinstance(found, str):
            module_name, _, attribute = found.partition(":")
            found = getattr(importlib.import_module(module_name), attribute)
            assert callable(found)
        return found

    def check_trusted(self, spec: EnvSpec, source: str) -> None:
        """Refuse a spec whose string entry points no registration of this registry names.

        A string entry point is imported by `make`, so a spec from a file could otherwise run
        any module's code (``"os:system"``). Known entry points are those of registered ids,
        of the id's own registration (prefixed ids included) and of registered wrappers;
        wrappers a spec names are always looked up by name, never by its entry point.
        """
        claimed = [
            point
            for point in (spec.entry_point, spec.vector_entry_point)
            if isinstance(point, str)
        ]
        if not claimed:
            return
        known = {
            _path_of(point)
            for registered in self.values()
            for point in (registered.entry_point, registered.vector_entry_point)
            if point is not None
        }
        unknown = [point for point in claimed if point not in known]
        if unknown and spec.id not in self:
            own = self._resolve_prefixed(spec.id)
            if own is not None:
                unknown = [p for p in unknown if p not in (own.entry_point, own.vector_entry_point)]
        if unknown:
            raise UntrustedEntryPoint(
                f"{source} names the entry point {unknown[0]!r} (id {spec.id!r}), which no "
                "registered environment uses, so it was not imported: a spec from a file could "
                "otherwise run any code. Register the id first, or pass "
                "trust_entry_points=True if you trust where the spec came from."
            )

    def unregister(self, env_id: str) -> EnvSpec:
        """Remove `env_id` and return its spec (for tests, and for replacing a plugin's id)."""
        if env_id not in self:
            raise self._missing(env_id)
        self._newest = None
        return self._specs.pop(env_id)

    def register_wrapper(
        self,
        name: str,
        entry_point: str | Callable[..., Any],
        *,
        kwargs: Mapping[str, Any] | None = None,
    ) -> WrapperSpec | None:
        """Make a wrapper available by name to `make(..., wrappers=...)` and `wrap`."""
        if not isinstance(name, str) or not name:
            raise RegistrationError(f"a wrapper name must be a non-empty str, got {name!r}")
        spec = WrapperSpec(
            name=name,
            entry_point=entry_point if isinstance(entry_point, str) else None,
            kwargs=dict(kwargs or {}),
        )
        if name in self._wrappers and self._current_plugin is not None:
            owner = self._wrapper_owners[name] or "code"
            warnings.warn(
                f"plugin {self._current_plugin!r} tried to register wrapper {name!r}, which "
                f"{owner!r} already provides; the registration was ignored",
                PluginWarning,
                stacklevel=3,
            )
            return None
        self._wrappers[name] = spec
        self._wrapper_owners[name] = self._current_plugin
        if not isinstance(entry_point, str):
            self._wrapper_callables[name] = entry_point
        return spec

    def wrapper_entry(
        self, request: str | WrapperSpec, *, trust_entry_points: bool = False
    ) -> tuple[WrapperSpec, str | Callable[..., Any]]:
        """The registered spec of the wrapper `request` names, and what to call to build it.

        Wrappers are found by name. A `WrapperSpec` whose entry point is not the registered
        one of its name (a wrapper class of your own, as `env.spec` records it) is built
        from that entry point only if its class is already imported, or with
        `trust_entry_points`: a spec read from a file cannot make protogym import a module.
        """
        name = request if isinstance(request, str) else request.name
        claimed = None if isinstance(request, str) else request.entry_point
        spec = self.wrappers.get(name)
        target = None if spec is None else self._wrapper_callables.get(name, spec.entry_point)
        if claimed is not None and (target is None or claimed != _path_of(target)):
            found: str | Callable[..., Any] | None = _imported_wrapper_class(claimed)
            if found is None and trust_entry_points:
                found = claimed
            if found is not None:
                return WrapperSpec(name, claimed), found
        if spec is not None and target is not None:
            return spec, target
        suggestions = _close_matches(name, self._wrappers)
        hint = f" Did you mean {_or_list(suggestions)}?" if suggestions else ""
        where = (
            f" Its entry point {claimed!r} is neither registered nor imported, so it was not "
            "loaded: import its module first, or pass trust_entry_points=True if you trust "
            "where the spec came from."
            if claimed is not None
            else ""
        )
        raise UnregisteredWrapper(
            f"no wrapper is registered as {name!r}.{hint}{where} Registered wrappers are "
            "listed by protogym.registry.wrappers; plugins add theirs with register_wrapper()."
        )

    # -- looking up --------------------------------------------------------------------

    def find(self, env_id: str) -> EnvSpec:
        """The spec of `env_id`, or an error that says what exists instead.

        ``"module:Name-vN"`` imports `module` first (for the ids it registers), as in
        Gymnasium. An unversioned name whose ids all have versions finds the newest, with a
        `UserWarning`; an old version that is still registered warns (`DeprecationWarning`)
        and names the newest one.
        """
        if not isinstance(env_id, str):
            raise TypeError(
                f"an environment id is a str such as 'CartPole-v1' (or pass an EnvSpec), "
                f"got {type(env_id).__name__}: {env_id!r}"
            )
        spec = self.get(env_id)
        if spec is None:
            return self._find_elsewhere(env_id)
        namespace, name, version = parse_env_id(env_id)
        newest = self._newest_versions().get((namespace, name))
        if version is not None and newest is not None and newest > version:
            warnings.warn(
                f"{env_id!r} is out of date; the newest version is "
                f"{get_env_id(namespace, name, newest)!r}",
                DeprecationWarning,
                stacklevel=3,
            )
        return spec

    def _find_elsewhere(self, env_id: str) -> EnvSpec:
        """`find` for an id that is not registered as it is spelled."""
        prefixed = self._resolve_prefixed(env_id)
        if prefixed is not None:
            return prefixed
        module, colon, rest = env_id.partition(":")
        if colon:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as exc:
                raise ModuleNotFoundError(
                    f"{env_id!r} asks to import {module!r} to register {rest!r}, but it cannot "
                    f"be imported ({exc}); install it or fix the module path before the ':'"
                ) from exc
            return self.find(rest)
        namespace, name, version = parse_env_id(env_id)
        newest = self._newest_versions().get((namespace, name))
        if version is None and newest is not None:
            newest_id = get_env_id(namespace, name, newest)
            warnings.warn(
                f"{env_id!r} has no version; using the newest registered one, {newest_id!r}. "
                "Name the version to keep the env from changing under you.",
                UserWarning,
                stacklevel=4,
            )
            return self._specs[newest_id]
        raise self._missing(env_id)

    def highest_version(self, namespace: str | None, name: str) -> int | None:
        """The highest registered version of `name` in `namespace`, or None if it has none."""
        if self._discover is not None:
            self.ensure_discovered()
        return self._newest_versions().get((namespace, name))

    def _newest_versions(self) -> dict[tuple[str | None, str], int]:
        """(namespace, name) -> highest registered version; rebuilt after a registration."""
        if self._newest is None:
            newest: dict[tuple[str | None, str], int] = {}
            for known in self._specs:
                namespace, name, version = parse_env_id(known)
                if version is not None and version > newest.get((namespace, name), -1):
                    newest[(namespace, name)] = version
            self._newest = newest
        return self._newest

    def _missing(self, env_id: str) -> RegistrationError:
        """The error for an id that is not registered, of the class Gymnasium raises there:
        `NamespaceNotFound`, `NameNotFound`, `VersionNotFound` or `DeprecatedEnv`."""
        namespace, name, version = parse_env_id(env_id)
        parsed = [parse_env_id(known) for known in self._specs]
        namespaces = {ns for ns, _, _ in parsed if ns is not None}
        if namespace is not None and namespace not in namespaces:
            close = _close_matches(namespace, namespaces)
            hint = f" Did you mean {_or_list(close)}?" if close else ""
            return NamespaceNotFound(
                f"no environment namespace {namespace!r} is registered (looking up "
                f"{env_id!r}).{hint} Installed namespaces: {self._describe_namespaces()}. Is "
                "the plugin that provides it installed, and not excluded by PROTOGYM_PLUGINS?"
            )
        versions = sorted(
            (v for ns, nm, v in parsed if ns == namespace and nm == name), key=_version_key
        )
        if not versions:
            names = {nm for ns, nm, _ in parsed if ns == namespace}
            close = [self._newest_id(namespace, nm) for nm in _close_matches(name, names)]
            close = close or _close_matches(env_id, self._specs)
            hint = f" Did you mean {_or_list(close)}?" if close else ""
            where = f" in namespace {namespace!r}" if namespace else ""
            return NameNotFound(
                f"no environment is registered as {env_id!r}: no env is named {name!r}"
                f"{where}.{hint} List them with `protogym list` or protogym.pprint_registry()."
            )
        listed = ", ".join(repr(get_env_id(namespace, name, v)) for v in versions)
        latest = max((v for v in versions if v is not None), default=None)
        if version is None:
            return VersionNotFound(
                f"{env_id!r} is not registered; registered versions of {name!r}: {listed}"
            )
        if latest is None:
            return DeprecatedEnv(
                f"{env_id!r} is not registered: {name!r} is registered without a version, as "
                f"{get_env_id(namespace, name, None)!r}"
            )
        if version < latest:
            return DeprecatedEnv(
                f"{env_id!r} is no longer registered; use "
                f"{get_env_id(namespace, name, latest)!r} (registered versions: {listed})"
            )
        return VersionNotFound(
            f"{env_id!r} is not registered; registered versions of {name!r}: {listed}"
        )

    def _newest_id(self, namespace: str | None, name: str) -> str:
        """The id to suggest for a name: its newest version, or the unversioned id."""
        return get_env_id(namespace, name, self._newest_versions().get((namespace, name)))

    def _describe_namespaces(self) -> str:
        owners: dict[str, set[str]] = {}
        for spec in self._specs.values():
            if spec.namespace is not None:
                owners.setdefault(spec.namespace, set()).add(spec.plugin or "code")
        if not owners:
            return "none"
        return ", ".join(
            f"{ns!r} (from {', '.join(sorted(owners[ns]))})" for ns in sorted(owners)
        )


def _path_of(entry_point: str | Callable[..., Any]) -> str | None:
    """A registered entry point as the ``module:attribute`` text a spec file would hold."""
    if isinstance(entry_point, str):
        return entry_point
    module = getattr(entry_point, "__module__", None)
    qualname = getattr(entry_point, "__qualname__", None)
    return f"{module}:{qualname}" if module and qualname else None


def _imported_wrapper_class(entry_point: str) -> type[Any] | None:
    """The `Wrapper` subclass `entry_point` names if its module is already imported (so
    loading it runs no new code), else None."""
    from protogym.core import Wrapper

    module_name, _, attribute = entry_point.partition(":")
    target: Any = sys.modules.get(module_name)
    for part in attribute.split(".") if target is not None and attribute else ():
        target = getattr(target, part, None)
    if isinstance(target, type) and Wrapper in target.__mro__:
        return target
    return None


def _version_key(version: int | None) -> int:
    return -1 if version is None else version


def _close_matches(word: str, candidates: Iterable[str]) -> list[str]:
    """Up to three candidates close to `word`, ignoring case (`cartpole` finds `CartPole`)."""
    by_lower = {candidate.lower(): candidate for candidate in candidates}
    found = difflib.get_close_matches(word.lower(), list(by_lower), n=3, cutoff=0.6)
    return [by_lower[match] for match in found]


def _or_list(items: list[str]) -> str:
    quoted = [repr(item) for item in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]

