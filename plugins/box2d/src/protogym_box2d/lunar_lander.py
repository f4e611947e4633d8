"""LunarLander: fire a lander's engines to set it down softly on the pad between the flags.

The dynamics are Gymnasium 1.4's LunarLander-v3: the same Box2D bodies and joints created in
the same order, the terrain and the initial push drawn from `np_random` in the same order,
and the same engine impulses, so a seed and an action sequence give the same trajectory.

Observation (8 float32): x and y relative to the pad (scaled), x and y velocity, angle,
angular velocity, and whether each leg touches the ground. Discrete actions: 0 nothing,
1 left engine, 2 main engine, 3 right engine. Continuous actions (2 float32 in [-1, 1],
clipped as in the reference): main throttle (off below 0, 50%-100% above) and side engines
(off in [-0.5, 0.5], left below, right above). The episode ends with -100 on a crash or
leaving the screen, and with +100 when the lander comes to rest.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import protogym
from protogym import logger
from protogym.error import InvalidAction, ResetNeeded, UnsupportedMode
from protogym.spaces import Box, Discrete

try:
    import Box2D
    from Box2D.b2 import (
        bodyDef,
        circleShape,
        contactListener,
        dynamicBody,
        edgeShape,
        fixtureDef,
        polygonShape,
        revoluteJointDef,
        staticBody,
    )
except ImportError as error:  # pragma: no cover - exercised without the engine
    raise ImportError(
        'LunarLander needs the box2d package, which is not installed: pip install '
        '"protogym-box2d" (it depends on box2d==2.3.10)'
    ) from error

__all__ = [
    "ContactDetector",
    "LunarLander",
    "LunarLanderContinuous",
    "LunarLanderEnv",
    "LunarLanderV2Env",
    "demo_heuristic_lander",
    "heuristic",
]

FPS = 50
SCALE = 30.0
MAIN_ENGINE_POWER = 13.0
SIDE_ENGINE_POWER = 0.6
INITIAL_RANDOM = 1000.0
LANDER_POLY = ((-14, 17), (-17, 0), (-17, -10), (17, -10), (17, 0), (14, 17))
LEG_AWAY, LEG_DOWN, LEG_W, LEG_H = 20, 18, 2, 8
LEG_SPRING_TORQUE = 40
SIDE_ENGINE_HEIGHT = 14
SIDE_ENGINE_AWAY = 12
MAIN_ENGINE_Y = 4
VIEWPORT_W, VIEWPORT_H = 600, 400
WORLD_W, WORLD_H = VIEWPORT_W / SCALE, VIEWPORT_H / SCALE
CHUNKS = 11

# Subexpressions of the reference's step, evaluated once with its own operations.
_DT = 1.0 / FPS
_HALF_W, _HALF_H = WORLD_W / 2, WORLD_H / 2
_LANDED_Y = WORLD_H / 4 + LEG_DOWN / SCALE  # the lander's y with its legs on the pad
_MAIN_ENGINE_OFFSET = MAIN_ENGINE_Y / SCALE
# The reference computes direction * SIDE_ENGINE_AWAY / SCALE; for a direction of +-1 that is
# +-(SIDE_ENGINE_AWAY / SCALE) exactly, since IEEE division is symmetric in sign.
_SIDE_ENGINE_AWAY = SIDE_ENGINE_AWAY / SCALE

Observation = NDArray[np.float32]
Action = int | np.integer[Any] | NDArray[np.float32]

_OBS_HIGH = np.array([2.5, 2.5, 10.0, 10.0, 2 * math.pi, 10.0, 1.0, 1.0], dtype=np.float32)
_OBS_LOW = np.array([-2.5, -2.5, -10.0, -10.0, -2 * math.pi, -10.0, -0.0, -0.0], dtype=np.float32)
_BODY_COLOURS = ((128, 102, 230), (77, 77, 128))
_NO_THROTTLE = np.zeros(2, dtype=np.float32)
_float64 = np.float64


class _GravityError(ValueError, AssertionError):
    """A gravity LunarLander cannot fly in; also an AssertionError, the class Gymnasium's
    check raises."""


class ContactDetector(contactListener):
    """Marks the lander crashed when its hull touches the moon, and tracks leg contacts."""

    def __init__(self, env: LunarLanderEnv) -> None:
        contactListener.__init__(self)
        self.env = env

    def BeginContact(self, contact: Any) -> None:  # noqa: N802 - Box2D's callback name
        bodies = (contact.fixtureA.body, contact.fixtureB.body)
        if self.env.lander in bodies:
            self.env.game_over = True
        for leg in self.env.legs:
            if leg in bodies:
                leg.ground_contact = True

    def EndContact(self, contact: Any) -> None:  # noqa: N802 - Box2D's callback name
        bodies = (contact.fixtureA.body, contact.fixtureB.body)
        for leg in self.env.legs:
            if leg in bodies:
                leg.ground_contact = False


class _Parts:
    """The Box2D definitions an episode's bodies are built from, made once per env.

    Box2D copies a definition into each body, fixture or joint it creates, so one set serves
    every episode; building them anew through pybox2d's keyword arguments took longer than
    a step's physics. Values and creation order are the reference's.
    """

    def __init__(self) -> None:
        self.body = bodyDef()
        # The moon: a bottom edge with pybox2d's default fixture, then the terrain chunks.
        self.ground_shape = edgeShape(vertices=[(0, 0), (WORLD_W, 0)])
        self.ground = fixtureDef(shape=self.ground_shape)
        self.chunk_shape: Any = edgeShape(vertices=[(0, 0), (1, 0)])  # moved per chunk
        self.chunk = fixtureDef(shape=self.chunk_shape, density=0, friction=0.1)
        self.hull_shape = polygonShape(vertices=[(x / SCALE, y / SCALE) for x, y in LANDER_POLY])
        self.hull = fixtureDef(
            shape=self.hull_shape,
            density=5.0,
            friction=0.1,
            categoryBits=0x0010,
            maskBits=0x001,
            restitution=0.0,
        )
        self.leg_shape = polygonShape(box=(LEG_W / SCALE, LEG_H / SCALE))
        self.leg = fixtureDef(
            shape=self.leg_shape, density=1.0, restitution=0.0, categoryBits=0x0020, maskBits=0x001
        )
        # how far each leg may fold: the left one between 0.4 and 0.9 rad, the right mirrored
        self.left_joint = self._leg_joint(-1, 0.4, 0.9)
        self.right_joint = self._leg_joint(+1, -0.9, -0.4)
        self.exhaust_shape = circleShape(radius=2 / SCALE, pos=(0, 0))
        self.exhaust: Any = fixtureDef(  # density set per particle
            shape=self.exhaust_shape,
            friction=0.1,
            categoryBits=0x0100,
            maskBits=0x001,
            restitution=0.3,
        )

    @staticmethod
    def _leg_joint(side: int, lower: float, upper: float) -> Any:
        joint = revoluteJointDef(
            localAnchorA=(0, 0),
            localAnchorB=(side * LEG_AWAY / SCALE, LEG_DOWN / SCALE),
            enableMotor=True,
            enableLimit=True,
            maxMotorTorque=LEG_SPRING_TORQUE,
            motorSpeed=0.3 * side,
        )
        joint.lowerAngle, joint.upperAngle = lower, upper
        return joint

    def body_at(
        self, world: Any, kind: Any, position: tuple[float, float], angle: float, fixture: Any
    ) -> Any:
        """A new body of `kind` in `world` with one fixture."""
        definition = self.body
        definition.type, definition.position, definition.angle = kind, position, angle
        body = world.CreateBody(definition)
        body.CreateFixture(fixture)
        return body


class LunarLanderEnv(protogym.Env[Observation, Action]):
    """Land on the pad; see the module docstring for spaces, actions and rewards."""

    # What v2 (`LunarLanderV2Env`) does differently, as class-level switches.
    _fresh_world_each_episode: ClassVar[bool] = True
    _exhaust_without_rendering: ClassVar[bool] = False
    _throttle_dtype: ClassVar[type[np.floating[Any]]] = np.float64

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}
    observation_space: Box
    action_space: Discrete | Box
    render_mode: str | None

    def __init__(
        self,
        render_mode: str | None = None,
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
    ) -> None:
        if not -12.0 < gravity < 0.0:
            raise _GravityError(
                f"LunarLander gravity must be between -12 and 0 (exclusive), got {gravity!r}"
            )
        # Outside these ranges the wind still works, but is stronger (or reversed) than the
        # env was tuned for: a warning, as Gymnasium gives.
        if not 0.0 <= wind_power <= 20.0:
            logger.warn(
                f"LunarLander wind_power={wind_power!r} is outside the tuned range [0, 20]"
            )
        if not 0.0 <= turbulence_power <= 2.0:
            logger.warn(
                f"LunarLander turbulence_power={turbulence_power!r} is outside the tuned "
                "range [0, 2]"
            )
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise UnsupportedMode(
                f"LunarLander does not support render_mode={render_mode!r}; choose one of "
                f"{self.metadata['render_modes']} or None"
            )
        self.render_mode = render_mode
        # exhaust particles only decorate the picture, so v3 simulates them only when drawn
        self._simulate_exhaust = render_mode is not None or self._exhaust_without_rendering
        self.continuous = bool(continuous)
        self.gravity = gravity
        self.enable_wind = bool(enable_wind)
        self.wind_power = wind_power
        self.turbulence_power = turbulence_power
        self.observation_space = Box(_OBS_LOW, _OBS_HIGH)
        self.action_space = (
            Box(-1.0, 1.0, (2,), np.float32) if self.continuous else Discrete(4)
        )
        self.world: Any = None
        self.moon: Any = None
        self.lander: Any = None
        # Views of the lander's position and velocity: pybox2d returns these vectors by
        # reference, so they follow the body without a new object on every read.
        self._position: Any = None
        self._velocity: Any = None
        self.legs: list[Any] = []
        self.particles: list[Any] = []
        self._parts: _Parts | None = None
        self._touchdown: ContactDetector | None = None
        self.game_over = False
        self.prev_shaping: float | None = None
        self.wind_idx = 0
        self.torque_idx = 0
        self.sky_polys: list[tuple[tuple[float, float], ...]] = []
        self.helipad_x1 = self.helipad_x2 = self.helipad_y = 0.0
        self._window: Any = None
        self._clock: Any = None

    @property
    def drawlist(self) -> list[Any]:
        """The bodies drawn on top of the terrain: the lander, then its legs."""
        return [] if self.lander is None else [self.lander, *self.legs]

    # -- episodes ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if self._parts is None:
            self._parts, self._touchdown = _Parts(), ContactDetector(self)
        parts, rng = self._parts, self.np_random
        # A fresh world each episode, as the reference makes (Box2D keeps contact caches
        # across bodies); the old one goes whole, so its bodies need no destroying first.
        if self._fresh_world_each_episode or self.world is None:
            self._forget_bodies()
            self.world = Box2D.b2World(gravity=(0, self.gravity))
        else:
            self._destroy()
        world = self.world
        world.contactListener = self._touchdown
        self.game_over = False
        self.prev_shaping = None

        heights = rng.uniform(0, WORLD_H / 2, size=(CHUNKS + 1,))
        xs = [WORLD_W / (CHUNKS - 1) * i for i in range(CHUNKS)]
        self.helipad_x1, self.helipad_x2 = xs[CHUNKS // 2 - 1], xs[CHUNKS // 2 + 1]
        self.helipad_y = WORLD_H / 4
        heights[CHUNKS // 2 - 2 : CHUNKS // 2 + 3] = self.helipad_y
        h = heights.tolist()
        smooth = [0.33 * (h[i - 1] + h[i + 0] + h[i + 1]) for i in range(CHUNKS)]
        self.moon = moon = parts.body_at(world, staticBody, (0, 0), 0.0, parts.ground)
        self.sky_polys = []
        for i in range(CHUNKS - 1):
            left, right = (xs[i], smooth[i]), (xs[i + 1], smooth[i + 1])
            parts.chunk_shape.vertex1, parts.chunk_shape.vertex2 = left, right
            moon.CreateFixture(parts.chunk)
            self.sky_polys.append((left, right, (right[0], WORLD_H), (left[0], WORLD_H)))

        start_x, start_y = WORLD_W / 2, WORLD_H
        self.lander = lander = parts.body_at(
            world, dynamicBody, (start_x, start_y), 0.0, parts.hull
        )
        push = (
            rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM),
            rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM),
        )
        lander.ApplyForceToCenter(push, True)
        self._position, self._velocity = lander.position, lander.linearVelocity
        if self.enable_wind and self._fresh_world_each_episode:
            self.wind_idx = int(rng.integers(-9999, 9999))
            self.torque_idx = int(rng.integers(-9999, 9999))
        self.legs = []
        for side, joint in ((-1, parts.left_joint), (+1, parts.right_joint)):
            leg = parts.body_at(
                world, dynamicBody, (start_x - side * LEG_AWAY / SCALE, start_y),
                side * 0.05, parts.leg,
            )
            leg.ground_contact = False
            joint.bodyA, joint.bodyB = lander, leg
            # what pybox2d's keyword constructor sets when given both bodies
            joint.referenceAngle = leg.angle - lander.angle
            leg.joint = world.CreateJoint(joint)
            self.legs.append(leg)
        if self.render_mode == "human":
            self.render()
        obs, *_ = self.step(_NO_THROTTLE if self.continuous else 0)
        return obs, {}

    def step(self, action: Action) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        lander = self.lander
        if lander is None:
            raise ResetNeeded("LunarLanderEnv.step() was called before reset(); call reset() first")
        legs = self.legs
        if self.enable_wind and not (legs[0].ground_contact or legs[1].ground_contact):
            lander.ApplyForceToCenter((_gust(self.wind_idx) * self.wind_power, 0.0), True)
            self.wind_idx += 1
            lander.ApplyTorque(_gust(self.torque_idx) * self.turbulence_power, True)
            self.torque_idx += 1

        # Plain floats from here on: the same IEEE arithmetic as the reference's numpy
        # scalars, at a fraction of the cost (the goldens pin this to the bit).
        if self.continuous:
            main, lateral = _throttle(action, self._throttle_dtype)
            fire_main, fire_side = main > 0.0, abs(lateral) > 0.5
        else:
            if not self.action_space.contains(action):
                raise InvalidAction(
                    f"LunarLanderEnv.step got the invalid action {action!r}: the action space "
                    "is Discrete(4), so pass 0 (nothing), 1 (left engine), 2 (main) or 3 "
                    "(right engine)"
                )
            engine = int(action)
            fire_main, fire_side = engine == 2, engine == 1 or engine == 3
        angle = lander.angle
        tip_x, tip_y = math.sin(angle), math.cos(angle)
        side_x, side_y = -tip_y, tip_x
        # The reference's two uniform(-1, 1) draws, as low + (high - low) * a unit draw
        # (NumPy's own formula); one call for both is cheaper than two.
        unit_a, unit_b = self.np_random.random(2).tolist()
        spread_a, spread_b = (-1.0 + 2.0 * unit_a) / SCALE, (-1.0 + 2.0 * unit_b) / SCALE
        position = self._position
        x, y = position.x, position.y

        main_power = 0.0
        if fire_main:
            main_power = 1.0 if not self.continuous else (main + 1.0) * 0.5
            offset = _MAIN_ENGINE_OFFSET + 2 * spread_a
            ox = tip_x * offset + side_x * spread_b
            oy = -tip_y * offset - side_y * spread_b
            where = (x + ox, y + oy)
            if self._simulate_exhaust:
                self._exhaust(ox, oy, where, MAIN_ENGINE_POWER, main_power, 3.5)
            lander.ApplyLinearImpulse(
                (-ox * MAIN_ENGINE_POWER * main_power, -oy * MAIN_ENGINE_POWER * main_power),
                where,
                True,
            )

        side_power = 0.0
        if fire_side:
            if self.continuous:
                direction = 1.0 if lateral > 0.0 else -1.0
                side_power = abs(lateral)
            else:
                direction = engine - 2
                side_power = 1.0
            lateral_offset = 3 * spread_b + direction * _SIDE_ENGINE_AWAY
            ox = tip_x * spread_a + side_x * lateral_offset
            oy = -tip_y * spread_a - side_y * lateral_offset
            where = (x + ox - tip_x * 17 / SCALE, y + oy + tip_y * SIDE_ENGINE_HEIGHT / SCALE)
            if self._simulate_exhaust:
                self._exhaust(ox, oy, where, SIDE_ENGINE_POWER, side_power, 0.7)
            lander.ApplyLinearImpulse(
                (-ox * SIDE_ENGINE_POWER * side_power, -oy * SIDE_ENGINE_POWER * side_power),
                where,
                True,
            )

        self.world.Step(_DT, 6 * 30, 2 * 30)
        velocity = self._velocity
        # the observation, named for the shaping below
        dx = (position.x - _HALF_W) / _HALF_W
        dy = (position.y - _LANDED_Y) / _HALF_H
        vx = velocity.x * _HALF_W / FPS
        vy = velocity.y * _HALF_H / FPS
        angle = lander.angle
        left_contact = 1.0 if legs[0].ground_contact else 0.0
        right_contact = 1.0 if legs[1].ground_contact else 0.0
        observation = np.array(
            (dx, dy, vx, vy, angle, 20.0 * lander.angularVelocity / FPS, left_contact,
             right_contact),
            np.float32,
        )
        shaping = (
            -100 * math.sqrt(dx * dx + dy * dy)
            - 100 * math.sqrt(vx * vx + vy * vy)
            - 100 * abs(angle)
            + 10 * left_contact
            + 10 * right_contact
        )
        reward = 0.0 if self.prev_shaping is None else shaping - self.prev_shaping
        self.prev_shaping = shaping
        reward -= main_power * 0.30  # fuel
        reward -= side_power * 0.03
        # The reward's type is Gymnasium's: a numpy float64, and the end-of-episode rewards
        # Python ints.
        typed_reward: SupportsFloat = _float64(reward)
        terminated = False
        if self.game_over or abs(dx) >= 1.0:
            terminated, typed_reward = True, -100
        if not lander.awake:
            terminated, typed_reward = True, +100
        if self.render_mode == "human":
            self.render()
        return observation, typed_reward, terminated, False, {}

    def _exhaust(
        self,
        ox: float,
        oy: float,
        where: tuple[float, float],
        engine_power: float,
        throttle: float,
        particle_mass: float,
    ) -> None:
        """A particle pushed out of an engine firing at `where` with the (ox, oy) impulse
        direction, as the lander is pushed the other way."""
        particle = self._make_particle(particle_mass, where[0], where[1], throttle)
        particle.ApplyLinearImpulse(
            (ox * engine_power * throttle, oy * engine_power * throttle), where, True
        )

    def _make_particle(self, mass: float, x: float, y: float, life: float) -> Any:
        assert self._parts is not None
        exhaust = self._parts.exhaust
        exhaust.density = mass
        particle = self._parts.body_at(self.world, dynamicBody, (x, y), 0.0, exhaust)
        particle.ttl = life
        self.particles.append(particle)
        self._drop_particles(everything=False)
        return particle

    def _drop_particles(self, everything: bool) -> None:
        while self.particles and (everything or self.particles[0].ttl < 0):
            self.world.DestroyBody(self.particles.pop(0))

    def _destroy(self) -> None:
        """Removes this episode's bodies from a world that serves the next one too."""
        if self.moon is not None:
            self.world.contactListener = None
            self._drop_particles(everything=True)
            for body in (self.moon, self.lander, *self.legs):
                self.world.DestroyBody(body)
        self._forget_bodies()

    def _forget_bodies(self) -> None:
        self.moon = self.lander = self._position = self._velocity = None
        self.legs, self.particles = [], []

    # -- pickling: Box2D objects do not pickle, so a copy starts before its first reset ---

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.update(world=None, moon=None, lander=None, _position=None, _velocity=None,
                     legs=[], particles=[], _parts=None, _touchdown=None, _window=None,
                     _clock=None)
        return state

    # -- rendering ---------------------------------------------------------------------

    def render(self) -> NDArray[np.uint8] | None:
        if self.render_mode is None:
            from protogym_box2d._render import warn_without_render_mode

            warn_without_render_mode(self)
            return None
        if self.lander is None:
            raise ResetNeeded(
                "LunarLanderEnv.render() was called before reset(); call reset() first"
            )
        from protogym_box2d import _render as draw

        pygame = draw.pygame
        surface = pygame.Surface((VIEWPORT_W, VIEWPORT_H))
        pygame.draw.rect(surface, (255, 255, 255), surface.get_rect())
        for particle in self.particles:
            particle.ttl -= 0.15
            shade = (
                int(max(0.2, 0.15 + particle.ttl) * 255),
                int(max(0.2, 0.5 * particle.ttl) * 255),
                int(max(0.2, 0.5 * particle.ttl) * 255),
            )
            particle.colour = shade
        self._drop_particles(everything=False)
        for polygon in self.sky_polys:
            points = [(x * SCALE, y * SCALE) for x, y in polygon]
            pygame.draw.polygon(surface, (0, 0, 0), points)
            draw.gfxdraw.aapolygon(surface, points, (0, 0, 0))
        # The reference draws the flags after every fixture; their anti-aliased edges blend
        # again each time, so the same count of draws gives the same pixels.
        for particle in self.particles:
            for fixture in particle.fixtures:
                centre = fixture.body.transform * fixture.shape.pos * SCALE
                radius = fixture.shape.radius * SCALE
                pygame.draw.circle(surface, color=particle.colour, center=centre, radius=radius)
                pygame.draw.circle(surface, color=particle.colour, center=centre, radius=radius)
                self._draw_flags(surface, draw)
        fill, edge = _BODY_COLOURS
        for body in (self.lander, *self.legs):
            for fixture in body.fixtures:
                transform = fixture.body.transform
                path = [transform * vertex * SCALE for vertex in fixture.shape.vertices]
                pygame.draw.polygon(surface, color=fill, points=path)
                draw.gfxdraw.aapolygon(surface, path, fill)
                pygame.draw.aalines(surface, color=edge, points=path, closed=True)
                self._draw_flags(surface, draw)
        surface = pygame.transform.flip(surface, False, True)
        if self.render_mode == "human":
            if self._window is None:
                self._window, self._clock = draw.open_window("LunarLander", surface.get_size())
            self._window.blit(surface, (0, 0))
            pygame.event.pump()
            self._clock.tick(self.metadata["render_fps"])
            pygame.display.flip()
            return None
        return draw.pixels(surface)

    def _draw_flags(self, surface: Any, draw: Any) -> None:
        for x in (self.helipad_x1 * SCALE, self.helipad_x2 * SCALE):
            bottom = self.helipad_y * SCALE
            top = bottom + 50
            draw.pygame.draw.line(surface, color=(255, 255, 255), start_pos=(x, bottom),
                                  end_pos=(x, top), width=1)
            flag = [(x, top), (x, top - 10), (x + 25, top - 5)]
            draw.pygame.draw.polygon(surface, color=(204, 204, 0), points=flag)
            draw.gfxdraw.aapolygon(surface, flag, (204, 204, 0))

    def close(self) -> None:
        if self._window is not None:
            from protogym_box2d import _render as draw

            draw.close_window()
            self._window = self._clock = None

    def get_keys_to_action(self) -> dict[tuple[int, ...] | str, int]:
        """Keys for `protogym play`: W or Up fires the main engine, A/Left and D/Right the
        side engines (the left engine pushes the lander right, as in the reference)."""
        from protogym_box2d import _render as draw

        pygame = draw.pygame
        return {
            (): 0,
            "w": 2, (pygame.K_UP,): 2,
            "a": 1, (pygame.K_LEFT,): 1,
            "d": 3, (pygame.K_RIGHT,): 3,
        }


