"""CarRacing's car: a rear-wheel-drive hull on four steered, spinning, skidding wheels.

The model is Gymnasium 1.4's (after Chris Campbell's top-down car tutorial): each wheel
keeps its own spin, the engine spins the rear wheels up, and the tyre force pulls the
wheel's ground speed toward its rolling speed, capped by the grip of what it stands on
(road or grass). The same Box2D bodies are built in the same order and the same
arithmetic runs in the same order, so a trajectory matches the reference to the bit.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from Box2D.b2 import fixtureDef, polygonShape, revoluteJointDef

from protogym_box2d.racing_track import sign

__all__ = ["SIZE", "WHEEL_R", "WHEEL_W", "RacingCar", "SkidMark", "Wheel"]

SIZE = 0.02  # world units per car unit
ENGINE_POWER = 100000000 * SIZE * SIZE
WHEEL_MOMENT_OF_INERTIA = 4000 * SIZE * SIZE
FRICTION_LIMIT = 1000000 * SIZE * SIZE  # grip on the road; grass gives 60% of it
WHEEL_R = 27
WHEEL_W = 14
WHEEL_POSITIONS = ((-55, +80), (+55, +80), (-55, -82), (+55, -82))  # front pair first
HULL_POLYGONS = (
    ((-60, +130), (+60, +130), (+60, +110), (-60, +110)),
    ((-15, +120), (+15, +120), (+20, +20), (-20, 20)),
    (
        (+25, +20),
        (+50, -10),
        (+50, -40),
        (+20, -90),
        (-20, -90),
        (-50, -40),
        (-50, -10),
        (-25, +20),
    ),
    ((-50, -120), (+50, -120), (+50, -90), (-50, -90)),
)
BRAKE_FORCE = 15  # radians per second taken off a wheel's spin at full brake
TYRE_STIFFNESS = 205000 * SIZE * SIZE  # tyre force per unit of slip, before the grip cap
MAX_SKID_POINTS = 30
MAX_SKID_MARKS = 30
ROAD_SKID_COLOUR = (0, 0, 0)
GRASS_SKID_COLOUR = (102, 102, 0)


@dataclass(slots=True)
class SkidMark:
    """A trace left by a sliding wheel: drawn in the rgb_array and human pictures only."""

    colour: tuple[int, int, int]
    points: list[tuple[float, float]]
    on_grass: bool


@dataclass(slots=True, eq=False)
class Wheel:
    """One wheel's controls and state; `body` is its Box2D body, whose userData is this."""

    body: Any
    joint: Any
    radius: float
    gas: float = 0.0
    brake: float = 0.0
    steer: float = 0.0
    phase: float = 0.0  # how far the wheel has turned (radians), for the drawn stripe
    omega: float = 0.0  # spin (radians per second)
    skidding: bool = False  # a skid began on the previous step
    skid_mark: SkidMark | None = None
    tiles: set[Any] = field(default_factory=set)  # road tiles under the wheel


