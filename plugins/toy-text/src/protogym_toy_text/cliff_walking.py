"""CliffWalking: walk along the edge of a cliff from the bottom-left to the bottom-right corner.

Example 6.6 of Sutton and Barto, with Gymnasium 1.4's dynamics: a 4 x 12 grid, start at
(3, 0) (state 36), goal at (3, 11) (state 47), a cliff along (3, 1..10). Every step costs
-1; stepping onto the cliff costs -100 and sends the agent back to the start without ending
the episode. Actions: 0 up, 1 right, 2 down, 3 left. With ``is_slippery=True``
(`CliffWalkingSlippery-v1`) the agent goes in the intended direction or either
perpendicular one with probability 1/3 each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym_toy_text._common import check_render_mode
from protogym_toy_text._tabular import Outcome, TabularEnv

if TYPE_CHECKING:
    import pygame

    from protogym.utils.play import KeyCombination

__all__ = ["DOWN", "FRAME_SIZE", "LEFT", "RIGHT", "UP", "CliffWalkingEnv", "draw_state"]

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
_MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))
_ROWS, _COLS = 4, 12
_START = (_ROWS - 1) * _COLS
_GOAL = _ROWS * _COLS - 1
_CELL = 64
FRAME_SIZE = (_COLS * _CELL, _ROWS * _CELL)
"""A frame's (width, height) in pixels."""


def _is_cliff(row: int, col: int) -> bool:
    return row == _ROWS - 1 and 0 < col < _COLS - 1


class CliffWalkingEnv(TabularEnv[int]):
    """Reach the far corner along the cliff edge; falling costs -100 and restarts."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "rgb_array", "ansi"],
        "render_fps": 4,
        "turn_based": True,  # `protogym play` steps once per key press
    }

    def __init__(self, render_mode: str | None = None, is_slippery: bool = False) -> None:
        check_render_mode("CliffWalking", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.is_slippery = is_slippery
        self.shape = (_ROWS, _COLS)
        self.start_state_index = _START
        self.nS = _ROWS * _COLS  # the numbers of states and actions, named as in Gymnasium
        self.nA = 4
        self.cell_size = (_CELL, _CELL)  # of a grid cell in a frame, in pixels
        self.window_size = FRAME_SIZE

        def land(row: int, col: int, action: int, prob: float) -> Outcome[int]:
            d_row, d_col = _MOVES[action]
            r = min(max(row + d_row, 0), _ROWS - 1)
            c = min(max(col + d_col, 0), _COLS - 1)
            if _is_cliff(r, c):
                return (prob, _START, -100, False)
            state = r * _COLS + c
            return (prob, state, -1, state == _GOAL)

        table: list[list[list[Outcome[int]]]] = []
        for state in range(_ROWS * _COLS):
            row, col = divmod(state, _COLS)
            if is_slippery:
                table.append(
                    [
                        [land(row, col, b, 1 / 3) for b in ((a - 1) % 4, a, (a + 1) % 4)]
                        for a in range(4)
                    ]
                )
            else:
                table.append([[land(row, col, a, 1.0)] for a in range(4)])
        initial = np.zeros(_ROWS * _COLS)
        initial[_START] = 1.0
        self._set_table(table, initial)

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

    def _render_text(self) -> str:
        lines = []
        for row in range(_ROWS):
            cells = []
            for col in range(_COLS):
                state = row * _COLS + col
                if state == self._s:
                    cells.append("x")
                elif state == _GOAL:
                    cells.append("T")
                elif _is_cliff(row, col):
                    cells.append("C")
                else:
                    cells.append("o")
            lines.append("  ".join(cells) + "\n")
        return "".join(lines) + "\n"

    def _render_frame(self) -> NDArray[np.uint8] | None:
        from protogym_toy_text import _render as draw

        if self._canvas is None:
            mode = self.render_mode or "rgb_array"
            self._canvas = draw.Canvas(
                mode, self.window_size, "CliffWalking", self.metadata["render_fps"]
            )
        draw_state(self._canvas.surface(), self._s)
        return self._canvas.present()


def draw_state(surface: pygame.Surface, state: int) -> None:
    """Draw the agent at `state` (a cell index) on a `FRAME_SIZE` surface, with the start,
    the goal's flag and the cliff. The functional CliffWalking draws with it too."""
    from protogym_toy_text import _render as draw

    pygame = draw.pygame
    surface.fill((150, 200, 110))
    for cell in range(_ROWS * _COLS):
        row, col = divmod(cell, _COLS)
        rect = pygame.Rect(col * _CELL, row * _CELL, _CELL, _CELL)
        if _is_cliff(row, col):
            pygame.draw.rect(surface, (95, 80, 70), rect)
            for k in range(3):
                y = rect.top + 14 + 18 * k
                pygame.draw.line(surface, (70, 58, 50), (rect.left, y), (rect.right, y), 3)
        else:
            pygame.draw.rect(surface, (150, 200, 110), rect)
        if cell == _START:
            draw.draw_text(surface, "S", rect.center, 36, (60, 90, 40), True)
        elif cell == _GOAL:
            draw.draw_flag(surface, rect.inflate(-24, -20), (220, 40, 40))
        pygame.draw.rect(surface, (120, 170, 90), rect, 1)
    row, col = divmod(state, _COLS)
    agent = pygame.Rect(col * _CELL, row * _CELL, _CELL, _CELL).inflate(-32, -16)
    draw.draw_figure(surface, agent, (40, 70, 200))