def _throttle(action: Any, dtype: type[np.floating[Any]]) -> tuple[float, float]:
    """A continuous action's (main, lateral) throttles clipped into [-1, 1] after conversion
    to `dtype`, as the reference clips them (NaN passes through, as with `np.clip`)."""
    if type(action) is np.ndarray and action.dtype.char == "f":
        values = action.tolist()  # float32 values are exact in either dtype: no conversion
    else:
        values = np.asarray(action, dtype=dtype).tolist()
    try:
        main, lateral = values
        return (
            -1.0 if main < -1.0 else 1.0 if main > 1.0 else main,
            -1.0 if lateral < -1.0 else 1.0 if lateral > 1.0 else lateral,
        )
    except (TypeError, ValueError):
        raise InvalidAction(
            f"LunarLanderContinuous got the action {action!r}: pass two floats, the main "
            "engine's throttle and the side engines' (an array of shape (2,))"
        ) from None


def _gust(index: int) -> float:
    """The wind and turbulence pattern: a smooth, non-repeating function of the step."""
    return math.tanh(math.sin(0.02 * index) + math.sin(math.pi * 0.01 * index))


class LunarLanderV2Env(LunarLanderEnv):
    """LunarLander as gym 0.26 has it (the seeds' LunarLander-v2), for reproducing old results.

    Its differences from v3 are kept on purpose: the wind phase is drawn once, when the env is
    built, from NumPy's global generator (so `reset(seed=...)` does not set it, and it runs on
    across episodes); one Box2D world serves every episode; continuous actions are clipped in
    float32; exhaust particles are simulated even when nothing is drawn. One is not: gym
    0.26 declared bounds (|x|, |y| <= 1.5) that its own observations leave, which breaks the
    contract, so v2 declares v3's bounds; the observations themselves are gym 0.26's.
    """

    _fresh_world_each_episode: ClassVar[bool] = False
    _exhaust_without_rendering: ClassVar[bool] = True
    _throttle_dtype: ClassVar[type[np.floating[Any]]] = np.float32

    def __init__(
        self,
        render_mode: str | None = None,
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
    ) -> None:
        super().__init__(
            render_mode, continuous, gravity, enable_wind, wind_power, turbulence_power
        )
        self.wind_idx = int(np.random.randint(-9999, 9999))  # global, as gym 0.26
        self.torque_idx = int(np.random.randint(-9999, 9999))
        self.world = Box2D.b2World(gravity=(0, gravity))


