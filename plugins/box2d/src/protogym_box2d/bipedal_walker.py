"""BipedalWalker: drive the hip and knee motors of a two-legged robot across rough terrain.

The dynamics are Gymnasium 1.4's BipedalWalker-v3: one Box2D world per env (kept across
episodes, as in the reference, since Box2D's contact order depends on the world's history),
the same bodies, fixtures and joints created and destroyed in the same order, the terrain,
the clouds and the initial push drawn from `np_random` in the same order, and the same lidar,
so a seed and an action sequence give the same trajectory.

Observation (24 float32): hull angle, angular velocity, horizontal and vertical speed; for
each leg the hip angle and speed, the knee angle (+1) and speed, and whether the foot touches
the ground; then ten lidar readings (the fraction of the ray's length to the nearest terrain,
1 when nothing is in range). Action (4 float32 in [-1, 1]): hip and knee of the first leg, then
of the second. The sign of each value picks the motor's direction at full speed and its
magnitude the torque; magnitudes above 1 are clipped to 1, as the reference clips them.
Reward: 130 per terrain length walked forward (~300 to the end), minus 5 per radian of hull
tilt gained, minus a small cost per unit of torque; the episode ends with -100 when the hull
touches the ground or the walker leaves the left edge, and ends without penalty at the far end.
`hardcore=True` adds stumps, pits and stairs.
"""

from __future__ import annotations

import math
import struct
from typing import Any, ClassVar, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import protogym
from protogym.error import InvalidAction, ResetNeeded, UnsupportedMode
from protogym.spaces import Box

try:
    import Box2D
    from Box2D.b2 import (
        bodyDef,
        chainShape,
        contactListener,
        edgeShape,
        fixtureDef,
        polygonShape,
        rayCastCallback,
        revoluteJointDef,
    )
except ImportError as error:  # pragma: no cover - exercised without the engine
    raise ImportError(
        "BipedalWalker needs the box2d package, which is not installed: pip install "
        '"protogym-box2d" (it depends on box2d==2.3.10)'
    ) from error

__all__ = [
    "BipedalWalker",
    "BipedalWalkerEnv",
    "BipedalWalkerHardcore",
    "ContactDetector",
]

FPS = 50
SCALE = 30.0
MOTORS_TORQUE = 80
SPEED_HIP = 4
SPEED_KNEE = 6
LIDAR_RANGE = 160 / SCALE
INITIAL_RANDOM = 5
HULL_POLY = ((-30, +9), (+6, +9), (+34, +1), (+34, -8), (-30, -8))
LEG_DOWN = -8 / SCALE
LEG_W, LEG_H = 8 / SCALE, 34 / SCALE
VIEWPORT_W, VIEWPORT_H = 600, 400
TERRAIN_STEP = 14 / SCALE
TERRAIN_LENGTH = 200  # in steps
TERRAIN_HEIGHT = VIEWPORT_H / SCALE / 4
TERRAIN_GRASS = 10  # the longest stretch of grass between obstacles, in steps
TERRAIN_STARTPAD = 20  # flat steps where the walker starts
FRICTION = 2.5
FINISH_X = (TERRAIN_LENGTH - TERRAIN_GRASS) * TERRAIN_STEP

Observation = NDArray[np.float32]
Action = NDArray[np.float32]

_GRASS, _STUMP, _STAIRS, _PIT = range(4)
_OBSTACLE_COLOURS = ((255, 255, 255), (153, 153, 153))
_HULL_COLOURS = ((127, 51, 229), (76, 76, 127))
_GROUND_COLOUR = (102, 153, 76)
_SKY_COLOUR = (215, 215, 255)
_ENERGY_COST = 0.00035 * MOTORS_TORQUE  # reward lost per unit of clipped action, per motor
_ENERGY_COST32 = float(np.float32(_ENERGY_COST))
_STAND_STILL = np.zeros(4, dtype=np.float32)  # the step that reset() takes
_RENDER_MARGIN = 600  # pixels drawn left of the view; wider than any cloud, stair or leg
_FLOAT32 = struct.Struct("<f")
_FLOAT32X4 = struct.Struct("<4f")
_float32, _float64 = np.float32, np.float64
# Where each lidar ray points, from straight down (0) to 1.35 rad forward, times its range.
_LIDAR_REACH = tuple(
    (math.sin(1.5 * i / 10.0) * LIDAR_RANGE, math.cos(1.5 * i / 10.0) * LIDAR_RANGE)
    for i in range(10)
)

