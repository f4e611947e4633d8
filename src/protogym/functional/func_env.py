"""`FuncEnv`: an environment written as pure functions of an explicit state and random key.

A functional env keeps no state of its own. `initial` draws a state, `transition` maps a
state and an action to the next state, and `observation`, `reward` and `terminal` read
states; the caller threads the state and the random source through. That is what lets a
whole rollout live inside one compiled program (`jax.jit`, `jax.vmap`, `jax.lax.scan`).

`FuncEnv` is structural, like `protogym.Env`: any object with the members below is one, to
mypy and to `isinstance`, so Gymnasium's `FuncEnv` subclasses qualify unchanged. Subclassing
it explicitly adds defaults (`__init__(options)`, empty infos, `transform`, no default
params, render methods that say they are missing). Nothing here imports jax: the random
source `rng` is whatever the env draws from, a jax key or a `numpy.random.Generator`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, Self, TypeVar, runtime_checkable

from protogym._structural import StructuralProtocolMeta

if TYPE_CHECKING:
    from protogym.spaces.space import Space

__all__ = [
    "FUNC_ENV_MEMBERS",
    "TRANSFORMED_MEMBERS",
    "ActType",
    "FuncEnv",
    "ObsType",
    "Params",
    "RenderStateType",
    "RewardType",
    "StateType",
    "TerminalType",
    "transformed",
]

StateType = TypeVar("StateType")
ObsType = TypeVar("ObsType", covariant=True)
ActType = TypeVar("ActType", contravariant=True)
RewardType = TypeVar("RewardType", covariant=True)
TerminalType = TypeVar("TerminalType", covariant=True)
RenderStateType = TypeVar("RenderStateType")
Params = TypeVar("Params")

FuncTransform = Callable[[Callable[..., Any]], Callable[..., Any]]
"""A function transformation such as `jax.jit` or `jax.vmap`."""

TRANSFORMED_MEMBERS = (  # what `transform` rewrites: every function of state, not render
    "initial",
    "transition",
    "observation",
    "reward",
    "terminal",
    "state_info",
    "transition_info",
)

FUNC_ENV_MEMBERS = (  # what an object must have to be a FuncEnv: the protocol's members
    "observation_space",
    "action_space",
    *TRANSFORMED_MEMBERS,
    "transform",
    "render_image",
    "render_init",
    "render_close",
    "get_default_params",
)


@runtime_checkable
class FuncEnv(
    Protocol[StateType, ObsType, ActType, RewardType, TerminalType, RenderStateType, Params],
    metaclass=StructuralProtocolMeta,
):
    """A functional environment, generic in its state, observation, action, reward,
    terminal flag, render state and parameter types.

    Every function takes `params` last (`None` means the env's defaults), so one env
    definition serves many parameterisations inside one compiled program. Explicit
    subclasses assign their spaces at class level (``action_space = Discrete(2)``) or in
    `__init__`; typed as `Space[Any]`, which an annotation must keep for pyright.
    """

    if not TYPE_CHECKING:
        _required_members_ = FUNC_ENV_MEMBERS

    if TYPE_CHECKING:
        # Space[Any]: a jax env's spaces describe its arrays with numpy ones. Attributes,
        # not read-only properties: pyright rejects a subclass's class-level space that
        # overrides a property, which is how Gymnasium's FuncEnvs declare theirs.
        observation_space: Space[Any]
        action_space: Space[Any]

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        """Set each of `options` as an attribute (the env's constants), as Gymnasium does,
        and `default_params` from `get_default_params()`."""
        self.__dict__.update(options or {})
        self.__dict__["default_params"] = self.get_default_params()

    def initial(self, rng: Any, params: Params | None = None) -> StateType:
        """Draw an initial state from `rng`."""
        ...

    def transition(
        self, state: StateType, action: ActType, rng: Any, params: Params | None = None
    ) -> StateType:
        """The state after taking `action` in `state`."""
        ...

    def observation(self, state: StateType, rng: Any, params: Params | None = None) -> ObsType:
        """What the agent sees in `state`."""
        ...

    def reward(
        self,
        state: StateType,
        action: ActType,
        next_state: StateType,
        rng: Any,
        params: Params | None = None,
    ) -> RewardType:
        """The reward for the transition `state --action--> next_state`."""
        ...

    def terminal(self, state: StateType, rng: Any, params: Params | None = None) -> TerminalType:
        """Whether `state` ends the episode (termination, never a time limit)."""
        ...

    def state_info(self, state: StateType, params: Params | None = None) -> dict[str, Any]:
        """Extra information about `state`, returned by reset; empty by default."""
        return {}

    def transition_info(
        self,
        state: StateType,
        action: ActType,
        next_state: StateType,
        params: Params | None = None,
    ) -> dict[str, Any]:
        """Extra information about a transition, returned by step; empty by default."""
        return {}

    def transform(self, func: FuncTransform) -> Self:
        """Replace every function of state (`TRANSFORMED_MEMBERS`, `transition_info`
        included) with `func` of it, on this object, and return it.

        It mutates, as Gymnasium's does, so ``env.transform(jax.jit)`` as a statement works
        the same; unlike Gymnasium's it also transforms `transition_info` and returns the
        env. Use `protogym.functional.transformed` to leave the env untouched.
        """
        for name in TRANSFORMED_MEMBERS:
            setattr(self, name, func(getattr(self, name)))
        return self

    def render_image(
        self, state: StateType, render_state: RenderStateType, params: Params | None = None
    ) -> tuple[RenderStateType, Any]:
        """Draw `state`: `(next render state, RGB frame)`."""
        # A call, not a bare raise: mypy and pyright take a method whose body only raises
        # NotImplementedError for an abstract one, which a non-rendering env need not define.
        _no_render(self, "render_image")

    def render_init(self, params: Params | None = None, **kwargs: Any) -> RenderStateType:
        """Create the render state (a canvas, a window) that `render_image` draws with."""
        _no_render(self, "render_init")

    def render_close(self, render_state: RenderStateType, params: Params | None = None) -> None:
        """Release what `render_init` created."""
        _no_render(self, "render_close")

    def get_default_params(self, **kwargs: Any) -> Params | None:
        """The parameters used when `params` is `None`; `None` for an unparameterised env."""
        return None


def _no_render(env: object, name: str) -> NoReturn:
    raise NotImplementedError(
        f"{type(env).__name__} cannot render: it does not define `{name}`. Implement "
        "render_init, render_image and render_close to support render_mode='rgb_array'."
    )


_FuncEnvT = TypeVar("_FuncEnvT", bound=FuncEnv[Any, Any, Any, Any, Any, Any, Any])


def transformed(env: _FuncEnvT, func: FuncTransform) -> _FuncEnvT:
    """A shallow copy of `env` whose functions of state are `func` of `env`'s.

    `env` itself is never changed (Gymnasium's ``transform(jax.vmap)`` changes the caller's
    env), and it works for structural envs whose own `transform` differs or is absent.
    """
    clone = copy.copy(env)
    for name in TRANSFORMED_MEMBERS:
        try:
            setattr(clone, name, func(getattr(env, name)))
        except AttributeError as error:
            raise TypeError(
                f"cannot transform {type(env).__name__}.{name}: {error}. A FuncEnv must have "
                f"{', '.join(TRANSFORMED_MEMBERS)} as methods and allow instance attributes."
            ) from error
    return clone
