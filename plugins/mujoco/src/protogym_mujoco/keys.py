"""Keyboard maps for `protogym play` on the envs with one or two actuators, where a key per
direction makes a playable game: the arrows (or W A S D) apply full force, none applies none.

Key codes are pygame's, written out so that this module imports no pygame.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["KEY_DOWN", "KEY_LEFT", "KEY_RIGHT", "KEY_UP", "one_axis", "two_axes"]

KEY_RIGHT = 0x4000004F
KEY_LEFT = 0x40000050
KEY_DOWN = 0x40000051
KEY_UP = 0x40000052

Keys = dict[tuple[int, ...], NDArray[np.float32]]


def one_axis(force: float) -> Keys:
    """Left pushes -force, right +force (also A and D)."""
    keys: Keys = {(): np.zeros(1, dtype=np.float32)}
    for left, right in ((KEY_LEFT, KEY_RIGHT), (ord("a"), ord("d"))):
        keys[(left,)] = np.array([-force], dtype=np.float32)
        keys[(right,)] = np.array([force], dtype=np.float32)
    return keys


def two_axes(first: float, second: float) -> Keys:
    """Left/right drive the first actuator, down/up the second, alone or together (also
    A D S W)."""
    keys: Keys = {}
    for left, right, down, up in (
        (KEY_LEFT, KEY_RIGHT, KEY_DOWN, KEY_UP),
        (ord("a"), ord("d"), ord("s"), ord("w")),
    ):
        for first_keys, u in (((), 0.0), ((left,), -first), ((right,), first)):
            for second_keys, v in (((), 0.0), ((down,), -second), ((up,), second)):
                combination = tuple(sorted(first_keys + second_keys))
                keys[combination] = np.array([u, v], dtype=np.float32)
    return keys
