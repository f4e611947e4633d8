"""`EnvSpec` and `WrapperSpec`: the frozen recipes from which `make` builds envs and wrappers."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol, overload

import attrs

if TYPE_CHECKING:
    from protogym.core import Env
    from protogym.vector.vector_env import VectorEnv

StepApi = Literal["terminated_truncated", "done"]
STEP_APIS: tuple[StepApi, ...] = ("terminated_truncated", "done")

# [namespace/]Name[-vN]: the namespace and name may contain letters, digits, '_', '-', '.',
# ':' (Gymnasium allows the same); the version is a non-negative integer.
ENV_ID_RE = re.compile(r"^(?:(?P<namespace>[\w:.-]+)/)?(?P<name>[\w:.-]+?)(?:-v(?P<version>\d+))?$")


@functools.lru_cache(maxsize=4096)
def parse_env_id(env_id: str) -> tuple[str | None, str, int | None]:
    """Split an id into `(namespace, name, version)`, raising on a malformed id.

    Cached: `make` parses the same few ids over and over.
    """
    from protogym.error import RegistrationError

    if not isinstance(env_id, str):
        raise RegistrationError(f"an environment id must be a str, got {env_id!r}")
    match = ENV_ID_RE.fullmatch(env_id)
    if match is None:
        raise RegistrationError(
            f"malformed environment id {env_id!r}: expected [namespace/]Name[-vN], "
            "for example 'CartPole-v1' or 'acme/Corridor-v0'"
        )
    version = match["version"]
    return match["namespace"], match["name"], None if version is None else int(version)


def get_env_id(namespace: str | None, name: str, version: int | None) -> str:
    """The inverse of `parse_env_id`."""
    prefix = f"{namespace}/" if namespace else ""
    suffix = f"-v{version}" if version is not None else ""
    return f"{prefix}{name}{suffix}"


def _entry_point_text(entry_point: str | Callable[..., Any] | None) -> str | None:
    if entry_point is None or isinstance(entry_point, str):
        return entry_point
    module = getattr(entry_point, "__module__", None)
    qualname = getattr(entry_point, "__qualname__", None)
    if module is None or qualname is None or "<" in qualname:
        raise ValueError(
            f"entry point {entry_point!r} cannot be written as 'module:attribute'; register "
            "it by its import path to make the spec serialisable"
        )
    return f"{module}:{qualname}"


class EnvCreator(Protocol):
    """What an entry point is: a callable (usually the env class) building an env from
    keyword arguments."""

    def __call__(self, **kwargs: Any) -> Env[Any, Any]: ...


class VectorEnvCreator(Protocol):
    """What a vector entry point is: a callable building a vector env from keyword
    arguments (``num_envs`` among them)."""

    def __call__(self, **kwargs: Any) -> VectorEnv[Any, Any, Any]: ...


def _wrapper_tuple(value: Iterable[WrapperSpec]) -> tuple[WrapperSpec, ...]:
    return tuple(value)


def _frozen_kwargs(value: Mapping[str, Any] | None) -> dict[str, Any]:
    return dict(value) if value else {}


def _recorded_kwargs(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if value is None else dict(value)


@attrs.frozen
class WrapperSpec:
    """A wrapper in a recipe: its name, where its class lives, and its keyword arguments.

    `make` finds the class by `name` among the registered wrappers. `kwargs` is None when
    the arguments it was built with are unknown, so the recipe cannot rebuild it.
    """

    name: str
    entry_point: str | None = None
    kwargs: dict[str, Any] | None = attrs.field(factory=dict, converter=_recorded_kwargs)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "entry_point": self.entry_point, "kwargs": self.kwargs}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WrapperSpec:
        if not isinstance(data, Mapping) or "name" not in data:
            raise ValueError(
                f"a wrapper in additional_wrappers is an object with a 'name' (and optionally "
                f"'entry_point' and 'kwargs'), got {data!r}"
            )
        return cls(data["name"], data.get("entry_point"), data.get("kwargs", {}))


def _check_id(instance: EnvSpec, attribute: attrs.Attribute[str], value: str) -> None:
    parse_env_id(value)


def _check_api(instance: EnvSpec, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in STEP_APIS:
        raise ValueError(f"api must be one of {STEP_APIS}, got {value!r}")


def _check_max_steps(instance: EnvSpec, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise ValueError(f"max_episode_steps must be a positive int or None, got {value!r}")


@attrs.frozen
class EnvSpec:
    """Everything `make` needs to build an env, and a record of the wrappers around it.

    The fields come in Gymnasium's order, so they can be given positionally as there
    (``EnvSpec("Walk-v0", "pkg.walk:Walk")``); `api` and `plugin` are protogym's own and
    keyword-only. `additional_wrappers` lists the wrappers beyond `make`'s defaults, in the
    order they were applied; `to_json`/`from_json` round-trip the whole recipe so
    `make(spec)` can rebuild the same env from a file. Frozen: `evolve` makes a changed copy.
    """

    id: str = attrs.field(validator=_check_id)
    entry_point: str | Callable[..., Any] | None = None
    reward_threshold: float | None = None
    nondeterministic: bool = False
    max_episode_steps: int | None = attrs.field(default=None, validator=_check_max_steps)
    order_enforce: bool = True
    disable_env_checker: bool = False
    kwargs: dict[str, Any] = attrs.field(factory=dict, converter=_frozen_kwargs)
    additional_wrappers: tuple[WrapperSpec, ...] = attrs.field(default=(), converter=_wrapper_tuple)
    vector_entry_point: str | Callable[..., Any] | None = None
    api: StepApi = attrs.field(default="terminated_truncated", validator=_check_api, kw_only=True)
    plugin: str | None = attrs.field(default=None, kw_only=True)
    """The distribution whose plugin registered this id, or None if registered in code."""

    @property
    def namespace(self) -> str | None:
        return parse_env_id(self.id)[0]

    @property
    def name(self) -> str:
        return parse_env_id(self.id)[1]

    @property
    def version(self) -> int | None:
        return parse_env_id(self.id)[2]

    def make(self, **kwargs: Any) -> Any:
        """Shorthand for `protogym.make(self, **kwargs)`."""
        from protogym.registration.make import make

        return make(self, **kwargs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "entry_point": _entry_point_text(self.entry_point),
            "reward_threshold": self.reward_threshold,
            "nondeterministic": self.nondeterministic,
            "max_episode_steps": self.max_episode_steps,
            "order_enforce": self.order_enforce,
            "disable_env_checker": self.disable_env_checker,
            "kwargs": self.kwargs,
            "additional_wrappers": [w.to_dict() for w in self.additional_wrappers],
            "vector_entry_point": _entry_point_text(self.vector_entry_point),
            "api": self.api,
            "plugin": self.plugin,
        }

    def to_json(self) -> str:
        """The spec as JSON; raises `ValueError` naming a kwarg that JSON cannot hold."""
        data = self.to_dict()
        try:
            return json.dumps(data, sort_keys=True)
        except TypeError as exc:
            raise ValueError(
                f"the spec of {self.id!r} cannot be written as JSON: {exc}; pass only JSON "
                "values (numbers, strings, lists, dicts, None) as env and wrapper kwargs"
            ) from exc

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, trust_entry_points: bool = False) -> EnvSpec:
        """The spec `data` describes; its entry points must be ones the registry knows (see
        `Registry.check_trusted`) unless `trust_entry_points`. Nothing is imported here."""
        known = {field.name for field in attrs.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown EnvSpec field(s) {unknown}; known fields: {sorted(known)}")
        values = dict(data)
        values["additional_wrappers"] = tuple(
            WrapperSpec.from_dict(w) for w in values.get("additional_wrappers") or ()
        )
        spec = cls(**values)
        if not trust_entry_points:
            from protogym.registration.global_registry import registry

            registry.check_trusted(spec, "EnvSpec.from_dict")
        return spec

    @classmethod
    def from_json(cls, text: str, *, trust_entry_points: bool = False) -> EnvSpec:
        """The spec a `to_json` document describes; see `from_dict` for `trust_entry_points`."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"an EnvSpec JSON document is an object, got {type(data).__name__}")
        return cls.from_dict(data, trust_entry_points=trust_entry_points)

    @overload
    def pprint(
        self,
        disable_print: Literal[False] = False,
        include_entry_points: bool = False,
        print_all: bool = False,
    ) -> None: ...

    @overload
    def pprint(
        self,
        disable_print: Literal[True],
        include_entry_points: bool = False,
        print_all: bool = False,
    ) -> str: ...

    @overload
    def pprint(
        self, disable_print: bool, include_entry_points: bool = False, print_all: bool = False
    ) -> str | None: ...

    def pprint(
        self,
        disable_print: bool = False,
        include_entry_points: bool = False,
        print_all: bool = False,
    ) -> str | None:
        """Print the spec one field a line, or return the text with ``disable_print=True``.

        Fields at their defaults are left out unless `print_all`; the entry points (and the
        plugin that registered the id) are shown with `include_entry_points`.
        """
        text = "\n".join(self._pprint_lines(include_entry_points, print_all))
        if disable_print:
            return text
        print(text)
        return None

    def _pprint_lines(self, include_entry_points: bool, print_all: bool) -> Iterator[str]:
        entry_points = include_entry_points or print_all
        yield f"id={self.id}"
        if entry_points:
            yield f"entry_point={_entry_point_label(self.entry_point)}"
        for name in _PPRINT_FIELDS:
            value = getattr(self, name)
            if print_all or value != _DEFAULTS[name]:
                yield f"{name}={value}"
        if entry_points and (print_all or self.vector_entry_point is not None):
            yield f"vector_entry_point={_entry_point_label(self.vector_entry_point)}"
        if entry_points and (print_all or self.plugin is not None):
            yield f"plugin={self.plugin}"
        if print_all or self.additional_wrappers:
            rows = []
            for wrapper in self.additional_wrappers:
                where = f", entry_point={wrapper.entry_point}" if include_entry_points else ""
                rows.append(f"\n\tname={wrapper.name}{where}, kwargs={wrapper.kwargs}")
            yield f"additional_wrappers=[{','.join(rows)}\n]" if rows else "additional_wrappers=[]"

    def evolve(self, **changes: Any) -> EnvSpec:
        return attrs.evolve(self, **changes)


# What `pprint` shows after the id, in this order, when it differs from the default.
_PPRINT_FIELDS = (
    "reward_threshold",
    "nondeterministic",
    "max_episode_steps",
    "order_enforce",
    "disable_env_checker",
    "kwargs",
    "api",
)
_DEFAULTS: dict[str, Any] = {
    "reward_threshold": None,
    "nondeterministic": False,
    "max_episode_steps": None,
    "order_enforce": True,
    "disable_env_checker": False,
    "kwargs": {},
    "api": "terminated_truncated",
}


def _entry_point_label(entry_point: str | Callable[..., Any] | None) -> str:
    """An entry point as `pprint` shows it: a string as it is, a callable by its path."""
    if entry_point is None or isinstance(entry_point, str):
        return str(entry_point)
    module = getattr(entry_point, "__module__", None)
    qualname = getattr(entry_point, "__qualname__", None)
    return f"{module}:{qualname}" if module and qualname else repr(entry_point)
