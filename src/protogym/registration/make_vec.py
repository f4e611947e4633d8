"""`make_vec`: build a vector env of a registered id: synchronous, asynchronous, native or on
Ray actors."""

from __future__ import annotations

import contextlib
import enum
import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, get_args, overload

from protogym.core import Env
from protogym.error import Error, RegistrationError
from protogym.registration.env_spec import EnvSpec
from protogym.registration.global_registry import registry
from protogym.registration.make import load_entry_point, make, wrap

if TYPE_CHECKING:
    from protogym.vector.async_vector_env import AsyncVectorEnv
    from protogym.vector.ray_vector_env import RayVectorEnv
    from protogym.vector.sync_vector_env import SyncVectorEnv
    from protogym.vector.vector_env import VectorEnv

__all__ = ["VectorizationMode", "VectorizeMode", "make_vec"]

VectorizationMode = Literal["sync", "async", "vector_entry_point", "ray"]
"""The modes as strings; `make_vec` takes these or a `VectorizeMode`."""


class VectorizeMode(enum.Enum):
    """How `make_vec` vectorises an env (Gymnasium's enum; its values are the strings
    `make_vec` also accepts). `RAY` is protogym's."""

    ASYNC = "async"
    SYNC = "sync"
    VECTOR_ENTRY_POINT = "vector_entry_point"
    RAY = "ray"


# What a vector env's spec keeps in its kwargs beside the env's own (Gymnasium's layout), so
# that make_vec(envs.spec) builds the same vector env again.
_VECTOR_KEYS = ("num_envs", "vectorization_mode", "vector_kwargs", "wrappers")

WrapperFactory = (
    Callable[[Env[Any, Any]], Env[Any, Any]] | str | tuple[str, Mapping[str, Any]]
)
"""A per-sub-env wrapper: a callable `env -> wrapped`, a registered name, or (name, kwargs)."""


