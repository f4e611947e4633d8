"""A stand-in single env holding only spaces, for building a single-env wrapper whose
function a vector wrapper then applies to every sub-env's observation, action or reward."""

from __future__ import annotations

from typing import Any

from protogym.core import Env
from protogym.spaces.space import Space

__all__ = ["SpacesOnlyEnv"]


class SpacesOnlyEnv(Env[Any, Any]):
    """Has a vector env's single spaces and metadata; it cannot be reset or stepped."""

    observation_space: Space[Any]
    action_space: Space[Any]
    metadata: dict[str, Any]

    def __init__(
        self,
        observation_space: Space[Any],
        action_space: Space[Any],
        metadata: Any = None,
    ) -> None:
        self.observation_space = observation_space
        self.action_space = action_space
        if metadata is not None:
            self.metadata = dict(metadata)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        raise RuntimeError("SpacesOnlyEnv only carries spaces for a vectorized wrapper")

    def step(self, action: Any) -> Any:
        raise RuntimeError("SpacesOnlyEnv only carries spaces for a vectorized wrapper")
