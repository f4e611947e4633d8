"""The registry: a read-only mapping of env id -> `EnvSpec`, plus the named wrappers.

Plugins are discovered on the first look-up, not on import. Who owns an id is decided by a
fixed rule (see `docs/plugins.md`): an id registered in code before discovery keeps it;
among plugins, protogym's own come first, then third parties sorted by distribution and
entry-point name, and the first to register an id keeps it. Every refused claim is named
in a `PluginWarning`; nothing is taken over silently.
"""

from __future__ import annotations

import difflib
import importlib
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

from protogym.error import (
    DeprecatedEnv,
    PluginWarning,
    RegistrationError,
    UnregisteredEnv,
    UnregisteredWrapper,
    UntrustedEntryPoint,
)
from protogym.registration.env_spec import (
    EnvSpec,
    StepApi,
    WrapperSpec,
    env_id_of,
    parse_env_id,
)

BUILTIN_ID_PREFIXES: Mapping[str, str] = MappingProxyType(
    {"gymnasium": "protogym.interop.gymnasium:gymnasium_env_spec"}
)
"""Id prefixes every registry knows: ``gymnasium:[module:]id`` makes an id of Gymnasium's
registry (needs the `gymnasium` extra; the module is imported only then)."""


class Registry(Mapping[str, EnvSpec]):
    """Environment specs by id and wrapper specs by name, filled by code and by plugins."""

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
        *,
        max_episode_steps: int | None = None,
        reward_threshold: float | None = None,
        nondeterministic: bool = False,
        order_enforce: bool = True,
        disable_env_checker: bool = False,
        kwargs: Mapping[str, Any] | None = None,
        vector_entry_point: str | Callable[..., Any] | None = None,
        api: StepApi = "terminated_truncated",
        additional_wrappers: tuple[WrapperSpec, ...] = (),
    ) -> EnvSpec | None:
        """Register an env; returns its spec, or None if a plugin's claim was refused."""
        parse_env_id(id)
        if entry_point is None and vector_entry_point is None:
            raise RegistrationError(
                f"register({id!r}) needs an entry_point ('module:Class' or a callable) or a "
                "vector_entry_point"
            )
        spec = EnvSpec(
            id=id,
            entry_point=entry_point,
            reward_threshold=reward_threshold,
            nondeterministic=nondeterministic,
            max_episode_steps=max_episode_steps,
            order_enforce=order_enforce,
            disable_env_checker=disable_env_checker,
            kwargs=dict(kwargs or {}),
            vector_entry_point=vector_entry_point,
            api=api,
            additional_wrappers=additional_wrappers,
            plugin=self._current_plugin,
        )
        existing = self._specs.get(id)
        if existing is not None:
            if self._current_plugin is not None:
                owner = existing.plugin or "code registered before plugin discovery"
                warnings.warn(
                    f"plugin {self._current_plugin!r} tried to register {id!r}, which "
                    f"{owner!r} already provides; the registration was ignored. Ask one of "
                    "the two to rename the id, or limit discovery with PROTOGYM_PLUGINS.",
                    PluginWarning,
                    stacklevel=3,
                )
                return None
            warnings.warn(
                f"overriding environment {id!r} (previously from "
                f"{existing.plugin or 'code'}) with a new registration",
                UserWarning,
                stacklevel=3,
            )
        self._specs[id] = spec
        self._newest = None
        return spec

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

    def wrapper_entry(self, name: str) -> tuple[WrapperSpec, str | Callable[..., Any]]:
        """The spec of wrapper `name` and what to call to build it."""
        spec = self.wrappers.get(name)
        if spec is None:
            suggestions = difflib.get_close_matches(name, list(self._wrappers), n=3)
            hint = f" Did you mean {_or_list(suggestions)}?" if suggestions else ""
            raise UnregisteredWrapper(
                f"no wrapper is registered as {name!r}.{hint} Registered wrappers are listed "
                "by protogym.registry.wrappers; plugins add theirs with register_wrapper()."
            )
        target = self._wrapper_callables.get(name, spec.entry_point)
        assert target is not None
        return spec, target

    # -- looking up --------------------------------------------------------------------

    def find(self, env_id: str) -> EnvSpec:
        """The spec of `env_id`, or an error that says what exists instead.

        An old version that is still registered warns and names the newest one.
        """
        spec = self.get(env_id)
        if spec is None:
            spec = self._resolve_prefixed(env_id)
            if spec is None:
                raise self._missing(env_id)
            return spec
        namespace, name, version = parse_env_id(env_id)
        newest = self._newest_versions().get((namespace, name))
        if version is not None and newest is not None and newest > version:
            warnings.warn(
                f"{env_id!r} is out of date; the newest version is "
                f"{env_id_of(namespace, name, newest)!r}",
                DeprecationWarning,
                stacklevel=3,
            )
        return spec

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

    def _versions(self, namespace: str | None, name: str) -> list[int | None]:
        found = []
        for known in self._specs:
            ns, nm, version = parse_env_id(known)
            if ns == namespace and nm == name:
                found.append(version)
        return found

    def _missing(self, env_id: str) -> RegistrationError:
        namespace, name, version = parse_env_id(env_id)
        namespaces = {parse_env_id(known)[0] for known in self._specs}
        if namespace is not None and namespace not in namespaces:
            return UnregisteredEnv(
                f"no environment namespace {namespace!r} is registered (looking up "
                f"{env_id!r}). Installed namespaces: {self._describe_namespaces()}. Is the "
                "plugin that provides it installed, and not excluded by PROTOGYM_PLUGINS?"
            )
        versions = self._versions(namespace, name)
        if versions:
            listed = ", ".join(
                repr(env_id_of(namespace, name, v)) for v in sorted(versions, key=_version_key)
            )
            latest = self._newest_versions().get((namespace, name))
            if version is not None and latest is not None and version < latest:
                return DeprecatedEnv(
                    f"{env_id!r} is no longer registered; use "
                    f"{env_id_of(namespace, name, latest)!r} (registered versions: {listed})"
                )
            return UnregisteredEnv(
                f"{env_id!r} is not registered; registered versions of {name!r}: {listed}"
            )
        suggestions = difflib.get_close_matches(env_id, list(self._specs), n=3, cutoff=0.6)
        hint = f" Did you mean {_or_list(suggestions)}?" if suggestions else ""
        return UnregisteredEnv(
            f"no environment is registered as {env_id!r}.{hint} List them with "
            "`protogym list` or protogym.pprint_registry()."
        )

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


def _version_key(version: int | None) -> int:
    return -1 if version is None else version


def _or_list(items: list[str]) -> str:
    quoted = [repr(item) for item in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]

