"""`VectorWrapper` and its observation/action/reward specialisations.

A vector wrapper forwards every member to the vector env it wraps unless it overrides it;
a wrapper that changes a space assigns it (``self.observation_space = ...``) and the
forwarded value is replaced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic

import numpy as np
from typing_extensions import TypeVar

from protogym.spaces.space import Space
from protogym.vector.utils.infos import observation_of, with_rows
from protogym.vector.vector_env import (
    AutoresetMode,
    VectorEnv,
    VectorEnvBase,
    VectorStepResult,
)

if TYPE_CHECKING:
    from protogym.registration.env_spec import EnvSpec

__all__ = [
    "VectorActionWrapper",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
]

WObsT = TypeVar("WObsT", default=Any)
WActT = TypeVar("WActT", default=Any)
ObsT = TypeVar("ObsT", default=Any)
ActT = TypeVar("ActT", default=Any)


class VectorWrapper(VectorEnvBase[WObsT, WActT, AutoresetMode], Generic[WObsT, WActT, ObsT, ActT]):
    """Wraps a vector env (`env`); every member forwards to it unless overridden."""

    def __init__(self, env: VectorEnv[ObsT, ActT, Any]) -> None:
        if not isinstance(env, VectorEnv):
            raise TypeError(
                f"{type(self).__name__} wraps a vector env (e.g. protogym.make_vec(...)), got "
                f"{type(env).__name__!r}; wrap single envs with protogym.wrappers instead"
            )
        self.env = env
        # Overrides set by subclasses that change a space; None forwards to `env`.
        self._observation_space: Space[WObsT] | None = None
        self._action_space: Space[WActT] | None = None
        self._single_observation_space: Space[Any] | None = None
        self._single_action_space: Space[Any] | None = None
        self._metadata: Mapping[str, Any] | None = None

    @property
    def num_envs(self) -> int:  # type: ignore[override]
        return self.env.num_envs

    @property
    def observation_space(self) -> Space[WObsT]:
        own = self._observation_space
        return own if own is not None else self.env.observation_space  # type: ignore[return-value]

    @observation_space.setter
    def observation_space(self, space: Space[WObsT]) -> None:
        self._observation_space = space

    @property
    def action_space(self) -> Space[WActT]:
        own = self._action_space
        return own if own is not None else self.env.action_space  # type: ignore[return-value]

    @action_space.setter
    def action_space(self, space: Space[WActT]) -> None:
        self._action_space = space

    @property
    def single_observation_space(self) -> Space[Any]:
        own = self._single_observation_space
        return own if own is not None else self.env.single_observation_space

    @single_observation_space.setter
    def single_observation_space(self, space: Space[Any]) -> None:
        self._single_observation_space = space

    @property
    def single_action_space(self) -> Space[Any]:
        own = self._single_action_space
        return own if own is not None else self.env.single_action_space

    @single_action_space.setter
    def single_action_space(self, space: Space[Any]) -> None:
        self._single_action_space = space

    @property
    def metadata(self) -> Mapping[str, Any]:
        own = self._metadata
        return own if own is not None else self.env.metadata

    @metadata.setter
    def metadata(self, value: Mapping[str, Any]) -> None:
        self._metadata = value

    @property
    def render_mode(self) -> str | None:
        return self.env.render_mode

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:
        raise AttributeError(
            f"{type(self).__name__}.render_mode comes from the inner env; set it there"
        )

    @property
    def spec(self) -> EnvSpec | None:  # type: ignore[override]
        return getattr(self.env, "spec", None)

    @property
    def closed(self) -> bool:
        return bool(getattr(self.env, "closed", False))

    @closed.setter
    def closed(self, value: bool) -> None:
        setattr(self.env, "closed", value)  # noqa: B010 - not a member of the protocol

    @property
    def autoreset_mode(self) -> AutoresetMode:
        return self.env.autoreset_mode  # type: ignore[no-any-return]

    @property
    def np_random(self) -> np.random.Generator:
        return self.env.np_random  # type: ignore[attr-defined, no-any-return]

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self.env.np_random = value  # type: ignore[attr-defined]

    @property
    def np_random_seed(self) -> int | None:
        return self.env.np_random_seed  # type: ignore[attr-defined, no-any-return]

    @property
    def unwrapped(self) -> Any:
        """The innermost vector env."""
        return getattr(self.env, "unwrapped", self.env)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[WObsT, dict[str, Any]]:
        return self.env.reset(seed=seed, options=options)  # type: ignore[return-value]

    def step(self, actions: WActT) -> VectorStepResult[WObsT]:
        return self.env.step(actions)  # type: ignore[arg-type, return-value]

    def render(self) -> Any:
        return self.env.render()

    def close(self, **kwargs: Any) -> None:
        self.env.close(**kwargs)

    def close_extras(self, **kwargs: Any) -> None:
        close_extras = getattr(self.env, "close_extras", None)
        if close_extras is not None:
            close_extras(**kwargs)

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether this wrapper or a vector env inside it has attribute `name`."""
        if name in type(self).__dict__ or name in self.__dict__:
            return True
        has = getattr(self.env, "has_wrapper_attr", None)
        return bool(has(name)) if has is not None else hasattr(self.env, name)

    def get_wrapper_attr(self, name: str) -> Any:
        """Attribute `name` of this wrapper, else of the first vector env inside that has it."""
        try:
            return object.__getattribute__(self, name)
        except AttributeError:
            get = getattr(self.env, "get_wrapper_attr", None)
            return get(name) if get is not None else getattr(self.env, name)

    def __getattr__(self, name: str) -> Any:
        """Other attributes (`call`, `get_attr`, env parameters) come from the inner env."""
        if name.startswith("_") or name == "env":
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(self.env, name)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}, {self.env!r}>"


