"""`NormalizeObservation` for vector envs: running statistics over whole batches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.error import InvalidBound
from protogym.spaces import Box, batch_space
from protogym.vector.sync_vector_env import reset_mask_of
from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers.base import ActT, VectorObservationWrapper
from protogym.wrappers.utils import RunningMeanStd

__all__ = ["NormalizeObservation"]


class NormalizeObservation(VectorObservationWrapper[NDArray[np.float32], ActT, NDArray[Any]]):
    """Standardises observations to about zero mean and unit variance, as float32.

    Statistics are updated from every batch unless `update_running_mean` is set to False
    (freeze them for evaluation). The observation space becomes an unbounded float32 `Box`.
    Same-step final observations are normalised with the current statistics and not counted
    again. A partial reset (``reset_mask``) counts only the observations of the sub-envs it
    reset: the others' rows are the ones the last step returned, already counted (Gymnasium
    refuses a partial reset here).
    """

    def __init__(self, env: VectorEnv[NDArray[Any], ActT, Any], epsilon: float = 1e-8) -> None:
        super().__init__(env)
        if not epsilon > 0:
            raise InvalidBound(f"NormalizeObservation needs epsilon > 0, got {epsilon!r}")
        shape = env.single_observation_space.shape
        if shape is None:
            raise ValueError(
                "NormalizeObservation needs an array observation space (with a shape), got "
                f"{env.single_observation_space}"
            )
        self.single_observation_space = Box(-np.inf, np.inf, shape=shape, dtype=np.float32)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.obs_rms = RunningMeanStd(shape=shape, dtype=np.float32)
        self.epsilon = epsilon
        self.update_running_mean = True

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        mask = reset_mask_of(options, self.num_envs)
        observations, infos = self.env.reset(seed=seed, options=options)
        if self.update_running_mean:
            self.obs_rms.update(observations if mask is None else observations[mask])
        return self._normalise(observations), infos

    def observations(self, observations: NDArray[Any]) -> NDArray[np.float32]:
        if self.update_running_mean:
            self.obs_rms.update(observations)
        return self._normalise(observations)

    def final_observations(
        self, final_obs: np.ndarray[Any, Any], ended: np.ndarray[Any, Any], observations: Any
    ) -> np.ndarray[Any, Any]:
        result = np.empty(self.num_envs, dtype=object)
        for index in np.flatnonzero(ended).tolist():
            result[index] = self._normalise(np.asarray(final_obs[index]))
        return result

    def _normalise(self, observations: NDArray[Any]) -> NDArray[np.float32]:
        rms = self.obs_rms
        scaled = (observations - rms.mean) / np.sqrt(rms.var + self.epsilon)
        return scaled.astype(np.float32)  # type: ignore[no-any-return]