LunarLander = LunarLanderEnv
"""Gymnasium's name for the class."""


class LunarLanderContinuous(LunarLanderEnv):
    """LunarLander with the continuous engines, as ``LunarLanderContinuous-v3`` makes it.

    Gymnasium's class of this name only raises, pointing to ``make(..., continuous=True)``;
    this one builds the env.
    """

    def __init__(
        self,
        render_mode: str | None = None,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
    ) -> None:
        super().__init__(render_mode, True, gravity, enable_wind, wind_power, turbulence_power)


def heuristic(env: Any, s: Observation) -> int | NDArray[np.float32]:
    """The hand-written pilot's action for observation `s`, discrete or continuous as `env`'s
    actions are (Gymnasium's signature; the pilot is `protogym_box2d.heuristics`)."""
    from protogym_box2d import heuristics

    if env.unwrapped.continuous:
        return heuristics.lunar_lander_continuous(s)
    return heuristics.lunar_lander(s)


def demo_heuristic_lander(env: Any, seed: int | None = None, render: bool = False) -> float:
    """Fly one episode of `env` with `heuristic` and return its total reward; with `render`,
    draw each step and close the env at the end."""
    total = 0.0
    observation, _ = env.reset(seed=seed)
    while True:
        observation, reward, terminated, truncated, _ = env.step(heuristic(env, observation))
        total += float(reward)
        if render:
            env.render()
        if terminated or truncated:
            break
    if render:
        env.close()
    return total
