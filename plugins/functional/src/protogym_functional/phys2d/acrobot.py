"""Acrobot as a functional env: pure jax functions of an explicit state and key.

The dynamics of protogym's classic `Acrobot-v1` ("book" equations, one RK4 step of 0.2 s per
action, wrapped angles, clipped velocities) in float32. The system is chaotic, so a float32
trajectory leaves a float64 one after some tens of steps; each single step agrees to float32
precision.
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
from protogym.spaces import Box, Discrete, Space
from protogym.vector.vector_env import AutoresetMode
from protogym_functional._adapters import configured, single_metadata, vector_metadata
from protogym_functional._checks import make_params, no_render_options

if TYPE_CHECKING:
    from protogym_classic_control.rendering import Canvas

__all__ = [
    "AcrobotFunctional",
    "AcrobotJaxEnv",
    "AcrobotJaxVectorEnv",
    "AcrobotParams",
    "above_line",
    "wrap",
]


class AcrobotParams(NamedTuple):
    """The links' constants, limits and options (a pytree: jit may trace it)."""

    dt: float = 0.2
    link_length_1: float = 1.0
    link_length_2: float = 1.0
    link_mass_1: float = 1.0
    link_mass_2: float = 1.0
    link_com_pos_1: float = 0.5
    link_com_pos_2: float = 0.5
    link_moi: float = 1.0
    max_vel_1: float = 4 * math.pi
    max_vel_2: float = 9 * math.pi
    torque_noise_max: float = 0.0  # uniform noise added to each torque, drawn from the key
    book: bool = True  # False: the NIPS paper's equation for the second joint
    init: float = 0.1  # initial state variables are uniform in [-init, init]


_DEFAULTS = AcrobotParams()
_OBS_HIGH = np.array(
    [1.0, 1.0, 1.0, 1.0, _DEFAULTS.max_vel_1, _DEFAULTS.max_vel_2], dtype=np.float32
)


def wrap(x: jax.Array, low: float, high: float) -> jax.Array:
    """`x` shifted by whole periods of `high - low` into [low, high] (the classic env's
    loop, in one expression: values already inside are untouched)."""
    period = high - low
    down = jnp.maximum(jnp.ceil((x - high) / period), 0.0)
    up = jnp.maximum(jnp.ceil((low - x) / period), 0.0)
    return x + (up - down) * period


def _derivatives(state: jax.Array, torque: jax.Array, p: AcrobotParams) -> jax.Array:
    """The time derivative of `[theta1, theta2, dtheta1, dtheta2]` under `torque`."""
    theta1, theta2, dtheta1, dtheta2 = state[0], state[1], state[2], state[3]
    m1, m2 = p.link_mass_1, p.link_mass_2
    l1 = p.link_length_1
    lc1, lc2 = p.link_com_pos_1, p.link_com_pos_2
    i1 = i2 = p.link_moi
    g = 9.8
    cos2, sin2 = jnp.cos(theta2), jnp.sin(theta2)
    d1 = m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * cos2) + i1 + i2
    d2 = m2 * (lc2**2 + l1 * lc2 * cos2) + i2
    phi2 = m2 * lc2 * g * jnp.cos(theta1 + theta2 - math.pi / 2)
    phi1 = (
        -m2 * l1 * lc2 * dtheta2**2 * sin2
        - 2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin2
        + (m1 * lc1 + m2 * l1) * g * jnp.cos(theta1 - math.pi / 2)
        + phi2
    )
    centripetal = jnp.where(p.book, m2 * l1 * lc2 * dtheta1**2 * sin2, 0.0)
    ddtheta2 = (torque + d2 / d1 * phi1 - centripetal - phi2) / (m2 * lc2**2 + i2 - d2**2 / d1)
    ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
    return jnp.stack([dtheta1, dtheta2, ddtheta1, ddtheta2])


def above_line(state: jax.Array) -> jax.Array:
    """Whether the tip is above the line one link length over the base (the methods call
    this rather than `terminal`, which `transform` may have replaced)."""
    return -jnp.cos(state[0]) - jnp.cos(state[1] + state[0]) > 1.0


