"""CarRacing's track: a closed road around a randomly bent circle, drawn from `np_random`.

The construction is Gymnasium 1.4's, operation for operation, so a seed gives the same
track to the bit: twelve checkpoints at random angles and radii, a walk that steers toward
the next checkpoint in fixed steps, the second lap of the walk cut out as the loop, and
red-and-white kerbs on the outside of sharp bends. A walk whose ends do not meet is
rejected (`generate_track` returns None) and the caller draws again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = [
    "KERB_RED",
    "KERB_WHITE",
    "PLAYFIELD",
    "SCALE",
    "TRACK_DETAIL_STEP",
    "TRACK_WIDTH",
    "Track",
    "generate_track",
    "sign",
]

SCALE = 6.0  # world units per track unit
TRACK_RAD = 900 / SCALE  # the radius of the circle the track bends around
PLAYFIELD = 2000 / SCALE  # leaving |x| or |y| <= PLAYFIELD ends the episode
TRACK_DETAIL_STEP = 21 / SCALE  # length of one road tile
TRACK_TURN_RATE = 0.31  # the most the walk turns per step (radians)
TRACK_WIDTH = 40 / SCALE  # half the road's width
KERB_WIDTH = 8 / SCALE
KERB_MIN_BENDS = 4  # a kerb needs this many consecutive sharp bends the same way
CHECKPOINTS = 12
START_ALPHA = 2 * math.pi * (-0.5) / CHECKPOINTS  # the polar angle where laps begin
KERB_WHITE = (255, 255, 255)
KERB_RED = (255, 0, 0)

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


@dataclass(frozen=True)
class Track:
    """A generated track.

    `points` holds one (polar angle, heading, x, y) per tile, in driving order (the car
    starts on the first); `tiles` the road quads, tile i joining point i-1 to point i; and
    `kerbs` the (tile index, quad, colour) of each kerb, drawn right after its tile.
    """

    points: list[tuple[float, float, float, float]]
    tiles: list[Quad]
    kerbs: list[tuple[int, Quad, tuple[int, int, int]]]


def generate_track(rng: np.random.Generator) -> Track | None:
    """One attempt at a track (24 draws from `rng`), or None if the walk did not close."""
    checkpoints = _checkpoints(rng)
    points = _closed_loop(_walk(checkpoints))
    if points is None:
        return None
    kerbed = _kerbed_tiles(points)
    tiles: list[Quad] = []
    kerbs: list[tuple[int, Quad, tuple[int, int, int]]] = []
    for i in range(len(points)):
        _, heading1, x1, y1 = points[i]
        _, heading2, x2, y2 = points[i - 1]
        cos1, sin1 = math.cos(heading1), math.sin(heading1)
        cos2, sin2 = math.cos(heading2), math.sin(heading2)
        tiles.append(
            (
                (x1 - TRACK_WIDTH * cos1, y1 - TRACK_WIDTH * sin1),
                (x1 + TRACK_WIDTH * cos1, y1 + TRACK_WIDTH * sin1),
                (x2 + TRACK_WIDTH * cos2, y2 + TRACK_WIDTH * sin2),
                (x2 - TRACK_WIDTH * cos2, y2 - TRACK_WIDTH * sin2),
            )
        )
        if kerbed[i]:
            side = sign(heading2 - heading1)  # the outside of the bend
            inner, outer = side * TRACK_WIDTH, side * (TRACK_WIDTH + KERB_WIDTH)
            quad = (
                (x1 + inner * cos1, y1 + inner * sin1),
                (x1 + outer * cos1, y1 + outer * sin1),
                (x2 + outer * cos2, y2 + outer * sin2),
                (x2 + inner * cos2, y2 + inner * sin2),
            )
            kerbs.append((i, quad, KERB_WHITE if i % 2 == 0 else KERB_RED))
    return Track(points, tiles, kerbs)


def _checkpoints(rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """(polar angle, x, y) of each checkpoint; the first and last sit on the start line."""
    checkpoints = []
    for c in range(CHECKPOINTS):
        noise = float(rng.uniform(0, 2 * math.pi * 1 / CHECKPOINTS))
        alpha = 2 * math.pi * c / CHECKPOINTS + noise
        radius = float(rng.uniform(TRACK_RAD / 3, TRACK_RAD))
        if c == 0:
            alpha, radius = 0.0, 1.5 * TRACK_RAD
        if c == CHECKPOINTS - 1:
            alpha, radius = 2 * math.pi * c / CHECKPOINTS, 1.5 * TRACK_RAD
        checkpoints.append((alpha, radius * math.cos(alpha), radius * math.sin(alpha)))
    return checkpoints


def _walk(
    checkpoints: list[tuple[float, float, float]],
) -> list[tuple[float, float, float, float]]:
    """Walk from the start, turning toward the next checkpoint, for five laps (or 2500 steps)."""
    x, y, heading = 1.5 * TRACK_RAD, 0.0, 0.0
    target = 0
    laps = 0
    below_axis = False
    steps_left = 2500
    walk = []
    while True:
        alpha = math.atan2(y, x)
        if below_axis and alpha > 0:
            laps += 1
            below_axis = False
        if alpha < 0:
            below_axis = True
            alpha += 2 * math.pi
        # the first checkpoint ahead in angle; past the last one, look a turn further
        while True:
            target_alpha, target_x, target_y = checkpoints[target % CHECKPOINTS]
            if alpha <= target_alpha:
                break
            target += 1
            if target % CHECKPOINTS == 0:
                alpha -= 2 * math.pi
        ahead_x, ahead_y = math.cos(heading), math.sin(heading)
        toward = ahead_x * (target_x - x) + ahead_y * (target_y - y)
        while heading - alpha > 1.5 * math.pi:
            heading -= 2 * math.pi
        while heading - alpha < -1.5 * math.pi:
            heading += 2 * math.pi
        previous_heading = heading
        toward *= SCALE
        if toward > 0.3:
            heading -= min(TRACK_TURN_RATE, abs(0.001 * toward))
        if toward < -0.3:
            heading += min(TRACK_TURN_RATE, abs(0.001 * toward))
        x += -ahead_y * TRACK_DETAIL_STEP
        y += ahead_x * TRACK_DETAIL_STEP
        walk.append((alpha, previous_heading * 0.5 + heading * 0.5, x, y))
        if laps > 4:
            return walk
        steps_left -= 1
        if steps_left == 0:
            return walk


def _closed_loop(
    walk: list[tuple[float, float, float, float]],
) -> list[tuple[float, float, float, float]] | None:
    """The walk between its last two crossings of the start line, if its ends meet."""
    first = last = -1
    i = len(walk)
    while True:
        i -= 1
        if i == 0:
            return None
        crosses = walk[i][0] > START_ALPHA and walk[i - 1][0] <= START_ALPHA
        if crosses and last == -1:
            last = i
        elif crosses and first == -1:
            first = i
            break
    loop = walk[first : last - 1]
    heading = loop[0][1]
    gap_x = math.cos(heading) * (loop[0][2] - loop[-1][2])
    gap_y = math.sin(heading) * (loop[0][3] - loop[-1][3])
    gap = math.sqrt(gap_x * gap_x + gap_y * gap_y)
    return None if gap > TRACK_DETAIL_STEP else loop


def _kerbed_tiles(points: list[tuple[float, float, float, float]]) -> list[bool]:
    """Which tiles get a kerb: those ending a run of sharp bends one way, and the tiles just
    before them (indices wrap around the loop, as the reference's do)."""
    kerbed = [False] * len(points)
    for i in range(len(points)):
        sharp = True
        turning = 0.0
        for back in range(KERB_MIN_BENDS):
            bend = points[i - back][1] - points[i - back - 1][1]
            sharp &= abs(bend) > TRACK_TURN_RATE * 0.2
            turning += sign(bend)
        kerbed[i] = sharp and abs(turning) == KERB_MIN_BENDS
    for i in range(len(points)):
        for back in range(KERB_MIN_BENDS):
            kerbed[i - back] |= kerbed[i]
    return kerbed


def sign(value: float) -> float:
    """numpy's sign on a float: -1.0, 0.0 or 1.0."""
    return 1.0 if value > 0 else -1.0 if value < 0 else 0.0
