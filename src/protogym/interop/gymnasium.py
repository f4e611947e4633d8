"""Gymnasium interop: protogym envs, spaces and vector envs as Gymnasium's, and back.

- `to_gymnasium(env)` is a real `gymnasium.Env` over a protogym env (structural or not), so
  Gymnasium's wrappers and checker, and every trainer that wants a Gymnasium env, take it.
  `from_gymnasium(env)` is the reverse, with protogym spaces, so protogym's wrappers,
  `check_env` and vector envs work on any Gymnasium env.
- `to_gymnasium_space` / `from_gymnasium_space` convert every space kind, nested.
- `to_gymnasium_vector` / `from_gymnasium_vector` convert vector envs, with the autoreset mode
  (Gymnasium's `metadata["autoreset_mode"]`) and the same-step info keys carried over.
- Ids both ways. Importing this module registers every protogym id in Gymnasium's registry
  under the namespace ``protogym`` (a namespaced id ``acme/Corridor-v0`` becomes
  ``protogym-acme/Corridor-v0``: Gymnasium's namespaces allow no ``/`` or ``.``), so with
  Gymnasium's own ``module:id`` syntax an id-driven tool needs no code:
  ``gymnasium.make("protogym.interop.gymnasium:protogym/CartPole-v1")``.
  The other way, ``protogym.make("gymnasium:CartPole-v1")`` makes any id of Gymnasium's
  registry, and ``protogym.make("gymnasium:ale_py:ALE/Pong-v5")`` first imports the package
  that registers it, as Gymnasium's ``module:id`` does.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import importlib
import os
import sys
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat, cast

import numpy as np

import protogym
from protogym import spaces
from protogym._structural import has_members_statically
from protogym.core import Env
from protogym.error import UnregisteredEnv
from protogym.interop._optional import check_gymnasium_version, missing_extra
from protogym.registration import EnvSpec
from protogym.registration.env_spec import parse_env_id
from protogym.spaces.space import Space
from protogym.vector.vector_env import AutoresetMode, VectorEnv, VectorEnvBase

try:
    import gymnasium
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise missing_extra("gymnasium", "gymnasium", "protogym.interop.gymnasium") from error

check_gymnasium_version(gymnasium, "protogym.interop.gymnasium")

import gymnasium.spaces as gspaces  # noqa: E402 - after the version check
from gymnasium.vector import AutoresetMode as GymnasiumAutoresetMode  # noqa: E402

__all__ = [
    "ForeignSpace",
    "GymnasiumEnv",
    "GymnasiumVectorEnv",
    "ProtogymEnv",
    "ProtogymVectorEnv",
    "from_gymnasium",
    "from_gymnasium_space",
    "from_gymnasium_vector",
    "gymnasium_id",
    "make_gymnasium_env",
    "register_gymnasium_ids",
    "to_gymnasium",
    "to_gymnasium_space",
    "to_gymnasium_vector",
]

GYMNASIUM_NAMESPACE = "protogym"

# -- spaces --------------------------------------------------------------------------------


def to_gymnasium_space(space: Space[Any]) -> gymnasium.Space[Any]:
    """The Gymnasium space of the same kind, shape, dtype, bounds and start as `space` (for
    a `ForeignSpace`, the Gymnasium space it wraps)."""
    if isinstance(space, ForeignSpace):
        return space.gymnasium_space
    for kind, convert in _TO_GYMNASIUM:
        if isinstance(space, kind):
            return convert(space)
    raise TypeError(
        f"to_gymnasium_space cannot convert {space!r} ({type(space).__name__}): Gymnasium has "
        "counterparts of Box, Discrete, MultiBinary, MultiDiscrete, Tuple, Dict, Text, "
        "Sequence, Graph and OneOf only"
    )


def from_gymnasium_space(space: gymnasium.Space[Any]) -> Space[Any]:
    """The protogym space of the same kind, shape, dtype, bounds and start as `space`; a
    Gymnasium space of a kind protogym has no counterpart for (MiniGrid's `MissionSpace`,
    any package's own `Space` subclass) comes through as a `ForeignSpace` over it."""
    for kind, convert in _FROM_GYMNASIUM:
        if isinstance(space, kind):
            return convert(space)
    if isinstance(space, gymnasium.Space):
        return ForeignSpace(space)
    raise TypeError(
        f"from_gymnasium_space cannot convert {space!r} ({type(space).__name__}): it takes a "
        "gymnasium.spaces.Space"
    )


class ForeignSpace(Space[Any]):
    """A protogym space over a Gymnasium space of a kind protogym has no counterpart for.

    Everything goes to the Gymnasium space: `sample`, `contains`/`in`, `seed`, `np_random`,
    `shape`, `dtype`, the JSON conversions, equality and pickling (other attributes, such
    as a `MissionSpace`'s `mission_func`, are read from it too), so an env with such a space
    behaves as it does in Gymnasium. It batches as Gymnasium batches custom spaces, into a
    `Tuple` of independently seeded copies, and `to_gymnasium_space` gives back the
    original. It is not flattenable, unless the Gymnasium space says it is.
    """

    def __init__(self, gymnasium_space: gymnasium.Space[Any]) -> None:
        if not isinstance(gymnasium_space, gymnasium.Space):
            raise TypeError(
                f"ForeignSpace wraps a gymnasium.spaces.Space, got {gymnasium_space!r} "
                f"({type(gymnasium_space).__name__})"
            )
        self.gymnasium_space = gymnasium_space

    @property
    def shape(self) -> tuple[int, ...] | None:
        return self.gymnasium_space.shape

    @property
    def dtype(self) -> np.dtype[Any] | None:
        return self.gymnasium_space.dtype

    @property
    def np_random(self) -> np.random.Generator:
        return self.gymnasium_space.np_random

    @np_random.setter
    def np_random(self, generator: np.random.Generator) -> None:
        self.gymnasium_space._np_random = generator

    @property
    def is_np_flattenable(self) -> bool:
        try:
            return bool(self.gymnasium_space.is_np_flattenable)
        except NotImplementedError:  # Gymnasium's default for custom spaces
            return False

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> Any:
        # Custom spaces often take no `probability`, and older ones no `mask`: pass only
        # what was given.
        if probability is not None:
            return self.gymnasium_space.sample(mask, probability)
        if mask is not None:
            return self.gymnasium_space.sample(mask)
        return self.gymnasium_space.sample()

    def contains(self, x: Any) -> bool:
        return bool(self.gymnasium_space.contains(x))

    def __contains__(self, x: object) -> bool:
        return bool(self.gymnasium_space.contains(x))

    def seed(self, seed: Any | None = None) -> Any:
        return self.gymnasium_space.seed(seed)

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any] | dict[str, Any]:
        return cast("list[Any] | dict[str, Any]", self.gymnasium_space.to_jsonable(sample_n))

    def from_jsonable(self, sample_n: list[Any]) -> list[Any]:
        return list(self.gymnasium_space.from_jsonable(sample_n))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ForeignSpace) and bool(
            self.gymnasium_space == other.gymnasium_space
        )

    def __hash__(self) -> int:
        return hash((ForeignSpace, self.gymnasium_space))

    def __reduce__(self) -> tuple[Any, ...]:
        return ForeignSpace, (self.gymnasium_space,)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            inner = object.__getattribute__(self, "gymnasium_space")
        except AttributeError:
            raise AttributeError(name) from None
        return getattr(inner, name)

    def __repr__(self) -> str:
        return f"ForeignSpace({self.gymnasium_space!r})"