class VectorObservationWrapper(VectorWrapper[WObsT, ActT, ObsT, ActT]):
    """Transforms every observation batch through `observations`.

    Under same-step autoreset, the ended episodes' last observations in
    ``info["final_obs"]`` are transformed too (Gymnasium refuses same-step envs instead),
    so final and ordinary observations stay comparable; see `final_observations`.
    """

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[WObsT, dict[str, Any]]:
        observations, infos = self.env.reset(seed=seed, options=options)
        return self.observations(observations), infos

    def step(self, actions: ActT) -> VectorStepResult[WObsT]:
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        transformed = self.observations(observations)
        if "final_obs" in infos:
            finals = self.final_observations(infos["final_obs"], infos["_final_obs"],
                                             observations)
            infos = {**infos, "final_obs": finals}
        return transformed, rewards, terminations, truncations, infos

    def observations(self, observations: ObsT) -> WObsT:
        raise NotImplementedError(f"{type(self).__name__} must define observations()")

    def final_observations(
        self, final_obs: np.ndarray[Any, Any], ended: np.ndarray[Any, Any], observations: ObsT
    ) -> np.ndarray[Any, Any]:
        """The object array `final_obs` with each ended sub-env's entry transformed.

        The default puts those last observations into a copy of this step's (untransformed)
        batch, transforms that batch with `observations`, and reads their rows back.
        Wrappers that keep statistics or can transform one observation override it.
        """
        rows = [(index, final_obs[index]) for index in np.flatnonzero(ended).tolist()]
        inner = self.env
        batch = with_rows(observations, rows, inner.observation_space,
                          inner.single_observation_space, self.num_envs)
        transformed = self.observations(batch)
        result = np.empty(self.num_envs, dtype=object)
        for index, _ in rows:
            result[index] = observation_of(self.single_observation_space, transformed, index)
        return result


class VectorActionWrapper(VectorWrapper[ObsT, WActT, ObsT, ActT]):
    """Transforms every action batch through `actions` before the inner env sees it."""

    def step(self, actions: WActT) -> VectorStepResult[ObsT]:
        return self.env.step(self.actions(actions))

    def actions(self, actions: WActT) -> ActT:
        raise NotImplementedError(f"{type(self).__name__} must define actions()")


class VectorRewardWrapper(VectorWrapper[ObsT, ActT, ObsT, ActT]):
    """Transforms every reward batch through `rewards`."""

    def step(self, actions: ActT) -> VectorStepResult[ObsT]:
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return observations, self.rewards(rewards), terminations, truncations, infos

    def rewards(self, rewards: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define rewards()")
