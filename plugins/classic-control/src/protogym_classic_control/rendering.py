"""pygame drawing shared by the classic-control envs.

Envs import this module inside `render()` only, so pygame is never imported unless a frame is
asked for. Scenes are drawn in world orientation (y up) on an off-screen surface and flipped
once at the end; `rgb_array` never touches the display, and `human` opens one window on the
first frame and paces frames with the env's `render_fps`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

try:
    import pygame
    from pygame import gfxdraw
except ImportError as exc:  # pragma: no cover - exercised by hiding pygame in a test
    raise ImportError(
        "rendering the classic-control envs needs pygame, which is not installed: "
        'run `pip install "protogym[render]"`'
    ) from exc

__all__ = [
    "Canvas",
    "Color",
    "Point",
    "draw_hline",
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


def rotated(points: Iterable[Point], angle: float, dx: float, dy: float) -> list[Point]:
    """`points` rotated by `angle` radians about the origin, then moved by `(dx, dy)`."""
    moved: list[Point] = []
    for point in points:
        vector = pygame.math.Vector2(point).rotate_rad(angle)
        moved.append((vector.x + dx, vector.y + dy))
    return moved
