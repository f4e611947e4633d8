"""rgb_array frames for the phys2d functional envs, drawn with the classic-control plugin's
pygame primitives, so a functional env and its classic twin draw the same state the same way
(the tabular envs draw with the toy-text plugin: `protogym_functional.tabular._render`).

Env modules import this inside `render_init` only: neither pygame nor the classic-control
plugin loads unless a frame is asked for.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

try:
    from protogym_classic_control import rendering
except ImportError as exc:
    raise ImportError(
        f"rendering the functional envs needs pygame and protogym-classic-control ({exc}): "
        'run `pip install "protogym-functional[render]"`'
    ) from exc

__all__ = ["finish", "host_floats", "open_canvas", "rendering"]


def open_canvas(owner: str, width: int, height: int, fps: int) -> rendering.Canvas:
    """An off-screen `rgb_array` canvas of `width` x `height` pixels."""
    for name, value in (("screen_width", width), ("screen_height", height)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{owner}.render_init: {name} must be a positive int, got {value!r}")
    return rendering.Canvas(width, height, "rgb_array", fps)


def finish(canvas: rendering.Canvas) -> NDArray[np.uint8]:
    """The frame drawn on `canvas` since `canvas.begin()`, as an (H, W, 3) uint8 array."""
    frame = canvas.finish()
    assert frame is not None  # an rgb_array canvas always returns its frame
    return frame


def host_floats(values: object) -> list[float]:
    """A (device) array's elements as Python floats, for pygame's coordinates."""
    floats: list[float] = np.asarray(values, dtype=np.float64).reshape(-1).tolist()
    return floats