def _graph_to(space: spaces.Graph) -> gspaces.Graph:
    edge = space.edge_space
    return gspaces.Graph(
        node_space=cast(Any, to_gymnasium_space(space.node_space)),
        edge_space=None if edge is None else cast(Any, to_gymnasium_space(edge)),
    )


def _graph_from(space: gspaces.Graph) -> spaces.Graph:
    edge = space.edge_space
    return spaces.Graph(
        node_space=cast(Any, from_gymnasium_space(space.node_space)),
        edge_space=None if edge is None else cast(Any, from_gymnasium_space(edge)),
    )


_TO_GYMNASIUM: tuple[tuple[type[Any], Callable[[Any], gymnasium.Space[Any]]], ...] = (
    (spaces.Box, lambda s: gspaces.Box(s.low, s.high, s.shape, s.dtype)),
    (spaces.Discrete, lambda s: gspaces.Discrete(int(s.n), start=int(s.start), dtype=s.dtype)),
    (spaces.MultiBinary, lambda s: gspaces.MultiBinary(s.n)),
    (spaces.MultiDiscrete, lambda s: gspaces.MultiDiscrete(s.nvec, s.dtype, start=s.start)),
    (spaces.Tuple, lambda s: gspaces.Tuple(tuple(map(to_gymnasium_space, s.spaces)))),
    (
        spaces.Dict,
        lambda s: gspaces.Dict(
            OrderedDict((key, to_gymnasium_space(sub)) for key, sub in s.spaces.items())
        ),
    ),
    (
        spaces.Text,
        lambda s: gspaces.Text(s.max_length, min_length=s.min_length, charset=s.character_set),
    ),
    (
        spaces.Sequence,
        lambda s: gspaces.Sequence(to_gymnasium_space(s.feature_space), stack=s.stack),
    ),
    (spaces.Graph, _graph_to),
    (spaces.OneOf, lambda s: gspaces.OneOf(tuple(map(to_gymnasium_space, s.spaces)))),
)