# The mode decides the class. The mypy plugin narrows the default mode to the id's native
# class (or SyncVectorEnv) and fills in the observation and action types.
@overload
def make_vec(
    id: str | EnvSpec,
    num_envs: int = 1,
    vectorization_mode: None = None,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Sequence[WrapperFactory] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> VectorEnv[Any, Any, Any]: ...


@overload
def make_vec(
    id: str | EnvSpec,
    num_envs: int = 1,
    vectorization_mode: Literal["sync", VectorizeMode.SYNC] = ...,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Sequence[WrapperFactory] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> SyncVectorEnv[Any, Any, Any]: ...


@overload
def make_vec(
    id: str | EnvSpec,
    num_envs: int = 1,
    vectorization_mode: Literal["async", VectorizeMode.ASYNC] = ...,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Sequence[WrapperFactory] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> AsyncVectorEnv[Any, Any, Any]: ...


@overload
def make_vec(
    id: str | EnvSpec,
    num_envs: int = 1,
    vectorization_mode: Literal["ray", VectorizeMode.RAY] = ...,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Sequence[WrapperFactory] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> RayVectorEnv[Any, Any, Any]: ...


@overload
def make_vec(
    id: str | EnvSpec,
    num_envs: int = 1,
    vectorization_mode: VectorizationMode | VectorizeMode | None = None,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Sequence[WrapperFactory] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> VectorEnv[Any, Any, Any]: ...


def make_vec(
    id: str | EnvSpec,
    num_envs: int = 1,
    vectorization_mode: VectorizationMode | VectorizeMode | None = None,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Sequence[WrapperFactory] | None = None,
    trust_entry_points: bool = False,
    **kwargs: Any,
) -> VectorEnv[Any, Any, Any]:
    """Build `num_envs` copies of env `id` as one vector env.

    `vectorization_mode` is "sync" (`SyncVectorEnv`), "async" (`AsyncVectorEnv`),
    "vector_entry_point" (the spec's native vector env) or "ray" (`RayVectorEnv`, whose
    actors hold slices of the native vector env if the spec has one and no wrappers are
    asked for, else copies of the env), as a string or a `VectorizeMode`; by default the
    native one if the spec has it, else sync. Sub-envs are built with
    ``protogym.make(spec, **kwargs)`` and then wrapped by `wrappers` in order (callables, or
    registered wrapper names with kwargs, applied with `protogym.wrap`). `vector_kwargs` go
    to the vector env's constructor (for a native env only ``autoreset_mode`` is accepted).
    The vector env's `spec` keeps `num_envs`, the mode, `vector_kwargs` and `wrappers` in
    its kwargs, which override the arguments when that spec is given back to `make_vec`. An
    `EnvSpec` whose entry points no registration knows is refused unless
    `trust_entry_points`, as in `make`.
    """
    if isinstance(id, EnvSpec):
        spec = id
        if not trust_entry_points:
            registry.check_trusted(spec, "make_vec(spec)")
    elif isinstance(id, str):
        spec = registry.find(id)
    else:
        raise Error(
            f"make_vec takes an env id (str) or an EnvSpec, got {type(id).__name__}: {id!r}"
        )
    env_kwargs = dict(spec.kwargs)
    num_envs = env_kwargs.pop("num_envs", num_envs)
    vectorization_mode = env_kwargs.pop("vectorization_mode", vectorization_mode)
    vector_kwargs = env_kwargs.pop("vector_kwargs", vector_kwargs)
    wrappers = env_kwargs.pop("wrappers", wrappers)
    env_kwargs.update(kwargs)
    spec = spec.evolve(kwargs={})  # the env kwargs travel in env_kwargs from here on
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"make_vec needs num_envs to be a positive int, got {num_envs!r}")
    vector_kwargs = dict(vector_kwargs or {})
    wrapper_list = list(wrappers or ())
    for item in wrapper_list:
        _check_wrapper(item)
    mode = _mode(vectorization_mode, spec)

    env: Any
    native_slices = (
        mode is VectorizeMode.RAY
        and spec.vector_entry_point is not None
        and not wrapper_list
        and not spec.additional_wrappers
    )
    if native_slices:
        from protogym.vector.ray_vector_env import NativeSlices, RayVectorEnv

        def build_slice(count: int, autoreset_mode: Any) -> VectorEnv[Any, Any, Any]:
            return make_vec(spec, count, "vector_entry_point", {"autoreset_mode": autoreset_mode},
                            trust_entry_points=True, **env_kwargs)

        _check_vector_kwargs(RayVectorEnv, vector_kwargs)
        env = RayVectorEnv(NativeSlices(build_slice, num_envs), **vector_kwargs)
    elif mode is VectorizeMode.VECTOR_ENTRY_POINT:
        env = _native(spec, num_envs, vector_kwargs, wrapper_list, env_kwargs)
    else:
        if spec.entry_point is None:
            raise RegistrationError(
                f"{spec.id!r} has only a vector_entry_point; use "
                "vectorization_mode='vector_entry_point'"
            )

        def build() -> Env[Any, Any]:
            sub_env: Env[Any, Any] = make(spec, trust_entry_points=True, **env_kwargs)
            for item in wrapper_list:
                sub_env = _apply(sub_env, item)
            return sub_env

        vector_cls = _copying_class(mode)
        _check_vector_kwargs(vector_cls, vector_kwargs)
        env = vector_cls([build] * num_envs, **vector_kwargs)
    recorded = dict(env_kwargs)
    if num_envs != 1:
        recorded["num_envs"] = num_envs
    recorded["vectorization_mode"] = mode.value
    if vector_kwargs:
        recorded["vector_kwargs"] = vector_kwargs
    if wrapper_list:
        recorded["wrappers"] = wrappers
    with contextlib.suppress(AttributeError):  # a structural vector env may refuse it
        env.spec = spec.evolve(kwargs=recorded)
    _warn_if_autoreset_mode_unknown(env)
    return env  # type: ignore[no-any-return]


def _mode(value: object, spec: EnvSpec) -> VectorizeMode:
    """The `VectorizeMode` a mode argument names; None picks the spec's default."""
    if value is None:
        return VectorizeMode.VECTOR_ENTRY_POINT if spec.vector_entry_point else VectorizeMode.SYNC
    try:
        return VectorizeMode(value)
    except ValueError:
        valid = list(get_args(VectorizationMode))
        raise ValueError(
            f"vectorization_mode must be one of {valid}, a VectorizeMode or None, got {value!r}"
        ) from None


def _native(
    spec: EnvSpec,
    num_envs: int,
    vector_kwargs: dict[str, Any],
    wrapper_list: list[WrapperFactory],
    env_kwargs: dict[str, Any],
) -> Any:
    """The spec's own vector env (its `vector_entry_point`) with `num_envs` sub-envs."""
    if spec.vector_entry_point is None:
        raise RegistrationError(
            f"{spec.id!r} has no vector_entry_point; use vectorization_mode='sync' or 'async'"
        )
    if wrapper_list or spec.additional_wrappers:
        raise Error(
            f"make_vec cannot apply per-sub-env wrappers (the wrappers argument or the spec's "
            f"additional_wrappers) to the native vector env of {spec.id!r}; use "
            "vectorization_mode='sync' or 'async', or wrap the vector env with "
            "protogym.vector.wrappers"
        )
    unknown = sorted(set(vector_kwargs) - {"autoreset_mode"})
    if unknown:
        raise Error(
            f"a native vector env takes only 'autoreset_mode' in vector_kwargs, got "
            f"{unknown}; pass env arguments as keyword arguments of make_vec"
        )
    kwargs = {**env_kwargs, **vector_kwargs}
    if spec.max_episode_steps is not None:
        kwargs.setdefault("max_episode_steps", spec.max_episode_steps)
    creator = load_entry_point(spec.vector_entry_point)
    return creator(num_envs=num_envs, **kwargs)


def _warn_if_autoreset_mode_unknown(env: Any) -> None:
    """Warn, as Gymnasium does, if a vector env does not say how it autoresets."""
    from protogym.vector.vector_env import AutoresetMode

    metadata = getattr(env, "metadata", None)
    mode = metadata.get("autoreset_mode") if isinstance(metadata, Mapping) else None
    if mode is None:
        warnings.warn(
            f"the vector env {env!r} has no 'autoreset_mode' in its metadata ({metadata!r}); "
            "set metadata['autoreset_mode'] to an AutoresetMode so wrappers and training "
            "code know when its sub-envs restart",
            UserWarning,
            stacklevel=3,
        )
    elif not isinstance(mode, AutoresetMode):
        warnings.warn(
            f"the vector env {env!r} has metadata['autoreset_mode'] = {mode!r}, a "
            f"{type(mode).__name__}; use an AutoresetMode member",
            UserWarning,
            stacklevel=3,
        )


def _copying_class(mode: VectorizeMode) -> Any:
    """The vector env class of a mode that builds copies of the env (imported on demand)."""
    if mode is VectorizeMode.SYNC:
        from protogym.vector.sync_vector_env import SyncVectorEnv

        return SyncVectorEnv
    if mode is VectorizeMode.ASYNC:
        from protogym.vector.async_vector_env import AsyncVectorEnv

        return AsyncVectorEnv
    from protogym.vector.ray_vector_env import RayVectorEnv

    return RayVectorEnv


def _check_vector_kwargs(vector_cls: Any, vector_kwargs: Mapping[str, Any]) -> None:
    accepted = set(inspect.signature(vector_cls).parameters) - {"env_fns"}
    unknown = sorted(set(vector_kwargs) - accepted)
    if unknown:
        raise ValueError(
            f"make_vec: {vector_cls.__name__} does not accept vector_kwargs {unknown}; "
            f"it accepts {sorted(accepted)}"
        )


def _check_wrapper(item: object) -> None:
    if callable(item) or isinstance(item, str):
        return
    if (
        isinstance(item, tuple)
        and len(item) == 2
        and isinstance(item[0], str)
        and isinstance(item[1], Mapping)
    ):
        return
    raise TypeError(
        f"make_vec wrappers must be callables (env -> wrapped env), registered wrapper names, "
        f"or (name, kwargs) pairs, got {item!r}"
    )


def _apply(env: Env[Any, Any], item: WrapperFactory) -> Env[Any, Any]:
    if isinstance(item, str):
        return wrap(env, item)
    if isinstance(item, tuple):
        name, kwargs = item
        return wrap(env, name, **kwargs)
    return item(env)
