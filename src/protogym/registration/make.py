"""`make` and `wrap`: build an env from its spec and apply wrappers by name.

`make` stacks, from the inside out: the env (adapted from the legacy API if registered with
``api="done"``), PassiveEnvChecker, OrderEnforcing, TimeLimit, RenderCollection or
HumanRendering when the asked render mode needs one, the spec's `additional_wrappers` and
the named wrappers, and StepCompatibility when ``return_two_dones=False``. The env's own
`spec` is Gymnasium's bare one (no time limit, order or checker); the outermost wrapper's
records the whole recipe, so ``make(env.spec)`` builds the same stack again.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, overload

from protogym.core import Env, Wrapper, missing_env_members
from protogym.error import DependencyNotInstalled, Error, InvalidMetadata, RegistrationError
from protogym.logger import warn
from protogym.registration.env_spec import EnvSpec, WrapperSpec
from protogym.registration.global_registry import registry
from protogym.wrappers.common import OrderEnforcing, TimeLimit

if TYPE_CHECKING:
    from protogym.compat import LegacyEnv
    from protogym.wrappers.env_checker import PassiveEnvChecker

WrapperRequest: TypeAlias = "str | tuple[str, Mapping[str, Any]] | WrapperSpec"
"""A wrapper to apply by name: `"Name"`, `("Name", {kwargs})` or a `WrapperSpec`."""

# entry point -> (module name, the module, attribute path): the import is done once, the
# attributes are read again on every call.
_loaded: dict[str, tuple[str, ModuleType, tuple[str, ...]]] = {}


def load_entry_point(entry_point: str | Callable[..., Any]) -> Callable[..., Any]:
    """Import `'package.module:Attribute'`, or return a callable unchanged.

    The module is imported once; its attribute is read on each call, so a module reloaded,
    replaced in `sys.modules` or given a new attribute is followed, as an import would be.

    A module that does not import raises `ModuleNotFoundError` (or the `ImportError`, or
    `DependencyNotInstalled`, it raised), a missing attribute `AttributeError`, as in
    Gymnasium; a malformed or uncallable entry point is a `RegistrationError`.
    """
    if not isinstance(entry_point, str):
        return entry_point
    found = _loaded.get(entry_point)
    if found is not None and sys.modules.get(found[0]) is found[1]:
        target: Any = found[1]
        try:
            for part in found[2]:
                target = getattr(target, part)
        except AttributeError:
            pass  # gone: the full look-up below says so
        else:
            if callable(target):
                return target  # type: ignore[no-any-return]
    module_name, colon, attribute = entry_point.partition(":")
    if not colon or not module_name or not attribute:
        raise RegistrationError(
            f"entry point {entry_point!r} is not of the form 'package.module:Attribute'"
        )
    try:
        module = importlib.import_module(module_name)
    except DependencyNotInstalled:
        raise  # its message already names what to install
    except ImportError as exc:  # the class Gymnasium raises, with the entry point named
        problem = type(exc) if type(exc) in (ImportError, ModuleNotFoundError) else ImportError
        raise problem(
            f"cannot import {module_name!r} for entry point {entry_point!r}: {exc}",
            name=exc.name,
        ) from exc
    target = module
    path = tuple(attribute.split("."))
    for part in path:
        try:
            target = getattr(target, part)
        except AttributeError:
            raise AttributeError(
                f"entry point {entry_point!r}: module {module_name!r} has no attribute "
                f"{attribute!r}"
            ) from None
    if not callable(target):
        raise RegistrationError(f"entry point {entry_point!r} is not callable: {target!r}")
    _loaded[entry_point] = (module_name, module, path)
    return target  # type: ignore[no-any-return]


@overload
def make(
    id: str | EnvSpec,
    max_episode_steps: int | None = None,
    disable_env_checker: bool | None = None,
    *,
    render_mode: str | None = None,
    return_two_dones: Literal[True] = True,
    wrappers: Sequence[WrapperRequest] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> Wrapper[Any, Any, Any, Any]: ...


@overload
def make(
    id: str | EnvSpec,
    max_episode_steps: int | None = None,
    disable_env_checker: bool | None = None,
    *,
    render_mode: str | None = None,
    return_two_dones: Literal[False],
    wrappers: Sequence[WrapperRequest] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> LegacyEnv[Any, Any]: ...


def make(
    id: str | EnvSpec,
    max_episode_steps: int | None = None,
    disable_env_checker: bool | None = None,
    *,
    render_mode: str | None = None,
    return_two_dones: bool = True,
    wrappers: Sequence[WrapperRequest] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> Wrapper[Any, Any, Any, Any] | LegacyEnv[Any, Any]:
    """Build the env registered as `id` (or described by an `EnvSpec`) with its wrappers.

    Keyword arguments override the spec's `kwargs`; `max_episode_steps` and
    `disable_env_checker` override the spec's when given (``max_episode_steps=-1``: no
    time limit at all). An `EnvSpec` whose entry point no registration knows is refused
    unless `trust_entry_points` (see `Registry.check_trusted`); so is a wrapper it names by
    an entry point that is neither registered nor already imported.
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
        env = _build(spec, creator, build_kwargs, render_wrapper)

    if max_episode_steps is None:
        max_episode_steps = spec.max_episode_steps
    elif max_episode_steps == -1:
        max_episode_steps = None
    if disable_env_checker is None:
        disable_env_checker = spec.disable_env_checker
    # The env itself is what the entry point built: no time limit, order or checker of its
    # own (Gymnasium's layout); each wrapper below reports its part in its own `spec`.
    holds_spec = True
    try:
        getattr(env, "unwrapped", env).spec = _bare_spec(spec, env_kwargs)
    except AttributeError:  # a structural env whose spec is read-only
        holds_spec = False
    prior = _prior_wrappers(env, spec)

    if not disable_env_checker:
        env = _passive_env_checker()(env)
    if spec.order_enforce:
        env = OrderEnforcing(env)
    if max_episode_steps is not None:
        env = TimeLimit(env, max_episode_steps)
    if render_wrapper is not None:
        env = render_wrapper(env)
    requests = spec.additional_wrappers[len(prior) :]
    if wrappers:
        requests += tuple(_wrapper_spec(request) for request in wrappers)
    if (
        Wrapper not in type(env).__mro__  # quicker than isinstance for make's own wrappers
        and not isinstance(env, Wrapper)
        and (not holds_spec or not requests)
    ):
        env = _Made(env)
    if (
        env_kwargs == spec.kwargs
        and max_episode_steps == spec.max_episode_steps
        and disable_env_checker == spec.disable_env_checker
        and prior == spec.additional_wrappers
    ):
        made_spec = spec  # nothing to record: share the frozen spec instead of copying it
    else:
        made_spec = spec.evolve(
            kwargs=env_kwargs,
            max_episode_steps=max_episode_steps,
            disable_env_checker=disable_env_checker,
            additional_wrappers=prior,
        )
    # Not contextlib.suppress, whose enter and exit are two Python calls per make.
    try:  # noqa: SIM105
        env.spec = made_spec
    except AttributeError:  # a structural env may have a read-only spec; its wrappers report it
        pass
    for request in requests:
        env = _apply(env, request, trust_entry_points)
    made: Wrapper[Any, Any, Any, Any] = env
    if not return_two_dones:
        from protogym.wrappers.step_compatibility import StepCompatibility

        return StepCompatibility(made, return_two_dones=False)
    return made


