"""CarRacing's pictures: the reference's pygame drawing, call for call, with less around it.

Gymnasium 1.4 draws each frame on a 1000x800 surface (playfield, grass squares, road, car),
flips it upright, adds the dashboard and shrinks it (96x96 for the observation, 600x400 for
`rgb_array`). Identical pixels need identical drawing calls with identical coordinates, so
those stay; the speed comes from the rest. Every polygon goes to screen coordinates in one
numpy pass (the same double arithmetic as pygame's `Vector2.rotate_rad`, special angles
included), the reference's off-screen test runs on the whole array at once, the frame
surface, the font (from protogym's cache, which survives `pygame.quit()`) and the score text
are kept between frames, and when the playfield covers the whole screen its background is one
fill instead of a polygon the size of the screen.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from protogym.utils.pygame_fonts import font
from protogym_box2d._render import gfxdraw, pygame
from protogym_box2d.racing_car import SIZE, WHEEL_R, WHEEL_W, RacingCar
from protogym_box2d.racing_track import PLAYFIELD, SCALE, TRACK_DETAIL_STEP, TRACK_WIDTH, sign

__all__ = [
    "STATE_H",
    "STATE_W",
    "VIDEO_H",
    "VIDEO_W",
    "WINDOW_H",
    "WINDOW_W",
    "Camera",
    "RacingCanvas",
]

WINDOW_W, WINDOW_H = 1000, 800  # the frame everything is drawn on
STATE_W, STATE_H = 96, 96  # the observation
VIDEO_W, VIDEO_H = 600, 400  # rgb_array
ZOOM = 2.7  # pixels per world unit, over SCALE, once the opening zoom is over
GRASS_DIM = PLAYFIELD / 20.0
# The reference skips a polygon unless a vertex lies within this margin around the screen.
MAX_SHAPE_DIM = max(GRASS_DIM, TRACK_WIDTH, TRACK_DETAIL_STEP) * math.sqrt(2) * ZOOM * SCALE
# A polygon whose corners all lie this many pixels beyond one screen edge draws nothing.
_OFF_SCREEN = 3.0
# The dashboard's black strip covers the bottom rows of the upright frame, so the world is
# filled, drawn and flipped upright only above it (the rows below keep the last frame's
# pixels until the strip covers them again).
_UNIT_X, _UNIT_Y = WINDOW_W / 40.0, WINDOW_H / 40.0  # the dashboard's grid
_DASHBOARD_H = WINDOW_H // 8  # 5 * _UNIT_Y
_WORLD_ROWS = (0, _DASHBOARD_H, WINDOW_W, WINDOW_H - _DASHBOARD_H)
# The background is one fill when the screen lies this many pixels inside the playfield.
_FILL_MARGIN = 4.0
_TWO_PI = 2 * math.pi
_HALF_PI = math.pi / 2
_ROTATION_EPSILON = 1e-6  # pygame's Vector2 snaps angles this close to a quarter turn
_QUARTER_TURNS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
_HULL_COLOUR = (int(0.8 * 255), 0, 0)
_TYRE_COLOUR = (0, 0, 0)
_STRIPE_COLOUR = (77, 77, 77)
_FIELD = np.array(
    [
        (PLAYFIELD, PLAYFIELD),
        (PLAYFIELD, -PLAYFIELD),
        (-PLAYFIELD, -PLAYFIELD),
        (-PLAYFIELD, PLAYFIELD),
    ]
)


def _grass_squares() -> NDArray[np.float64]:
    """The lighter squares of the checkerboard, in the reference's drawing order."""
    squares = []
    for i in range(-20, 20, 2):
        for j in range(-20, 20, 2):
            x, y = GRASS_DIM * i, GRASS_DIM * j
            squares.append(
                [
                    (x + GRASS_DIM, y + 0),
                    (x + 0, y + 0),
                    (x + 0, y + GRASS_DIM),
                    (x + GRASS_DIM, y + GRASS_DIM),
                ]
            )
    return np.array(squares)


_GRASS = _grass_squares()


