"""Taxi: drive a cab on a 5 x 5 grid, pick a passenger up and drop them at their destination.

Dietterich's domain with Gymnasium's dynamics. 500 states encode
``((taxi_row * 5 + taxi_col) * 5 + passenger) * 4 + destination``, where ``passenger`` is one
of the four pads R, G, Y, B (0-3) or 4 for "in the cab". Actions: 0 south, 1 north, 2 east,
3 west, 4 pick up, 5 drop off. Each step costs -1, a wrong pick-up or drop-off -10, the
delivery +20 and ends the episode. `info` carries the transition probability and the
``action_mask`` of actions that change the state.

`TaxiEnv` is ``Taxi-v4`` (Gymnasium 1.4): ``is_rainy`` makes the cab drift sideways with
probability ``(1 - rainy_probability) / 2`` each way, and ``fickle_passenger`` makes the
passenger, with probability ``fickle_probability``, change destination once, on the first move
after boarding. `TaxiV3Env` is ``Taxi-v3`` as Gymnasium 1.2 shipped it: identical without
those options, and with their original (since corrected) rain model when they are enabled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym_toy_text._common import Action, ansi, check_render_mode
from protogym_toy_text._tabular import Outcome, TabularEnv

if TYPE_CHECKING:
    import pygame

    from protogym.utils.play import KeyCombination

__all__ = ["FRAME_SIZE", "MAP", "TaxiEnv", "TaxiV3Env", "draw_state"]

MAP = [
    "+---------+",
    "|R: | : :G|",
    "| : | : : |",
    "| : : : : |",
    "| | : | : |",
    "|Y| : |B: |",
    "+---------+",
]
_LOCS = ((0, 0), (0, 4), (4, 0), (4, 3))
_LOC_COLOURS = ((220, 50, 50), (40, 170, 60), (230, 190, 30), (50, 90, 220))
_LOC_LETTERS = "RGYB"
_SIZE = 5
_N_STATES = 500
_ACTION_NAMES = ("South", "North", "East", "West", "Pickup", "Dropoff")
_CELL_W, _CELL_H, _MARGIN = 96, 72, 16
FRAME_SIZE = (_SIZE * _CELL_W + 2 * _MARGIN, _SIZE * _CELL_H + 2 * _MARGIN)
"""A frame's (width, height) in pixels."""

Position = tuple[int, int]


def encode(taxi_row: int, taxi_col: int, passenger: int, destination: int) -> int:
    """The state index of a (taxi row, taxi column, passenger, destination) tuple."""
    return ((taxi_row * _SIZE + taxi_col) * _SIZE + passenger) * 4 + destination


def decode(state: int) -> tuple[int, int, int, int]:
    """The (taxi row, taxi column, passenger, destination) tuple of a state index."""
    rest, destination = divmod(state, 4)
    rest, passenger = divmod(rest, _SIZE)
    taxi_row, taxi_col = divmod(rest, _SIZE)
    return taxi_row, taxi_col, passenger, destination


def _east_open(row: int, col: int) -> bool:
    """No wall between (row, col) and (row, col + 1); the outer frame counts as a wall."""
    return MAP[1 + row][2 * col + 2] == ":"


def _west_open(row: int, col: int) -> bool:
    return MAP[1 + row][2 * col] == ":"


def _clamp(value: int) -> int:
    return min(max(value, 0), _SIZE - 1)


