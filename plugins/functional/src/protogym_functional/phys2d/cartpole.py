"""CartPole as a functional env: pure jax functions of an explicit state and key.

The dynamics, constants, termination and rewards of protogym's classic `CartPole-v1` in
float32: the pole's mass-length product is `masspole * length` (0.05), as in the classic env;
Gymnasium's `phys2d` CartPole adds the two (0.6) and so simulates a different system under
the same id. The Sutton-Barto reward's -1 comes on the step that ends the episode, as in the
classic env. Every branch, on the state or on the params, is a `jnp.where`, so the env runs
under `jax.jit` and `jax.vmap` with the params as a traced argument.
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
    "CartPoleFunctional",
    "CartPoleJaxEnv",
    "CartPoleJaxVectorEnv",
    "CartPoleParams",
    "fallen",
]


class CartPoleParams(NamedTuple):
    """The physical constants and limits. A NamedTuple is a pytree: pass one as a traced
    argument of a jitted function to vary the physics without recompiling."""

    gravity: float = 9.8
    masscart: float = 1.0
    masspole: float = 0.1
    length: float = 0.5  # half the pole's length
    force_mag: float = 10.0
    tau: float = 0.02  # seconds per step
    theta_threshold_radians: float = 12 * 2 * math.pi / 360
    x_threshold: float = 2.4
    x_init: float = 0.05  # initial state variables are uniform in [-x_init, x_init]
    sutton_barto_reward: bool = False  # 0 per step and -1 on termination instead of +1

    @property
    def total_mass(self) -> float:
        return self.masspole + self.masscart

    @property
    def polemass_length(self) -> float:
        return self.masspole * self.length


# The classic env's observation bounds: twice the termination thresholds.
_DEFAULTS = CartPoleParams()
_OBS_HIGH = np.array(
    [_DEFAULTS.x_threshold * 2, np.inf, _DEFAULTS.theta_threshold_radians * 2, np.inf],
    dtype=np.float32,
)


def fallen(state: jax.Array, p: CartPoleParams) -> jax.Array:
    """Whether the pole leans past the threshold or the cart has left the track.

    The methods call this, never each other: `transform(jax.vmap)` replaces the methods, and
    a vmapped `terminal` called from inside a vmapped `reward` would map twice.
    """
    x, theta = state[0], state[2]
    return (jnp.abs(x) > p.x_threshold) | (jnp.abs(theta) > p.theta_threshold_radians)


class CartPoleFunctional(
    FuncEnv[jax.Array, jax.Array, ArrayLike, jax.Array, jax.Array, "Canvas", CartPoleParams]
):
    """Keep the pole upright: +1 per step until it leans past 12 degrees or the cart leaves
    [-2.4, 2.4].

    State and observation: float32 `[x, x_dot, theta, theta_dot]`. Action: 0 pushes the cart
    left, 1 right.
    """

    observation_space: Space[Any] = Box(-_OBS_HIGH, _OBS_HIGH, dtype=np.float32)
    action_space = Discrete(2)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 50}
    default_params: CartPoleParams

    def initial(self, rng: jax.Array, params: CartPoleParams | None = None) -> jax.Array:
        p = self.default_params if params is None else params
        return jax.random.uniform(rng, (4,), jnp.float32, -p.x_init, p.x_init)

    def transition(
        self,
        state: jax.Array,
        action: ArrayLike,
        rng: Any = None,
        params: CartPoleParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        x, x_dot, theta, theta_dot = state
        force = jnp.where(jnp.asarray(action) == 1, p.force_mag, -p.force_mag)
        costheta = jnp.cos(theta)
        sintheta = jnp.sin(theta)
        temp = (force + p.polemass_length * (theta_dot * theta_dot) * sintheta) / p.total_mass
        thetaacc = (p.gravity * sintheta - costheta * temp) / (
            p.length * (4.0 / 3.0 - p.masspole * (costheta * costheta) / p.total_mass)
        )
        xacc = temp - p.polemass_length * thetaacc * costheta / p.total_mass
        next_state = jnp.stack(
            [
                x + p.tau * x_dot,
                x_dot + p.tau * xacc,
                theta + p.tau * theta_dot,
                theta_dot + p.tau * thetaacc,
            ]
        )
        return next_state.astype(jnp.float32)

    def observation(
        self, state: jax.Array, rng: Any = None, params: CartPoleParams | None = None
    ) -> jax.Array:
        return state

    def terminal(
        self, state: jax.Array, rng: Any = None, params: CartPoleParams | None = None
    ) -> jax.Array:
        return fallen(state, self.default_params if params is None else params)

    def reward(
        self,
        state: jax.Array,
        action: ArrayLike,
        next_state: jax.Array,
        rng: Any = None,
        params: CartPoleParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        sutton_barto = jnp.where(fallen(next_state, p), -1.0, 0.0)
        return jnp.where(p.sutton_barto_reward, sutton_barto, 1.0).astype(jnp.float32)

    def get_default_params(self, **kwargs: Any) -> CartPoleParams:
        """`CartPoleParams` with `kwargs` replacing its defaults."""
        return make_params(CartPoleParams, kwargs)

    def render_init(
        self,
        params: CartPoleParams | None = None,
        screen_width: int = 600,
        screen_height: int = 400,
        **kwargs: Any,
    ) -> Canvas:
        """An off-screen canvas of the classic env's size (600 x 400 by default)."""
        from protogym_functional._render import open_canvas

        no_render_options("CartPoleFunctional", kwargs)
        return open_canvas("CartPoleFunctional", screen_width, screen_height, 50)

    def render_image(
        self, state: jax.Array, render_state: Canvas, params: CartPoleParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """The classic env's frame of `state`: the cart, the pole, its axle and the track."""
        from protogym_functional._render import finish, host_floats, rendering

        p = self.default_params if params is None else params
        canvas = render_state
        surface = canvas.begin()
        x, _, theta, _ = host_floats(state)
        scale = canvas.width / (float(p.x_threshold) * 2)
        pole_width = 10.0
        pole_length = scale * (2 * float(p.length))
        cart_half_width, cart_half_height = 25.0, 15.0
        axle_offset = 7.5  # a quarter of the cart's height
        cart_x = x * scale + canvas.width / 2.0
        cart_top = 100
        rendering.fill_polygon(
            surface,
            [
                (cart_x - cart_half_width, cart_top - cart_half_height),
                (cart_x - cart_half_width, cart_top + cart_half_height),
                (cart_x + cart_half_width, cart_top + cart_half_height),
                (cart_x + cart_half_width, cart_top - cart_half_height),
            ],
            (0, 0, 0),
        )
        half_pole = pole_width / 2
        pole_outline = [
            (-half_pole, -half_pole),
            (-half_pole, pole_length - half_pole),
            (half_pole, pole_length - half_pole),
            (half_pole, -half_pole),
        ]
        pole = rendering.rotated(pole_outline, -theta, cart_x, cart_top + axle_offset)
        rendering.fill_polygon(surface, pole, (202, 152, 101))
        rendering.fill_circle(
            surface, int(cart_x), int(cart_top + axle_offset), int(half_pole), (129, 132, 203)
        )
        rendering.draw_hline(surface, 0, canvas.width, cart_top, (0, 0, 0))
        return canvas, finish(canvas)

    def render_close(self, render_state: Canvas, params: CartPoleParams | None = None) -> None:
        render_state.close()


class CartPoleJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Keep the pole upright on the moving cart (`CartPoleFunctional` through the
    `Env` API); keyword arguments replace fields of its `CartPoleParams`."""

    metadata = single_metadata(CartPoleFunctional.metadata)

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        func_env = configured(CartPoleFunctional(), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class CartPoleJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.float32], ArrayLike]
):
    """`num_envs` CartPoles as one compiled `VectorEnv`: a time limit of
    `max_episode_steps` (0: none), next-step autoreset unless `autoreset_mode` says
    otherwise; keyword arguments replace the default params."""

    metadata = vector_metadata(CartPoleFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 200,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **params: Any,
    ) -> None:
        func_env = configured(CartPoleFunctional(), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(CartPoleFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