_OBS_HIGH = np.array(
    [math.pi, 5.0, 5.0, 5.0, math.pi, 5.0, math.pi, 5.0, 5.0, math.pi, 5.0, math.pi, 5.0, 5.0]
    + [1.0] * 10,
    dtype=np.float32,
)
_OBS_LOW = np.array(
    [-math.pi, -5.0, -5.0, -5.0, -math.pi, -5.0, -math.pi, -5.0, -0.0, -math.pi, -5.0]
    + [-math.pi, -5.0, -0.0]
    + [-1.0] * 10,
    dtype=np.float32,
)

_HULL_FIXTURE = fixtureDef(
    shape=polygonShape(vertices=[(x / SCALE, y / SCALE) for x, y in HULL_POLY]),
    density=5.0,
    friction=0.1,
    categoryBits=0x0020,
    maskBits=0x001,  # the walker collides with the ground only
    restitution=0.0,
)
_UPPER_LEG_FIXTURE = fixtureDef(
    shape=polygonShape(box=(LEG_W / 2, LEG_H / 2)),
    density=1.0,
    restitution=0.0,
    categoryBits=0x0020,
    maskBits=0x001,
)
_LOWER_LEG_FIXTURE = fixtureDef(
    shape=polygonShape(box=(0.8 * LEG_W / 2, LEG_H / 2)),
    density=1.0,
    restitution=0.0,
    categoryBits=0x0020,
    maskBits=0x001,
)


class ContactDetector(contactListener):
    """Ends the episode when the hull touches the ground, and tracks each foot's contact.

    Bodies are told apart by their hash (their address in Box2D), one C call each, instead
    of comparing Python proxies."""

    def __init__(self, env: BipedalWalkerEnv) -> None:
        contactListener.__init__(self)
        self.env = env

    def BeginContact(self, contact: Any) -> None:  # noqa: N802 - Box2D's callback name
        env = self.env
        for body in (contact.fixtureA.body, contact.fixtureB.body):
            key = hash(body)
            if key == env._hull_key:
                env.game_over = True
            elif key in env._feet:
                foot = env._feet[key]
                env._foot_contact[foot] = True
                env.legs[2 * foot + 1].ground_contact = True

    def EndContact(self, contact: Any) -> None:  # noqa: N802 - Box2D's callback name
        env = self.env
        for body in (contact.fixtureA.body, contact.fixtureB.body):
            foot = env._feet.get(hash(body))
            if foot is not None:
                env._foot_contact[foot] = False
                env.legs[2 * foot + 1].ground_contact = False


class _TerrainDefinitions:
    """Box2D definitions reused for every terrain body, as the reference reuses its own: a
    body then costs a vertex update and two calls, not definitions built from keywords."""

    def __init__(self) -> None:
        self.body = bodyDef()  # a static body at the origin
        self.edge_shape = edgeShape(vertices=[(0, 0), (1, 1)])
        self.edge = fixtureDef(shape=self.edge_shape, friction=FRICTION, categoryBits=0x0001)
        self.polygon_shape = polygonShape(vertices=[(0, 0), (1, 0), (1, -1), (0, -1)])
        self.polygon = fixtureDef(shape=self.polygon_shape, friction=FRICTION)


