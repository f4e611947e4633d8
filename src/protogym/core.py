"""The agent-environment contract: the `Env` and `Wrapper` protocols and the base wrappers.

`Env` is structural: any object with the eight members below is an environment, to mypy and
to `isinstance`. Subclassing it explicitly adds defaults (`np_random`, `unwrapped`, `spec`,
context-manager use, a readable repr) that a structural env does not need to have; `make`
and the wrappers supply them for a structural env. This module imports nothing heavy, so
`import protogym` stays cheap: numpy is imported the first time a generator is needed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Protocol,
    SupportsFloat,
    TypeVar,
    cast,
    runtime_checkable,
)

from protogym import _lazy_generator
from protogym._structural import StructuralProtocolMeta

if TYPE_CHECKING:
    import inspect

    import numpy as np

    from protogym.registration.env_spec import EnvSpec, WrapperSpec
    from protogym.spaces.space import Space

__all__ = [
    "ActType",
    "ActionWrapper",
    "Env",
    "ObsType",
    "ObservationWrapper",
    "RewardWrapper",
    "StepResult",
    "Wrapper",
    "WrapperActType",
    "WrapperObsType",
]

ObsType = TypeVar("ObsType")
ActType = TypeVar("ActType")
WrapperObsType = TypeVar("WrapperObsType")
WrapperActType = TypeVar("WrapperActType")

# Protocols need variance that matches how each parameter is used: observations only flow
# out of an env (covariant); actions flow in and their space flows out (invariant).
_ObsT_co = TypeVar("_ObsT_co", covariant=True)
_ActT = TypeVar("_ActT")
_WObsT = TypeVar("_WObsT")
_WActT = TypeVar("_WActT")

StepResult = tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]
"""`(observation, reward, terminated, truncated, info)`, the value of `Env.step`."""

ENV_MEMBERS = (  # what an object must have to be an Env: the protocol's members
    "action_space",
    "observation_space",
    "metadata",
    "render_mode",
    "reset",
    "step",
    "render",
    "close",
)


@runtime_checkable
class Env(Protocol[_ObsT_co, _ActT], metaclass=StructuralProtocolMeta):
    """An environment: `reset`, `step`, `render`, `close`, its two spaces and its metadata.

    Explicit subclasses declare the spaces and `render_mode` at class level
    (``action_space: Discrete``), since the protocol exposes them read-only, and call
    ``super().reset(seed=seed)`` to (re)seed `self.np_random`.
    """

    if not TYPE_CHECKING:
        _required_members_ = ENV_MEMBERS

    if TYPE_CHECKING:
        # Read-only for mypy, so that a class assigning them as attributes conforms; absent
        # at run time, so that explicit subclasses can assign them.

        @property
        def action_space(self) -> Space[_ActT]: ...

        @property
        def observation_space(self) -> Space[_ObsT_co]: ...

        # metadata and render_mode have bodies, so an explicit subclass that leaves them out
        # (taking the run-time defaults below) is not abstract to mypy.
        @property
        def metadata(self) -> Mapping[str, Any]:
            return {}

        @property
        def render_mode(self) -> str | None:
            return None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_ObsT_co, dict[str, Any]]:
        """Start an episode; an int `seed` reseeds `np_random`, `None` keeps its stream.

        The default only does the seeding, for subclasses to call through `super()`; they
        return their own `(observation, info)`.
        """
        if seed is not None:
            _lazy_generator.seed_generator(self, seed)
        return NotImplemented  # type: ignore[no-any-return]

    def step(self, action: _ActT) -> tuple[_ObsT_co, SupportsFloat, bool, bool, dict[str, Any]]:
        """Advance one step: `(observation, reward, terminated, truncated, info)`."""
        ...

    def render(self) -> Any:
        """Return a frame for the env's `render_mode`, or `None` for `human` and no mode."""
        return None

    def close(self) -> None:
        """Release windows, processes and files. Calling it twice is harmless."""
        return None

    if not TYPE_CHECKING:
        # Defaults for explicit subclasses only. They stay out of mypy's view of the protocol
        # so that a structural env need not define them; the protogym mypy plugin adds their
        # types to explicit subclasses. `metadata` and `render_mode` default as in Gymnasium
        # (no render modes, no mode); each subclass gets its own `metadata` dict (see
        # `__init_subclass__`), so no env can change another class's.
        metadata = {"render_modes": []}
        render_mode = None
        spec = None
        reward_range = (float("-inf"), float("inf"))
        _np_random = None
        _np_random_seed = None

        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            if cls.metadata is Env.__dict__["metadata"]:
                cls.metadata = {"render_modes": []}

        np_random = _lazy_generator.np_random
        """The env's generator, seeded from OS entropy on first use if never seeded."""
        np_random_seed = _lazy_generator.np_random_seed
        """The seed of `np_random`, or -1 if a generator was assigned directly."""

        @property
        def unwrapped(self):
            return self

        def has_wrapper_attr(self, name):
            """Whether the env has attribute `name` (wrappers also ask the envs they wrap)."""
            return hasattr(self, name)

        def get_wrapper_attr(self, name):
            """The env's attribute `name` (wrappers look it up through the envs they wrap)."""
            return getattr(self, name)

        def set_wrapper_attr(self, name, value, *, force=True):
            """Set attribute `name` if the env has it, or if `force`; says whether it did."""
            if force or hasattr(self, name):
                setattr(self, name, value)
                return True
            return False

        def __enter__(self):
            return self

        def __exit__(self, *exc_info):
            self.close()

        def __str__(self):
            env_id = getattr(self.spec, "id", None)
            name = type(self).__name__
            return f"<{name}<{env_id}>>" if env_id else f"<{name} instance>"

        __repr__ = __str__