class RacingCar:
    """The car's bodies in `world`, at (x, y) facing `angle`, and its driving controls."""

    def __init__(self, world: Any, angle: float, x: float, y: float) -> None:
        self.world = world
        self.hull = world.CreateDynamicBody(
            position=(x, y),
            angle=angle,
            fixtures=[
                fixtureDef(
                    shape=polygonShape(vertices=[(px * SIZE, py * SIZE) for px, py in polygon]),
                    density=1.0,
                )
                for polygon in HULL_POLYGONS
            ],
        )
        tyre = (
            (-WHEEL_W, +WHEEL_R),
            (+WHEEL_W, +WHEEL_R),
            (+WHEEL_W, -WHEEL_R),
            (-WHEEL_W, -WHEEL_R),
        )
        self.wheels: list[Wheel] = []
        for wx, wy in WHEEL_POSITIONS:
            body = world.CreateDynamicBody(
                position=(x + wx * SIZE, y + wy * SIZE),
                angle=angle,
                fixtures=fixtureDef(
                    shape=polygonShape(vertices=[(px * SIZE, py * SIZE) for px, py in tyre]),
                    density=0.1,
                    categoryBits=0x0020,
                    maskBits=0x001,
                    restitution=0.0,
                ),
            )
            joint = world.CreateJoint(
                revoluteJointDef(
                    bodyA=self.hull,
                    bodyB=body,
                    localAnchorA=(wx * SIZE, wy * SIZE),
                    localAnchorB=(0, 0),
                    enableMotor=True,
                    enableLimit=True,
                    maxMotorTorque=180 * 900 * SIZE * SIZE,
                    motorSpeed=0,
                    lowerAngle=-0.4,
                    upperAngle=+0.4,
                )
            )
            wheel = Wheel(body, joint, WHEEL_R * SIZE)
            body.userData = wheel
            self.wheels.append(wheel)
        self.skid_marks: deque[SkidMark] = deque(maxlen=MAX_SKID_MARKS)
        # The corners of each part as Box2D stores them, in Box2D's fixture order, for drawing.
        self.hull_outlines = [fixture.shape.vertices for fixture in self.hull.fixtures]
        self.wheel_outlines = [
            [fixture.shape.vertices for fixture in wheel.body.fixtures] for wheel in self.wheels
        ]

    # -- controls (the env clips them into the action box first) ------------------------

    def steer(self, target: float) -> None:
        """Turn the front wheels toward `target` (-1 full right ... +1 full left, in the
        wheel's frame); they get there at a limited speed."""
        self.wheels[0].steer = target
        self.wheels[1].steer = target

    def accelerate(self, gas: float) -> None:
        """Open the throttle of the rear wheels to `gas` in [0, 1]: at most 0.1 more per
        step, but closing it takes effect at once."""
        for wheel in self.wheels[2:4]:
            wheel.gas += min(gas - wheel.gas, 0.1)

    gas = accelerate  # Gymnasium's name

    def brake(self, force: float) -> None:
        """Brake all wheels; from 0.9 on they lock."""
        for wheel in self.wheels:
            wheel.brake = force

    # -- physics -----------------------------------------------------------------------

    def step(self, dt: float) -> None:
        """Apply one step of steering motors and tyre forces (before the world steps)."""
        for wheel in self.wheels:
            body = wheel.body
            off = wheel.steer - wheel.joint.angle
            wheel.joint.motorSpeed = sign(off) * min(50.0 * abs(off), 3.0)

            on_grass = not wheel.tiles
            grip = FRICTION_LIMIT * 0.6 if on_grass else FRICTION_LIMIT

            forward = body.GetWorldVector((0, 1))
            sideways = body.GetWorldVector((1, 0))
            fx, fy = forward.x, forward.y
            sx, sy = sideways.x, sideways.y
            velocity = body.linearVelocity
            vx, vy = velocity.x, velocity.y
            forward_speed = fx * vx + fy * vy
            side_speed = sx * vx + sy * vy

            # the engine's power spins the wheel up (the 5.0 keeps a still wheel finite)
            wheel.omega += (
                dt * ENGINE_POWER * wheel.gas / WHEEL_MOMENT_OF_INERTIA / (abs(wheel.omega) + 5.0)
            )
            if wheel.brake >= 0.9:
                wheel.omega = 0.0
            elif wheel.brake > 0:
                slowing = min(BRAKE_FORCE * wheel.brake, abs(wheel.omega))
                wheel.omega += -sign(wheel.omega) * slowing
            wheel.phase += wheel.omega * dt

            # the tyre pulls the ground speed toward the rolling speed, and sideways to zero
            forward_force = (-forward_speed + wheel.omega * wheel.radius) * TYRE_STIFFNESS
            side_force = -side_speed * TYRE_STIFFNESS
            force = math.sqrt(forward_force * forward_force + side_force * side_force)
            if force > 2.0 * grip:
                self._skid(wheel, on_grass)
            else:
                wheel.skidding = False
                wheel.skid_mark = None
            if force > grip:
                forward_force = forward_force / force * grip
                side_force = side_force / force * grip

            wheel.omega -= dt * forward_force * wheel.radius / WHEEL_MOMENT_OF_INERTIA
            body.ApplyForceToCenter(
                (side_force * sx + forward_force * fx, side_force * sy + forward_force * fy), True
            )

    def _skid(self, wheel: Wheel, on_grass: bool) -> None:
        """Extend the wheel's skid mark; a new one starts on the second sliding step."""
        x, y = wheel.body.position
        mark = wheel.skid_mark
        if mark is not None and mark.on_grass == on_grass and len(mark.points) < MAX_SKID_POINTS:
            mark.points.append((x, y))
        elif not wheel.skidding:
            wheel.skidding = True
        else:
            # The reference remembers where the skid began by reference to the live body
            # position, so a new mark starts with the current point twice.
            colour = GRASS_SKID_COLOUR if on_grass else ROAD_SKID_COLOUR
            wheel.skid_mark = SkidMark(colour, [(x, y), (x, y)], on_grass)
            self.skid_marks.append(wheel.skid_mark)
            wheel.skidding = False

    def destroy(self) -> None:
        self.world.DestroyBody(self.hull)
        for wheel in self.wheels:
            self.world.DestroyBody(wheel.body)
        self.wheels = []
