"""`make` and `wrap`: build an env from its spec and apply wrappers by name.

`make` stacks, from the inside out: the env (adapted from the legacy API if registered with
``api="done"``), PassiveEnvChecker, OrderEnforcing, TimeLimit, RenderCollection or
HumanRendering when the asked render mode needs one, the named wrappers, and
StepCompatibility when ``return_two_dones=False``. The outermost wrapper's `spec` records
the whole recipe, so ``make(env.spec)`` builds the same stack again.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, overload

from protogym.core import Env, Wrapper, missing_env_members
from protogym.error import RegistrationError
from protogym.registration.env_spec import EnvSpec, WrapperSpec
from protogym.registration.global_registry import registry
from protogym.wrappers.common import OrderEnforcing, TimeLimit

if TYPE_CHECKING:
    from protogym.compat import LegacyEnv
    from protogym.wrappers.env_checker import PassiveEnvChecker

WrapperRequest: TypeAlias = "str | tuple[str, Mapping[str, Any]] | WrapperSpec"
"""A wrapper to apply by name: `"Name"`, `("Name", {kwargs})` or a `WrapperSpec`."""

_loaded: dict[str, Any] = {}

# A structural env may have a read-only spec; the wrappers make adds still report it. One
# shared instance: make is called in loops.
_READ_ONLY_SPEC = contextlib.suppress(AttributeError)


def load_entry_point(entry_point: str | Callable[..., Any]) -> Callable[..., Any]:
    """Import `'package.module:Attribute'` (cached), or return a callable unchanged."""
    if not isinstance(entry_point, str):
        return entry_point
    found = _loaded.get(entry_point)
    if found is not None:
        return found  # type: ignore[no-any-return]
    module_name, colon, attribute = entry_point.partition(":")
    if not colon or not module_name or not attribute:
        raise RegistrationError(
            f"entry point {entry_point!r} is not of the form 'package.module:Attribute'"
        )
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise RegistrationError(
            f"cannot import {module_name!r} for entry point {entry_point!r}: {exc}"
        ) from exc
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise RegistrationError(
                f"entry point {entry_point!r}: module {module_name!r} has no attribute "
                f"{attribute!r}"
            ) from None
    if not callable(target):
        raise RegistrationError(f"entry point {entry_point!r} is not callable: {target!r}")
    _loaded[entry_point] = target
    return target  # type: ignore[no-any-return]


@overload
def make(
    id: str | EnvSpec,
    *,
    max_episode_steps: int | None = None,
    render_mode: str | None = None,
    disable_env_checker: bool | None = None,
    return_two_dones: Literal[True] = True,
    wrappers: Sequence[WrapperRequest] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> Wrapper[Any, Any, Any, Any]: ...


@overload
def make(
    id: str | EnvSpec,
    *,
    max_episode_steps: int | None = None,
    render_mode: str | None = None,
    disable_env_checker: bool | None = None,
    return_two_dones: Literal[False],
    wrappers: Sequence[WrapperRequest] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> LegacyEnv[Any, Any]: ...


def make(
    id: str | EnvSpec,
    *,
    max_episode_steps: int | None = None,
    render_mode: str | None = None,
    disable_env_checker: bool | None = None,
    return_two_dones: bool = True,
    wrappers: Sequence[WrapperRequest] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> Wrapper[Any, Any, Any, Any] | LegacyEnv[Any, Any]:
    """Build the env registered as `id` (or described by an `EnvSpec`) with its wrappers.

    Keyword arguments override the spec's `kwargs`; `max_episode_steps` and
    `disable_env_checker` override the spec's when given. An `EnvSpec` whose entry point no
    registration knows is refused unless `trust_entry_points` (see `Registry.check_trusted`).
    """
    if isinstance(id, EnvSpec):
        spec = id
        if not trust_entry_points:
            registry.check_trusted(spec, "make(spec)")
    else:
        spec = registry.find(id)
    if spec.entry_point is None:
        raise RegistrationError(
            f"{spec.id!r} has only a vector_entry_point; build it with protogym.make_vec"
        )
    env_kwargs = {**spec.kwargs, **kwargs}
    if render_mode is None:
        render_mode = env_kwargs.get("render_mode")
    else:
        env_kwargs["render_mode"] = render_mode
    creator = load_entry_point(spec.entry_point)
    render_wrapper, inner_render_mode = _render_plan(spec.id, creator, render_mode)
    build_kwargs = dict(env_kwargs)
    if render_mode is not None:
        build_kwargs["render_mode"] = inner_render_mode

    env: Any
    if spec.api == "done":
        env = _build_legacy(spec, creator, build_kwargs)
    else:
        env = _build(spec, creator, build_kwargs)

    if max_episode_steps is None:
        max_episode_steps = spec.max_episode_steps
    if disable_env_checker is None:
        disable_env_checker = spec.disable_env_checker
    requests = spec.additional_wrappers
    if wrappers:
        requests += tuple(_wrapper_spec(request) for request in wrappers)
    if (
        env_kwargs == spec.kwargs
        and max_episode_steps == spec.max_episode_steps
        and disable_env_checker == spec.disable_env_checker
        and not spec.additional_wrappers
    ):
        made_spec = spec  # nothing to record: share the frozen spec instead of copying it
    else:
        made_spec = spec.evolve(
            kwargs=env_kwargs,
            max_episode_steps=max_episode_steps,
            disable_env_checker=disable_env_checker,
            additional_wrappers=(),
        )
    with _READ_ONLY_SPEC:
        env.spec = made_spec

    if not disable_env_checker:
        env = _passive_env_checker()(env)
    if spec.order_enforce:
        env = OrderEnforcing(env)
    if max_episode_steps is not None:
        env = TimeLimit(env, max_episode_steps)
    if render_wrapper is not None:
        env = render_wrapper(env)
    if not isinstance(env, Wrapper):
        env = _Made(env)
    applied: list[WrapperSpec] = []
    for request in requests:
        env, recorded = _apply(env, request)
        applied.append(recorded)
    made: Wrapper[Any, Any, Any, Any] = env
    made.spec = made_spec.evolve(additional_wrappers=tuple(applied)) if applied else made_spec
    if not return_two_dones:
        from protogym.wrappers.step_compatibility import StepCompatibility

        return StepCompatibility(made, return_two_dones=False)
    return made


def wrap(env: Env[Any, Any], name: str, /, **kwargs: Any) -> Wrapper[Any, Any, Any, Any]:
    """Apply the wrapper registered as `name` and record it in the env's spec."""
    wrapped, recorded = _apply(env, WrapperSpec(name=name, kwargs=kwargs))
    spec = getattr(env, "spec", None)
    if isinstance(spec, EnvSpec):
        wrapped.spec = spec.evolve(additional_wrappers=(*spec.additional_wrappers, recorded))
    return wrapped


