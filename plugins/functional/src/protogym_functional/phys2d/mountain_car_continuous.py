"""MountainCarContinuous as a functional env: pure jax functions of an explicit state and key.

The dynamics, constants and rewards of protogym's classic `MountainCarContinuous-v0` in
float32: the engine force is clipped to [-1, 1], the energy cost uses the action as given.
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
from protogym.spaces import Box, Space
from protogym.vector.vector_env import AutoresetMode
from protogym_functional._adapters import configured, single_metadata, vector_metadata
from protogym_functional._checks import make_params, no_render_options
from protogym_functional.phys2d.mountain_car import draw_hill, drive

if TYPE_CHECKING:
    from protogym_classic_control.rendering import Canvas

__all__ = [
    "MountainCarContinuousFunctional",
    "MountainCarContinuousJaxEnv",
    "MountainCarContinuousJaxVectorEnv",
    "MountainCarContinuousParams",
    "arrived",
]


class MountainCarContinuousParams(NamedTuple):
    """The hill's constants, the goal and the initial range (a pytree: jit may trace it)."""

    min_action: float = -1.0
    max_action: float = 1.0
    min_position: float = -1.2
    max_position: float = 0.6
    max_speed: float = 0.07
    goal_position: float = 0.45
    goal_velocity: float = 0.0
    power: float = 0.0015
    gravity: float = 0.0025
    low: float = -0.6  # the initial position is uniform in [low, high]; the velocity is 0
    high: float = -0.4


_DEFAULTS = MountainCarContinuousParams()
_OBS_LOW = np.array([_DEFAULTS.min_position, -_DEFAULTS.max_speed], dtype=np.float32)
_OBS_HIGH = np.array([_DEFAULTS.max_position, _DEFAULTS.max_speed], dtype=np.float32)


def _force(action: ArrayLike) -> jax.Array:
    return jnp.reshape(jnp.asarray(action, jnp.float32), -1)[0]


def arrived(state: jax.Array, p: MountainCarContinuousParams) -> jax.Array:
    """Whether the car is at the flag, fast enough (the methods call this rather than
    `terminal`, which `transform` may have replaced)."""
    return (state[0] >= p.goal_position) & (state[1] >= p.goal_velocity)


class MountainCarContinuousFunctional(
    FuncEnv[
        jax.Array,
        jax.Array,
        ArrayLike,
        jax.Array,
        jax.Array,
        "Canvas",
        MountainCarContinuousParams,
    ]
):
    """Reach the flag at 0.45: +100 on arrival, minus 0.1 force^2 every step.

    State and observation: float32 `[position, velocity]`. Action: a shape-(1,) engine force,
    clipped to [-1, 1].
    """

    observation_space: Space[Any] = Box(_OBS_LOW, _OBS_HIGH, dtype=np.float32)
    action_space = Box(_DEFAULTS.min_action, _DEFAULTS.max_action, shape=(1,), dtype=np.float32)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 30}
    default_params: MountainCarContinuousParams

    def initial(
        self, rng: jax.Array, params: MountainCarContinuousParams | None = None
    ) -> jax.Array:
        p = self.default_params if params is None else params
        position = jax.random.uniform(rng, (), jnp.float32, p.low, p.high)
        return jnp.stack([position, jnp.float32(0.0)])

    def transition(
        self,
        state: jax.Array,
        action: ArrayLike,
        rng: Any = None,
        params: MountainCarContinuousParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        push = jnp.clip(_force(action), p.min_action, p.max_action) * p.power
        return drive(state, push, p.gravity, p.min_position, p.max_position, p.max_speed)

    def observation(
        self, state: jax.Array, rng: Any = None, params: MountainCarContinuousParams | None = None
    ) -> jax.Array:
        return state

    def terminal(
        self, state: jax.Array, rng: Any = None, params: MountainCarContinuousParams | None = None
    ) -> jax.Array:
        return arrived(state, self.default_params if params is None else params)

    def reward(
        self,
        state: jax.Array,
        action: ArrayLike,
        next_state: jax.Array,
        rng: Any = None,
        params: MountainCarContinuousParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        bonus = jnp.where(arrived(next_state, p), 100.0, 0.0)
        return (bonus - 0.1 * _force(action) ** 2).astype(jnp.float32)

    def get_default_params(self, **kwargs: Any) -> MountainCarContinuousParams:
        """`MountainCarContinuousParams` with `kwargs` replacing its defaults."""
        return make_params(MountainCarContinuousParams, kwargs)

    def render_init(
        self,
        params: MountainCarContinuousParams | None = None,
        screen_width: int = 600,
        screen_height: int = 400,
        **kwargs: Any,
    ) -> Canvas:
        """An off-screen canvas of the classic env's size (600 x 400 by default)."""
        from protogym_functional._render import open_canvas

        owner = "MountainCarContinuousFunctional"
        no_render_options(owner, kwargs)
        return open_canvas(owner, screen_width, screen_height, 30)

    def render_image(
        self,
        state: jax.Array,
        render_state: Canvas,
        params: MountainCarContinuousParams | None = None,
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        p = self.default_params if params is None else params
        frame = draw_hill(render_state, state, p.min_position, p.max_position, p.goal_position)
        return render_state, frame

    def render_close(
        self, render_state: Canvas, params: MountainCarContinuousParams | None = None
    ) -> None:
        render_state.close()


class MountainCarContinuousJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Drive the car up to the flag with a continuous force
    (`MountainCarContinuousFunctional` through the `Env` API); keyword arguments replace
    fields of its `MountainCarContinuousParams`."""

    metadata = single_metadata(MountainCarContinuousFunctional.metadata)

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        func_env = configured(MountainCarContinuousFunctional(), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class MountainCarContinuousJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.float32], ArrayLike]
):
    """`num_envs` MountainCarContinuous envs as one compiled `VectorEnv`: a time limit of
    `max_episode_steps` (0: none), next-step autoreset unless `autoreset_mode` says
    otherwise; keyword arguments replace the default params."""

    metadata = vector_metadata(MountainCarContinuousFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 999,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **params: Any,
    ) -> None:
        func_env = configured(MountainCarContinuousFunctional(), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(MountainCarContinuousFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
