"""Action wrappers for vector envs: a function over whole batches (`TransformAction`) or a
single-env action wrapper applied to every sub-env's action (`VectorizeTransformAction`,
`ClipAction`, `RescaleAction`, which mean exactly what their single-env namesakes mean).

Clipping and rescaling are elementwise, so they run on the whole batch at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numpy.typing import ArrayLike, NDArray

from protogym.spaces import batch_space, concatenate, create_empty_array, iterate
from protogym.spaces.space import Space
from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers._single import SpacesOnlyEnv
from protogym.vector.wrappers.base import ActT, ObsT, VectorActionWrapper, WActT
from protogym.vector.wrappers.vectorize_observation import _warn_if_unbatched
from protogym.wrappers import transform_action as single

__all__ = ["ClipAction", "RescaleAction", "TransformAction", "VectorizeTransformAction"]


class TransformAction(VectorActionWrapper[ObsT, WActT, ActT]):
    """Applies `func` to every action batch before the inner env sees it.

    `action_space`/`single_action_space` describe what the agent sends, as in
    `TransformObservation`.
    """

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        func: Callable[[WActT], ActT],
        action_space: Space[WActT] | None = None,
        single_action_space: Space[Any] | None = None,
    ) -> None:
        super().__init__(env)
        if not callable(func):
            raise TypeError(f"TransformAction needs a callable func, got {func!r}")
        self.func = func
        if single_action_space is not None:
            self.single_action_space = single_action_space
            if action_space is None:
                action_space = batch_space(single_action_space, self.num_envs)
        if action_space is not None:
            self.action_space = action_space
        _warn_if_unbatched("TransformAction", "action", self.action_space,
                           self.single_action_space, self.num_envs)

    def actions(self, actions: WActT) -> ActT:
        return self.func(actions)


class VectorizeTransformAction(VectorActionWrapper[ObsT, WActT, ActT]):
    """Applies a single-env action wrapper (`wrapper`, a `TransformAction` subclass, built
    with `kwargs` over the sub-envs' spaces) to every sub-env's action.

    `wrapper` is the single-env wrapper instance; its `action_space` is this wrapper's
    `single_action_space`.
    """

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        wrapper: type[single.TransformAction[Any, Any, Any]],
        **kwargs: Any,
    ) -> None:
        super().__init__(env)
        stand_in = SpacesOnlyEnv(env.single_observation_space, env.single_action_space,
                                 env.metadata)
        self.wrapper = wrapper(stand_in, **kwargs)
        self.single_action_space = self.wrapper.action_space
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # Set by subclasses whose single-env function maps a whole batch the same way.
        self._batch_func: Callable[[Any], Any] | None = None

    def actions(self, actions: WActT) -> ActT:
        if self._batch_func is not None:
            return self._batch_func(actions)  # type: ignore[no-any-return]
        func = self.wrapper.func
        inner = self.env.single_action_space
        items = [func(item) for item in iterate(self.action_space, actions)]
        return concatenate(inner, items, create_empty_array(inner, self.num_envs))  # type: ignore[no-any-return]


class ClipAction(VectorizeTransformAction[ObsT, NDArray[Any], NDArray[Any]]):
    """Clips every action into the inner `Box`; the agent may send any real array."""

    def __init__(self, env: VectorEnv[ObsT, NDArray[Any], Any]) -> None:
        super().__init__(env, single.ClipAction)
        self._batch_func = self.wrapper.func


class RescaleAction(VectorizeTransformAction[ObsT, NDArray[Any], NDArray[Any]]):
    """Lets the agent act in `[min_action, max_action]`, mapped affinely onto the inner `Box`."""

    def __init__(
        self,
        env: VectorEnv[ObsT, NDArray[Any], Any],
        min_action: ArrayLike,
        max_action: ArrayLike,
    ) -> None:
        super().__init__(env, single.RescaleAction, min_action=min_action,
                         max_action=max_action)
        self.min_action = min_action
        self.max_action = max_action
        self._batch_func = self.wrapper.func


