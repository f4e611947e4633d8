"""dm_env interop: protogym envs as `dm_env.Environment`s, and back.

The two contracts differ where an episode ends. dm_env has one kind of end, `StepType.LAST`,
and says with the discount whether the future was cut off or is worth nothing:

- a *terminated* protogym episode ends with `LAST` and discount 0;
- a *truncated* one (a time limit) ends with `LAST` and discount 1;
- every other step is `MID` with discount 1, and `reset` gives `FIRST` with no reward.

`from_dm_env` reads the reverse: `LAST` with discount 0 is terminated, `LAST` with a positive
discount is truncated. Specs map to spaces: `DiscreteArray` <-> `Discrete`, `BoundedArray`
<-> `Box` (and `MultiBinary` / `MultiDiscrete` / `Discrete` with a start become bounded
integer arrays), `Array` -> an unbounded `Box`, nested dicts and tuples <-> `Dict` / `Tuple`.
What cannot cross is listed in ``docs/interop/dm_env.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import numpy as np

from protogym import spaces
from protogym.core import Env
from protogym.interop._optional import missing_extra
from protogym.spaces.space import Space

try:
    import dm_env
    from dm_env import specs
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise missing_extra("dm_env", "dm-env", "protogym.interop.dm_env") from error

__all__ = [
    "DmEnv",
    "ProtogymDmEnv",
    "from_dm_env",
    "space_of_spec",
    "spec_of_space",
    "to_dm_env",
]

Spec = Any
"""A dm_env spec: an `Array` (or subclass), or a dict, tuple or list of specs."""


def spec_of_space(space: Space[Any], name: str = "") -> Spec:
    """The dm_env spec whose values are the elements of `space`."""
    if isinstance(space, spaces.Box):
        return specs.BoundedArray(space.shape, space.dtype, space.low, space.high, name)
    if isinstance(space, spaces.Discrete):
        if space.start == 0:
            return specs.DiscreteArray(int(space.n), dtype=np.int64, name=name)
        return specs.BoundedArray((), np.int64, space.start, space.start + space.n - 1, name)
    if isinstance(space, spaces.MultiBinary):
        return specs.BoundedArray(space.shape, np.int8, 0, 1, name)
    if isinstance(space, spaces.MultiDiscrete):
        return specs.BoundedArray(
            space.shape, space.dtype, space.start, space.start + space.nvec - 1, name
        )
    if isinstance(space, spaces.Tuple):
        return tuple(spec_of_space(sub, f"{name}[{i}]") for i, sub in enumerate(space.spaces))
    if isinstance(space, spaces.Dict):
        return {key: spec_of_space(sub, key) for key, sub in space.spaces.items()}
    raise TypeError(
        f"dm_env has no spec for {space!r} ({type(space).__name__}): only Box, Discrete, "
        "MultiBinary, MultiDiscrete and Tuple/Dict of those convert"
    )


def space_of_spec(spec: Spec) -> Space[Any]:
    """The protogym space whose elements are the values `spec` allows."""
    if isinstance(spec, specs.DiscreteArray):
        return spaces.Discrete(spec.num_values)
    if isinstance(spec, specs.BoundedArray):
        low = np.broadcast_to(spec.minimum, spec.shape)
        high = np.broadcast_to(spec.maximum, spec.shape)
        return spaces.Box(low, high, spec.shape, spec.dtype)
    if isinstance(spec, specs.Array):
        dtype = np.dtype(spec.dtype)
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            return spaces.Box(info.min, info.max, spec.shape, dtype)
        return spaces.Box(-np.inf, np.inf, spec.shape, dtype)
    if isinstance(spec, dict):
        items = [(key, space_of_spec(sub)) for key, sub in spec.items()]
        return spaces.Dict(items, sort_keys=False)
    if isinstance(spec, tuple | list):
        return spaces.Tuple([space_of_spec(sub) for sub in spec])
    raise TypeError(f"{spec!r} ({type(spec).__name__}) is not a dm_env spec")


class DmEnv(dm_env.Environment):
    """A `dm_env.Environment` over a protogym env.

    dm_env's `reset` takes no seed: the seed given here (or to `seed()`) goes to the next
    `reset` of the inner env, and later resets continue its random stream, so a run is
    reproducible from one seed.
    """

    def __init__(self, env: Env[Any, Any], seed: int | None = None) -> None:
        if not isinstance(env, Env):
            raise TypeError(
                f"to_dm_env needs a protogym env, got {env!r} ({type(env).__name__})"
            )
        self.protogym_env = env
        self._observation_spec = spec_of_space(env.observation_space, "observation")
        self._action_spec = spec_of_space(env.action_space, "action")
        self._next_seed = seed
        self._needs_reset = True

    def seed(self, seed: int | None) -> None:
        """Seed the next `reset`."""
        self._next_seed = seed

    def reset(self) -> dm_env.TimeStep:
        obs, _ = self.protogym_env.reset(seed=self._next_seed)
        self._next_seed = None
        self._needs_reset = False
        return dm_env.restart(obs)

    def step(self, action: Any) -> dm_env.TimeStep:
        if self._needs_reset:
            return self.reset()
        if isinstance(action, np.ndarray) and action.ndim == 0:
            action = action[()]
        obs, reward, terminated, truncated, _ = self.protogym_env.step(action)
        if terminated:
            self._needs_reset = True
            return dm_env.termination(float(reward), obs)
        if truncated:
            self._needs_reset = True
            return dm_env.truncation(float(reward), obs)
        return dm_env.transition(float(reward), obs)

    def observation_spec(self) -> Spec:
        return self._observation_spec

    def action_spec(self) -> Spec:
        return self._action_spec

    def close(self) -> None:
        self.protogym_env.close()


class ProtogymDmEnv(Env[Any, Any]):
    """A protogym env over a `dm_env.Environment`.

    dm_env has no seeding: `reset(seed=s)` calls `seeder(s)` when one is given (by default the
    dm_env's own `seed` method, if it has one, as `DmEnv` does) and otherwise raises.
    """

    observation_space: Space[Any]
    action_space: Space[Any]
    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012
    render_mode: str | None = None

    def __init__(
        self,
        environment: dm_env.Environment,
        seeder: Callable[[int], None] | None = None,
    ) -> None:
        if not isinstance(environment, dm_env.Environment):
            raise TypeError(
                f"from_dm_env needs a dm_env.Environment, got {environment!r} "
                f"({type(environment).__name__})"
            )
        self.dm_environment = environment
        self.observation_space = space_of_spec(environment.observation_spec())
        self.action_space = space_of_spec(environment.action_spec())
        self._seeder = seeder if seeder is not None else getattr(environment, "seed", None)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if seed is not None:
            if self._seeder is None:
                raise ValueError(
                    f"{type(self.dm_environment).__name__} is a dm_env environment, which has "
                    "no seed; pass from_dm_env(env, seeder=...) a function that seeds it"
                )
            self._seeder(seed)
        super().reset(seed=seed)  # np_random, for wrappers and agents that draw from it
        return self.dm_environment.reset().observation, {}

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        timestep = self.dm_environment.step(action)
        reward = 0.0 if timestep.reward is None else float(timestep.reward)
        if not timestep.last():
            return timestep.observation, reward, False, False, {}
        ended_for_good = timestep.discount is not None and float(timestep.discount) == 0.0
        return timestep.observation, reward, ended_for_good, not ended_for_good, {}

    def render(self) -> None:
        return None

    def close(self) -> None:
        self.dm_environment.close()


def to_dm_env(env: Env[Any, Any], seed: int | None = None) -> DmEnv:
    """`env` as a `dm_env.Environment`; `seed` seeds its first reset (see `DmEnv`)."""
    return DmEnv(env, seed)


def from_dm_env(
    environment: dm_env.Environment, seeder: Callable[[int], None] | None = None
) -> ProtogymDmEnv:
    """A dm_env environment as a protogym env (see `ProtogymDmEnv`)."""
    return ProtogymDmEnv(environment, seeder)
