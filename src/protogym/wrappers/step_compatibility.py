"""`StepCompatibility`: shows an agent either step API, typed by which one it chose."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, Literal, SupportsFloat, TypeVar, overload

from protogym.compat import TRUNCATED_KEY
from protogym.core import ActType, Env, ObsType
from protogym.registration.env_spec import EnvSpec
from protogym.spaces.space import Space

__all__ = ["StepCompatibility"]

TwoDones = TypeVar("TwoDones", Literal[True], Literal[False])
"""`Literal[True]`: the 5-tuple API; `Literal[False]`: the legacy 4-tuple API."""


class StepCompatibility(Generic[ObsType, ActType, TwoDones]):
    """With ``return_two_dones=False``: ``step -> (obs, reward, done, info)`` with
    ``info["TimeLimit.truncated"]``, and ``reset(return_info=False) -> obs`` as in the old
    API. With ``True`` (the default) both pass through unchanged.

    mypy knows which: the third type parameter is the literal that was passed, and `step`
    and `reset` are overloaded on it. See `protogym.compat` for how the APIs map.
    """

    @overload
    def __init__(
        self: StepCompatibility[ObsType, ActType, Literal[True]],
        env: Env[ObsType, ActType],
        return_two_dones: Literal[True] = ...,
    ) -> None: ...

    @overload
    def __init__(
        self: StepCompatibility[ObsType, ActType, Literal[False]],
        env: Env[ObsType, ActType],
        return_two_dones: Literal[False],
    ) -> None: ...

    def __init__(self, env: Env[ObsType, ActType], return_two_dones: bool = True) -> None:
        if not isinstance(env, Env):
            raise TypeError(f"StepCompatibility needs an environment, got {type(env).__name__}")
        if not isinstance(return_two_dones, bool):
            raise TypeError(f"return_two_dones must be a bool, got {return_two_dones!r}")
        self.env = env
        self.return_two_dones = return_two_dones
        if return_two_dones:
            # Nothing to convert: bind straight through so the wrapper costs nothing.
            object.__setattr__(self, "step", env.step)

    @property
    def action_space(self) -> Space[ActType]:
        return self.env.action_space

    @property
    def observation_space(self) -> Space[ObsType]:
        return self.env.observation_space

    @property
    def metadata(self) -> Mapping[str, Any]:
        return self.env.metadata

    @property
    def render_mode(self) -> str | None:
        return self.env.render_mode

    @property
    def spec(self) -> EnvSpec | None:
        spec: EnvSpec | None = getattr(self.env, "spec", None)
        return spec

    @property
    def unwrapped(self) -> Env[Any, Any]:
        inner: Env[Any, Any] = getattr(self.env, "unwrapped", self.env)
        return inner

    @overload
    def step(
        self: StepCompatibility[ObsType, ActType, Literal[True]], action: ActType
    ) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]: ...

    @overload
    def step(
        self: StepCompatibility[ObsType, ActType, Literal[False]], action: ActType
    ) -> tuple[ObsType, SupportsFloat, bool, dict[str, Any]]: ...

    def step(self, action: ActType) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            info = {**info, TRUNCATED_KEY: bool(truncated and not terminated)}
            return obs, reward, True, info
        return obs, reward, False, info

    @overload
    def reset(
        self: StepCompatibility[ObsType, ActType, Literal[True]],
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsType, dict[str, Any]]: ...

    @overload
    def reset(
        self: StepCompatibility[ObsType, ActType, Literal[False]],
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        return_info: Literal[False] = False,
    ) -> ObsType: ...

    @overload
    def reset(
        self: StepCompatibility[ObsType, ActType, Literal[False]],
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        return_info: Literal[True],
    ) -> tuple[ObsType, dict[str, Any]]: ...

    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        return_info: bool | None = None,
    ) -> Any:
        if self.return_two_dones:
            if return_info is not None:
                raise TypeError(
                    "reset(return_info=...) belongs to the legacy API; create the wrapper "
                    "with return_two_dones=False to use it"
                )
            return self.env.reset(seed=seed, options=options)
        obs, info = self.env.reset(seed=seed, options=options)
        return (obs, info) if return_info else obs

    def render(self) -> Any:
        return self.env.render()

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> StepCompatibility[ObsType, ActType, TwoDones]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __str__(self) -> str:
        return f"<StepCompatibility{self.env}>"

    __repr__ = __str__