def missing_env_members(obj: object) -> list[str]:
    """The `Env` members `obj` lacks, in protocol order (empty for an environment)."""
    return [name for name in ENV_MEMBERS if not hasattr(obj, name)]


def _env_label(env: object) -> str:
    """How an inner env reads in a wrapper's repr; structural envs get the `Env` style."""
    if type(env).__repr__ is not object.__repr__:
        return str(env)
    env_id = getattr(getattr(env, "spec", None), "id", None)
    name = type(env).__name__
    return f"<{name}<{env_id}>>" if env_id else f"<{name} instance>"


@runtime_checkable
class Wrapper(
    Env[_WObsT, _WActT],
    Protocol[_WObsT, _WActT, _ObsT_co, _ActT],
    metaclass=StructuralProtocolMeta,
):
    """An env that wraps another one (`env`) and may change its spaces or its data.

    Every member forwards to `env` unless a subclass overrides it, so a wrapper that leaves
    a space alone keeps the inner env's types: subclasses generic in ``[ObsType, ActType]``
    declare ``Wrapper[ObsType, ActType, ObsType, ActType]``. Assigning `observation_space`
    or `action_space` replaces the forwarded space. Other attributes of inner envs are not
    forwarded: read them with `get_wrapper_attr`, or through `unwrapped`.

    A wrapper subclass records the arguments it was built with, so its `spec` is the inner
    env's with this wrapper appended to `additional_wrappers`, and ``make(env.spec)``
    rebuilds the whole stack.
    """

    if TYPE_CHECKING:

        @property
        def env(self) -> Env[_ObsT_co, _ActT]:
            return cast("Env[_ObsT_co, _ActT]", getattr(self, "env"))  # noqa: B009

    else:
        # `env` first: most objects checked are plain envs, and lack it, so `unwrapped`'s walk
        # stops at the first member.
        _required_members_ = ("env", *ENV_MEMBERS, "unwrapped", "spec", "np_random")

        # Class-level defaults, so the forwarding properties read a plain attribute instead
        # of paying for a failed look-up while nothing is overridden.
        _action_space = None
        _observation_space = None
        _metadata = None
        _spec = None
        _spec_cache = None
        _constructor_args = None
        _given_saved_kwargs = None

        @property
        def _saved_kwargs(self):
            """The keyword arguments this wrapper was built with (the env left out, defaults
            filled in), under the name Gymnasium's `RecordConstructorArgs` keeps them; None
            when they were given through ``*args``. Assigning it overrides the record."""
            if self._given_saved_kwargs is not None:
                return self._given_saved_kwargs
            return _keyword_arguments(type(self), self._constructor_args)

        @_saved_kwargs.setter
        def _saved_kwargs(self, value):
            self._given_saved_kwargs = value

        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            # A wrapper that computes its own `spec` (TimeLimit, OrderEnforcing and the
            # checker: fields of the spec, not entries of additional_wrappers) does not need
            # its arguments, and is built without the cost of keeping them.
            init = cls.__dict__.get("__init__")
            if (
                init is not None
                and cls.spec is Wrapper.__dict__["spec"]
                and not cls.__dict__.get("_is_protocol", False)
            ):
                cls.__init__ = _recording_arguments(init)

    def __init__(self, env: Env[_ObsT_co, _ActT]) -> None:
        # An explicit subclass answers from its MRO, without the metaclass's Python call.
        if Env not in type(env).__mro__ and not isinstance(env, Env):
            missing = missing_env_members(env)
            raise TypeError(
                f"{type(self).__name__} needs an environment, got {type(env).__name__!r}, "
                f"which lacks {', '.join(missing)}"
            )
        # A plain instance attribute rather than a property: `self.env.step` is on the hot
        # path of every step. Set through object.__setattr__, never self.__dict__: touching
        # __dict__ makes CPython 3.11 keep the attributes in a real dict, slowing every read.
        # Spaces, metadata and spec assigned on the wrapper live beside it; until then they
        # are the inner env's.
        object.__setattr__(self, "env", env)
        unrecorded: Any = self  # the private attributes are runtime-only, outside the protocol
        if unrecorded._constructor_args is None:  # see `_recording_arguments`
            unrecorded._constructor_args = ((env,), {})
            unrecorded._action_space = unrecorded._observation_space = None
            unrecorded._metadata = None

    @property
    def action_space(self) -> Space[_WActT]:
        own: Space[_WActT] | None = self._action_space  # type: ignore[attr-defined]
        if own is None:  # the class default: not overridden
            inner: Space[_WActT] = self.env.action_space  # type: ignore[assignment]
            return inner
        return own

    @action_space.setter
    def action_space(self, space: Space[_WActT]) -> None:
        object.__setattr__(self, "_action_space", space)

    @property
    def observation_space(self) -> Space[_WObsT]:
        own: Space[_WObsT] | None = self._observation_space  # type: ignore[attr-defined]
        if own is None:  # the class default: not overridden
            inner: Space[_WObsT] = self.env.observation_space  # type: ignore[assignment]
            return inner
        return own

    @observation_space.setter
    def observation_space(self, space: Space[_WObsT]) -> None:
        object.__setattr__(self, "_observation_space", space)

    @property
    def metadata(self) -> Mapping[str, Any]:
        own: Mapping[str, Any] | None = self._metadata  # type: ignore[attr-defined]
        return self.env.metadata if own is None else own

    @metadata.setter
    def metadata(self, value: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_metadata", value)

    @property
    def render_mode(self) -> str | None:
        return self.env.render_mode

    @property
    def spec(self) -> EnvSpec | None:
        """The inner env's spec with this wrapper appended to `additional_wrappers` (or the
        spec assigned to this wrapper, as `make` does for the outermost of its stack)."""
        own: EnvSpec | None = self._spec  # type: ignore[attr-defined]  # class default None
        if own is not None:
            return own
        inner: Any = getattr(self.env, "spec", None)
        if getattr(inner, "evolve", None) is None:  # None, or not a protogym EnvSpec
            return cast("EnvSpec | None", inner)
        cached = self._spec_cache  # type: ignore[attr-defined]  # class default None
        if cached is not None and cached[0] is inner:
            return cast("EnvSpec", cached[1])
        spec = inner.evolve(additional_wrappers=(*inner.additional_wrappers, _record(self)))
        object.__setattr__(self, "_spec_cache", (inner, spec))
        return cast("EnvSpec", spec)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        object.__setattr__(self, "_spec", value)

    @classmethod
    def class_name(cls) -> str:
        """The wrapper's name in specs and reprs: its class name."""
        return str(cls.__name__)

    @classmethod
    def wrapper_spec(cls, **kwargs: Any) -> WrapperSpec:
        """A `WrapperSpec` of this class with `kwargs`, e.g. for `register(...,
        additional_wrappers=(ClipReward.wrapper_spec(max_reward=1.0),))`."""
        return _wrapper_spec(cls, kwargs)

    @property
    def unwrapped(self) -> Env[Any, Any]:
        """The innermost env, whether or not it subclasses `Env`."""
        env: Any = self.env
        try:
            inner: Env[Any, Any] = env.unwrapped
        except AttributeError:  # a structural env without `unwrapped`
            return cast("Env[Any, Any]", env)
        return inner

    @property
    def np_random(self) -> np.random.Generator:
        """The innermost env's generator (one is made for a structural env that has none)."""
        env: Any = self.env
        try:
            generator: np.random.Generator = env.np_random
        except AttributeError:
            return _structural_generator(self.unwrapped)[0]
        return generator

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        env: Any = self.env
        if isinstance(env, Wrapper) or hasattr(type(env), "np_random"):
            env.np_random = value
        else:  # a structural env: keep the generator where `np_random` looks for it
            env._np_random, env._np_random_seed = value, -1

    @property
    def np_random_seed(self) -> int | None:
        """The seed of the innermost env's generator, or -1 if it was assigned directly."""
        env: Any = self.env
        try:
            seed: int | None = env.np_random_seed
        except AttributeError:
            return _structural_generator(self.unwrapped)[1]
        return seed

    if not TYPE_CHECKING:  # not a member of the protocol: structural wrappers lack it

        @property
        def _np_random(self):
            raise AttributeError(
                f"{type(self).__name__} is a wrapper and has no generator of its own: use "
                "self.np_random, or self.unwrapped._np_random"
            )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_WObsT, dict[str, Any]]:
        return cast("tuple[_WObsT, dict[str, Any]]", self.env.reset(seed=seed, options=options))

    def step(self, action: _WActT) -> tuple[_WObsT, SupportsFloat, bool, bool, dict[str, Any]]:
        return cast(
            "tuple[_WObsT, SupportsFloat, bool, bool, dict[str, Any]]",
            self.env.step(cast("_ActT", action)),
        )

    def render(self) -> Any:
        return self.env.render()

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> Wrapper[_WObsT, _WActT, _ObsT_co, _ActT]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether this wrapper or any env inside it has attribute `name`."""
        if hasattr(self, name):
            return True
        env: Any = self.env
        try:
            return bool(env.has_wrapper_attr(name))
        except AttributeError:  # a structural env, without the method
            return hasattr(env, name)

    def get_wrapper_attr(self, name: str) -> Any:
        """Attribute `name` of this wrapper, or else of the first env inside that has it."""
        value = getattr(self, name, _MISSING)
        if value is not _MISSING:
            return value
        env: Any = self.env
        try:
            return env.get_wrapper_attr(name)
        except AttributeError:
            if not hasattr(env, "get_wrapper_attr"):  # a structural env
                value = getattr(env, name, _MISSING)
                if value is not _MISSING:
                    return value
        raise AttributeError(
            f"neither {type(self).__name__} nor any env inside it has an attribute {name!r}"
        ) from None

    def set_wrapper_attr(self, name: str, value: Any, *, force: bool = True) -> bool:
        """Set `name` on the outermost layer that has it (this wrapper or an env inside).

        If none has it, `force` sets it on this wrapper; otherwise nothing is set. Returns
        whether it was set.
        """
        if hasattr(self, name):
            setattr(self, name, value)
            return True
        env: Any = self.env
        try:
            done = bool(env.set_wrapper_attr(name, value, force=False))
        except AttributeError:  # a structural env, without the method
            done = hasattr(env, name)
            if done:
                setattr(env, name, value)
        if not done and force:
            setattr(self, name, value)
            done = True
        return done

    def __str__(self) -> str:
        return f"<{type(self).__name__}{_env_label(self.env)}>"

    def __repr__(self) -> str:
        return str(self)


_MISSING = object()


def _structural_generator(env: Any) -> tuple[np.random.Generator, int | None]:
    """The generator and seed of a structural env (one that does not subclass `Env`),
    seeded from OS entropy the first time it is asked for."""
    if getattr(env, "_np_random", None) is None:
        _lazy_generator.seed_generator(env, None)
    return env._np_random, env._np_random_seed


def _recording_arguments(init: Callable[..., None]) -> Callable[..., None]:
    """`init`, also keeping the arguments of the outermost constructor call on the
    instance, so that the wrapper's spec can say how to build it again.

    It also marks the spaces and metadata as not overridden with instance attributes before
    any subclass code runs: CPython 3.11 reads those quicker than the class defaults, and
    every forwarded space read starts with one. (`Wrapper.__init__` does both for a class
    built without this.)
    """

    @functools.wraps(init)
    def recording_init(self: Any, *args: Any, **kwargs: Any) -> None:
        if self._constructor_args is None:  # the outermost call: no subclass code ran yet
            self._constructor_args = (args, kwargs)
            self._action_space = self._observation_space = self._metadata = None
        init(self, *args, **kwargs)

    return recording_init


_INIT_SIGNATURES: dict[type[Any], inspect.Signature] = {}


def _init_signature(cls: type[Any]) -> inspect.Signature:
    found = _INIT_SIGNATURES.get(cls)
    if found is None:
        import inspect  # here, not at the top: `import protogym` stays cheap

        found = _INIT_SIGNATURES[cls] = inspect.signature(cls.__init__)
    return found


def _keyword_arguments(
    cls: type[Any], call: tuple[tuple[Any, ...], dict[str, Any]] | None
) -> dict[str, Any] | None:
    """The arguments of a constructor call by name, defaults included and without the
    wrapped env (the first argument after `self`); None if they cannot be named."""
    if call is None:
        return None
    import inspect

    signature = _init_signature(cls)
    try:
        bound = signature.bind(None, *call[0], **call[1])
    except TypeError:
        return None
    bound.apply_defaults()
    named: dict[str, Any] = {}
    for name, value in list(bound.arguments.items())[2:]:
        kind = signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            if value:
                return None
        elif kind is inspect.Parameter.VAR_KEYWORD:
            named.update(value)
        else:
            named[name] = value
    return named


def _record(wrapper: Any) -> WrapperSpec:
    """`wrapper` as a `WrapperSpec`, with the keyword arguments it was built with (None if
    they cannot be known, e.g. when given through ``*args``)."""
    cls = type(wrapper)
    saved = getattr(wrapper, "_saved_kwargs", None)  # Gymnasium's RecordConstructorArgs
    if isinstance(saved, Mapping):
        kwargs: dict[str, Any] | None = {k: v for k, v in saved.items() if k != "env"}
    else:
        kwargs = _keyword_arguments(cls, wrapper._constructor_args)
    return _wrapper_spec(cls, kwargs)


def _wrapper_spec(cls: type[Any], kwargs: dict[str, Any] | None) -> WrapperSpec:
    from protogym.registration.env_spec import WrapperSpec

    return WrapperSpec(cls.class_name(), f"{cls.__module__}:{cls.__qualname__}", kwargs)


class ObservationWrapper(Wrapper[WrapperObsType, ActType, ObsType, ActType]):
    """Transforms every observation through `observation`; set `observation_space` to match."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return self.observation(obs), info

    def step(
        self, action: ActType
    ) -> tuple[WrapperObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self.observation(obs), reward, terminated, truncated, info

    def observation(self, observation: ObsType) -> WrapperObsType:
        raise NotImplementedError(f"{type(self).__name__} must define observation()")


class ActionWrapper(Wrapper[ObsType, WrapperActType, ObsType, ActType]):
    """Transforms every action through `action` before the inner env sees it."""

    def step(
        self, action: WrapperActType
    ) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        return self.env.step(self.action(action))

    def action(self, action: WrapperActType) -> ActType:
        raise NotImplementedError(f"{type(self).__name__} must define action()")


class RewardWrapper(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Transforms every reward through `reward`."""

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, self.reward(reward), terminated, truncated, info

    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        raise NotImplementedError(f"{type(self).__name__} must define reward()")