_FROM_GYMNASIUM: tuple[tuple[type[Any], Callable[[Any], Space[Any]]], ...] = (
    (gspaces.Box, lambda s: spaces.Box(s.low, s.high, s.shape, s.dtype)),
    (gspaces.Discrete, lambda s: spaces.Discrete(int(s.n), start=int(s.start), dtype=s.dtype)),
    (gspaces.MultiBinary, lambda s: spaces.MultiBinary(s.n)),
    (gspaces.MultiDiscrete, lambda s: spaces.MultiDiscrete(s.nvec, s.dtype, start=s.start)),
    (gspaces.Tuple, lambda s: spaces.Tuple(tuple(map(from_gymnasium_space, s.spaces)))),
    (
        gspaces.Dict,
        lambda s: spaces.Dict(
            [(key, from_gymnasium_space(sub)) for key, sub in s.spaces.items()], sort_keys=False
        ),
    ),
    (
        gspaces.Text,
        lambda s: spaces.Text(s.max_length, min_length=s.min_length, charset=s.character_set),
    ),
    (
        gspaces.Sequence,
        lambda s: spaces.Sequence(from_gymnasium_space(s.feature_space), stack=s.stack),
    ),
    (gspaces.Graph, _graph_from),
    (gspaces.OneOf, lambda s: spaces.OneOf(tuple(map(from_gymnasium_space, s.spaces)))),
)

def _graph_retyper(space: Any, graph_type: type[Any]) -> Callable[[Any], Any] | None:
    """A function giving the graph instances inside elements of `space` the other library's
    `GraphInstance` type (both are named tuples of the same fields), or None if `space`
    holds no graph, so envs without graphs pay nothing."""
    if isinstance(space, spaces.Graph | gspaces.Graph):
        return lambda element: graph_type(*element)
    if isinstance(space, spaces.Sequence | gspaces.Sequence):
        inner = _graph_retyper(space.feature_space, graph_type)
        return None if inner is None else lambda element: tuple(map(inner, element))
    if isinstance(space, spaces.Dict | gspaces.Dict):
        by_key = {key: _graph_retyper(sub, graph_type) for key, sub in space.spaces.items()}
        if not any(by_key.values()):
            return None
        return lambda element: {
            key: value if by_key[key] is None else by_key[key](value)  # type: ignore[misc]
            for key, value in element.items()
        }
    if isinstance(space, spaces.Tuple | gspaces.Tuple | spaces.OneOf | gspaces.OneOf):
        parts = [_graph_retyper(sub, graph_type) for sub in space.spaces]
        if not any(parts):
            return None
        if isinstance(space, spaces.OneOf | gspaces.OneOf):
            return lambda element: (
                element[0],
                element[1] if parts[element[0]] is None else parts[element[0]](element[1]),
            )
        return lambda element: tuple(
            value if part is None else part(value)
            for part, value in zip(parts, element, strict=True)
        )
    return None


# -- single envs ---------------------------------------------------------------------------