class TaxiEnv(TabularEnv[int]):
    """Taxi-v4: pick the passenger up and drop them off at the destination pad."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "render_fps": 4,
        "turn_based": True,  # `protogym play` steps once per key press
    }

    def __init__(
        self,
        render_mode: str | None = None,
        is_rainy: bool = False,
        fickle_passenger: bool = False,
        rainy_probability: float = 0.8,
        fickle_probability: float = 0.3,
    ) -> None:
        check_render_mode("Taxi", render_mode, self.metadata["render_modes"])
        for name, value in (
            ("rainy_probability", rainy_probability),
            ("fickle_probability", fickle_probability),
        ):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"Taxi {name} must be in [0, 1], got {value!r}")
        self.render_mode = render_mode
        self.desc: NDArray[np.bytes_] = np.asarray(MAP, dtype="c")
        self.locs = list(_LOCS)
        self.locs_colors = list(_LOC_COLOURS)  # each pad's colour in frames
        self.max_row = self.max_col = _SIZE - 1
        self.cell_size = (_CELL_W, _CELL_H)  # of a grid cell in a frame, in pixels
        self.is_rainy = is_rainy
        self.rainy_probability = rainy_probability
        self.fickle_passenger = fickle_passenger
        self.fickle_probability = fickle_probability
        self.fickle_step = False

        table: list[list[list[Outcome[int]]]] = []
        initial = np.zeros(_N_STATES)
        for state in range(_N_STATES):
            row, col, passenger, destination = decode(state)
            if passenger < 4 and passenger != destination:
                initial[state] += 1
            table.append(
                [self._outcomes(row, col, passenger, destination, action) for action in range(6)]
            )
        self._decoded = tuple(decode(state) for state in range(_N_STATES))
        self._masks = tuple(self.action_mask(state) for state in range(_N_STATES))
        self._set_table(table, initial / initial.sum())

    # -- dynamics ---------------------------------------------------------------------------

    def _pickup(self, row: int, col: int, passenger: int) -> tuple[int, int]:
        """(passenger after a pick-up, reward)."""
        if passenger < 4 and (row, col) == _LOCS[passenger]:
            return 4, -1
        return passenger, -10

    def _dropoff(
        self, row: int, col: int, passenger: int, destination: int
    ) -> tuple[int, int, bool]:
        """(passenger after a drop-off, reward, terminated)."""
        if passenger == 4 and (row, col) == _LOCS[destination]:
            return destination, 20, True
        if passenger == 4 and (row, col) in _LOCS:
            return _LOCS.index((row, col)), -1, False
        return passenger, -10, False

    def _outcomes(
        self, row: int, col: int, passenger: int, destination: int, action: int
    ) -> list[Outcome[int]]:
        if action == 4:
            passenger, reward = self._pickup(row, col, passenger)
            return [(1.0, encode(row, col, passenger, destination), reward, False)]
        if action == 5:
            passenger, reward, done = self._dropoff(row, col, passenger, destination)
            return [(1.0, encode(row, col, passenger, destination), reward, done)]
        if not self.is_rainy:
            new_row, new_col = row, col
            if action == 0:
                new_row = min(row + 1, _SIZE - 1)
            elif action == 1:
                new_row = max(row - 1, 0)
            elif action == 2 and _east_open(row, col):
                new_col = min(col + 1, _SIZE - 1)
            elif action == 3 and _west_open(row, col):
                new_col = max(col - 1, 0)
            return [(1.0, encode(new_row, new_col, passenger, destination), -1, False)]
        return [
            (prob, encode(*position, passenger, destination), -1, False)
            for prob, position in self._rainy_moves(row, col, action)
        ]

    def _rainy_moves(self, row: int, col: int, action: int) -> list[tuple[float, Position]]:
        """(probability, position) of the intended cell and the two lateral ones.

        Lateral moves follow the heading (south: left is east; north: left is west; east:
        left is north; west: left is south). A blocked move drifts nowhere.
        """
        lateral = (1.0 - self.rainy_probability) / 2.0
        forward, left, right = _V4_HEADINGS[action]
        possible = (
            (action == 0 and row < _SIZE - 1)
            or (action == 1 and row > 0)
            or (action == 2 and _east_open(row, col))
            or (action == 3 and _west_open(row, col))
        )
        here = (row, col)
        if not possible:
            return [(self.rainy_probability, here), (lateral, here), (lateral, here)]
        ahead = (_clamp(row + forward[0]), _clamp(col + forward[1]))
        return [
            (self.rainy_probability, ahead),
            (lateral, self._drift(row, col, left)),
            (lateral, self._drift(row, col, right)),
        ]

    @staticmethod
    def _drift(row: int, col: int, move: Position) -> Position:
        new_row, new_col = _clamp(row + move[0]), _clamp(col + move[1])
        if move[1] == 1 and MAP[1 + new_row][2 * new_col] != ":":
            return row, col
        if move[1] == -1 and MAP[1 + new_row][2 * new_col + 2] != ":":
            return row, col
        return new_row, new_col

    def encode(self, taxi_row: int, taxi_col: int, pass_loc: int, dest_idx: int) -> int:
        """The state index of a (taxi row, taxi column, passenger, destination) tuple."""
        return encode(taxi_row, taxi_col, pass_loc, dest_idx)

    def decode(self, i: int) -> tuple[int, int, int, int]:
        """The (taxi row, taxi column, passenger, destination) tuple of a state index."""
        return decode(i)

    def action_mask(self, state: int) -> NDArray[np.int8]:
        """1 for each action that changes `state` (moves not into a wall, legal pick-up/drop)."""
        row, col, passenger, destination = decode(state)
        mask = np.zeros(6, dtype=np.int8)
        mask[0] = row < _SIZE - 1
        mask[1] = row > 0
        mask[2] = col < _SIZE - 1 and _east_open(row, col)
        mask[3] = col > 0 and _west_open(row, col)
        mask[4] = passenger < 4 and (row, col) == _LOCS[passenger]
        mask[5] = passenger == 4 and (row, col) in _LOCS
        return mask

    # -- episode ----------------------------------------------------------------------------

    def _fickle_threshold(self) -> float:
        return self.fickle_probability

    def _reset_state(self) -> int:
        state = super()._reset_state()
        self.fickle_step = (
            self.fickle_passenger and self.np_random.random() < self._fickle_threshold()
        )
        return state

    def _reset_info(self, state: int) -> dict[str, Any]:
        return {"prob": 1.0, "action_mask": self._masks[state].copy()}

    def step(self, action: Action) -> tuple[int, int, bool, bool, dict[str, Any]]:
        before = self._s
        state, reward, terminated, prob = self._transition(action)
        if self.fickle_step:
            old_row, old_col, old_passenger, old_destination = self._decoded[before]
            row, col, passenger, _ = self._decoded[state]
            if old_passenger == 4 and (row != old_row or col != old_col):
                self.fickle_step = False
                others = [d for d in range(4) if d != old_destination]
                destination = others[int(self.np_random.integers(0, 3))]
                state = encode(row, col, passenger, destination)
                self._s = state
                self._row = self._rows[state]
        if self._human:
            self.render()
        return (
            state,
            reward,
            terminated,
            False,
            {"prob": prob, "action_mask": self._masks[state].copy()},
        )

    def get_keys_to_action(self) -> dict[KeyCombination, int]:
        """Keys for `protogym.utils.play`: WASD or arrows to drive, P to pick up, O to drop."""
        mapping: dict[KeyCombination, int] = {
            "s": 0,
            "w": 1,
            "d": 2,
            "a": 3,
            "p": 4,
            "o": 5,
        }
        try:
            import pygame
        except ImportError:
            return mapping
        mapping.update(
            {(pygame.K_DOWN,): 0, (pygame.K_UP,): 1, (pygame.K_RIGHT,): 2, (pygame.K_LEFT,): 3}
        )
        return mapping

    # -- rendering --------------------------------------------------------------------------

    def _render_text(self) -> str:
        cells = [list(line) for line in MAP]
        row, col, passenger, destination = decode(self._s)
        taxi = (1 + row, 2 * col + 1)
        if passenger < 4:
            cells[taxi[0]][taxi[1]] = ansi(cells[taxi[0]][taxi[1]], "43")
            p_row, p_col = _LOCS[passenger]
            cells[1 + p_row][2 * p_col + 1] = ansi(cells[1 + p_row][2 * p_col + 1], "34;1")
        else:
            under = cells[taxi[0]][taxi[1]]
            cells[taxi[0]][taxi[1]] = ansi("_" if under == " " else under, "42")
        d_row, d_col = _LOCS[destination]
        cells[1 + d_row][2 * d_col + 1] = ansi(cells[1 + d_row][2 * d_col + 1], "35")
        text = "\n".join("".join(line) for line in cells) + "\n"
        if self.lastaction is None:
            return text + "\n"
        return text + f"  ({_ACTION_NAMES[int(self.lastaction)]})\n"

    def _render_frame(self) -> NDArray[np.uint8] | None:
        from protogym_toy_text import _render as draw

        if self._canvas is None:
            mode = self.render_mode or "rgb_array"
            self._canvas = draw.Canvas(mode, FRAME_SIZE, "Taxi", self.metadata["render_fps"])
        draw_state(self._canvas.surface(), self._s)
        return self._canvas.present()


def draw_state(surface: pygame.Surface, state: int) -> None:
    """Draw `state` (a state index) on a `FRAME_SIZE` surface: the grid, its walls and pads,
    the destination, the waiting passenger and the cab. The functional Taxi draws with it too."""
    from protogym_toy_text import _render as draw

    pygame = draw.pygame
    surface.fill((70, 70, 78))

    def cell(row: int, col: int) -> pygame.Rect:
        return pygame.Rect(_MARGIN + col * _CELL_W, _MARGIN + row * _CELL_H, _CELL_W, _CELL_H)

    for row in range(_SIZE):
        for col in range(_SIZE):
            pygame.draw.rect(surface, (200, 200, 195), cell(row, col))
            pygame.draw.rect(surface, (170, 170, 165), cell(row, col), 1)
    for index, (row, col) in enumerate(_LOCS):
        pad = cell(row, col).inflate(-8, -8)
        pygame.draw.rect(surface, _LOC_COLOURS[index], pad, border_radius=6)
        draw.draw_text(
            surface,
            _LOC_LETTERS[index],
            (pad.left + 12, pad.top + 12),
            22,
            (255, 255, 255),
            True,
        )
    for row in range(_SIZE):
        for col in range(_SIZE - 1):
            if not _east_open(row, col):
                x = _MARGIN + (col + 1) * _CELL_W
                top = _MARGIN + row * _CELL_H
                pygame.draw.line(surface, (40, 40, 45), (x, top), (x, top + _CELL_H), 6)

    taxi_row, taxi_col, passenger, destination = decode(state)
    pygame.draw.rect(
        surface, (20, 20, 20), cell(*_LOCS[destination]).inflate(-4, -4), 4, border_radius=8
    )
    if passenger < 4:
        spot = cell(*_LOCS[passenger]).inflate(-_CELL_W // 2, -16)
        draw.draw_figure(surface, spot.move(_CELL_W // 6, 0), (30, 30, 30))
    body = cell(taxi_row, taxi_col).inflate(-24, -30)
    pygame.draw.rect(surface, (250, 200, 20), body, border_radius=8)
    pygame.draw.rect(surface, (30, 30, 30), body, 2, border_radius=8)
    for wheel_x in (body.left + 10, body.right - 10):
        pygame.draw.circle(surface, (30, 30, 30), (wheel_x, body.bottom), 6)
    if passenger == 4:
        pygame.draw.circle(surface, (30, 30, 30), body.center, 7)


# (forward, left, right) moves of each heading, as (d_row, d_col).
_V4_HEADINGS: dict[int, tuple[Position, Position, Position]] = {
    0: ((1, 0), (0, 1), (0, -1)),
    1: ((-1, 0), (0, -1), (0, 1)),
    2: ((0, 1), (-1, 0), (1, 0)),
    3: ((0, -1), (1, 0), (-1, 0)),
}
_V3_HEADINGS: dict[int, tuple[Position, Position, Position]] = {
    0: ((1, 0), (0, -1), (0, 1)),
    1: ((-1, 0), (0, -1), (0, 1)),
    2: ((0, 1), (1, 0), (-1, 0)),
    3: ((0, -1), (1, 0), (-1, 0)),
}


class TaxiV3Env(TaxiEnv):
    """Taxi-v3 as in Gymnasium 1.2: the same game, with the first rain and fickle models.

    Without ``is_rainy`` and ``fickle_passenger`` it is identical to `TaxiEnv`. When raining,
    the cab goes where intended with probability 0.8 and 0.1 to each listed side, where a
    north/south move is always attempted, the side cells are checked against the wall beside
    the target cell, and a fickle passenger changes their mind with probability 0.3.
    """

    def __init__(
        self,
        render_mode: str | None = None,
        is_rainy: bool = False,
        fickle_passenger: bool = False,
    ) -> None:
        super().__init__(render_mode, is_rainy=is_rainy, fickle_passenger=fickle_passenger)

    def _fickle_threshold(self) -> float:
        return 0.3

    def _rainy_moves(self, row: int, col: int, action: int) -> list[tuple[float, Position]]:
        forward, left, right = _V3_HEADINGS[action]
        possible = (
            action in (0, 1)
            or (action == 2 and _east_open(row, col))
            or (action == 3 and _west_open(row, col))
        )
        here = (row, col)
        if not possible:
            return [(0.8, here), (0.1, here), (0.1, here)]
        ahead = (_clamp(row + forward[0]), _clamp(col + forward[1]))
        return [
            (0.8, ahead),
            (0.1, self._v3_side(row, col, left, 2)),
            (0.1, self._v3_side(row, col, right, 0)),
        ]

    @staticmethod
    def _v3_side(row: int, col: int, move: Position, offset: int) -> Position:
        new_row, new_col = _clamp(row + move[0]), _clamp(col + move[1])
        if MAP[1 + new_row][2 * new_col + offset] == ":":
            return new_row, new_col
        return row, col