def wrap(env: Env[Any, Any], name: str, /, **kwargs: Any) -> Wrapper[Any, Any, Any, Any]:
    """Apply the wrapper registered as `name` and record it in the env's spec."""
    return _apply(env, WrapperSpec(name, kwargs=kwargs), trust_entry_points=False)


def _apply(
    env: Any, request: WrapperSpec, trust_entry_points: bool
) -> Wrapper[Any, Any, Any, Any]:
    """Wrap `env` as `request` says, and record the wrapper in the spec under its name."""
    registered, target = registry.wrapper_entry(request, trust_entry_points=trust_entry_points)
    if request.kwargs is None:
        raise ValueError(
            f"the spec names the wrapper {request.name!r} without the arguments it was built "
            "with (kwargs=None), so it cannot be rebuilt; give its kwargs in the WrapperSpec"
        )
    wrapper_cls = load_entry_point(target)
    kwargs = {**(registered.kwargs or {}), **request.kwargs}
    try:
        wrapped = wrapper_cls(env, **kwargs)
    except TypeError as exc:
        _raise_if_bad_keywords(f"wrapper {request.name!r}", wrapper_cls, kwargs, exc, skip=1)
        raise
    spec = getattr(env, "spec", None)
    if isinstance(spec, EnvSpec):
        recorded = WrapperSpec(request.name, registered.entry_point, request.kwargs)
        wrapped.spec = spec.evolve(additional_wrappers=(*spec.additional_wrappers, recorded))
    return wrapped  # type: ignore[no-any-return]


def _bare_spec(spec: EnvSpec, env_kwargs: dict[str, Any]) -> EnvSpec:
    """The spec of the env an entry point built, before `make` wraps it.

    Made once per spec for the spec's own kwargs (the common case: `make` in a loop), and
    shared, as specs are frozen.
    """
    shared = env_kwargs == spec.kwargs
    if shared:
        cached = _BARE_SPECS.get(id(spec))
        # The kwargs dicts can change in place (the spec's, or the bare spec's through an
        # env's `unwrapped.spec`): the cached copy serves only while it still says the same.
        if cached is not None and cached[0] is spec and cached[1].kwargs == env_kwargs:
            return cached[1]
    bare = spec.evolve(
        max_episode_steps=None,
        order_enforce=False,
        disable_env_checker=True,
        kwargs=env_kwargs,
        additional_wrappers=(),
    )
    if shared:
        if len(_BARE_SPECS) >= 256:
            _BARE_SPECS.clear()
        _BARE_SPECS[id(spec)] = (spec, bare)
    return bare