def _apply(env: Any, request: WrapperSpec) -> tuple[Wrapper[Any, Any, Any, Any], WrapperSpec]:
    registered, target = registry.wrapper_entry(request.name)
    wrapper_cls = load_entry_point(target)
    kwargs = {**registered.kwargs, **request.kwargs}
    try:
        wrapped = wrapper_cls(env, **kwargs)
    except TypeError as exc:
        _raise_if_bad_keywords(f"wrapper {request.name!r}", wrapper_cls, kwargs, exc, skip=1)
        raise
    recorded = WrapperSpec(
        name=request.name, entry_point=registered.entry_point, kwargs=request.kwargs
    )
    return wrapped, recorded


@functools.cache
def _passive_env_checker() -> type[PassiveEnvChecker[Any, Any]]:
    """The checker wrapper, imported on first use: it brings numpy, which discovery avoids."""
    from protogym.wrappers.env_checker import PassiveEnvChecker

    return PassiveEnvChecker


def _wrapper_spec(request: WrapperRequest) -> WrapperSpec:
    if isinstance(request, WrapperSpec):
        return request
    if isinstance(request, str):
        return WrapperSpec(name=request)
    if (
        isinstance(request, tuple)
        and len(request) == 2
        and isinstance(request[0], str)
        and isinstance(request[1], Mapping)
    ):
        return WrapperSpec(name=request[0], kwargs=dict(request[1]))
    raise TypeError(
        f"a wrapper request is 'Name', ('Name', {{kwargs}}) or a WrapperSpec, got {request!r}"
    )


def _render_plan(
    env_id: str, creator: Callable[..., Any], render_mode: str | None
) -> tuple[Callable[[Any], Any] | None, str | None]:
    """Which render wrapper (if any) `render_mode` needs, and the mode the env is built with."""
    if render_mode is None:
        return None, None
    metadata = getattr(creator, "metadata", None)
    modes = metadata.get("render_modes") if isinstance(metadata, Mapping) else None
    if modes is None or render_mode in modes:
        return None, render_mode
    if render_mode == "human" and "rgb_array" in modes:
        from protogym.wrappers.rendering import HumanRendering

        return HumanRendering, "rgb_array"
    if render_mode.endswith("_list") and render_mode[: -len("_list")] in modes:
        from protogym.wrappers.rendering import RenderCollection

        return RenderCollection, render_mode[: -len("_list")]
    raise ValueError(
        f"{env_id!r} cannot render in mode {render_mode!r}; its render modes are "
        f"{list(modes)} (and their '_list' forms, and 'human' when it has 'rgb_array')"
    )


def _build(spec: EnvSpec, creator: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    try:
        env = creator(**kwargs)
    except TypeError as exc:
        _raise_if_bad_keywords(f"environment {spec.id!r}", creator, kwargs, exc)
        raise
    if not isinstance(env, Env):
        missing = missing_env_members(env)
        raise TypeError(
            f"the entry point of {spec.id!r} returned {type(env).__name__}, which is not an "
            f"environment: it lacks {', '.join(missing)}"
        )
    return env


def _build_legacy(spec: EnvSpec, creator: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    from protogym.compat import LegacyEnvAdapter

    render_mode = kwargs.get("render_mode")
    if "render_mode" in kwargs and not _accepts(creator, "render_mode"):
        # Old envs took the mode in render(mode=...); the adapter passes it there.
        del kwargs["render_mode"]
    try:
        env = creator(**kwargs)
    except TypeError as exc:
        _raise_if_bad_keywords(f"environment {spec.id!r}", creator, kwargs, exc)
        raise
    return LegacyEnvAdapter(env, render_mode=render_mode)


def _accepts(function: Callable[..., Any], name: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return True
    return name in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()
    )


def _raise_if_bad_keywords(
    what: str,
    target: Callable[..., Any],
    kwargs: Mapping[str, Any],
    exc: TypeError,
    skip: int = 0,
) -> None:
    """Turn a TypeError caused by unknown keywords into one that names them and the options."""
    try:
        parameters = list(inspect.signature(target).parameters.values())[skip:]
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return
    accepted = [
        p.name
        for p in parameters
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    ]
    unknown = [key for key in kwargs if key not in accepted]
    if unknown:
        raise TypeError(
            f"{what} got unexpected keyword argument(s) {', '.join(map(repr, unknown))}; it "
            f"accepts {', '.join(map(repr, accepted)) or 'no keyword arguments'}"
        ) from exc


class _Made(Wrapper[Any, Any, Any, Any]):
    """Holds `spec` and `unwrapped` for a made env that no other wrapper wraps."""