class _Lidar(rayCastCallback):
    """The ten lidar rays, cast against a copy of the terrain in a Box2D world of its own.

    The reference casts them in the walker's world and ignores the walker's own parts when
    Box2D reports them. Each reading is the nearest terrain hit whatever order Box2D visits
    the fixtures in, so a world holding only the terrain gives the same fractions, to the bit,
    without those wasted callbacks (about a third of the reference's step). The ground's
    outline is one chain, whose segments Box2D ray-casts exactly as the reference's edges.
    """

    def __init__(self) -> None:
        rayCastCallback.__init__(self)
        self._world = Box2D.b2World()
        self._terrain: Any = None
        self.fraction = 1.0
        self.point: tuple[float, float] = (0.0, 0.0)

    def set_terrain(
        self, outline: list[tuple[float, float]], obstacles: list[list[tuple[float, float]]]
    ) -> None:
        if self._terrain is not None:
            self._world.DestroyBody(self._terrain)
        fixtures = [fixtureDef(shape=chainShape(vertices_chain=outline))]
        fixtures += [fixtureDef(shape=polygonShape(vertices=polygon)) for polygon in obstacles]
        self._terrain = self._world.CreateStaticBody(fixtures=fixtures)
        # A step of no time empties Box2D's list of new proxies, which only a step reads:
        # left alone, it grows by the terrain's size each episode and slows every removal.
        self._world.Step(0.0, 0, 0)

    def scan(self, x: float, y: float, ends: list[tuple[float, float]] | None) -> list[float]:
        """The fraction of each ray's length to the nearest terrain from (x, y), 1 when none
        is in range; `ends`, when given, gets where each ray stopped (for drawing)."""
        fractions = []
        cast = self._world.RayCast
        for reach_x, reach_y in _LIDAR_REACH:
            self.fraction = 1.0
            end = (x + reach_x, y - reach_y)
            self.point = end
            cast(self, (x, y), end)
            fractions.append(self.fraction)
            if ends is not None:
                ends.append(self.point)
        return fractions

    def ReportFixture(  # noqa: N802 - Box2D's callback name
        self, fixture: Any, point: tuple[float, float], normal: Any, fraction: float
    ) -> float:
        self.fraction = fraction
        self.point = point
        return fraction


