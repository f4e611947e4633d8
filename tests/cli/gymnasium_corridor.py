"""A stand-in for a third-party Gymnasium package, as highway-env is: importing it registers
its id in Gymnasium's registry, so protogym reaches it as
``gymnasium:tests.cli.gymnasium_corridor:cli-fixture/Corridor-v0``."""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from numpy.typing import NDArray

import protogym

ENV_ID = "cli-fixture/Corridor-v0"
PROTOGYM_ID = f"gymnasium:{__name__}:{ENV_ID}"


class Corridor(gymnasium.Env[np.int64, np.int64]):
    """Walk a corridor of `length` cells from the left end; reaching the right end pays 1.

    Action 1 steps right, 0 stays.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's type

    def __init__(self, length: int = 5, render_mode: str | None = None) -> None:
        self.length = length
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Discrete(length)
        self.action_space = gymnasium.spaces.Discrete(2)
        self.position = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.int64, dict[str, Any]]:
        super().reset(seed=seed)
        self.position = 0
        return np.int64(self.position), {}

    def step(self, action: np.int64) -> tuple[np.int64, float, bool, bool, dict[str, Any]]:
        self.position = min(self.position + int(action), self.length - 1)
        arrived = self.position == self.length - 1
        return np.int64(self.position), float(arrived), arrived, False, {}

    def render(self) -> NDArray[np.uint8]:
        frame = np.zeros((16, 16 * self.length, 3), dtype=np.uint8)
        frame[:, 16 * self.position : 16 * (self.position + 1)] = 255
        return frame


gymnasium.register(ENV_ID, entry_point=f"{__name__}:Corridor", max_episode_steps=20)


class ProtogymCorridor:
    """The same corridor as a structural protogym env (no base class), for the plain,
    namespaced and module:Class forms of a target."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, length: int = 5, render_mode: str | None = None) -> None:
        self.length = length
        self.render_mode = render_mode
        self.observation_space = protogym.spaces.Discrete(length)
        self.action_space = protogym.spaces.Discrete(2)
        self.position = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.int64, dict[str, Any]]:
        self.position = 0
        return np.int64(self.position), {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[np.int64, float, bool, bool, dict[str, Any]]:
        self.position = min(self.position + int(action), self.length - 1)
        arrived = self.position == self.length - 1
        return np.int64(self.position), float(arrived), arrived, False, {}

    def render(self) -> NDArray[np.uint8]:
        frame = np.zeros((16, 16 * self.length, 3), dtype=np.uint8)
        frame[:, 16 * self.position : 16 * (self.position + 1)] = 255
        return frame

    def close(self) -> None:
        """Nothing to release."""
