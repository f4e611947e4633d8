"""CarRacing: drive a car around a random track, seen from above in 96x96 pixels.

Gymnasium 1.4's CarRacing-v3, rebuilt: the track (`racing_track`) and the colours are drawn
from `np_random` in the same order, the car (`racing_car`) runs the same physics, and the
pictures (`_racing_canvas`) come from the same pygame calls, so a seed and an action
sequence give the same tracks, states, rewards and pixels as the reference.

Observation: the 96x96x3 uint8 picture, the road ahead of the car and a dashboard strip
(speed, wheel spins, steering, yaw rate, score). Continuous actions (3 float32): steering
in [-1, 1] (right is +1), gas and brake in [0, 1]; values outside the box act as the box's
bounds (the reference clips gas, and steering and brake saturate past their bounds), so
they are clipped. Discrete actions: 0 nothing, 1 steer right, 2 steer left, 3 gas,
4 brake. Reward: -0.1 a step, +1000/N for each of the N road tiles first touched; the
episode ends when the lap is done (`lap_complete_percent` of the tiles visited and the
start tile reached) and with -100 when the car leaves the playfield.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import protogym
from protogym.error import InvalidAction, ResetNeeded, UnsupportedMode
from protogym.spaces import Box, Discrete

try:
    import Box2D
    from Box2D.b2 import contactListener, fixtureDef, polygonShape
except ImportError as error:  # pragma: no cover - exercised without the engine
    raise ImportError(
        "CarRacing needs the box2d package, which is not installed: pip install "
        '"protogym-box2d" (it depends on box2d==2.3.10)'
    ) from error
try:
    from protogym_box2d import _racing_canvas as canvas
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "CarRacing draws its observations with pygame, which is not installed: pip install "
        '"protogym-box2d[render]"'
    ) from error
from protogym_box2d.racing_car import RacingCar, Wheel
from protogym_box2d.racing_track import PLAYFIELD, START_ALPHA, Track, generate_track

__all__ = ["CarRacing", "CarRacingEnv", "FrictionDetector"]

FPS = 50
Observation = NDArray[np.uint8]
Action = int | np.integer[Any] | NDArray[np.float32]

# (steering target, gas, brake) of each discrete action
_DISCRETE_CONTROLS = (
    (0.0, 0.0, 0.0),
    (-0.6, 0.0, 0.0),
    (0.6, 0.0, 0.0),
    (0.0, 0.2, 0.0),
    (0.0, 0.0, 0.8),
)
_ROAD_COLOUR = np.array([102, 102, 102])
_BACKGROUND_COLOUR = np.array([102, 204, 102])
_GRASS_COLOUR = np.array([102, 230, 102])


class _Tile:
    """A road tile's state, kept as its Box2D body's userData."""

    __slots__ = ("index", "polygon", "visited")

    def __init__(self, index: int, polygon: int) -> None:
        self.index = index  # along the track; 0 is the start
        self.polygon = polygon  # in the road's drawing list
        self.visited = False


class FrictionDetector(contactListener):
    """Tells the env when a wheel (or the hull) starts or stops touching a road tile."""

    def __init__(self, env: CarRacingEnv) -> None:
        contactListener.__init__(self)
        self.env = env

    def BeginContact(self, contact: Any) -> None:  # noqa: N802 - Box2D's callback name
        self.env._touch(contact.fixtureA.body.userData, contact.fixtureB.body.userData, True)

    def EndContact(self, contact: Any) -> None:  # noqa: N802 - Box2D's callback name
        self.env._touch(contact.fixtureA.body.userData, contact.fixtureB.body.userData, False)


class CarRacingEnv(protogym.Env[Observation, Action]):
    """Race around the track; see the module docstring for spaces, actions and rewards.

    The attributes carry Gymnasium's names and meaning. After a reset, `track` lists the
    track's points (polar angle, heading, x, y), `road` the tiles' Box2D bodies and
    `road_poly` their drawn polygons and colours, `car` is the `RacingCar`, and
    `tile_visited_count` counts the tiles touched so far; `reward` is the episode's running
    return, `t` its time in seconds, `state` the last observation, and `road_color`,
    `bg_color` and `grass_color` the colours (new ones each reset with `domain_randomize`).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "rgb_array", "state_pixels"],
        "render_fps": FPS,
    }
    observation_space: Box
    action_space: Box | Discrete
    render_mode: str | None
    start_alpha = START_ALPHA  # the polar angle of the start line, in radians

    def __init__(
        self,
        render_mode: str | None = None,
        verbose: bool = False,
        lap_complete_percent: float = 0.95,
        domain_randomize: bool = False,
        continuous: bool = True,
    ) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise UnsupportedMode(
                f"CarRacing does not support render_mode={render_mode!r}; choose one of "
                f"{self.metadata['render_modes']} or None"
            )
        if isinstance(lap_complete_percent, bool) or not (
            isinstance(lap_complete_percent, int | float) and 0 <= lap_complete_percent <= 1
        ):
            raise ValueError(
                "CarRacing lap_complete_percent is the fraction of the track's tiles to visit "
                f"before a lap counts, between 0 and 1 (e.g. 0.95); got {lap_complete_percent!r}"
            )
        self.render_mode = render_mode
        self.verbose = bool(verbose)
        self.lap_complete_percent = float(lap_complete_percent)
        self.domain_randomize = bool(domain_randomize)
        self.continuous = bool(continuous)
        self.observation_space = Box(0, 255, (canvas.STATE_H, canvas.STATE_W, 3), np.uint8)
        self.action_space = (
            Box(np.array([-1, 0, 0], np.float32), np.array([1, 1, 1], np.float32))
            if self.continuous
            else Discrete(5)
        )
        self.road_color: NDArray[Any] = _ROAD_COLOUR
        self.bg_color: NDArray[Any] = _BACKGROUND_COLOUR
        self.grass_color: NDArray[Any] = _GRASS_COLOUR
        if self.domain_randomize:
            self._randomize_colours()
        self.track: list[tuple[float, float, float, float]] = []
        self.car: RacingCar | None = None
        self.tile_visited_count = 0
        self.world: Any = None
        self.road: list[Any] = []
        # pybox2d drops its reference to a body's userData before the body's last contacts
        # end, so the env holds the tiles until their bodies are gone.
        self._tiles: list[_Tile] = []
        self._road_polygons: NDArray[np.float64] = np.empty((0, 4, 2))
        self._road_colours: list[tuple[int, int, int]] = []
        self.reward = self.prev_reward = 0.0
        self.t = 0.0
        self.new_lap = False
        self.state: Observation | None = None
        self._background_ints = self._grass_ints = (0, 0, 0)  # drawing colours, set by reset
        self._canvas: canvas.RacingCanvas | None = None
        self._window: Any = None
        self._clock: Any = None

    @property
    def road_poly(self) -> list[tuple[list[tuple[float, float]], tuple[int, int, int]]]:
        """The road as drawn: each tile's (and kerb's) corners, with its colour."""
        return [
            ([(float(x), float(y)) for x, y in corners], colour)
            for corners, colour in zip(self._road_polygons, self._road_colours, strict=True)
        ]

    def _randomize_colours(self) -> None:
        rng = self.np_random
        self.road_color = rng.uniform(0, 210, size=3)
        self.bg_color = rng.uniform(0, 210, size=3)
        self.grass_color = self.bg_color.copy()
        self.grass_color[rng.integers(3)] += 20

    # -- episodes ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        randomize = (options or {}).get("randomize", self.domain_randomize)
        if randomize and not self.domain_randomize:
            raise ValueError(
                "CarRacing reset(options={'randomize': True}) needs an env made with "
                "domain_randomize=True"
            )
        self._destroy()
        if self.world is None:
            self.world = Box2D.b2World((0, 0))
            self.world.contactListener_keepref = FrictionDetector(self)
            self.world.contactListener = self.world.contactListener_keepref
        self.reward = self.prev_reward = 0.0
        self.tile_visited_count = 0
        self.t = 0.0
        self.new_lap = False
        if randomize:
            self._randomize_colours()
        track = generate_track(self.np_random)
        while track is None:
            if self.verbose:
                print("CarRacing: the track did not close up; drawing another")
            track = generate_track(self.np_random)
        if self.verbose:
            print(f"CarRacing: a track of {len(track.points)} tiles")
        self._build_road(track)
        self._background_ints = _whole(self.bg_color)
        self._grass_ints = _whole(self.grass_color)
        self.car = RacingCar(self.world, *track.points[0][1:4])
        if self.render_mode == "human":
            self.render()
        obs, *_ = self._advance(self.car, acted=False)
        return obs, {}

    def _build_road(self, track: Track) -> None:
        """The tiles' sensor bodies, and the road's polygons in drawing order."""
        self.track = track.points
        road_color = self.road_color
        kerbs = {index: (quad, colour) for index, quad, colour in track.kerbs}
        polygons: list[Any] = []
        colours: list[tuple[int, int, int]] = []
        for index, quad in enumerate(track.tiles):
            body = self.world.CreateStaticBody(
                fixtures=fixtureDef(shape=polygonShape(vertices=quad))
            )
            tile = _Tile(index, len(polygons))
            body.userData = tile
            body.fixtures[0].sensor = True
            self.road.append(body)
            self._tiles.append(tile)
            polygons.append(quad)
            colours.append(_whole(road_color + 0.01 * (index % 3) * 255))
            if index in kerbs:
                polygons.append(kerbs[index][0])
                colours.append(kerbs[index][1])
        self._road_polygons = np.array(polygons, dtype=np.float64)
        self._road_colours = colours

    def _touch(self, a: Any, b: Any, begin: bool) -> None:
        """A contact between the bodies whose userData are `a` and `b` began or ended."""
        if isinstance(a, _Tile):
            tile, other = a, b
        elif isinstance(b, _Tile):
            tile, other = b, a
        else:
            return
        self._road_colours[tile.polygon] = _whole(self.road_color)  # as the reference does
        if not isinstance(other, Wheel):
            return
        if not begin:
            other.tiles.remove(tile)
            return
        other.tiles.add(tile)
        if not tile.visited:
            tile.visited = True
            self.reward += 1000.0 / len(self.track)
            self.tile_visited_count += 1
            if (
                tile.index == 0
                and self.tile_visited_count / len(self.track) > self.lap_complete_percent
            ):
                self.new_lap = True

    def step(self, action: Action) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        car = self.car
        if car is None:
            raise ResetNeeded("CarRacingEnv.step() was called before reset(); call reset() first")
        if self.continuous:
            steering, gas, brake = self._clipped(action)
            car.steer(-steering)
        else:
            if not self.action_space.contains(action):
                raise InvalidAction(
                    f"CarRacingEnv.step got the invalid action {action!r}: the action space is "
                    "Discrete(5), so pass 0 (nothing), 1 (steer right), 2 (steer left), 3 (gas) "
                    "or 4 (brake)"
                )
            target, gas, brake = _DISCRETE_CONTROLS[int(action)]
            car.steer(target)
        car.accelerate(gas)
        car.brake(brake)
        return self._advance(car, acted=True)

    def _clipped(self, action: Any) -> tuple[float, float, float]:
        """(steering, gas, brake) clipped into the action box, as floats."""
        values = action.tolist() if isinstance(action, np.ndarray) else action
        try:
            steering, gas, brake = (float(value) for value in values)
        except (TypeError, ValueError):
            steering = gas = brake = math.nan
        if not (math.isfinite(steering) and math.isfinite(gas) and math.isfinite(brake)):
            raise InvalidAction(
                f"CarRacingEnv.step got the invalid action {action!r}: pass 3 finite numbers "
                "(steering in [-1, 1], gas in [0, 1], brake in [0, 1])"
            )
        return min(max(steering, -1.0), 1.0), min(max(gas, 0.0), 1.0), min(max(brake, 0.0), 1.0)

    def _advance(
        self, car: RacingCar, acted: bool
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """One physics step and its picture; the reward only counts for steps that acted
        (reset runs one step that does not)."""
        car.step(1.0 / FPS)
        self.world.Step(1.0 / FPS, 6 * 30, 2 * 30)
        self.t += 1.0 / FPS
        obs = self.state = self._state_pixels(car)
        reward: SupportsFloat = 0.0
        terminated = False
        info: dict[str, Any] = {}
        if acted:
            self.reward -= 0.1
            reward = self.reward - self.prev_reward
            self.prev_reward = self.reward
            if self.tile_visited_count == len(self.track) or self.new_lap:
                terminated = True
                info["lap_finished"] = True
            x, y = car.hull.position
            if abs(x) > PLAYFIELD or abs(y) > PLAYFIELD:
                terminated = True
                info["lap_finished"] = False
                reward = -100  # a Python int, as Gymnasium returns it
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, False, info

    def _destroy(self) -> None:
        if self.car is None:
            return
        for body in self.road:
            self.world.DestroyBody(body)
        self.car.destroy()
        self.car = None
        self.road = []
        self._tiles = []

    # -- pickling: Box2D and pygame objects do not pickle, so a copy starts before its first
    # reset ---

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.update(
            world=None,
            car=None,
            road=[],
            _tiles=[],
            state=None,
            _canvas=None,
            _window=None,
            _clock=None,
        )
        return state

    # -- rendering ---------------------------------------------------------------------

    def _scene(self, car: RacingCar) -> canvas.Scene:
        x, y = car.hull.position
        return canvas.Scene(
            canvas.Camera.following(x, y, car.hull.angle, self.t),
            self._background_ints,
            self._grass_ints,
            self._road_polygons,
            self._road_colours,
        )

    def _canvas_ready(self) -> canvas.RacingCanvas:
        if self._canvas is None:
            self._canvas = canvas.RacingCanvas()
        return self._canvas

    def _state_pixels(self, car: RacingCar) -> Observation:
        painter = self._canvas_ready()
        frame = painter.draw(self._scene(car), car, self.reward, skid_marks=False)
        return painter.shrink(frame, (canvas.STATE_W, canvas.STATE_H))

    def render(self) -> NDArray[np.uint8] | None:
        if self.render_mode is None:
            from protogym_box2d._render import warn_without_render_mode

            warn_without_render_mode(self)
            return None
        car = self.car
        if car is None:
            raise ResetNeeded("CarRacingEnv.render() was called before reset(); call reset() first")
        if self.render_mode == "state_pixels":  # what the last step (or reset) saw
            assert self.state is not None
            return self.state.copy()
        painter = self._canvas_ready()
        frame = painter.draw(self._scene(car), car, self.reward, skid_marks=True)
        if self.render_mode == "rgb_array":
            return painter.shrink(frame, (canvas.VIDEO_W, canvas.VIDEO_H))
        from protogym_box2d import _render as draw

        if self._window is None:
            self._window, self._clock = draw.open_window(
                "CarRacing", (canvas.WINDOW_W, canvas.WINDOW_H)
            )
        draw.pygame.event.pump()
        self._clock.tick(self.metadata["render_fps"])
        self._window.fill(0)
        self._window.blit(frame, (0, 0))
        draw.pygame.display.flip()
        return None

    def close(self) -> None:
        if self._window is not None:
            from protogym_box2d import _render as draw

            draw.close_window()
            self._window = self._clock = None
        self._canvas = None

    def get_keys_to_action(self) -> dict[tuple[int, ...] | str, Any]:
        """Keys for `protogym play`: arrows (or W A S D) steer, give gas and brake, alone or
        together; continuous actions use full steering, full gas and 0.8 brake (the
        reference's own keyboard values), discrete ones the matching action."""
        from protogym_box2d import _render as draw

        pygame = draw.pygame
        if not self.continuous:
            return {
                (): 0,
                (pygame.K_RIGHT,): 1,
                "d": 1,
                (pygame.K_LEFT,): 2,
                "a": 2,
                (pygame.K_UP,): 3,
                "w": 3,
                (pygame.K_DOWN,): 4,
                "s": 4,
            }
        keys: dict[tuple[int, ...] | str, Any] = {}
        for left, right, up, down in (
            (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN),
            (ord("a"), ord("d"), ord("w"), ord("s")),
        ):
            for steering_keys, steering in (((), 0.0), ((left,), -1.0), ((right,), 1.0)):
                for gas_keys, gas in (((), 0.0), ((up,), 1.0)):
                    for brake_keys, brake in (((), 0.0), ((down,), 0.8)):
                        combination = tuple(sorted(steering_keys + gas_keys + brake_keys))
                        keys[combination] = np.array([steering, gas, brake], dtype=np.float32)
        return keys


def _whole(colour: NDArray[Any]) -> tuple[int, int, int]:
    """A colour as the ints pygame draws with (it truncates)."""
    red, green, blue = (int(channel) for channel in colour)
    return red, green, blue


CarRacing = CarRacingEnv
"""Gymnasium's name for the class."""
