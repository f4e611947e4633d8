"""Small envs for the core tests: one structural (inherits nothing), one subclassed."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

import protogym
from protogym.spaces import Box, Discrete


class StructuralWalk:
    """A 1-D random walk that is an env by its members alone."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, size: int = 5, render_mode: str | None = None) -> None:
        self.size = size
        self.render_mode = render_mode
        self.action_space = Discrete(2)
        self.observation_space = Box(0, size, (1,), np.int64)
        self.position = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.int64], dict[str, Any]]:
        self.position = 0 if options is None else int(options.get("start", 0))
        return np.array([self.position]), {"start": self.position}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.int64], float, bool, bool, dict[str, Any]]:
        self.position = max(0, min(self.size, self.position + (1 if action == 1 else -1)))
        at_end = self.position == self.size
        return np.array([self.position]), 1.0 if at_end else 0.0, at_end, False, {}

    def render(self) -> str | NDArray[np.uint8]:
        if self.render_mode == "rgb_array":
            frame = np.zeros((4, self.size + 1, 3), np.uint8)
            frame[:, self.position] = 255
            return frame
        return "." * self.position + "o" + "." * (self.size - self.position)

    def close(self) -> None:
        pass


class SeededCoin(protogym.Env[NDArray[np.float64], int | np.integer[Any]]):
    """Draws its start from `np_random`, so seeding is observable."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}
    action_space: Discrete
    observation_space: Box
    render_mode: str | None

    def __init__(self, render_mode: str | None = None) -> None:
        self.action_space = Discrete(2)
        self.observation_space = Box(0.0, 1.0, (1,), np.float64)
        self.render_mode = render_mode
        self.closed = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float64], dict[str, Any]]:
        super().reset(seed=seed)
        return np.array([self.np_random.random()]), {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.float64], float, bool, bool, dict[str, Any]]:
        return np.array([self.np_random.random()]), float(action), False, False, {}

    def close(self) -> None:
        self.closed += 1


class LegacyWalk:
    """An old-API env: 4-tuple step, `reset()` returning only the observation, `seed()`."""

    metadata: ClassVar[dict[str, Any]] = {"render.modes": ["ansi"]}

    def __init__(self, size: int = 3) -> None:
        self.size = size
        self.action_space = Discrete(2)
        self.observation_space = Discrete(size + 1)
        self.seeded: int | None = None
        self.position = 0

    def seed(self, seed: int | None = None) -> list[int | None]:
        self.seeded = seed
        return [seed]

    def reset(self) -> int:
        self.position = 0
        return self.position

    def step(self, action: int) -> tuple[int, float, bool, dict[str, Any]]:
        self.position += int(action)
        done = self.position >= self.size
        return self.position, 1.0, done, {"position": self.position}

    def render(self, mode: str = "ansi") -> str:
        return f"{mode}:{self.position}"

    def close(self) -> None:
        pass


class LegacyWithInfo(LegacyWalk):
    """A gym-0.25 env: `reset(seed=, return_info=)`, and TimeLimit.truncated in its info."""

    def reset(  # type: ignore[override]
        self, *, seed: int | None = None, return_info: bool = False, options: Any = None
    ) -> int | tuple[int, dict[str, Any]]:
        self.seeded = seed
        self.position = 0
        return (0, {"fresh": True}) if return_info else 0

    def step(self, action: int) -> tuple[int, float, bool, dict[str, Any]]:
        obs, reward, done, info = super().step(action)
        if self.position == 2:
            return obs, reward, True, {**info, "TimeLimit.truncated": True}
        return obs, reward, done, info