class GymnasiumEnv(gymnasium.Env[Any, Any]):
    """A `gymnasium.Env` over a protogym env; every call goes straight to the inner env.

    `reset(seed=)` seeds exactly as the inner env does, so both give the same trajectory.
    `np_random` is the inner env's generator; `unwrapped` is this adapter (Gymnasium code
    expects a `gymnasium.Env` there), and attributes it lacks are looked up through the
    protogym env's wrappers, outermost first, down to the env they wrap, so
    ``env.unwrapped.state`` reaches a CartPole's state.
    """

    def __init__(self, env: Env[Any, Any]) -> None:
        _require_env(env, "to_gymnasium")
        self.protogym_env = env
        self.observation_space = to_gymnasium_space(env.observation_space)
        self.action_space = to_gymnasium_space(env.action_space)
        self.metadata = dict(env.metadata)
        self.render_mode = env.render_mode
        self._retype_obs = _graph_retyper(env.observation_space, gspaces.GraphInstance)
        self._retype_action = _graph_retyper(env.action_space, spaces.GraphInstance)
        protogym_spec = getattr(env, "spec", None)
        self.spec = _gymnasium_spec(protogym_spec) if isinstance(protogym_spec, EnvSpec) else None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.protogym_env.reset(seed=seed, options=options)
        return (obs if self._retype_obs is None else self._retype_obs(obs)), info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._retype_action is not None:
            action = self._retype_action(action)
        result = self.protogym_env.step(action)
        if self._retype_obs is None:
            return result
        obs, reward, terminated, truncated, info = result
        return self._retype_obs(obs), reward, terminated, truncated, info

    def render(self) -> Any:
        return self.protogym_env.render()

    def close(self) -> None:
        self.protogym_env.close()

    @property
    def np_random(self) -> np.random.Generator:
        generator = self._np_random
        if generator is None:
            generator, _ = gymnasium.utils.seeding.np_random()
            self._np_random = generator
        return generator

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value

    @property
    def _np_random(self) -> np.random.Generator | None:
        """The inner env's generator (what Gymnasium's checker reads), or this adapter's own
        for a structural env that has none."""
        inner = _inner_unwrapped(self.protogym_env)
        if hasattr(inner, "np_random"):
            return cast(np.random.Generator, inner.np_random)
        return cast("np.random.Generator | None", self.__dict__.get("_own_np_random"))

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        inner = _inner_unwrapped(self.protogym_env)
        if hasattr(inner, "np_random"):
            inner.np_random = value
        else:
            self.__dict__["_own_np_random"] = value

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            env = object.__getattribute__(self, "protogym_env")
        except AttributeError:  # while unpickling, before __init__'s attributes are back
            raise AttributeError(name) from None
        getter = getattr(env, "get_wrapper_attr", None)
        return getattr(env, name) if getter is None else getter(name)

    def __str__(self) -> str:
        return f"<GymnasiumEnv<{self.protogym_env}>>"


