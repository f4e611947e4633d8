"""The pygame window of the `HumanRendering` wrappers (single-env and vector).

Both keep Gymnasium's `window` and `clock` attributes; these functions open the window at the
first frame's size, draw each frame, pace the frames to ``metadata["render_fps"]`` and close
the window. pygame is imported on first use (the `render` extra).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from protogym.error import DependencyNotInstalled

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["close_window", "show_in_window"]


def _import_pygame() -> Any:
    try:
        import pygame
    except ImportError as exc:
        raise DependencyNotInstalled(
            "HumanRendering draws with pygame, which is not installed: "
            "pip install protogym[render]"
        ) from exc
    return pygame


def show_in_window(owner: Any, pixels: NDArray[Any]) -> None:
    """Draw `pixels` (indexed x, y, as pygame surfaces are) in `owner.window`, opening it at
    their size if it is not open, and pace to ``owner.metadata["render_fps"]``."""
    pygame = _import_pygame()
    if owner.window is None:
        pygame.display.init()
        owner.window = pygame.display.set_mode((int(pixels.shape[0]), int(pixels.shape[1])))
    if owner.clock is None:
        owner.clock = pygame.time.Clock()
    owner.window.blit(pygame.surfarray.make_surface(pixels), (0, 0))
    pygame.event.pump()
    owner.clock.tick(owner.metadata["render_fps"])
    pygame.display.flip()


def close_window(owner: Any) -> None:
    """Close `owner.window` if `show_in_window` opened one."""
    if owner.window is not None:
        _import_pygame().display.quit()
        owner.window = None
        owner.clock = None
