"""Observation wrappers for vector envs: a function over whole batches (`TransformObservation`)
or a single-env observation wrapper applied to every sub-env (`VectorizeTransformObservation`
and the named wrappers built on it, which mean exactly what their single-env namesakes mean).

Where the single-env wrapper's function maps a whole batch the same way (it works
elementwise or on trailing axes), it is applied to the batch at once; otherwise once per
sub-env, and the results are batched again.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from protogym.spaces import Box, batch_space, concatenate, create_empty_array, iterate
from protogym.spaces.space import Space
from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers._single import SpacesOnlyEnv
from protogym.vector.wrappers.base import ActT, ObsT, VectorObservationWrapper, WObsT
from protogym.wrappers import transform_observation as single

__all__ = [
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformObservation",
    "VectorizeTransformObservation",
]


class TransformObservation(VectorObservationWrapper[WObsT, ActT, ObsT]):
    """Applies `func` to every observation batch; pass the new spaces if it changes them.

    With only `single_observation_space`, the batched space is made from it; with only
    `observation_space`, the single space stays the inner env's, and a warning says so when
    the two no longer match.
    """

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        func: Callable[[ObsT], WObsT],
        observation_space: Space[WObsT] | None = None,
        single_observation_space: Space[Any] | None = None,
    ) -> None:
        super().__init__(env)
        if not callable(func):
            raise TypeError(f"TransformObservation needs a callable func, got {func!r}")
        self.func = func
        if single_observation_space is not None:
            self.single_observation_space = single_observation_space
            if observation_space is None:
                observation_space = batch_space(single_observation_space, self.num_envs)
        if observation_space is not None:
            self.observation_space = observation_space
        _warn_if_unbatched("TransformObservation", "observation", self.observation_space,
                           self.single_observation_space, self.num_envs)

    def observations(self, observations: ObsT) -> WObsT:
        return self.func(observations)


def _warn_if_unbatched(
    owner: str, role: str, batched: Space[Any], single: Space[Any], num_envs: int
) -> None:
    if batched != batch_space(single, num_envs):
        warnings.warn(
            f"{owner}: the {role} space and the batched single {role} space don't match as "
            f"expected: {role}_space is {batched}, but batching single_{role}_space {single} "
            f"gives {batch_space(single, num_envs)}; pass single_{role}_space too",
            UserWarning,
            stacklevel=3,
        )


class VectorizeTransformObservation(VectorObservationWrapper[WObsT, ActT, ObsT]):
    """Applies a single-env observation wrapper (`wrapper`, a `TransformObservation`
    subclass, built with `kwargs` over the sub-envs' spaces) to every sub-env's observation.

    `wrapper` is the single-env wrapper instance; its `observation_space` is this wrapper's
    `single_observation_space`. Same-step final observations go through it one by one.
    """

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        wrapper: type[single.TransformObservation[Any, Any, Any]],
        **kwargs: Any,
    ) -> None:
        super().__init__(env)
        stand_in = SpacesOnlyEnv(env.single_observation_space, env.single_action_space,
                                 env.metadata)
        self.wrapper = wrapper(stand_in, **kwargs)
        self.single_observation_space = self.wrapper.observation_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        # Set by subclasses whose single-env function maps a whole batch the same way.
        self._batch_func: Callable[[Any], Any] | None = None

    def observations(self, observations: ObsT) -> WObsT:
        if self._batch_func is not None:
            return self._batch_func(observations)  # type: ignore[no-any-return]
        func = self.wrapper.func
        items = [func(item) for item in iterate(self.env.observation_space, observations)]
        empty = create_empty_array(self.single_observation_space, self.num_envs)
        return concatenate(self.single_observation_space, items, empty)  # type: ignore[no-any-return]

    def final_observations(
        self, final_obs: np.ndarray[Any, Any], ended: np.ndarray[Any, Any], observations: ObsT
    ) -> np.ndarray[Any, Any]:
        result = np.empty(self.num_envs, dtype=object)
        for index in np.flatnonzero(ended).tolist():
            result[index] = self.wrapper.func(final_obs[index])
        return result


class FilterObservation(VectorizeTransformObservation[Any, ActT, Any]):
    """Keeps only `filter_keys` of `Dict` observations (or those indices of `Tuple` ones)."""

    def __init__(self, env: VectorEnv[Any, ActT, Any], filter_keys: Sequence[str | int]) -> None:
        super().__init__(env, single.FilterObservation, filter_keys=filter_keys)
        self.filter_keys = list(filter_keys)
        self._batch_func = self.wrapper.func  # a batch of dicts/tuples is a dict/tuple


class FlattenObservation(VectorizeTransformObservation[NDArray[Any], ActT, Any]):
    """Flattens each sub-env's observation into one row: a `(num_envs, flatdim)` array."""

    def __init__(self, env: VectorEnv[Any, ActT, Any]) -> None:
        super().__init__(env, single.FlattenObservation)
        if isinstance(env.single_observation_space, Box):
            num_envs = self.num_envs
            self._batch_func = lambda batch: np.reshape(batch, (num_envs, -1))


class GrayscaleObservation(VectorizeTransformObservation[NDArray[np.uint8], ActT, Any]):
    """Converts RGB uint8 images to luminance, keeping a channel axis if `keep_dim`."""

    def __init__(self, env: VectorEnv[Any, ActT, Any], keep_dim: bool = False) -> None:
        super().__init__(env, single.GrayscaleObservation, keep_dim=keep_dim)
        self.keep_dim = keep_dim
        self._batch_func = self.wrapper.func  # weights the last axis only


class ResizeObservation(VectorizeTransformObservation[NDArray[np.uint8], ActT, Any]):
    """Resizes uint8 images to `shape = (height, width)` by area averaging."""

    def __init__(self, env: VectorEnv[Any, ActT, Any], shape: tuple[int, ...]) -> None:
        super().__init__(env, single.ResizeObservation, shape=shape)
        self.shape = cast("single.ResizeObservation[Any]", self.wrapper).shape


class ReshapeObservation(VectorizeTransformObservation[NDArray[Any], ActT, Any]):
    """Reshapes each sub-env's `Box` observation to `shape` (one entry may be -1)."""

    def __init__(self, env: VectorEnv[Any, ActT, Any], shape: int | tuple[int, ...]) -> None:
        super().__init__(env, single.ReshapeObservation, shape=shape)
        self.shape = cast("single.ReshapeObservation[Any]", self.wrapper).shape
        batch_shape = (self.num_envs, *self.shape)
        self._batch_func = lambda batch: np.reshape(batch, batch_shape)


class RescaleObservation(VectorizeTransformObservation[NDArray[Any], ActT, Any]):
    """Maps `Box` observations affinely onto `[min_obs, max_obs]`."""

    def __init__(
        self, env: VectorEnv[Any, ActT, Any], min_obs: ArrayLike, max_obs: ArrayLike
    ) -> None:
        super().__init__(env, single.RescaleObservation, min_obs=min_obs, max_obs=max_obs)
        self.min_obs = min_obs
        self.max_obs = max_obs
        self._batch_func = self.wrapper.func  # elementwise, broadcast over the batch axis


class DtypeObservation(VectorizeTransformObservation[Any, ActT, Any]):
    """Casts observations of a `Box`, `Discrete`, `MultiDiscrete` or `MultiBinary` to `dtype`."""

    def __init__(self, env: VectorEnv[Any, ActT, Any], dtype: DTypeLike) -> None:
        super().__init__(env, single.DtypeObservation, dtype=dtype)
        self.dtype = cast("single.DtypeObservation[Any]", self.wrapper).dtype
        target = self.dtype
        self._batch_func = lambda batch: np.asarray(batch).astype(target)
