"""pygame drawing shared by the classic-control envs.

Envs import this module inside `render()` only, so pygame is never imported unless a frame is
asked for. Scenes are drawn in world orientation (y up) on an off-screen surface and flipped
once at the end; `rgb_array` never touches the display, and `human` opens one window on the
first frame and paces frames with the env's `render_fps`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

try:
    import pygame
    from pygame import gfxdraw
except ImportError as exc:
    raise ImportError(
        "rendering the classic-control envs needs pygame, which is not installed: "
        'run `pip install "protogym[render]"`'
    ) from exc

__all__ = [
    "Canvas",
    "Color",
    "Point",
    "draw_hline",
    "draw_line",
    "draw_mountain_car",
    "draw_torque_arrow",
    "fill_circle",
    "fill_polygon",
    "rotated",
]

Color = tuple[int, int, int]
Point = tuple[float, float]

WHITE: Color = (255, 255, 255)


class Canvas:
    """An env's drawing surface, plus the window and frame clock in `human` mode."""

    def __init__(self, width: int, height: int, render_mode: str, fps: int) -> None:
        if render_mode not in ("human", "rgb_array"):
            raise ValueError(
                f"render_mode must be 'human' or 'rgb_array' (or None), got {render_mode!r}"
            )
        self.width = width
        self.height = height
        self.render_mode = render_mode
        self.fps = fps
        self._surface = pygame.Surface((width, height))
        self._window: pygame.Surface | None = None
        self._clock: pygame.time.Clock | None = None

    def begin(self) -> pygame.Surface:
        """A blank white surface to draw on, with y pointing up."""
        self._surface.fill(WHITE)
        return self._surface

    def finish(self) -> NDArray[np.uint8] | None:
        """Shows the drawn frame: returns it as an (H, W, 3) array, or paints the window."""
        frame = pygame.transform.flip(self._surface, False, True)
        if self.render_mode == "rgb_array":
            return np.ascontiguousarray(pygame.surfarray.pixels3d(frame).transpose(1, 0, 2))
        if self._window is None:
            pygame.display.init()
            self._window = pygame.display.set_mode((self.width, self.height))
            self._clock = pygame.time.Clock()
        assert self._clock is not None
        self._window.blit(frame, (0, 0))
        pygame.event.pump()
        self._clock.tick(self.fps)
        pygame.display.flip()
        return None

    @property
    def has_window(self) -> bool:
        return self._window is not None

    def close(self) -> None:
        """Closes the window if one is open; safe to call any number of times."""
        if self._window is not None:
            self._window = None
            self._clock = None
            pygame.display.quit()


def fill_polygon(surface: pygame.Surface, points: Sequence[Point], color: Color) -> None:
    """A filled polygon with an anti-aliased outline."""
    gfxdraw.aapolygon(surface, points, color)
    gfxdraw.filled_polygon(surface, points, color)


def fill_circle(surface: pygame.Surface, x: int, y: int, radius: int, color: Color) -> None:
    """A filled disc with an anti-aliased rim."""
    gfxdraw.aacircle(surface, x, y, radius, color)
    gfxdraw.filled_circle(surface, x, y, radius, color)


def draw_hline(surface: pygame.Surface, x1: int, x2: int, y: int, color: Color) -> None:
    """A one-pixel horizontal line from `x1` to `x2` at height `y`."""
    gfxdraw.hline(surface, x1, x2, y, color)


def draw_line(surface: pygame.Surface, start: Point, end: Point, color: Color) -> None:
    """A one-pixel straight line."""
    pygame.draw.line(surface, color, start, end)


def draw_torque_arrow(
    surface: pygame.Surface, x: float, y: float, radius: float, counter_clockwise: bool
) -> None:
    """A three-quarter arc around `(x, y)` with an arrowhead showing the turning direction."""
    if radius < 2:
        return
    color = (0, 0, 0)
    sign = 1.0 if counter_clockwise else -1.0
    start = 0.0 if counter_clockwise else math.pi
    steps = 24
    arc = [
        (
            x + radius * math.cos(start + sign * 1.5 * math.pi * i / steps),
            y + radius * math.sin(start + sign * 1.5 * math.pi * i / steps),
        )
        for i in range(steps + 1)
    ]
    pygame.draw.lines(surface, color, False, arc, max(1, int(radius / 8)))
    end = start + sign * 1.5 * math.pi
    tangent = (-math.sin(end) * sign, math.cos(end) * sign)
    normal = (math.cos(end), math.sin(end))
    tip_x, tip_y = arc[-1]
    size = max(3.0, radius / 3)
    fill_polygon(
        surface,
        [
            (tip_x + tangent[0] * size, tip_y + tangent[1] * size),
            (tip_x + normal[0] * size / 2, tip_y + normal[1] * size / 2),
            (tip_x - normal[0] * size / 2, tip_y - normal[1] * size / 2),
        ],
        color,
    )


def rotated(points: Iterable[Point], angle: float, dx: float, dy: float) -> list[Point]:
    """`points` rotated by `angle` radians about the origin, then moved by `(dx, dy)`."""
    moved: list[Point] = []
    for point in points:
        vector = pygame.math.Vector2(point).rotate_rad(angle)
        moved.append((vector.x + dx, vector.y + dy))
    return moved


def _hill_height(position: float) -> float:
    return math.sin(3 * position) * 0.45 + 0.55


def draw_mountain_car(
    canvas: Canvas,
    surface: pygame.Surface,
    position: float,
    min_position: float,
    max_position: float,
    goal_position: float,
) -> None:
    """The hill, the car at `position` tilted along the slope, and the goal flag.

    Both mountain-car envs share this scene; the hill is the curve y = 0.45 sin(3x) + 0.55.
    """
    scale = canvas.width / (max_position - min_position)
    hill = [
        ((x - min_position) * scale, _hill_height(x) * scale)
        for x in np.linspace(min_position, max_position, 100).tolist()
    ]
    pygame.draw.aalines(surface, (0, 0, 0), False, hill)

    car_width, car_height, clearance = 40, 20, 10
    tilt = math.cos(3 * position)
    car_x = (position - min_position) * scale
    car_y = clearance + _hill_height(position) * scale
    half = car_width / 2
    body = rotated([(-half, 0), (-half, car_height), (half, car_height), (half, 0)], tilt, 0, 0)
    fill_polygon(surface, [(x + car_x, y + car_y) for x, y in body], (0, 0, 0))
    for wheel_x, wheel_y in rotated([(car_width / 4, 0), (-car_width / 4, 0)], tilt, 0, 0):
        fill_circle(
            surface,
            int(wheel_x + car_x),
            int(wheel_y + car_y),
            int(car_height / 2.5),
            (128, 128, 128),
        )

    flag_x = int((goal_position - min_position) * scale)
    flag_bottom = int(_hill_height(goal_position) * scale)
    flag_top = flag_bottom + 50
    gfxdraw.vline(surface, flag_x, flag_bottom, flag_top, (0, 0, 0))
    fill_polygon(
        surface,
        [(flag_x, flag_top), (flag_x, flag_top - 10), (flag_x + 25, flag_top - 5)],
        (204, 204, 0),
    )
