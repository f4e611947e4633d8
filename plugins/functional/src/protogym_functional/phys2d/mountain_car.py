"""MountainCar as a functional env: pure jax functions of an explicit state and key.

The dynamics, constants and rewards of protogym's classic `MountainCar-v0` in float32. The
hill (`drive`) and the frame (`draw_hill`) are shared with `mountain_car_continuous`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike
from numpy.typing import NDArray

from protogym.envs.functional_jax_env import FunctionalJaxEnv, FunctionalJaxVectorEnv
from protogym.functional import FuncEnv
from protogym.spaces import Box, Discrete, Space
from protogym.vector.vector_env import AutoresetMode
from protogym_functional._adapters import configured, single_metadata, vector_metadata
from protogym_functional._checks import make_params, no_render_options

if TYPE_CHECKING:
    from protogym_classic_control.rendering import Canvas

__all__ = [
    "MountainCarFunctional",
    "MountainCarJaxEnv",
    "MountainCarJaxVectorEnv",
    "MountainCarParams",
    "draw_hill",
    "drive",
]


class MountainCarParams(NamedTuple):
    """The hill's constants, the goal and the initial range (a pytree: jit may trace it)."""

    min_position: float = -1.2
    max_position: float = 0.6
    max_speed: float = 0.07
    goal_position: float = 0.5
    goal_velocity: float = 0.0
    force: float = 0.001
    gravity: float = 0.0025
    low: float = -0.6  # the initial position is uniform in [low, high]; the velocity is 0
    high: float = -0.4


_DEFAULTS = MountainCarParams()
_OBS_LOW = np.array([_DEFAULTS.min_position, -_DEFAULTS.max_speed], dtype=np.float32)
_OBS_HIGH = np.array([_DEFAULTS.max_position, _DEFAULTS.max_speed], dtype=np.float32)


def drive(
    state: jax.Array,
    push: jax.Array,
    gravity: float,
    min_position: float,
    max_position: float,
    max_speed: float,
) -> jax.Array:
    """One step on the hill y = 0.45 sin(3x) + 0.55 under the engine's `push`: speed and
    position clipped, and the left wall stops a car that runs into it."""
    position, velocity = state[0], state[1]
    velocity = velocity + push - gravity * jnp.cos(3 * position)
    velocity = jnp.clip(velocity, -max_speed, max_speed)
    position = jnp.clip(position + velocity, min_position, max_position)
    velocity = jnp.where((position == min_position) & (velocity < 0), 0.0, velocity)
    return jnp.stack([position, velocity]).astype(jnp.float32)


def draw_hill(
    canvas: Canvas, state: jax.Array, min_position: float, max_position: float, goal: float
) -> NDArray[np.uint8]:
    """The classic env's frame: the hill, the car at the state's position, the flag."""
    from protogym_functional._render import finish, host_floats, rendering

    surface = canvas.begin()
    position = host_floats(state)[0]
    rendering.draw_mountain_car(
        canvas, surface, position, float(min_position), float(max_position), float(goal)
    )
    return finish(canvas)


class MountainCarFunctional(
    FuncEnv[jax.Array, jax.Array, ArrayLike, jax.Array, jax.Array, "Canvas", MountainCarParams]
):
    """Drive the underpowered car up to the flag at 0.5 by rocking it: -1 per step.

    State and observation: float32 `[position, velocity]`. Action: 0 accelerates left, 1
    coasts, 2 accelerates right.
    """

    observation_space: Space[Any] = Box(_OBS_LOW, _OBS_HIGH, dtype=np.float32)
    action_space = Discrete(3)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 30}
    default_params: MountainCarParams

    def initial(self, rng: jax.Array, params: MountainCarParams | None = None) -> jax.Array:
        p = self.default_params if params is None else params
        position = jax.random.uniform(rng, (), jnp.float32, p.low, p.high)
        return jnp.stack([position, jnp.float32(0.0)])

    def transition(
        self,
        state: jax.Array,
        action: ArrayLike,
        rng: Any = None,
        params: MountainCarParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        push = (jnp.asarray(action, jnp.float32) - 1.0) * p.force
        return drive(state, push, p.gravity, p.min_position, p.max_position, p.max_speed)

    def observation(
        self, state: jax.Array, rng: Any = None, params: MountainCarParams | None = None
    ) -> jax.Array:
        return state

    def terminal(
        self, state: jax.Array, rng: Any = None, params: MountainCarParams | None = None
    ) -> jax.Array:
        p = self.default_params if params is None else params
        return (state[0] >= p.goal_position) & (state[1] >= p.goal_velocity)

    def reward(
        self,
        state: jax.Array,
        action: ArrayLike,
        next_state: jax.Array,
        rng: Any = None,
        params: MountainCarParams | None = None,
    ) -> jax.Array:
        return jnp.asarray(-1.0, jnp.float32)

    def get_default_params(self, **kwargs: Any) -> MountainCarParams:
        """`MountainCarParams` with `kwargs` replacing its defaults."""
        return make_params(MountainCarParams, kwargs)

    def render_init(
        self,
        params: MountainCarParams | None = None,
        screen_width: int = 600,
        screen_height: int = 400,
        **kwargs: Any,
    ) -> Canvas:
        """An off-screen canvas of the classic env's size (600 x 400 by default)."""
        from protogym_functional._render import open_canvas

        no_render_options("MountainCarFunctional", kwargs)
        return open_canvas("MountainCarFunctional", screen_width, screen_height, 30)

    def render_image(
        self, state: jax.Array, render_state: Canvas, params: MountainCarParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        p = self.default_params if params is None else params
        frame = draw_hill(render_state, state, p.min_position, p.max_position, p.goal_position)
        return render_state, frame

    def render_close(self, render_state: Canvas, params: MountainCarParams | None = None) -> None:
        render_state.close()


class MountainCarJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Rock the underpowered car up to the flag (`MountainCarFunctional` through
    the `Env` API); keyword arguments replace fields of its `MountainCarParams`."""

    metadata = single_metadata(MountainCarFunctional.metadata)

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        func_env = configured(MountainCarFunctional(), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class MountainCarJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.float32], ArrayLike]
):
    """`num_envs` MountainCars as one compiled `VectorEnv`: a time limit of
    `max_episode_steps` (0: none), next-step autoreset unless `autoreset_mode` says
    otherwise; keyword arguments replace the default params."""

    metadata = vector_metadata(MountainCarFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 200,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **params: Any,
    ) -> None:
        func_env = configured(MountainCarFunctional(), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(MountainCarFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