class AcrobotFunctional(
    FuncEnv[jax.Array, jax.Array, ArrayLike, jax.Array, jax.Array, "Canvas", AcrobotParams]
):
    """Swing the tip of the two-link chain above the line one link over the base: -1 per
    step until then.

    State: float32 `[theta1, theta2, dtheta1, dtheta2]`. Observation: float32 cos and sin of
    both angles, then both angular velocities. Action: torque -1, 0 or +1 (0, 1, 2) on the
    middle joint.
    """

    observation_space: Space[Any] = Box(-_OBS_HIGH, _OBS_HIGH, dtype=np.float32)
    action_space = Discrete(3)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 15}
    default_params: AcrobotParams

    def initial(self, rng: jax.Array, params: AcrobotParams | None = None) -> jax.Array:
        p = self.default_params if params is None else params
        return jax.random.uniform(rng, (4,), jnp.float32, -p.init, p.init)

    def transition(
        self,
        state: jax.Array,
        action: ArrayLike,
        rng: jax.Array,
        params: AcrobotParams | None = None,
    ) -> jax.Array:
        """One RK4 step of `dt` under the action's torque (plus noise drawn from `rng` when
        `torque_noise_max` > 0; `rng` may be None when it is 0)."""
        p = self.default_params if params is None else params
        torque = jnp.asarray(action, jnp.float32) - 1.0
        if rng is not None:
            noise = jax.random.uniform(rng, (), jnp.float32, -1.0, 1.0)
            torque = torque + p.torque_noise_max * noise
        half = p.dt / 2.0
        a = _derivatives(state, torque, p)
        b = _derivatives(state + half * a, torque, p)
        c = _derivatives(state + half * b, torque, p)
        d = _derivatives(state + p.dt * c, torque, p)
        moved = state + p.dt / 6.0 * (a + 2 * b + 2 * c + d)
        return jnp.stack(
            [
                wrap(moved[0], -math.pi, math.pi),
                wrap(moved[1], -math.pi, math.pi),
                jnp.clip(moved[2], -p.max_vel_1, p.max_vel_1),
                jnp.clip(moved[3], -p.max_vel_2, p.max_vel_2),
            ]
        ).astype(jnp.float32)

    def observation(
        self, state: jax.Array, rng: Any = None, params: AcrobotParams | None = None
    ) -> jax.Array:
        angles = state[:2]
        cos, sin = jnp.cos(angles), jnp.sin(angles)
        return jnp.stack([cos[0], sin[0], cos[1], sin[1], state[2], state[3]]).astype(
            jnp.float32
        )

    def terminal(
        self, state: jax.Array, rng: Any = None, params: AcrobotParams | None = None
    ) -> jax.Array:
        return above_line(state)

    def reward(
        self,
        state: jax.Array,
        action: ArrayLike,
        next_state: jax.Array,
        rng: Any = None,
        params: AcrobotParams | None = None,
    ) -> jax.Array:
        return jnp.where(above_line(next_state), 0.0, -1.0).astype(jnp.float32)

    def get_default_params(self, **kwargs: Any) -> AcrobotParams:
        """`AcrobotParams` with `kwargs` replacing its defaults."""
        return make_params(AcrobotParams, kwargs)

    def render_init(
        self, params: AcrobotParams | None = None, screen_dim: int = 500, **kwargs: Any
    ) -> Canvas:
        """An off-screen square canvas of the classic env's size (500 x 500 by default)."""
        from protogym_functional._render import open_canvas

        no_render_options("AcrobotFunctional", kwargs)
        return open_canvas("AcrobotFunctional", screen_dim, screen_dim, 15)

    def render_image(
        self, state: jax.Array, render_state: Canvas, params: AcrobotParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """The classic env's frame of `state`: the line to reach and both links."""
        from protogym_functional._render import finish, host_floats, rendering

        p = self.default_params if params is None else params
        canvas = render_state
        surface = canvas.begin()
        theta1, theta2, _, _ = host_floats(state)
        length1, length2 = float(p.link_length_1), float(p.link_length_2)
        scale = canvas.width / ((length1 + length2 + 0.2) * 2)
        offset = canvas.width / 2
        rendering.draw_line(
            surface,
            (-2.2 * scale + offset, 1 * scale + offset),
            (2.2 * scale + offset, 1 * scale + offset),
            (0, 0, 0),
        )
        elbow = (length1 * math.sin(theta1) * scale, -length1 * math.cos(theta1) * scale)
        links = [
            ((0.0, 0.0), theta1 - math.pi / 2, length1 * scale),
            (elbow, theta1 + theta2 - math.pi / 2, length2 * scale),
        ]
        width = 0.1 * scale
        for (x, y), angle, length in links:
            x, y = x + offset, y + offset
            link = rendering.rotated(
                [(0, -width), (0, width), (length, width), (length, -width)], angle, x, y
            )
            rendering.fill_polygon(surface, link, (0, 204, 204))
            rendering.fill_circle(surface, int(x), int(y), int(width), (204, 204, 0))
        return canvas, finish(canvas)

    def render_close(self, render_state: Canvas, params: AcrobotParams | None = None) -> None:
        render_state.close()


class AcrobotJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Swing the two-link chain's tip above the line (`AcrobotFunctional` through
    the `Env` API); keyword arguments replace fields of its `AcrobotParams`."""

    metadata = single_metadata(AcrobotFunctional.metadata)

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        func_env = configured(AcrobotFunctional(), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class AcrobotJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.float32], ArrayLike]
):
    """`num_envs` Acrobots as one compiled `VectorEnv`: a time limit of
    `max_episode_steps` (0: none), next-step autoreset unless `autoreset_mode` says
    otherwise; keyword arguments replace the default params."""

    metadata = vector_metadata(AcrobotFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 500,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **params: Any,
    ) -> None:
        func_env = configured(AcrobotFunctional(), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(AcrobotFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