class BipedalWalkerEnv(protogym.Env[Observation, Action]):
    """Walk to the far end of the terrain; see the module docstring for spaces and rewards."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}
    observation_space: Box
    action_space: Box
    render_mode: str | None

    def __init__(self, render_mode: str | None = None, hardcore: bool = False) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise UnsupportedMode(
                f"BipedalWalker does not support render_mode={render_mode!r}; choose one of "
                f"{self.metadata['render_modes']} or None"
            )
        self.render_mode = render_mode
        self.hardcore = bool(hardcore)
        self.observation_space = Box(_OBS_LOW, _OBS_HIGH)
        self.action_space = Box(-1.0, 1.0, (4,), np.float32)
        self.world: Any = None
        self._definitions: Any = None
        self.terrain: list[Any] = []
        # the ground's outline: its x and height at each terrain step
        self.terrain_x: list[float] = []
        self.terrain_y: list[float] = []
        self.hull: Any = None
        self.legs: list[Any] = []
        self.joints: list[Any] = []
        self._hull_key = 0  # the hull's hash, and each lower leg's with its foot's index
        self._feet: dict[int, int] = {}
        self._foot_contact = [False, False]
        self.game_over = False
        self.prev_shaping: float | None = None
        self._lidar: _Lidar | None = None
        self.scroll = 0.0
        # for rendering: the ground's outline, the clouds, and which lidar ray to draw next
        self._ground: list[tuple[float, float, float, float]] = []
        self.cloud_poly: list[tuple[list[tuple[float, float]], float, float]] = []
        self.lidar_render = 0
        self._lidar_ends: list[tuple[float, float]] = []  # where each ray stopped, for drawing
        self._lidar_start = (0.0, 0.0)
        self._terrain_paths: list[tuple[list[list[tuple[float, float]]], float, float]] = []
        self._window: Any = None
        self._clock: Any = None

    @property
    def drawlist(self) -> list[Any]:
        """The bodies drawn each frame: the terrain, the legs, then the hull."""
        return [*self.terrain, *self.legs] + ([] if self.hull is None else [self.hull])

    # -- episodes ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._destroy()
        if self.world is None:
            self.world = Box2D.b2World()
            self._definitions = _TerrainDefinitions()
        self.world.contactListener_keepref = ContactDetector(self)
        self.world.contactListener = self.world.contactListener_keepref
        self.game_over = False
        self._foot_contact = [False, False]
        self.prev_shaping = None
        self.scroll = 0.0
        self.lidar_render = 0
        self._lidar_ends = []
        self._terrain_paths = []

        self._build_terrain()
        self._draw_clouds()
        rng = self.np_random
        start_x = TERRAIN_STEP * TERRAIN_STARTPAD / 2
        start_y = TERRAIN_HEIGHT + 2 * LEG_H
        hull = self.world.CreateDynamicBody(position=(start_x, start_y), fixtures=_HULL_FIXTURE)
        hull.color1, hull.color2 = _HULL_COLOURS
        hull.ApplyForceToCenter((rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM), 0), True)
        self.hull = hull
        self._hull_key, self._feet = hash(hull), {}
        for side in (-1, +1):
            upper = self.world.CreateDynamicBody(
                position=(start_x, start_y - LEG_H / 2 - LEG_DOWN),
                angle=side * 0.05,
                fixtures=_UPPER_LEG_FIXTURE,
            )
            upper.color1, upper.color2 = _leg_colours(side)
            upper.ground_contact = False
            hip = self._joint(hull, upper, (0, LEG_DOWN), side, (-0.8, 1.1))
            lower = self.world.CreateDynamicBody(
                position=(start_x, start_y - LEG_H * 3 / 2 - LEG_DOWN),
                angle=side * 0.05,
                fixtures=_LOWER_LEG_FIXTURE,
            )
            lower.color1, lower.color2 = _leg_colours(side)
            lower.ground_contact = False
            knee = self._joint(upper, lower, (0, -LEG_H / 2), 1, (-1.6, -0.1))
            self._feet[hash(lower)] = len(self._feet)
            self.legs += [upper, lower]
            self.joints += [hip, knee]
        if self.render_mode == "human":
            self.render()
        obs, *_ = self.step(_STAND_STILL)
        return obs, {}

    def _joint(
        self,
        parent: Any,
        child: Any,
        anchor: tuple[float, float],
        motor_speed: int,
        limits: tuple[float, float],
    ) -> Any:
        """A motorised revolute joint from `anchor` on `parent` to the top of `child`."""
        return self.world.CreateJoint(
            revoluteJointDef(
                bodyA=parent,
                bodyB=child,
                localAnchorA=anchor,
                localAnchorB=(0, LEG_H / 2),
                enableMotor=True,
                enableLimit=True,
                maxMotorTorque=MOTORS_TORQUE,
                motorSpeed=motor_speed,
                lowerAngle=limits[0],
                upperAngle=limits[1],
            )
        )

    def _build_terrain(self) -> None:
        """The terrain's heights, left to right, and its obstacles (hardcore only); then the
        obstacles as static polygons and one static edge per step of the ground's outline.

        A small state machine: grass drifts up and down at random, and each time a stretch
        runs out the next is drawn, in hardcore a stump, stairs or a pit (or grass again).
        """
        rng = self.np_random
        polygons: list[list[tuple[float, float]]] = []
        state: Any = _GRASS
        first = False  # the step that starts a stretch
        velocity, y = 0.0, TERRAIN_HEIGHT
        counter: Any = TERRAIN_STARTPAD
        stair_steps: Any = 0
        stair_width: Any = 0
        stair_height = 0
        ledge_y = 0.0  # where a pit or stairs started
        xs: list[float] = []
        ys: list[float] = []
        for i in range(TERRAIN_LENGTH):
            x = i * TERRAIN_STEP
            xs.append(x)
            if state == _GRASS and not first:
                velocity = 0.8 * velocity + 0.01 * _sign(TERRAIN_HEIGHT - y)
                if i > TERRAIN_STARTPAD:
                    velocity += rng.uniform(-1, 1) / SCALE
                y += velocity
            elif state == _PIT and first:
                counter = rng.integers(3, 5)
                wall = [
                    (x, y),
                    (x + TERRAIN_STEP, y),
                    (x + TERRAIN_STEP, y - 4 * TERRAIN_STEP),
                    (x, y - 4 * TERRAIN_STEP),
                ]
                polygons.append(wall)
                polygons.append([(px + TERRAIN_STEP * counter, py) for px, py in wall])
                counter += 2
                ledge_y = y
            elif state == _PIT:
                y = ledge_y
                if counter > 1:
                    y -= 4 * TERRAIN_STEP
            elif state == _STUMP and first:
                counter = rng.integers(1, 3)
                size = counter * TERRAIN_STEP
                polygons.append([(x, y), (x + size, y), (x + size, y + size), (x, y + size)])
            elif state == _STAIRS and first:
                stair_height = +1 if rng.random() > 0.5 else -1
                stair_width = rng.integers(4, 5)
                stair_steps = rng.integers(3, 5)
                ledge_y = y
                for s in range(stair_steps):
                    left = x + (s * stair_width) * TERRAIN_STEP
                    right = x + ((1 + s) * stair_width) * TERRAIN_STEP
                    top = y + (s * stair_height) * TERRAIN_STEP
                    bottom = y + (-1 + s * stair_height) * TERRAIN_STEP
                    polygons.append([(left, top), (right, top), (right, bottom), (left, bottom)])
                counter = stair_steps * stair_width
            elif state == _STAIRS and not first:
                climbed = (stair_steps * stair_width - counter - stair_height) / stair_width
                y = ledge_y + (climbed * stair_height) * TERRAIN_STEP
            first = False
            ys.append(y)
            counter -= 1
            if counter == 0:
                counter = rng.integers(TERRAIN_GRASS // 2, TERRAIN_GRASS)
                if state == _GRASS and self.hardcore:
                    state = rng.integers(_STUMP, _PIT + 1)
                else:
                    state = _GRASS
                first = True

        create_body, definitions = self.world.CreateBody, self._definitions
        obstacles = []
        for polygon in polygons:
            definitions.polygon_shape.vertices = polygon
            obstacle = create_body(definitions.body)
            obstacle.CreateFixture(definitions.polygon)
            obstacle.color1, obstacle.color2 = _OBSTACLE_COLOURS
            obstacles.append(obstacle)
        edges = []
        self._ground = []
        for i in range(TERRAIN_LENGTH - 1):
            left, right = (xs[i], ys[i]), (xs[i + 1], ys[i + 1])
            definitions.edge_shape.vertices = [left, right]
            edge = create_body(definitions.body)
            edge.CreateFixture(definitions.edge)
            edge.color1, edge.color2 = ((76, 255 if i % 2 == 0 else 204, 76),) * 2
            edges.append(edge)
            self._ground.append((*left, *right))
        # The reference keeps its terrain list last-made first: the order bodies are destroyed
        # in (which shapes the next episode's contact order) and drawn in.
        self.terrain = [*reversed(edges), *reversed(obstacles)]
        self.terrain_x, self.terrain_y = xs, ys
        if self._lidar is None:
            self._lidar = _Lidar()
        self._lidar.set_terrain(list(zip(xs, ys, strict=True)), polygons)

    def _draw_clouds(self) -> None:
        """Ten five-point clouds for the background; drawn even when nothing is rendered,
        since they take their turn in `np_random` before the initial push."""
        rng = self.np_random
        self.cloud_poly = []
        for _ in range(TERRAIN_LENGTH // 20):
            x = rng.uniform(0, TERRAIN_LENGTH) * TERRAIN_STEP
            y = VIEWPORT_H / SCALE * 3 / 4
            points = []
            for k in range(5):
                px = x + 15 * TERRAIN_STEP * math.sin(3.14 * 2 * k / 5)
                px += rng.uniform(0, 5 * TERRAIN_STEP)
                py = y + 5 * TERRAIN_STEP * math.cos(3.14 * 2 * k / 5)
                py += rng.uniform(0, 5 * TERRAIN_STEP)
                points.append((px, py))
            xs = [px for px, _ in points]
            self.cloud_poly.append((points, min(xs), max(xs)))

    def step(self, action: Action) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        hull = self.hull
        if hull is None:
            raise ResetNeeded(
                "BipedalWalkerEnv.step() was called before reset(); call reset() first"
            )
        values = np.asarray(action)
        if values.shape != (4,):
            raise InvalidAction(
                f"BipedalWalkerEnv.step got an action of shape {values.shape}: pass 4 numbers "
                "in [-1, 1] (hip and knee of the first leg, then of the second)"
            )
        a0, a1, a2, a3 = values.tolist()
        if a0 != a0 or a1 != a1 or a2 != a2 or a3 != a3:
            raise InvalidAction(f"BipedalWalkerEnv.step got NaN in the action {action!r}")
        # Each magnitude clipped to 1, on plain floats: the same numbers the reference's numpy
        # clip gives, since the torque is rounded to float32 by Box2D either way.
        m0, m1, m2, m3 = (
            min(abs(a0), 1.0),
            min(abs(a1), 1.0),
            min(abs(a2), 1.0),
            min(abs(a3), 1.0),
        )
        hip0, knee0, hip1, knee1 = self.joints
        hip0.motorSpeed = SPEED_HIP * _sign(a0)
        hip0.maxMotorTorque = MOTORS_TORQUE * m0
        knee0.motorSpeed = SPEED_KNEE * _sign(a1)
        knee0.maxMotorTorque = MOTORS_TORQUE * m1
        hip1.motorSpeed = SPEED_HIP * _sign(a2)
        hip1.maxMotorTorque = MOTORS_TORQUE * m2
        knee1.motorSpeed = SPEED_KNEE * _sign(a3)
        knee1.maxMotorTorque = MOTORS_TORQUE * m3

        world = self.world
        world.Step(1.0 / FPS, 6 * 30, 2 * 30)
        position = hull.position
        x, y = position.x, position.y
        velocity = hull.linearVelocity
        if self.render_mode is None:
            lidar = self._lidar.scan(x, y, None)  # type: ignore[union-attr]
        else:
            self._lidar_start, self._lidar_ends = (x, y), []
            lidar = self._lidar.scan(x, y, self._lidar_ends)  # type: ignore[union-attr]
        contact = self._foot_contact
        angle = hull.angle
        state = [
            angle,
            2.0 * hull.angularVelocity / FPS,
            0.3 * velocity.x * (VIEWPORT_W / SCALE) / FPS,
            0.3 * velocity.y * (VIEWPORT_H / SCALE) / FPS,
            hip0.angle,
            hip0.speed / SPEED_HIP,
            knee0.angle + 1.0,
            knee0.speed / SPEED_KNEE,
            1.0 if contact[0] else 0.0,
            hip1.angle,
            hip1.speed / SPEED_HIP,
            knee1.angle + 1.0,
            knee1.speed / SPEED_KNEE,
            1.0 if contact[1] else 0.0,
            *lidar,
        ]
        self.scroll = x - VIEWPORT_W / SCALE / 5

        shaping = 130 * x / SCALE - 5.0 * abs(angle)
        reward = 0.0 if self.prev_shaping is None else shaping - self.prev_shaping
        self.prev_shaping = shaping
        # The reward's type is Gymnasium's: numpy's float of the action's precision, and the
        # fall penalty below a Python int.
        typed_reward: SupportsFloat
        if values.dtype != np.float32:
            for magnitude in (m0, m1, m2, m3):
                reward -= _ENERGY_COST * magnitude
            typed_reward = _float64(reward)
        else:
            # the reference's numpy arithmetic on a float32 action stays in float32
            reward = _round32(reward)
            for cost in _FLOAT32X4.unpack(
                _FLOAT32X4.pack(
                    _ENERGY_COST32 * m0,
                    _ENERGY_COST32 * m1,
                    _ENERGY_COST32 * m2,
                    _ENERGY_COST32 * m3,
                )
            ):
                reward = _round32(reward - cost)
            typed_reward = _float32(reward)

        terminated = False
        if self.game_over or x < 0:
            typed_reward, terminated = -100, True
        if x > FINISH_X:
            terminated = True
        if self.render_mode == "human":
            self.render()
        return np.array(state, dtype=np.float32), typed_reward, terminated, False, {}

    def _destroy(self) -> None:
        if not self.terrain:
            return
        world = self.world
        world.contactListener = None
        for body in (*self.terrain, self.hull, *self.legs):
            world.DestroyBody(body)
        self.terrain, self.legs, self.joints = [], [], []
        self.hull = None
        self._feet = {}

    # -- pickling: Box2D objects do not pickle, so a copy starts before its first reset ---

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.update(
            world=None,
            _definitions=None,
            terrain=[],
            hull=None,
            legs=[],
            joints=[],
            _feet={},
            _lidar=None,
            _terrain_paths=[],
            _window=None,
            _clock=None,
        )
        return state

    # -- rendering ---------------------------------------------------------------------

    def render(self) -> NDArray[np.uint8] | None:
        if self.render_mode is None:
            from protogym_box2d._render import warn_without_render_mode

            warn_without_render_mode(self)
            return None
        if self.hull is None:
            raise ResetNeeded(
                "BipedalWalkerEnv.render() was called before reset(); call reset() first"
            )
        from protogym_box2d import _render as draw

        pygame, gfxdraw = draw.pygame, draw.gfxdraw
        scroll = self.scroll
        # The reference draws on a surface as wide as the walker has come, then keeps its last
        # VIEWPORT_W columns. Only those are drawn here, plus a margin wider than any shape, so
        # that every visible shape keeps non-negative pixel coordinates, shifted by a whole
        # number of pixels (`left`): pygame rounds them the same way, so the pixels match.
        full_width = int(VIEWPORT_W + max(0.0, scroll) * SCALE)
        left = max(0, full_width - VIEWPORT_W - _RENDER_MARGIN)
        surface = pygame.Surface((full_width - left, VIEWPORT_H))

        def shifted(points: Any) -> list[tuple[float, float]]:
            return [(px - left, py) for px, py in points]

        sky_x = scroll * SCALE
        sky = [
            (sky_x, 0),
            (sky_x + VIEWPORT_W, 0),
            (sky_x + VIEWPORT_W, VIEWPORT_H),
            (sky_x, VIEWPORT_H),
        ]
        pygame.draw.polygon(surface, color=_SKY_COLOUR, points=shifted(sky))
        for points, x_min, x_max in self.cloud_poly:
            if x_max < scroll / 2 or x_min > scroll / 2 + VIEWPORT_W / SCALE:
                continue
            cloud = shifted((px * SCALE + scroll * SCALE / 2, py * SCALE) for px, py in points)
            pygame.draw.polygon(surface, color=(255, 255, 255), points=cloud)
            gfxdraw.aapolygon(surface, cloud, (255, 255, 255))
        for x0, y0, x1, y1 in self._ground:
            if x1 < scroll or x0 > scroll + VIEWPORT_W / SCALE:
                continue
            ground = shifted(
                (
                    (x0 * SCALE, y0 * SCALE),
                    (x1 * SCALE, y1 * SCALE),
                    (x1 * SCALE, 0.0),
                    (x0 * SCALE, 0.0),
                )
            )
            pygame.draw.polygon(surface, color=_GROUND_COLOUR, points=ground)
            gfxdraw.aapolygon(surface, ground, _GROUND_COLOUR)

        self.lidar_render = (self.lidar_render + 1) % 100
        sweep = self.lidar_render  # one ray per frame, out and back over 20 frames
        if sweep < 20 and self._lidar_ends:
            start_x, start_y = self._lidar_start
            end_x, end_y = self._lidar_ends[sweep if sweep < 10 else 19 - sweep]
            pygame.draw.line(
                surface,
                color=(255, 0, 0),
                start_pos=(start_x * SCALE - left, start_y * SCALE),
                end_pos=(end_x * SCALE - left, end_y * SCALE),
                width=1,
            )

        if not self._terrain_paths:
            self._terrain_paths = [_outline(body) for body in self.terrain]
        right = left + surface.get_width()
        for (paths, x_min, x_max), body in zip(self._terrain_paths, self.terrain, strict=True):
            if x_min <= right and x_max >= left:
                _draw_body(surface, draw, paths, (body.color1, body.color2), left)
        for body in (*self.legs, self.hull):
            _draw_body(surface, draw, _outline(body)[0], (body.color1, body.color2), left)

        pole_x = TERRAIN_STEP * 3 * SCALE - left
        pole_bottom = TERRAIN_HEIGHT * SCALE
        pole_top = pole_bottom + 50
        pygame.draw.aaline(
            surface, color=(0, 0, 0), start_pos=(pole_x, pole_bottom), end_pos=(pole_x, pole_top)
        )
        flag = [(pole_x, pole_top), (pole_x, pole_top - 10), (pole_x + 25, pole_top - 5)]
        pygame.draw.polygon(surface, color=(230, 51, 0), points=flag)
        pygame.draw.lines(surface, color=(0, 0, 0), points=[*flag, flag[0]], width=1, closed=False)

        surface = pygame.transform.flip(surface, False, True)
        view = surface.subsurface((surface.get_width() - VIEWPORT_W, 0, VIEWPORT_W, VIEWPORT_H))
        if self.render_mode == "human":
            if self._window is None:
                self._window, self._clock = draw.open_window("BipedalWalker", view.get_size())
            self._window.blit(view, (0, 0))
            pygame.event.pump()
            self._clock.tick(self.metadata["render_fps"])
            pygame.display.flip()
            return None
        return draw.pixels(view)

    def close(self) -> None:
        if self._window is not None:
            from protogym_box2d import _render as draw

            draw.close_window()
            self._window = self._clock = None



BipedalWalker = BipedalWalkerEnv
"""Gymnasium's name for the class."""


