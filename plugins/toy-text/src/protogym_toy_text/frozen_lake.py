"""FrozenLake: cross a frozen lake from start (S) to goal (G) without falling into a hole (H).

Same ids, map layouts, transition probabilities, rewards and sampling as Gymnasium 1.4's
``FrozenLake-v1`` / ``FrozenLake8x8-v1``. The observation is ``row * ncol + col``; actions
are 0 left, 1 down, 2 right, 3 up. On a slippery lake the agent moves in the intended
direction with probability `success_rate` and to either side with half the rest.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym.utils.seeding import np_random as make_np_random
from protogym_toy_text._common import ansi, check_render_mode
from protogym_toy_text._tabular import Outcome, TabularEnv

if TYPE_CHECKING:
    import pygame

    from protogym.utils.play import KeyCombination

__all__ = [
    "DOWN",
    "LEFT",
    "MAPS",
    "RIGHT",
    "UP",
    "FrozenLakeEnv",
    "draw_state",
    "frame_size",
    "generate_random_map",
    "is_valid",
]

LEFT, DOWN, RIGHT, UP = 0, 1, 2, 3
_MOVES = ((0, -1), (1, 0), (0, 1), (-1, 0))
_ACTION_NAMES = ("Left", "Down", "Right", "Up")

MAPS: dict[str, list[str]] = {
    "4x4": ["SFFF", "FHFH", "FFFH", "HFFG"],
    "8x8": [
        "SFFFFFFF",
        "FFFFFFFF",
        "FFFHFFFF",
        "FFFFFHFF",
        "FFFHFFFF",
        "FHHFFFHF",
        "FHFFHFHF",
        "FFFHFFFG",
    ],
}


class _UnknownMapError(ValueError, KeyError):
    """A `map_name` FrozenLake has no map for; also a KeyError, as Gymnasium's look-up
    raises."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def _goal_reachable(board: Sequence[Sequence[str]]) -> bool:
    """Whether a 4-connected path of non-hole tiles leads from the top-left tile to a G."""
    size_r, size_c = len(board), len(board[0])
    seen = {(0, 0)}
    frontier = deque([(0, 0)])
    while frontier:
        row, col = frontier.popleft()
        for d_row, d_col in _MOVES:
            r, c = row + d_row, col + d_col
            if 0 <= r < size_r and 0 <= c < size_c and (r, c) not in seen:
                if board[r][c] == "G":
                    return True
                if board[r][c] != "H":
                    seen.add((r, c))
                    frontier.append((r, c))
    return False


def is_valid(board: Sequence[Sequence[str]], max_size: int) -> bool:
    """Whether the top-left `max_size` x `max_size` part of `board` has a path of non-hole
    tiles from its corner tile to a goal (Gymnasium's name for the check)."""
    return _goal_reachable([row[:max_size] for row in board[:max_size]])


