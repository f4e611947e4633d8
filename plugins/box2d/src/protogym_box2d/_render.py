"""pygame for the Box2D envs' pictures: imported only inside `render()`, so an env that never
draws never loads pygame."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from numpy.typing import NDArray

try:
    import pygame
    from pygame import gfxdraw
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "rendering the Box2D envs needs pygame; install it with "
        'pip install "protogym-box2d[render]"'
    ) from error

__all__ = ["close_window", "gfxdraw", "open_window", "pixels", "pygame", "warn_without_render_mode"]


def open_window(title: str, size: tuple[int, int]) -> tuple[Any, Any]:
    """A window of `size` and a clock to pace it, for `render_mode="human"`."""
    pygame.display.init()
    pygame.display.set_caption(title)
    return pygame.display.set_mode(size), pygame.time.Clock()


def close_window() -> None:
    pygame.display.quit()


def pixels(surface: Any) -> NDArray[np.uint8]:
    """The surface as an (H, W, 3) uint8 array."""
    return np.transpose(np.array(pygame.surfarray.pixels3d(surface)), axes=(1, 0, 2))


def warn_without_render_mode(env: Any) -> None:
    spec = getattr(env, "spec", None)
    env_id = spec.id if spec is not None else type(env).__name__
    warnings.warn(
        f"render() was called on {env_id} without a render_mode; pass one when making the "
        f'env, e.g. protogym.make("{env_id}", render_mode="rgb_array")',
        UserWarning,
        stacklevel=3,
    )
