"""Stateless action wrappers: map, clip, rescale or discretise the agent's actions.

Each changes what the agent may send (its `action_space`) and maps that action onto the
inner env's space before `step`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from protogym.core import ActionWrapper, ActType, Env, ObsType, WrapperActType
from protogym.error import InvalidBound
from protogym.wrappers.utils import bins_array, require_box, rescale_box, unflatten_index

if TYPE_CHECKING:
    from protogym.spaces.space import Space

__all__ = ["ClipAction", "DiscretizeAction", "RescaleAction", "TransformAction"]


class TransformAction(ActionWrapper[ObsType, WrapperActType, ActType]):
    """Passes `func(action)` to the inner env; `action_space` is what the agent sends.

    With `action_space=None` the inner env's space is kept (for maps that stay inside it).
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        func: Callable[[WrapperActType], ActType],
        action_space: Space[WrapperActType] | None,
    ) -> None:
        if not callable(func):
            raise TypeError(f"TransformAction: func must be callable, got {func!r}")
        super().__init__(env)
        if action_space is not None:
            self.action_space = action_space
        self.func = func

    def action(self, action: WrapperActType) -> ActType:
        return self.func(action)


class ClipAction(TransformAction[ObsType, NDArray[Any], NDArray[Any]]):
    """Clips each action into the inner `Box`; the agent may send any real array.

    The wrapper's action space is the inner box's shape and dtype, unbounded.
    """

    def __init__(self, env: Env[ObsType, NDArray[Any]]) -> None:
        from protogym.spaces import Box

        box = require_box("ClipAction", "action", env.action_space)
        low, high = box.low, box.high
        maximum, minimum = np.maximum, np.minimum

        def clip(action: NDArray[Any]) -> NDArray[Any]:
            clipped: NDArray[Any] = minimum(maximum(action, low), high)
            return clipped

        super().__init__(env, clip, Box(-np.inf, np.inf, shape=box.shape, dtype=box.dtype))


class RescaleAction(TransformAction[ObsType, NDArray[Any], NDArray[Any]]):
    """Lets the agent act in `[min_action, max_action]`, mapped affinely onto the inner `Box`.

    Bounds are scalars or arrays of the box's shape; infinite inner bounds must stay the same
    infinity.
    """

    def __init__(
        self, env: Env[ObsType, NDArray[Any]], min_action: ArrayLike, max_action: ArrayLike
    ) -> None:
        box = require_box("RescaleAction", "action", env.action_space)
        space, _, to_inner = rescale_box(box, min_action, max_action, owner="RescaleAction")
        if np.any(space.low == space.high):
            raise InvalidBound(
                f"RescaleAction: min_action ({min_action!r}) must be strictly smaller than "
                f"max_action ({max_action!r}) everywhere, or the rescaling has no inverse"
            )
        self.min_action = min_action
        self.max_action = max_action
        super().__init__(env, to_inner, space)


class DiscretizeAction(TransformAction[ObsType, Any, NDArray[Any]]):
    """Turns a finite `Box` action space into `bins` evenly spaced choices per dimension.

    The agent sends one index into `Discrete(prod(bins))` (or, with `multidiscrete=True`, an
    index per dimension into `MultiDiscrete(bins)`); the env receives the centre of each
    chosen bin.
    """

    def __init__(
        self,
        env: Env[ObsType, NDArray[Any]],
        bins: int | tuple[int, ...],
        multidiscrete: bool = False,
    ) -> None:
        from protogym import spaces

        box = require_box("DiscretizeAction", "action", env.action_space)
        self.low = np.ravel(box.low)
        self.high = np.ravel(box.high)
        self.n_dims = int(self.low.size)
        if not (np.all(np.isfinite(self.low)) and np.all(np.isfinite(self.high))):
            raise ValueError(
                f"DiscretizeAction needs a bounded action space, got low={self.low}, "
                f"high={self.high}"
            )
        self.bins = bins_array("DiscretizeAction", bins, self.n_dims)
        self.multidiscrete = multidiscrete
        self._inner_dtype = box.dtype
        self._inner_shape = box.shape
        edges = [
            np.linspace(self.low[i], self.high[i], self.bins[i] + 1) for i in range(self.n_dims)
        ]
        self.bin_centers = [0.5 * (e[:-1] + e[1:]) for e in edges]
        space: Space[Any] = (
            spaces.MultiDiscrete(self.bins)
            if multidiscrete
            else spaces.Discrete(int(np.prod(self.bins)))
        )
        super().__init__(env, self._to_inner, space)

    def _to_inner(self, action: Any) -> NDArray[Any]:
        if self.multidiscrete:
            indices = [int(i) for i in np.asarray(action, dtype=np.int64)]
        else:
            indices = unflatten_index(int(action), self.bins)
        centers = [
            self.bin_centers[i][min(max(index, 0), int(self.bins[i]) - 1)]
            for i, index in enumerate(indices)
        ]
        return np.array(centers, dtype=self._inner_dtype).reshape(self._inner_shape)

    def revert_action(self, action: ArrayLike) -> Any:
        """The index (or indices) of the bins whose centres are nearest to `action`."""
        flat = np.ravel(action)
        indices = [
            int(np.argmin(np.abs(self.bin_centers[i] - flat[i]))) for i in range(self.n_dims)
        ]
        if self.multidiscrete:
            return np.array(indices, dtype=np.int64)
        return int(np.ravel_multi_index(indices, tuple(int(b) for b in self.bins)))
