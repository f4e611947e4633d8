"""rgb_array frames for the functional tabular envs, drawn by the toy-text plugin's own
drawing functions, so a functional env and its toy-text twin draw the same state the same way.

Env modules import this inside `render_init` only: neither pygame nor the toy-text plugin
loads unless a frame is asked for.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

try:
    from protogym_toy_text import _render, blackjack, cliff_walking, frozen_lake, taxi
except ImportError as exc:
    raise ImportError(
        f"rendering the functional tabular envs needs pygame and protogym-toy-text ({exc}): "
        'run `pip install "protogym-functional[render]"`'
    ) from exc

__all__ = ["blackjack", "cliff_walking", "finish", "frozen_lake", "open_canvas", "taxi"]


def open_canvas(title: str, size: tuple[int, int], fps: int) -> _render.Canvas:
    """An off-screen `rgb_array` canvas of `size` (width, height) pixels."""
    return _render.Canvas("rgb_array", size, title, fps)


def finish(canvas: _render.Canvas) -> NDArray[np.uint8]:
    """The frame drawn on `canvas.surface()`, as an (H, W, 3) uint8 array."""
    frame = canvas.present()
    assert frame is not None  # an rgb_array canvas always returns its frame
    return frame