class ProtogymEnv(protogym.Env[Any, Any]):
    """A protogym env over a `gymnasium.Env`, with protogym spaces; calls go straight through.

    Attributes the adapter lacks come from the Gymnasium env through its own wrapper chain,
    outermost wrapper first, as Gymnasium's `get_wrapper_attr` finds them; assigning one sets
    it where Gymnasium's `set_wrapper_attr` would. The adapter's own members (the converted
    spaces, `metadata`, `spec`, ...) come first, so `get_attr`/`set_attr` of a vector env over
    it see what Gymnasium's vector envs see, with protogym's spaces.
    """

    gymnasium_env: gymnasium.Env[Any, Any]
    observation_space: Space[Any]
    action_space: Space[Any]
    metadata: dict[str, Any]
    render_mode: str | None
    _retype_obs: Callable[[Any], Any] | None
    _retype_action: Callable[[Any], Any] | None

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        if not isinstance(env, gymnasium.Env):
            raise TypeError(
                f"from_gymnasium needs a gymnasium.Env, got {env!r} ({type(env).__name__}); "
                "for a protogym env use it as it is"
            )
        own = {
            "gymnasium_env": env,
            "observation_space": from_gymnasium_space(env.observation_space),
            "action_space": from_gymnasium_space(env.action_space),
            "metadata": dict(env.metadata),
            "render_mode": env.render_mode,
            "_retype_obs": _graph_retyper(env.observation_space, spaces.GraphInstance),
            "_retype_action": _graph_retyper(env.action_space, gspaces.GraphInstance),
        }
        for name, value in own.items():
            object.__setattr__(self, name, value)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.gymnasium_env.reset(seed=seed, options=options)
        return (obs if self._retype_obs is None else self._retype_obs(obs)), info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._retype_action is not None:
            action = self._retype_action(action)
        obs, reward, terminated, truncated, info = self.gymnasium_env.step(action)
        if self._retype_obs is not None:
            obs = self._retype_obs(obs)
        return obs, reward, terminated, truncated, info

    def render(self) -> Any:
        return self.gymnasium_env.render()

    def close(self) -> None:
        self.gymnasium_env.close()

    @property
    def np_random(self) -> np.random.Generator:
        return self.gymnasium_env.np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self.gymnasium_env.np_random = value

    @property
    def np_random_seed(self) -> int:
        return self.gymnasium_env.np_random_seed

    @property
    def _np_random(self) -> np.random.Generator | None:
        """The Gymnasium env's generator, where protogym's checker looks for it."""
        return self.gymnasium_env.unwrapped._np_random

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        self.gymnasium_env.unwrapped._np_random = value

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether the adapter or any layer of the Gymnasium env has `name`."""
        return self._owns(name) or bool(self.gymnasium_env.has_wrapper_attr(name))

    def get_wrapper_attr(self, name: str) -> Any:
        """`name` of the adapter if it has it, else of the outermost Gymnasium layer that has
        it (its wrappers first, then the env they wrap)."""
        if self._owns(name):
            return getattr(self, name)
        try:
            return self.gymnasium_env.get_wrapper_attr(name)
        except AttributeError:
            raise AttributeError(
                f"neither {self} nor any layer of the Gymnasium env it wraps has an "
                f"attribute {name!r}"
            ) from None

    def set_wrapper_attr(self, name: str, value: Any, *, force: bool = True) -> bool:
        """Set `name` on the adapter if it has it, else on the outermost Gymnasium layer that
        has it; if none has it, on the adapter when `force` (Gymnasium's rule). Returns
        whether it was set."""
        if not self._owns(name):
            if self.gymnasium_env.set_wrapper_attr(name, value, force=False):
                return True
            if not force:
                return False
        object.__setattr__(self, name, value)
        return True

    def _owns(self, name: str) -> bool:
        """Whether `name` is the adapter's own: private, a class member, or set on it."""
        return name.startswith("_") or has_members_statically(self, type(self).__mro__, (name,))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            env = object.__getattribute__(self, "gymnasium_env")
        except AttributeError:  # while unpickling, before __init__'s attributes are back
            raise AttributeError(name) from None
        try:
            return env.get_wrapper_attr(name)
        except AttributeError:
            raise AttributeError(
                f"neither {type(self).__name__} nor any layer of the Gymnasium env it wraps "
                f"has an attribute {name!r}"
            ) from None

    def __setattr__(self, name: str, value: Any) -> None:
        self.set_wrapper_attr(name, value)

    def __str__(self) -> str:
        return f"<ProtogymEnv<{self.gymnasium_env}>>"


def to_gymnasium(env: Env[Any, Any]) -> GymnasiumEnv:
    """`env` as a `gymnasium.Env` (see `GymnasiumEnv`)."""
    return GymnasiumEnv(env)


def from_gymnasium(env: gymnasium.Env[Any, Any]) -> ProtogymEnv:
    """A Gymnasium env as a protogym env (see `ProtogymEnv`)."""
    return ProtogymEnv(env)


def _require_env(env: object, purpose: str) -> None:
    if isinstance(env, gymnasium.Env):
        raise TypeError(
            f"{purpose} got {env!r}, which is already a gymnasium.Env; use it as it is, or "
            "from_gymnasium() to make it a protogym env"
        )
    if not isinstance(env, Env):
        raise TypeError(
            f"{purpose} needs a protogym env (reset, step, render, close, action_space, "
            f"observation_space, metadata, render_mode), got {env!r} ({type(env).__name__})"
        )


def _inner_unwrapped(env: Any) -> Any:
    return getattr(env, "unwrapped", env)


def _gymnasium_spec(spec: EnvSpec) -> gymnasium.envs.registration.EnvSpec:
    """Gymnasium's spec of a protogym spec: the id in the ``protogym`` namespace."""
    return gymnasium.envs.registration.EnvSpec(
        id=gymnasium_id(spec.id),
        entry_point=functools.partial(_made_for_gymnasium, spec.id),
        reward_threshold=spec.reward_threshold,
        nondeterministic=spec.nondeterministic,
        max_episode_steps=spec.max_episode_steps,
        order_enforce=spec.order_enforce,
        disable_env_checker=spec.disable_env_checker,
        kwargs=dict(spec.kwargs),
        vector_entry_point=functools.partial(_made_vector_for_gymnasium, spec.id),
    )


# -- vector envs ---------------------------------------------------------------------------

_TO_GYMNASIUM_MODE = {
    AutoresetMode.SAME_STEP: GymnasiumAutoresetMode.SAME_STEP,
    AutoresetMode.NEXT_STEP: GymnasiumAutoresetMode.NEXT_STEP,
    AutoresetMode.DISABLED: GymnasiumAutoresetMode.DISABLED,
}
_FROM_GYMNASIUM_MODE = {value: key for key, value in _TO_GYMNASIUM_MODE.items()}


class GymnasiumVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """A `gymnasium.vector.VectorEnv` over a protogym vector env, autoreset mode included.

    Infos pass through as they are: protogym's same-step layout (``final_obs`` with one
    entry per sub-env, ``final_info``) is Gymnasium 1.x's.
    """

    def __init__(self, vector_env: VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(vector_env, VectorEnv):
            raise TypeError(
                f"to_gymnasium_vector needs a protogym vector env, got {vector_env!r} "
                f"({type(vector_env).__name__})"
            )
        self.protogym_vector_env = vector_env
        self.num_envs = vector_env.num_envs
        self.single_observation_space = to_gymnasium_space(vector_env.single_observation_space)
        self.single_action_space = to_gymnasium_space(vector_env.single_action_space)
        self.observation_space = to_gymnasium_space(vector_env.observation_space)
        self.action_space = to_gymnasium_space(vector_env.action_space)
        mode = AutoresetMode(vector_env.autoreset_mode)
        # Gymnasium's own vector envs carry the mode as an attribute too (TorchRL reads it)
        self.autoreset_mode = _TO_GYMNASIUM_MODE[mode]
        self.metadata = {**vector_env.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = vector_env.render_mode

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        return self.protogym_vector_env.reset(seed=seed, options=options)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        return self.protogym_vector_env.step(actions)

    def render(self) -> Any:
        return self.protogym_vector_env.render()

    def close_extras(self, **kwargs: Any) -> None:
        self.protogym_vector_env.close()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or "protogym_vector_env" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.__dict__["protogym_vector_env"], name)


class ProtogymVectorEnv(VectorEnvBase[Any, Any, Any]):
    """A protogym vector env over a `gymnasium.vector.VectorEnv`, autoreset mode included."""

    single_observation_space: Space[Any]
    single_action_space: Space[Any]
    observation_space: Space[Any]
    action_space: Space[Any]
    autoreset_mode: AutoresetMode

    def __init__(self, vector_env: gymnasium.vector.VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(vector_env, gymnasium.vector.VectorEnv):
            raise TypeError(
                f"from_gymnasium_vector needs a gymnasium.vector.VectorEnv, got {vector_env!r} "
                f"({type(vector_env).__name__})"
            )
        self.gymnasium_vector_env = vector_env
        self.num_envs = vector_env.num_envs
        self.single_observation_space = from_gymnasium_space(vector_env.single_observation_space)
        self.single_action_space = from_gymnasium_space(vector_env.single_action_space)
        self.observation_space = from_gymnasium_space(vector_env.observation_space)
        self.action_space = from_gymnasium_space(vector_env.action_space)
        gym_mode = vector_env.metadata.get("autoreset_mode", GymnasiumAutoresetMode.NEXT_STEP)
        if isinstance(gym_mode, str):
            gym_mode = GymnasiumAutoresetMode(gym_mode)
        self.autoreset_mode = _FROM_GYMNASIUM_MODE[gym_mode]
        self.metadata = {**vector_env.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = vector_env.render_mode

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        return self.gymnasium_vector_env.reset(
            seed=list(seed) if isinstance(seed, Sequence) else seed,  # type: ignore[arg-type]
            options=options,
        )

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        # Same-step infos are laid out as protogym's: `final_obs` per sub-env, `final_info`.
        return self.gymnasium_vector_env.step(actions)

    def render(self) -> Any:
        return self.gymnasium_vector_env.render()

    def close(self) -> None:
        if not self.closed:
            self.gymnasium_vector_env.close()
            self.closed = True


def to_gymnasium_vector(vector_env: VectorEnv[Any, Any, Any]) -> GymnasiumVectorEnv:
    """A protogym vector env as a Gymnasium one (see `GymnasiumVectorEnv`)."""
    return GymnasiumVectorEnv(vector_env)


def from_gymnasium_vector(
    vector_env: gymnasium.vector.VectorEnv[Any, Any, Any],
) -> ProtogymVectorEnv:
    """A Gymnasium vector env as a protogym one (see `ProtogymVectorEnv`)."""
    return ProtogymVectorEnv(vector_env)


# -- ids -----------------------------------------------------------------------------------


def gymnasium_id(protogym_id: str) -> str:
    """The id under which Gymnasium knows protogym's `protogym_id`."""
    namespace, name, version = parse_env_id(protogym_id)
    prefix = GYMNASIUM_NAMESPACE
    if namespace is not None:
        prefix += "-" + namespace.replace(".", "-")
    return gymnasium.envs.registration.get_env_id(prefix, name, version)


def register_gymnasium_ids() -> list[str]:
    """Register every protogym id in Gymnasium's registry; returns the Gymnasium ids.

    Runs when this module is imported; call it again after registering ids in code.
    """
    added = []
    for spec in protogym.registry.values():
        gym_spec = _gymnasium_spec(spec)
        if gym_spec.id not in gymnasium.registry:
            gymnasium.registry[gym_spec.id] = gym_spec
            added.append(gym_spec.id)
    return added


def _made_for_gymnasium(protogym_id: str, **kwargs: Any) -> GymnasiumEnv:
    """The entry point of protogym ids in Gymnasium's registry.

    Gymnasium's `make` adds its own time limit, order enforcing and checker, so the
    protogym env is built without them.
    """
    bare = protogym.registry[protogym_id].evolve(max_episode_steps=None, order_enforce=False)
    return GymnasiumEnv(protogym.make(bare, disable_env_checker=True, **kwargs))


def _made_vector_for_gymnasium(
    protogym_id: str,
    num_envs: int,
    autoreset_mode: GymnasiumAutoresetMode | str = GymnasiumAutoresetMode.NEXT_STEP,
    **kwargs: Any,
) -> GymnasiumVectorEnv:
    """The vector entry point of protogym ids: next-step autoreset, as Gymnasium's default."""
    mode = GymnasiumAutoresetMode(autoreset_mode)
    vector_env = protogym.make_vec(
        protogym.registry[protogym_id],
        num_envs,
        vector_kwargs={"autoreset_mode": _FROM_GYMNASIUM_MODE[mode]},
        **kwargs,
    )
    return GymnasiumVectorEnv(vector_env)


def make_gymnasium_env(gymnasium_id: str, **kwargs: Any) -> ProtogymEnv:
    """The entry point of ``gymnasium:[module:]id`` specs: Gymnasium's env, without the
    time limit, order enforcing and checker that protogym's `make` adds itself."""
    spec = dataclasses.replace(
        _gymnasium_registry_spec(gymnasium_id),
        max_episode_steps=None,
        order_enforce=False,
        disable_env_checker=True,
    )
    return ProtogymEnv(gymnasium.make(spec, **kwargs))


def gymnasium_env_spec(gymnasium_id: str) -> EnvSpec:
    """The protogym spec of ``gymnasium:<gymnasium_id>``: what `protogym.make` builds.

    As Gymnasium's `make` does, an old version warns (`DeprecationWarning`) and names the
    newest, and an id without a version takes the newest, with a `UserWarning`.
    """
    found = _gymnasium_registry_spec(_newest_if_unversioned(gymnasium_id))
    module, colon, _ = gymnasium_id.rpartition(":")
    resolved = f"{module}{colon}{found.id}"
    newest = gymnasium.envs.registration.find_highest_version(found.namespace, found.name)
    if found.version is not None and newest is not None and newest > found.version:
        newest_id = gymnasium.envs.registration.get_env_id(found.namespace, found.name, newest)
        _warn_user(
            f"'gymnasium:{resolved}' is out of date; Gymnasium's registry has a newer "
            f"version: 'gymnasium:{module}{colon}{newest_id}'",
            DeprecationWarning,
        )
    return EnvSpec(
        id=f"gymnasium:{resolved}",
        entry_point=f"{__name__}:make_gymnasium_env",
        kwargs={"gymnasium_id": resolved, **found.kwargs},
        max_episode_steps=found.max_episode_steps,
        reward_threshold=found.reward_threshold,
        nondeterministic=found.nondeterministic,
    )


def _newest_if_unversioned(gymnasium_id: str) -> str:
    """`gymnasium_id` with the newest registered version if it names none (and a warning)."""
    module, colon, env_id = gymnasium_id.rpartition(":")
    _import_registering_module(gymnasium_id)
    namespace, name, version = gymnasium.envs.registration.parse_env_id(env_id)
    if version is not None or env_id in gymnasium.registry:
        return gymnasium_id
    newest = gymnasium.envs.registration.find_highest_version(namespace, name)
    if newest is None:
        return gymnasium_id
    newest_id = gymnasium.envs.registration.get_env_id(namespace, name, newest)
    _warn_user(
        f"'gymnasium:{gymnasium_id}' has no version; using the newest in Gymnasium's registry, "
        f"'gymnasium:{module}{colon}{newest_id}'. Name the version to keep the env from "
        "changing under you.",
        UserWarning,
    )
    return f"{module}{colon}{newest_id}"


def _gymnasium_registry_spec(gymnasium_id: str) -> gymnasium.envs.registration.EnvSpec:
    module = _import_registering_module(gymnasium_id)
    env_id = gymnasium_id.rpartition(":")[2]
    try:
        return gymnasium.spec(env_id)
    except gymnasium.error.Error as error:
        raise UnregisteredEnv(_missing_id_message(module, env_id, error)) from None


def _import_registering_module(gymnasium_id: str) -> str:
    """Import the module that ``[module:]id`` names (it registers the id), as Gymnasium's
    ``module:id`` does; returns the module name ('' if none)."""
    module, _, env_id = gymnasium_id.rpartition(":")
    if module:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            raise ModuleNotFoundError(
                f"'gymnasium:{gymnasium_id}' names the package {module!r} to import first, "
                f"but it is not installed ({error}); install the package that registers "
                f"{env_id!r} in Gymnasium"
            ) from error
    return module


def _missing_id_message(module: str, env_id: str, error: Exception) -> str:
    """Why `env_id` is not in Gymnasium's registry, with the ids the user may have meant."""
    prefix = f"gymnasium:{module}:" if module else "gymnasium:"
    namespace, name, _ = gymnasium.envs.registration.parse_env_id(env_id)
    versions = sorted(
        spec.version
        for spec in gymnasium.registry.values()
        if spec.namespace == namespace and spec.name == name and spec.version is not None
    )
    if versions:
        listed = ", ".join(
            repr(prefix + gymnasium.envs.registration.get_env_id(namespace, name, version))
            for version in versions
        )
        return (
            f"Gymnasium has {name!r} in version{'s' if len(versions) > 1 else ''} "
            f"{', '.join(f'v{v}' for v in versions)} only, not {env_id!r}: use {listed}"
        )
    close = difflib.get_close_matches(env_id, list(gymnasium.registry), n=3, cutoff=0.7)
    # Our suggestions carry the prefix to type; Gymnasium's own message only when we have none.
    why = (
        f" Did you mean {', '.join(repr(prefix + known) for known in close)}?"
        if close
        else f" ({error})"
    )
    if module:
        return f"Gymnasium has no environment {env_id!r}, even after importing {module!r}.{why}"
    return (
        f"Gymnasium has no environment {env_id!r}.{why} If a package registers it on import, "
        f"name the package first: 'gymnasium:<package>:{env_id}', for example "
        "'gymnasium:ale_py:ALE/Pong-v5'"
    )


_PACKAGE_DIR = os.path.dirname(protogym.__file__) + os.sep


def _warn_user(message: str, category: type[Warning]) -> None:
    """Warn, attributing the warning to the first caller outside protogym (the user's line
    that made the env), as protogym's own registry warnings are."""
    frame = sys._getframe(1)
    level = 2
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)


register_gymnasium_ids()
