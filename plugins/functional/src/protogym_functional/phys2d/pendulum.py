"""Pendulum as a functional env: pure jax functions of an explicit state and key.

The dynamics, constants and costs of protogym's classic `Pendulum-v1` in float32. The state
also keeps the last torque applied (0 after `initial`), which the frame draws as an arrow, so
a functional frame equals the classic env's frame of the same state.
"""

from __future__ import annotations

import math
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

if TYPE_CHECKING:
    from protogym_classic_control.rendering import Canvas

__all__ = ["PendulumFunctional", "PendulumJaxEnv", "PendulumJaxVectorEnv", "PendulumParams"]


class PendulumParams(NamedTuple):
    """The physical constants and the initial-state range (a pytree: jit may trace it)."""

    max_speed: float = 8.0
    max_torque: float = 2.0
    dt: float = 0.05
    g: float = 10.0
    m: float = 1.0
    l: float = 1.0  # noqa: E741 (the pendulum's length, named as in Gymnasium)
    x_init: float = math.pi  # the initial angle is uniform in [-x_init, x_init]
    y_init: float = 1.0  # the initial angular velocity is uniform in [-y_init, y_init]


_DEFAULTS = PendulumParams()
_OBS_HIGH = np.array([1.0, 1.0, _DEFAULTS.max_speed], dtype=np.float32)


def angle_normalize(angle: jax.Array) -> jax.Array:
    """`angle` wrapped into [-pi, pi)."""
    return ((angle + math.pi) % (2 * math.pi)) - math.pi


class PendulumFunctional(
    FuncEnv[jax.Array, jax.Array, ArrayLike, jax.Array, jax.Array, "Canvas", PendulumParams]
):
    """Swing the pendulum up and hold it: the cost is theta^2 + 0.1 theta_dot^2 +
    0.001 torque^2, with theta = 0 upright.

    State: float32 `[theta, theta_dot, last_torque]`. Observation: float32
    `[cos(theta), sin(theta), theta_dot]`. Action: a shape-(1,) torque, clipped to [-2, 2].
    There is no termination.
    """

    observation_space: Space[Any] = Box(-_OBS_HIGH, _OBS_HIGH, dtype=np.float32)
    action_space = Box(-_DEFAULTS.max_torque, _DEFAULTS.max_torque, shape=(1,), dtype=np.float32)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 30}
    default_params: PendulumParams

    def initial(self, rng: jax.Array, params: PendulumParams | None = None) -> jax.Array:
        p = self.default_params if params is None else params
        high = jnp.array([p.x_init, p.y_init], dtype=jnp.float32)
        theta, theta_dot = jax.random.uniform(rng, (2,), jnp.float32, -high, high)
        return jnp.stack([theta, theta_dot, jnp.float32(0.0)])

    def _torque(self, action: ArrayLike, p: PendulumParams) -> jax.Array:
        torque = jnp.reshape(jnp.asarray(action, jnp.float32), -1)[0]
        clipped: jax.Array = jnp.clip(torque, -p.max_torque, p.max_torque)
        return clipped

    def transition(
        self,
        state: jax.Array,
        action: ArrayLike,
        rng: Any = None,
        params: PendulumParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        theta, theta_dot = state[0], state[1]
        u = self._torque(action, p)
        acceleration = 3.0 / (p.m * p.l**2) * u
        theta_dot = theta_dot + (3 * p.g / (2 * p.l) * jnp.sin(theta) + acceleration) * p.dt
        theta_dot = jnp.clip(theta_dot, -p.max_speed, p.max_speed)
        theta = theta + theta_dot * p.dt
        return jnp.stack([theta, theta_dot, u]).astype(jnp.float32)

    def observation(
        self, state: jax.Array, rng: Any = None, params: PendulumParams | None = None
    ) -> jax.Array:
        theta = state[0]
        return jnp.stack([jnp.cos(theta), jnp.sin(theta), state[1]]).astype(jnp.float32)

    def terminal(
        self, state: jax.Array, rng: Any = None, params: PendulumParams | None = None
    ) -> jax.Array:
        return jnp.asarray(False)

    def reward(
        self,
        state: jax.Array,
        action: ArrayLike,
        next_state: jax.Array,
        rng: Any = None,
        params: PendulumParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        u = self._torque(action, p)
        theta, theta_dot = state[0], state[1]
        costs = angle_normalize(theta) ** 2 + 0.1 * theta_dot**2 + 0.001 * u**2
        return (-costs).astype(jnp.float32)

    def get_default_params(self, **kwargs: Any) -> PendulumParams:
        """`PendulumParams` with `kwargs` replacing its defaults."""
        return make_params(PendulumParams, kwargs)

    def render_init(
        self, params: PendulumParams | None = None, screen_dim: int = 500, **kwargs: Any
    ) -> Canvas:
        """An off-screen square canvas of the classic env's size (500 x 500 by default)."""
        from protogym_functional._render import open_canvas

        no_render_options("PendulumFunctional", kwargs)
        return open_canvas("PendulumFunctional", screen_dim, screen_dim, 30)

    def render_image(
        self, state: jax.Array, render_state: Canvas, params: PendulumParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """The classic env's frame of `state`: the rod, its axle, and the last torque's
        arrow (none while it is 0)."""
        from protogym_functional._render import finish, host_floats, rendering

        canvas = render_state
        surface = canvas.begin()
        theta, _, last_torque = host_floats(state)
        scale = canvas.width / (2.2 * 2)
        offset = canvas.width // 2
        rod_length = 1 * scale
        half = 0.2 * scale / 2
        angle = theta + math.pi / 2
        red = (204, 77, 77)
        rod = rendering.rotated(
            [(0, -half), (0, half), (rod_length, half), (rod_length, -half)], angle, offset, offset
        )
        rendering.fill_polygon(surface, rod, red)
        rendering.fill_circle(surface, offset, offset, int(half), red)
        ((end_x, end_y),) = rendering.rotated([(rod_length, 0)], angle, offset, offset)
        rendering.fill_circle(surface, int(end_x), int(end_y), int(half), red)
        if last_torque != 0.0:
            rendering.draw_torque_arrow(
                surface, offset, offset, scale * abs(last_torque) / 4, last_torque > 0
            )
        rendering.fill_circle(surface, offset, offset, int(0.05 * scale), (0, 0, 0))
        return canvas, finish(canvas)

    def render_close(self, render_state: Canvas, params: PendulumParams | None = None) -> None:
        render_state.close()


class PendulumJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Swing the pendulum up and hold it (`PendulumFunctional` through the `Env`
    API); keyword arguments replace fields of its `PendulumParams`."""

    metadata = single_metadata(PendulumFunctional.metadata)

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        func_env = configured(PendulumFunctional(), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class PendulumJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.float32], ArrayLike]
):
    """`num_envs` Pendulums as one compiled `VectorEnv`: a time limit of
    `max_episode_steps` (0: none), next-step autoreset unless `autoreset_mode` says
    otherwise; keyword arguments replace the default params."""

    metadata = vector_metadata(PendulumFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 200,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **params: Any,
    ) -> None:
        func_env = configured(PendulumFunctional(), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(PendulumFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
