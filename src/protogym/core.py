"""The agent-environment contract: the `Env` and `Wrapper` protocols and the base wrappers.

`Env` is structural: any object with the eight members below is an environment, to mypy and
to `isinstance`. Subclassing it explicitly adds defaults (`np_random`, `unwrapped`, `spec`,
context-manager use, a readable repr) that a structural env does not need to have; `make`
and the wrappers supply them for a structural env. This module imports nothing heavy, so
`import protogym` stays cheap: numpy is imported the first time a generator is needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import (
    TYPE_CHECKING,
    Any,
    Protocol,
    SupportsFloat,
    TypeVar,
    cast,
    runtime_checkable,
)

from protogym._structural import StructuralProtocolMeta

if TYPE_CHECKING:
    import numpy as np

    from protogym.registration.env_spec import EnvSpec
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
            _seed_env(self, seed)
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
        # (no render modes, no mode); the shared default mapping is read-only, so no env can
        # change it for every other.
        metadata = MappingProxyType({"render_modes": ()})
        render_mode = None
        spec = None
        reward_range = (float("-inf"), float("inf"))
        _np_random = None
        _np_random_seed = None

        @property
        def np_random(self):
            """The env's generator, seeded from OS entropy on first use if never seeded."""
            if self._np_random is None:
                _seed_env(self, None)
            return self._np_random

        @np_random.setter
        def np_random(self, value):
            self._np_random = value
            self._np_random_seed = -1

        @property
        def np_random_seed(self):
            """The seed of `np_random`, or -1 if a generator was assigned directly."""
            if self._np_random is None:
                _seed_env(self, None)
            return self._np_random_seed

        @property
        def unwrapped(self):
            return self

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


def _seed_env(env: object, seed: int | None) -> None:
    from protogym.utils.seeding import np_random

    generator, used_seed = np_random(seed)
    env._np_random = generator  # type: ignore[attr-defined]
    env._np_random_seed = used_seed  # type: ignore[attr-defined]


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
    or `action_space` replaces the forwarded space.
    """

    if TYPE_CHECKING:

        @property
        def env(self) -> Env[_ObsT_co, _ActT]:
            return cast("Env[_ObsT_co, _ActT]", getattr(self, "env"))  # noqa: B009

    else:
        # `env` first: most objects checked are plain envs, and lack it, so `unwrapped`'s walk
        # stops at the first member.
        _required_members_ = ("env", *ENV_MEMBERS, "unwrapped", "spec", "np_random")

    def __init__(self, env: Env[_ObsT_co, _ActT]) -> None:
        if not isinstance(env, Env):
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

    @property
    def action_space(self) -> Space[_WActT]:
        own = getattr(self, "_action_space", None)
        return cast("Space[_WActT]", self.env.action_space if own is None else own)

    @action_space.setter
    def action_space(self, space: Space[_WActT]) -> None:
        object.__setattr__(self, "_action_space", space)

    @property
    def observation_space(self) -> Space[_WObsT]:
        own = getattr(self, "_observation_space", None)
        return cast("Space[_WObsT]", self.env.observation_space if own is None else own)

    @observation_space.setter
    def observation_space(self, space: Space[_WObsT]) -> None:
        object.__setattr__(self, "_observation_space", space)

    @property
    def metadata(self) -> Mapping[str, Any]:
        own = getattr(self, "_metadata", None)
        return self.env.metadata if own is None else cast("Mapping[str, Any]", own)

    @metadata.setter
    def metadata(self, value: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_metadata", value)

    @property
    def render_mode(self) -> str | None:
        return self.env.render_mode

    @property
    def spec(self) -> EnvSpec | None:
        """The inner env's spec; `make` sets the outermost wrapper's to the full recipe."""
        own = getattr(self, "_spec", None)
        return own if own is not None else getattr(self.env, "spec", None)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        object.__setattr__(self, "_spec", value)

    @property
    def unwrapped(self) -> Env[Any, Any]:
        """The innermost env, whether or not it subclasses `Env`."""
        env: Any = self.env
        while isinstance(env, Wrapper):
            env = env.env
        return cast("Env[Any, Any]", getattr(env, "unwrapped", env))

    @property
    def np_random(self) -> np.random.Generator:
        """The innermost env's generator (one is made for a structural env that has none)."""
        inner: Any = self.unwrapped
        if hasattr(inner, "np_random"):
            return cast("np.random.Generator", inner.np_random)
        if getattr(inner, "_np_random", None) is None:
            _seed_env(inner, None)
        return cast("np.random.Generator", inner._np_random)

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self.unwrapped.np_random = value  # type: ignore[attr-defined]

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

    def get_wrapper_attr(self, name: str) -> Any:
        """Look `name` up on this wrapper, then on each inner env in turn."""
        env: Any = self
        while True:
            if hasattr(env, name):
                return getattr(env, name)
            if not isinstance(env, Wrapper):
                raise AttributeError(
                    f"no wrapper or env in {self} has an attribute {name!r}"
                )
            env = env.env

    def __str__(self) -> str:
        return f"<{type(self).__name__}{_env_label(self.env)}>"

    def __repr__(self) -> str:
        return str(self)


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