def generate_random_map(size: int = 8, p: float = 0.8, seed: int | None = None) -> list[str]:
    """A random `size` x `size` map with a path from S to G; each tile is frozen w.p. `p`.

    Boards are drawn until one is solvable, with the same generator calls as Gymnasium, so a
    seed gives the same map in both libraries.
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 2:
        raise ValueError(f"generate_random_map needs an int size >= 2, got {size!r}")
    if not 0.0 < p <= 1.0:
        raise ValueError(
            f"generate_random_map needs a frozen-tile probability p in (0, 1], got {p!r}"
        )
    generator, _ = make_np_random(seed)
    while True:
        board = generator.choice(["F", "H"], (size, size), p=[p, 1 - p])
        board[0][0] = "S"
        board[-1][-1] = "G"
        if _goal_reachable(board.tolist()):
            return ["".join(row) for row in board]


def _normalise_desc(desc: Sequence[str] | Sequence[Sequence[str | bytes]]) -> list[str]:
    rows: list[str] = []
    for row in desc:
        if isinstance(row, str):
            rows.append(row)
        else:
            rows.append("".join(c.decode() if isinstance(c, bytes) else str(c) for c in row))
    if not rows or any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        raise ValueError(
            f"FrozenLake desc must be a non-empty list of equal-length rows, got {desc!r}"
        )
    bad = sorted({c for row in rows for c in row} - set("SFHG"))
    if bad:
        raise ValueError(
            f"FrozenLake desc may only use the tiles S, F, H and G, but it contains {bad}"
        )
    if not any("S" in row for row in rows):
        raise ValueError("FrozenLake desc needs at least one start tile 'S'")
    return rows


class FrozenLakeEnv(TabularEnv[float]):
    """Walk on a grid of ice to the goal; holes end the episode with no reward."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "render_fps": 4,
        "turn_based": True,  # `protogym play` steps once per key press
    }

    def __init__(
        self,
        render_mode: str | None = None,
        desc: Sequence[str] | Sequence[Sequence[str | bytes]] | None = None,
        map_name: str | None = "4x4",
        is_slippery: bool = True,
        success_rate: float = 1.0 / 3.0,
        reward_schedule: tuple[float, float, float] = (1, 0, 0),
    ) -> None:
        check_render_mode("FrozenLake", render_mode, self.metadata["render_modes"])
        if desc is None and map_name is None:
            desc = generate_random_map()
        elif desc is None:
            if map_name not in MAPS:
                raise _UnknownMapError(
                    f"FrozenLake has no map named {map_name!r}; use one of {list(MAPS)}, "
                    "pass desc=[...] or map_name=None for a random map"
                )
            desc = MAPS[map_name]
        if not 0.0 <= success_rate <= 1.0:
            raise ValueError(f"FrozenLake success_rate must be in [0, 1], got {success_rate!r}")
        if len(reward_schedule) != 3:
            raise ValueError(
                "FrozenLake reward_schedule must be (goal, hole, frozen) rewards, "
                f"got {reward_schedule!r}"
            )
        rows = _normalise_desc(desc)
        self.render_mode = render_mode
        self._lines = rows
        self.desc: NDArray[np.bytes_] = np.asarray(rows, dtype="c")
        self.nrow, self.ncol = nrow, ncol = len(rows), len(rows[0])
        self.is_slippery = is_slippery
        self.reward_range = (min(reward_schedule), max(reward_schedule))
        tile_reward = {"G": reward_schedule[0], "H": reward_schedule[1]}
        fail_rate = (1.0 - success_rate) / 2.0

        def land(row: int, col: int, action: int) -> tuple[int, float, bool]:
            d_row, d_col = _MOVES[action]
            r = min(max(row + d_row, 0), nrow - 1)
            c = min(max(col + d_col, 0), ncol - 1)
            tile = rows[r][c]
            return r * ncol + c, tile_reward.get(tile, reward_schedule[2]), tile in "GH"

        table: list[list[list[Outcome[float]]]] = []
        for row in range(nrow):
            for col in range(ncol):
                state = row * ncol + col
                if rows[row][col] in "GH":
                    table.append([[(1.0, state, 0, True)] for _ in range(4)])
                elif is_slippery:
                    table.append(
                        [
                            [
                                (success_rate if b == a else fail_rate, *land(row, col, b))
                                for b in ((a - 1) % 4, a, (a + 1) % 4)
                            ]
                            for a in range(4)
                        ]
                    )
                else:
                    table.append([[(1.0, *land(row, col, a))] for a in range(4)])
        # a frame's size and a grid cell's, in pixels
        self.window_size = frame_size(nrow, ncol)
        self.cell_size = (self.window_size[0] // ncol, self.window_size[1] // nrow)
        initial = (self.desc == b"S").astype(np.float64).ravel()
        self._set_table(table, initial / initial.sum())

    def get_keys_to_action(self) -> dict[KeyCombination, int]:
        """Keys for `protogym.utils.play`: WASD, and the arrow keys when pygame is there."""
        mapping: dict[KeyCombination, int] = {"a": LEFT, "s": DOWN, "d": RIGHT, "w": UP}
        try:
            import pygame
        except ImportError:
            return mapping
        mapping.update(
            {
                (pygame.K_LEFT,): LEFT,
                (pygame.K_DOWN,): DOWN,
                (pygame.K_RIGHT,): RIGHT,
                (pygame.K_UP,): UP,
            }
        )
        return mapping

    def _render_text(self) -> str:
        row, col = divmod(self._s, self.ncol)
        lines = list(self._lines)
        lines[row] = lines[row][:col] + ansi(lines[row][col], "41") + lines[row][col + 1 :]
        head = "\n" if self.lastaction is None else f"  ({_ACTION_NAMES[int(self.lastaction)]})\n"
        return head + "\n".join(lines) + "\n"

    def _render_frame(self) -> NDArray[np.uint8] | None:
        from protogym_toy_text import _render as draw

        if self._canvas is None:
            mode = self.render_mode or "rgb_array"
            self._canvas = draw.Canvas(
                mode, self.window_size, "Frozen Lake", self.metadata["render_fps"]
            )
        draw_state(self._canvas.surface(), self._lines, self._s)
        return self._canvas.present()


def frame_size(nrow: int, ncol: int) -> tuple[int, int]:
    """A frame's (width, height) in pixels for a map of `nrow` x `ncol` tiles: 64 pixels a
    tile, at most 512 a side."""
    return min(64 * ncol, 512), min(64 * nrow, 512)


def draw_state(surface: pygame.Surface, lines: Sequence[str], state: int) -> None:
    """Draw the map `lines` (rows of S, F, H, G) with the agent at `state` (`row * ncol +
    col`) on a surface of `frame_size(nrow, ncol)`. The functional FrozenLake draws with it
    too."""
    from protogym_toy_text import _render as draw

    pygame = draw.pygame
    nrow, ncol = len(lines), len(lines[0])
    cell_w, cell_h = surface.get_width() // ncol, surface.get_height() // nrow
    agent_row, agent_col = divmod(state, ncol)
    surface.fill((235, 245, 252))
    for row in range(nrow):
        for col in range(ncol):
            rect = pygame.Rect(col * cell_w, row * cell_h, cell_w, cell_h)
            tile = lines[row][col]
            pygame.draw.rect(surface, (200, 228, 247), rect)
            if tile == "H":
                pygame.draw.ellipse(
                    surface, (25, 55, 105), rect.inflate(-cell_w // 6, -cell_h // 4)
                )
            elif tile == "G":
                draw.draw_flag(surface, rect.inflate(-cell_w // 3, -cell_h // 3), (220, 40, 40))
            elif tile == "S":
                draw.draw_text(surface, "S", rect.center, cell_h // 2, (90, 110, 140), True)
            pygame.draw.rect(surface, (180, 200, 230), rect, 1)
    agent = pygame.Rect(agent_col * cell_w, agent_row * cell_h, cell_w, cell_h)
    fallen = lines[agent_row][agent_col] == "H"
    colour = (120, 120, 120) if fallen else (230, 120, 30)
    draw.draw_figure(surface, agent.inflate(-cell_w // 2, -cell_h // 4), colour)