# id(spec) -> (spec, its bare spec); the spec is kept so that its id is not reused.
_BARE_SPECS: dict[int, tuple[EnvSpec, EnvSpec]] = {}


def _prior_wrappers(env: Any, spec: EnvSpec) -> tuple[WrapperSpec, ...]:
    """The wrappers the entry point itself put around the env (it may return a wrapped
    env); they must be the first ones of the spec's `additional_wrappers`, if it has that
    many, so that `make(env.spec)` does not apply them twice."""
    if not hasattr(env, "env") or not isinstance(env, Wrapper):  # the first test is quicker
        return ()
    built = getattr(env.spec, "additional_wrappers", ())
    expected = spec.additional_wrappers[: len(built)]
    if len(built) <= len(spec.additional_wrappers) and expected != built:
        mismatch = next(pair for pair in zip(expected, built, strict=True) if pair[0] != pair[1])
        raise ValueError(
            f"the entry point of {spec.id!r} returned an env wrapped in {mismatch[1]}, but the "
            f"spec's additional_wrappers expect {mismatch[0]} there; rebuild the spec from "
            "the env that entry point makes"
        )
    return tuple(built)


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
    """Which render wrapper (if any) `render_mode` needs, and the mode the env is built with.

    The modes come from the entry point's `metadata` (a class's, when it is a class). A mode
    the env does not list is passed on with a warning, as in Gymnasium: the env decides.
    """
    metadata = getattr(creator, "metadata", None)
    if render_mode is None and type(metadata) is dict and "render_modes" in metadata:
        return None, None  # the common case, first: nothing to check or plan
    if metadata is None or isinstance(metadata, property):
        return None, render_mode
    if type(metadata) is not dict and not isinstance(metadata, Mapping):  # dict: quicker
        raise InvalidMetadata(
            f"the metadata of {env_id!r}'s entry point is a {type(metadata).__name__}; it "
            "must be a dict such as {'render_modes': ['rgb_array'], 'render_fps': 30}"
        )
    modes = metadata.get("render_modes")
    if modes is None:
        warn(
            "the metadata of %r's entry point has no 'render_modes' (its keys: %s); declare "
            "the render modes the env supports, even if none ([])",
            env_id,
            list(metadata),
            category=UserWarning,
            stacklevel=3,
        )
        return None, render_mode
    if render_mode is None or render_mode in modes:
        return None, render_mode
    frames = next((mode for mode in ("rgb_array", "rgb_array_list") if mode in modes), None)
    if render_mode == "human" and frames is not None:
        from protogym.wrappers.rendering import HumanRendering

        warn(
            "%r does not render in 'human' mode itself; make shows its %r frames in a "
            "window through the HumanRendering wrapper",
            env_id,
            frames,
            category=UserWarning,
            stacklevel=3,
        )
        return HumanRendering, frames
    if render_mode.endswith("_list") and render_mode[: -len("_list")] in modes:
        from protogym.wrappers.rendering import RenderCollection

        return RenderCollection, render_mode[: -len("_list")]
    warn(
        "%r is made with render_mode=%r, which its metadata does not list (its render modes: "
        "%s, their '_list' forms, and 'human' when it has 'rgb_array')",
        env_id,
        render_mode,
        list(modes),
        category=UserWarning,
        stacklevel=3,
    )
    return None, render_mode


def _build(
    spec: EnvSpec,
    creator: Callable[..., Any],
    kwargs: dict[str, Any],
    render_wrapper: Callable[[Any], Any] | None,
) -> Any:
    try:
        env = creator(**kwargs)
    except TypeError as exc:
        if (
            render_wrapper is not None
            and "render_mode" in kwargs
            and not _accepts(creator, "render_mode")
        ):
            raise Error(
                f"{spec.id!r} was asked for render_mode={kwargs['render_mode']!r} to show it "
                "through a wrapper, but its entry point takes no render_mode (the old "
                "render(mode=...) API?); register it with api='done', or render its frames "
                "yourself"
            ) from exc
        _raise_if_bad_keywords(f"environment {spec.id!r}", creator, kwargs, exc)
        raise
    # An explicit subclass answers from its MRO, without the metaclass's Python call.
    if Env not in type(env).__mro__ and not isinstance(env, Env):
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
        named = (
            f"an unexpected keyword argument {unknown[0]!r}"
            if len(unknown) == 1
            else f"unexpected keyword arguments {', '.join(map(repr, unknown))}"
        )
        raise TypeError(
            f"{what} got {named}; it accepts "
            f"{', '.join(map(repr, accepted)) or 'no keyword arguments'}"
        ) from exc


class _Made(Wrapper[Any, Any, Any, Any]):
    """Holds `spec` and `unwrapped` for a made env that no other wrapper wraps, or whose
    own `spec` is read-only."""
