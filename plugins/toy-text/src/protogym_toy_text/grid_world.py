"""GridWorld: walk to a random target on a square grid. The worked example of writing an env.

The environment of the deep-dive article (and `docs/writing-an-env.md`): the agent starts in
the corner (0, 0) and the target is drawn uniformly on the grid at reset. Observations are a
dict of two int64 coordinate arrays, ``{"agent": [x, y], "target": [x, y]}``; actions are 0
up (+y), 1 right (+x), 2 down (-y), 3 left (-x), clipped at the walls. Reaching the target
ends the episode with reward 1; every other step gives 0. `info["distance"]` is the
Manhattan distance to the target.
"""

from __future__ import annotations

# --8<-- [start:header]
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.error import InvalidAction, ResetNeeded
from protogym.spaces import Box, Dict, Discrete
from protogym_toy_text._common import check_render_mode, warn_without_render_mode

if TYPE_CHECKING:
    from protogym.utils.play import KeyCombination
    from protogym_toy_text._render import Canvas

__all__ = ["DOWN", "LEFT", "RIGHT", "UP", "GridWorldEnv"]

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
_DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))

Observation = dict[str, NDArray[np.int64]]
# --8<-- [end:header]


# --8<-- [start:class]
class GridWorldEnv(Env[Observation, int | np.integer[Any]]):
    """Reach the target square; the episode ends there with reward 1."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "rgb_array", "ansi"],
        "render_fps": 4,
        "turn_based": True,  # `protogym play` steps once per key press
    }
    action_space: Discrete
    observation_space: Dict
    render_mode: str | None
    # --8<-- [end:class]

    # --8<-- [start:init]
    def __init__(self, size: int = 5, render_mode: str | None = None) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 2:
            raise ValueError(f"GridWorld size must be an int >= 2, got {size!r}")
        check_render_mode("GridWorld", render_mode, self.metadata["render_modes"])
        self.size = size
        self.render_mode = render_mode
        self.observation_space = Dict(
            {
                "agent": Box(0, size - 1, shape=(2,), dtype=np.int64),
                "target": Box(0, size - 1, shape=(2,), dtype=np.int64),
            }
        )
        self.action_space = Discrete(4)
        # Every cell's coordinates as a ready array: observations are copies of these, so a
        # step allocates two tiny arrays and builds no Python lists.
        self._cells = [np.array([x, y], dtype=np.int64) for x in range(size) for y in range(size)]
        self._agent: tuple[int, int] | None = None
        self._target = (size - 1, size - 1)
        self._human = render_mode == "human"
        self._canvas: Canvas | None = None
        # --8<-- [end:init]

    # --8<-- [start:observation]
    def _observation(self) -> Observation:
        assert self._agent is not None
        size = self.size
        return {
            "agent": self._cells[self._agent[0] * size + self._agent[1]].copy(),
            "target": self._cells[self._target[0] * size + self._target[1]].copy(),
        }

    def _info(self) -> dict[str, Any]:
        assert self._agent is not None
        distance = abs(self._agent[0] - self._target[0]) + abs(self._agent[1] - self._target[1])
        return {"distance": float(distance)}
        # --8<-- [end:observation]

    # --8<-- [start:reset]
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._agent = (0, 0)
        x, y = self.np_random.integers(0, self.size, size=2)
        self._target = (int(x), int(y))
        if self._human:
            self.render()
        return self._observation(), self._info()
        # --8<-- [end:reset]

    # --8<-- [start:step]
    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        agent = self._agent
        if agent is None:
            raise ResetNeeded(
                "GridWorldEnv.step() was called before reset(); call env.reset() first"
            )
        try:
            if not 0 <= action < 4:
                raise IndexError
            dx, dy = _DIRECTIONS[action]
        except (TypeError, IndexError, ValueError):
            raise InvalidAction(
                f"GridWorldEnv.step got the invalid action {action!r}: the action space is "
                f"{self.action_space}, so pass 0 (up), 1 (right), 2 (down) or 3 (left)"
            ) from None
        last = self.size - 1
        self._agent = agent = (min(max(agent[0] + dx, 0), last), min(max(agent[1] + dy, 0), last))
        terminated = agent == self._target
        if self._human:
            self.render()
        return self._observation(), 1.0 if terminated else 0.0, terminated, False, self._info()
        # --8<-- [end:step]

    # --8<-- [start:keys]
    def get_keys_to_action(self) -> dict[KeyCombination, int]:
        """Keys for `protogym.utils.play`: WASD, and the arrow keys when pygame is there."""
        mapping: dict[KeyCombination, int] = {"w": UP, "d": RIGHT, "s": DOWN, "a": LEFT}
        try:
            import pygame
        except ImportError:
            return mapping
        mapping.update(
            {
                (pygame.K_UP,): UP,
                (pygame.K_RIGHT,): RIGHT,
                (pygame.K_DOWN,): DOWN,
                (pygame.K_LEFT,): LEFT,
            }
        )
        return mapping
        # --8<-- [end:keys]

    # --8<-- [start:render]
    def render(self) -> str | NDArray[np.uint8] | None:
        if self.render_mode is None:
            warn_without_render_mode(self.spec.id if self.spec is not None else "GridWorld")
            return None
        if self._agent is None:
            raise ResetNeeded(
                "GridWorldEnv.render() was called before reset(); call env.reset() first"
            )
        if self.render_mode == "ansi":
            return self._render_text()
        return self._render_frame()
        # --8<-- [end:render]

    def _render_text(self) -> str:
        """One line per row, top row (largest y) first: A agent, T target, * both."""
        lines = []
        for y in reversed(range(self.size)):
            row = []
            for x in range(self.size):
                here = (x, y)
                if here == self._agent:
                    row.append("*" if here == self._target else "A")
                else:
                    row.append("T" if here == self._target else ".")
            lines.append(" ".join(row))
        return "\n".join(lines) + "\n"

    def _render_frame(self) -> NDArray[np.uint8] | None:
        from protogym_toy_text import _render as draw

        pygame = draw.pygame
        if self._canvas is None:
            mode = self.render_mode or "rgb_array"
            self._canvas = draw.Canvas(mode, (512, 512), "GridWorld", self.metadata["render_fps"])
        surface = self._canvas.surface()
        surface.fill((255, 255, 255))
        cell = 512 / self.size

        def box(x: int, y: int) -> pygame.Rect:
            top = (self.size - 1 - y) * cell
            return pygame.Rect(round(x * cell), round(top), round(cell), round(cell))

        assert self._agent is not None
        pygame.draw.rect(surface, (230, 40, 40), box(*self._target))
        agent = box(*self._agent)
        pygame.draw.circle(surface, (40, 60, 230), agent.center, round(cell / 3))
        for k in range(self.size + 1):
            offset = round(k * cell)
            pygame.draw.line(surface, (0, 0, 0), (0, offset), (512, offset), 3)
            pygame.draw.line(surface, (0, 0, 0), (offset, 0), (offset, 512), 3)
        return self._canvas.present()

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None
