"""Drawing support shared by the toy-text envs: a pygame canvas and ANSI colouring.

pygame is imported here at module level, and the env modules import this module only inside
`render()`, so an env that never renders to pixels never loads pygame. Everything is drawn
from simple shapes: no image files ship with the plugin.
"""

from __future__ import annotations

import os

import numpy as np
from numpy.typing import NDArray

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
try:
    import pygame
except ImportError as exc:  # pragma: no cover - exercised only without the extra installed
    raise ImportError(
        "rendering toy-text envs to 'rgb_array' or 'human' needs pygame; install it with "
        "`pip install \"protogym-toy-text[render]\"` (or use render_mode='ansi')"
    ) from exc

from protogym.utils.pygame_fonts import font

__all__ = ["Canvas", "Color", "draw_figure", "draw_flag", "draw_text", "pygame"]

Color = tuple[int, int, int]


class Canvas:
    """The surface an env draws on: off screen for ``rgb_array``, a window for ``human``.

    It is created on the first `surface()` call, so building an env opens nothing;
    ``rgb_array`` never initialises the display, so it needs no screen at all.
    """

    def __init__(self, mode: str, size: tuple[int, int], title: str, fps: int) -> None:
        self.mode = mode
        self.size = size
        self.title = title
        self.fps = fps
        self._surface: pygame.Surface | None = None
        self._clock: pygame.time.Clock | None = None
        self._window_open = False

    def surface(self) -> pygame.Surface:
        """The surface to draw this frame on (the window itself in ``human`` mode)."""
        if self._window_open and not pygame.display.get_init():
            # Other code shut the display down (pygame.quit()); open a new window.
            self._surface = None
            self._window_open = False
        if self._surface is None:
            if self.mode == "human":
                pygame.display.init()
                pygame.display.set_caption(self.title)
                self._surface = pygame.display.set_mode(self.size)
                self._clock = pygame.time.Clock()
                self._window_open = True
            else:
                self._surface = pygame.Surface(self.size)
        return self._surface

    def present(self) -> NDArray[np.uint8] | None:
        """Show the frame (``human``, paced to `fps`) or return it as an (H, W, 3) array."""
        surface = self.surface()
        if self.mode == "human":
            assert self._clock is not None
            pygame.event.pump()
            pygame.display.flip()
            self._clock.tick(self.fps)
            return None
        frame = pygame.surfarray.array3d(surface)
        return np.ascontiguousarray(frame.transpose(1, 0, 2))

    def close(self) -> None:
        """Close the window if one was opened; safe to call any number of times."""
        if self._window_open:
            pygame.display.quit()
            self._window_open = False
        self._surface = None
        self._clock = None


def draw_text(
    surface: pygame.Surface,
    text: str,
    center: tuple[float, float],
    size: int,
    color: Color,
    bold: bool = False,
) -> None:
    """Draw `text` centred on `center`."""
    image = font(size, bold=bold).render(text, True, color)
    surface.blit(image, image.get_rect(center=(round(center[0]), round(center[1]))))


def draw_figure(surface: pygame.Surface, rect: pygame.Rect, color: Color) -> None:
    """A little person (head and body) filling `rect`: the agent or a passenger."""
    cx = rect.centerx
    head_r = max(2, rect.height // 6)
    pygame.draw.circle(surface, color, (cx, rect.top + head_r), head_r)
    body = pygame.Rect(0, 0, max(3, rect.width // 2), rect.height - 2 * head_r - 1)
    body.midtop = (cx, rect.top + 2 * head_r + 1)
    pygame.draw.ellipse(surface, color, body)


def draw_flag(surface: pygame.Surface, rect: pygame.Rect, color: Color) -> None:
    """A flag on a pole inside `rect`: the goal."""
    pole_x = rect.left + rect.width // 3
    pygame.draw.line(surface, (60, 60, 60), (pole_x, rect.top), (pole_x, rect.bottom), 3)
    points = [
        (pole_x, rect.top),
        (rect.right, rect.top + rect.height // 4),
        (pole_x, rect.top + rect.height // 2),
    ]
    pygame.draw.polygon(surface, color, points)