class BipedalWalkerHardcore(BipedalWalkerEnv):
    """The walker on hardcore terrain (stumps, stairs and pits), as
    ``BipedalWalkerHardcore-v3`` makes it.

    Gymnasium's class of this name only raises, pointing to ``make(..., hardcore=True)``;
    this one builds the env.
    """

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode, hardcore=True)


def _outline(body: Any) -> tuple[list[list[tuple[float, float]]], float, float]:
    """Each fixture's outline in pixels (through Box2D's own float32 transform, as the
    reference computes it), and the body's leftmost and rightmost pixel."""
    transform = body.transform
    paths = [
        [tuple(transform * vertex * SCALE) for vertex in fixture.shape.vertices]
        for fixture in body.fixtures
    ]
    xs = [x for path in paths for x, _ in path]
    return paths, min(xs), max(xs)


def _draw_body(
    surface: Any, draw: Any, paths: list[list[tuple[float, float]]], colours: Any, left: int
) -> None:
    """A body as the reference draws it: polygons filled and outlined, edges as lines."""
    fill, edge = colours
    for path in paths:
        points = [(x - left, y) for x, y in path]
        if len(points) > 2:
            draw.pygame.draw.polygon(surface, color=fill, points=points)
            draw.gfxdraw.aapolygon(surface, points, fill)
            points.append(points[0])
            draw.pygame.draw.polygon(surface, color=edge, points=points, width=1)
            draw.gfxdraw.aapolygon(surface, points, edge)
        else:
            draw.pygame.draw.aaline(surface, start_pos=points[0], end_pos=points[1], color=fill)


def _leg_colours(side: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The far leg (side -1) drawn lighter than the near one."""
    shade = side * 25
    return (153 - shade, 76 - shade, 127 - shade), (102 - shade, 51 - shade, 76 - shade)


def _sign(value: float) -> float:
    """numpy's sign: -1, 0 or 1."""
    return 1.0 if value > 0 else -1.0 if value < 0 else 0.0


def _round32(value: float) -> float:
    """`value` rounded to the nearest float32, as a Python float."""
    rounded: float = _FLOAT32.unpack(_FLOAT32.pack(value))[0]
    return rounded