def _rotation(angle: float) -> tuple[float, float]:
    """(cos, sin) as pygame's `Vector2.rotate_rad` uses them: the angle folded into
    [0, 2 pi), and exact values within 1e-6 of a quarter turn."""
    angle = math.fmod(angle, _TWO_PI)
    if angle < 0:
        angle += _TWO_PI
    if math.fmod(angle + _ROTATION_EPSILON, _HALF_PI) < 2 * _ROTATION_EPSILON:
        return _QUARTER_TURNS[int((angle + _ROTATION_EPSILON) / _HALF_PI)]
    return math.cos(angle), math.sin(angle)


class Camera(NamedTuple):
    """World to frame coordinates: rotate by the car's heading, zoom, shift."""

    cos: float
    sin: float
    zoom: float
    shift_x: float
    shift_y: float

    @classmethod
    def following(cls, x: float, y: float, heading: float, time: float) -> Camera:
        """The camera behind a car at (x, y) facing `heading`, `time` seconds into the
        episode: it zooms in over the first second."""
        cos, sin = _rotation(-heading)
        zoom = 0.1 * SCALE * max(1 - time, 0) + ZOOM * SCALE * min(time, 1)
        scroll_x, scroll_y = -x * zoom, -y * zoom
        return cls(
            cos,
            sin,
            zoom,
            WINDOW_W / 2 + (cos * scroll_x - sin * scroll_y),
            WINDOW_H / 4 + (sin * scroll_x + cos * scroll_y),
        )

    def project(self, points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
        cos, sin, zoom, shift_x, shift_y = self
        return [
            ((cos * x - sin * y) * zoom + shift_x, (sin * x + cos * y) * zoom + shift_y)
            for x, y in points
        ]

    def project_array(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """`project` over an (..., 2) array, with the same arithmetic."""
        x, y = points[..., 0], points[..., 1]
        out = np.empty_like(points)
        out[..., 0] = (self.cos * x - self.sin * y) * self.zoom + self.shift_x
        out[..., 1] = (self.sin * x + self.cos * y) * self.zoom + self.shift_y
        return out

    def sees_whole_screen_inside_playfield(self) -> bool:
        """Whether every screen pixel is at least `_FILL_MARGIN` pixels inside the playfield
        (a square, so checking the screen's corners is enough)."""
        limit = PLAYFIELD - _FILL_MARGIN / self.zoom
        for corner_x, corner_y in ((0, 0), (WINDOW_W, 0), (0, WINDOW_H), (WINDOW_W, WINDOW_H)):
            rx, ry = (corner_x - self.shift_x) / self.zoom, (corner_y - self.shift_y) / self.zoom
            world_x, world_y = self.cos * rx + self.sin * ry, -self.sin * rx + self.cos * ry
            if abs(world_x) > limit or abs(world_y) > limit:
                return False
        return True


class Scene(NamedTuple):
    """What a frame shows besides the car: the camera, the colours and the road."""

    camera: Camera
    background: tuple[int, int, int]
    grass: tuple[int, int, int]
    road: NDArray[np.float64]  # (polygons, 4, 2) world corners, in drawing order
    road_colours: Sequence[tuple[int, int, int]]


class RacingCanvas:
    """Draws CarRacing frames; one per env, as it keeps its surfaces between frames."""

    def __init__(self) -> None:
        self._frame = pygame.Surface((WINDOW_W, WINDOW_H))  # the world, upside down
        self._upright = pygame.Surface((WINDOW_W, WINDOW_H), 0, self._frame)
        self._score: tuple[str, Any, Any] | None = None
        self._shrunk: dict[tuple[int, int], Any] = {}

    def draw(self, scene: Scene, car: RacingCar, score: float, skid_marks: bool) -> Any:
        """The upright 1000x800 frame: the world, the car (with its skid marks if asked),
        and the dashboard."""
        self._world(scene, car, skid_marks)
        upright = self._upright
        top_down = pygame.surfarray.pixels2d(upright)
        top_down[:, : WINDOW_H - _DASHBOARD_H] = pygame.surfarray.pixels2d(self._frame)[
            :, : _DASHBOARD_H - 1 : -1
        ]
        del top_down  # unlocks the surface
        self._dashboard(upright, _gauges(car), score)
        return upright

    def shrink(self, frame: Any, size: tuple[int, int]) -> NDArray[np.uint8]:
        """`frame` smoothly scaled to `size`, as an (H, W, 3) array."""
        target = self._shrunk.get(size)
        if target is None:
            target = self._shrunk[size] = pygame.Surface(size, 0, frame)
        pygame.transform.smoothscale(frame, size, target)
        return np.ascontiguousarray(pygame.surfarray.pixels3d(target).transpose(1, 0, 2))

    def _world(self, scene: Scene, car: RacingCar, skid_marks: bool) -> None:
        """Playfield, grass, road and car, upside down on the frame (its rows that end up
        under the dashboard are left as they are)."""
        frame, camera = self._frame, scene.camera
        if camera.sees_whole_screen_inside_playfield():
            frame.fill(scene.background, _WORLD_ROWS)
        else:
            frame.fill((0, 0, 0), _WORLD_ROWS)
            field = camera.project_array(_FIELD).tolist()
            gfxdraw.aapolygon(frame, field, scene.background)
            gfxdraw.filled_polygon(frame, field, scene.background)
        self._polygons(camera.project_array(_GRASS), [scene.grass] * len(_GRASS))
        self._polygons(camera.project_array(scene.road), scene.road_colours)
        self._car(camera, car, skid_marks)

    def _polygons(
        self, corners: NDArray[np.float64], colours: Sequence[tuple[int, int, int]]
    ) -> None:
        """Outline and fill each polygon that the reference draws (it has a corner near the
        screen) and that shows, in order.

        A polygon's pixels, anti-aliased edges included, lie within a pixel of its corners'
        bounding box, so one whose box misses the screen by more, or lies in the rows that
        the dashboard covers, changes nothing.
        """
        x, y = corners[..., 0], corners[..., 1]
        drawn = np.flatnonzero(
            (
                (x >= -MAX_SHAPE_DIM)
                & (x <= WINDOW_W + MAX_SHAPE_DIM)
                & (y >= -MAX_SHAPE_DIM)
                & (y <= WINDOW_H + MAX_SHAPE_DIM)
            ).any(axis=1)
        )
        x, y = x[drawn], y[drawn]
        shows = (
            (x.max(axis=1) >= -_OFF_SCREEN)
            & (x.min(axis=1) <= WINDOW_W + _OFF_SCREEN)
            & (y.max(axis=1) >= _DASHBOARD_H - _OFF_SCREEN)
            & (y.min(axis=1) <= WINDOW_H + _OFF_SCREEN)
        )
        frame = self._frame
        for index in drawn[shows].tolist():
            points = corners[index].tolist()
            gfxdraw.aapolygon(frame, points, colours[index])
            gfxdraw.filled_polygon(frame, points, colours[index])

    def _car(self, camera: Camera, car: RacingCar, skid_marks: bool) -> None:
        frame = self._frame
        if skid_marks:
            for mark in car.skid_marks:
                pygame.draw.lines(frame, mark.colour, False, camera.project(mark.points), 2)
        for wheel, outlines in zip(car.wheels, car.wheel_outlines, strict=True):
            transform = wheel.body.transform
            for outline in outlines:
                placed = [transform * corner for corner in outline]
                pygame.draw.polygon(frame, _TYRE_COLOUR, camera.project(placed))
                stripe = _stripe(wheel.phase)
                if stripe is not None:
                    corners = [transform * corner for corner in stripe]
                    pygame.draw.polygon(frame, _STRIPE_COLOUR, camera.project(corners))
        transform = car.hull.transform
        for outline in car.hull_outlines:
            placed = [transform * corner for corner in outline]
            pygame.draw.polygon(frame, _HULL_COLOUR, camera.project(placed))

    def _dashboard(
        self,
        frame: Any,
        gauges: list[tuple[list[tuple[float, float]], tuple[int, int, int]]],
        score: float,
    ) -> None:
        """The black strip at the bottom of the upright frame, its gauges and the score."""
        w, h = WINDOW_W, WINDOW_H
        pygame.draw.polygon(
            frame, (0, 0, 0), [(w, h), (w, h - 5 * _UNIT_Y), (0, h - 5 * _UNIT_Y), (0, h)]
        )
        for points, colour in gauges:
            pygame.draw.polygon(frame, colour, points)
        text = f"{score:04.0f}"
        if self._score is None or self._score[0] != text:
            score_font = font(42, file=pygame.font.get_default_font())
            picture = score_font.render(text, True, (255, 255, 255), (0, 0, 0))
            place = picture.get_rect()
            place.center = (60, int(h - h * 2.5 / 40.0))  # 750, a whole number
            self._score = (text, picture, place)
        frame.blit(self._score[1], self._score[2])


def _gauges(car: RacingCar) -> list[tuple[list[tuple[float, float]], tuple[int, int, int]]]:
    """The dashboard's gauges that show (those off zero): speed, the four wheel spins as
    bars, and steering and yaw rate as horizontal gauges, with their colours."""
    h = WINDOW_H

    def bar(place: int, value: float) -> list[tuple[float, float]]:
        top = h - (_UNIT_Y + _UNIT_Y * value)
        return [
            (place * _UNIT_X, top),
            ((place + 1) * _UNIT_X, top),
            ((place + 1) * _UNIT_X, h - _UNIT_Y),
            ((place + 0) * _UNIT_X, h - _UNIT_Y),
        ]

    def gauge(place: int, value: float) -> list[tuple[float, float]]:
        return [
            ((place + 0) * _UNIT_X, h - 4 * _UNIT_Y),
            ((place + value) * _UNIT_X, h - 4 * _UNIT_Y),
            ((place + value) * _UNIT_X, h - 2 * _UNIT_Y),
            ((place + 0) * _UNIT_X, h - 2 * _UNIT_Y),
        ]

    velocity = car.hull.linearVelocity
    vx, vy = velocity.x, velocity.y
    speed = math.sqrt(vx * vx + vy * vy)
    wheels = car.wheels
    steering = wheels[0].joint.angle
    yaw_rate = car.hull.angularVelocity
    readings = (
        (speed, bar, 5, 0.02 * speed, (255, 255, 255)),
        (wheels[0].omega, bar, 7, 0.01 * wheels[0].omega, (0, 0, 255)),
        (wheels[1].omega, bar, 8, 0.01 * wheels[1].omega, (0, 0, 255)),
        (wheels[2].omega, bar, 9, 0.01 * wheels[2].omega, (51, 0, 255)),
        (wheels[3].omega, bar, 10, 0.01 * wheels[3].omega, (51, 0, 255)),
        (steering, gauge, 20, -10.0 * steering, (0, 255, 0)),
        (yaw_rate, gauge, 30, -0.8 * yaw_rate, (255, 0, 0)),
    )
    return [
        (shape(place, value), colour)
        for reading, shape, place, value, colour in readings
        if abs(reading) > 1e-4
    ]


def _stripe(phase: float) -> list[tuple[float, float]] | None:
    """The lighter band drawn on a tyre to show it turning, in the wheel's frame, or None
    while it is on the hidden side."""
    sin1, sin2 = math.sin(phase), math.sin(phase + 1.2)
    if sin1 > 0 and sin2 > 0:
        return None
    cos1, cos2 = math.cos(phase), math.cos(phase + 1.2)
    if sin1 > 0:
        cos1 = sign(cos1)
    if sin2 > 0:
        cos2 = sign(cos2)
    return [
        (-WHEEL_W * SIZE, +WHEEL_R * cos1 * SIZE),
        (+WHEEL_W * SIZE, +WHEEL_R * cos1 * SIZE),
        (+WHEEL_W * SIZE, +WHEEL_R * cos2 * SIZE),
        (-WHEEL_W * SIZE, +WHEEL_R * cos2 * SIZE),
    ]
