"""`EnvSpec` and `WrapperSpec`: the frozen recipes from which `make` builds envs and wrappers."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import attrs

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


def env_id_of(namespace: str | None, name: str, version: int | None) -> str:
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


def _wrapper_tuple(value: Iterable[WrapperSpec]) -> tuple[WrapperSpec, ...]:
    return tuple(value)


def _frozen_kwargs(value: Mapping[str, Any] | None) -> dict[str, Any]:
    return dict(value) if value else {}


@attrs.frozen(kw_only=True)
class WrapperSpec:
    """A wrapper applied by `make`: its registered name, entry point and keyword arguments."""

    name: str
    entry_point: str | None = None
    kwargs: dict[str, Any] = attrs.field(factory=dict, converter=_frozen_kwargs)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "entry_point": self.entry_point, "kwargs": self.kwargs}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WrapperSpec:
        return cls(name=data["name"], entry_point=data.get("entry_point"),
                   kwargs=data.get("kwargs") or {})


def _check_api(instance: EnvSpec, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in STEP_APIS:
        raise ValueError(f"api must be one of {STEP_APIS}, got {value!r}")


def _check_max_steps(instance: EnvSpec, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise ValueError(f"max_episode_steps must be a positive int or None, got {value!r}")


@attrs.frozen(kw_only=True)
class EnvSpec:
    """Everything `make` needs to build an env, and a record of the wrappers it applied.

    `additional_wrappers` lists the wrappers beyond `make`'s defaults, in the order they were
    applied; `to_json`/`from_json` round-trip the whole recipe so `make(spec)` can rebuild the
    same env from a file.
    """

    id: str
    entry_point: str | Callable[..., Any] | None = None
    reward_threshold: float | None = None
    nondeterministic: bool = False
    max_episode_steps: int | None = attrs.field(default=None, validator=_check_max_steps)
    order_enforce: bool = True
    disable_env_checker: bool = False
    kwargs: dict[str, Any] = attrs.field(factory=dict, converter=_frozen_kwargs)
    vector_entry_point: str | Callable[..., Any] | None = None
    api: StepApi = attrs.field(default="terminated_truncated", validator=_check_api)
    additional_wrappers: tuple[WrapperSpec, ...] = attrs.field(default=(), converter=_wrapper_tuple)
    plugin: str | None = None
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
            "vector_entry_point": _entry_point_text(self.vector_entry_point),
            "api": self.api,
            "additional_wrappers": [w.to_dict() for w in self.additional_wrappers],
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

    def pprint(self, *, print_all: bool = False) -> str:
        """A readable multi-line description; defaults are hidden unless `print_all`."""
        lines = [f"id={self.id}"]
        for field in attrs.fields(type(self)):
            if field.name == "id":
                continue
            value = getattr(self, field.name)
            if print_all or (value != field.default and not (
                isinstance(field.default, attrs.Factory) and not value  # type: ignore[arg-type]
            )):
                lines.append(f"{field.name}={value!r}")
        return "\n".join(lines)

    def evolve(self, **changes: Any) -> EnvSpec:
        return attrs.evolve(self, **changes)
