"""Taxi as a functional env: pure jax functions of an explicit state and key.

The rules of protogym's toy-text `Taxi-v3` (Dietterich's domain, without the rain and the
fickle passenger of `Taxi-v4`): a 5 x 5 grid with walls, four pads R, G, Y, B; pick the
passenger up at their pad and drop them off at the destination. The rewards are params.
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
from protogym.spaces import Discrete, Space
from protogym.vector.vector_env import AutoresetMode
from protogym_functional._adapters import configured, single_metadata, vector_metadata
from protogym_functional._checks import make_params, no_render_options

if TYPE_CHECKING:
    from protogym_toy_text._render import Canvas

__all__ = [
    "MAP",
    "TaxiFunctional",
    "TaxiJaxEnv",
    "TaxiJaxVectorEnv",
    "TaxiParams",
    "decode",
    "encode",
]

MAP = [
    "+---------+",
    "|R: | : :G|",
    "| : | : : |",
    "| : : : : |",
    "| | : | : |",
    "|Y| : |B: |",
    "+---------+",
]
_SIZE = 5
_IN_CAB = 4
_PADS = np.array([[0, 0], [0, 4], [4, 0], [4, 3]], dtype=np.int32)  # R, G, Y, B
# Whether the taxi can move east (west) from (row, col): ":" in the map, not "|".
_EAST_OPEN = np.array([[MAP[1 + r][2 * c + 2] == ":" for c in range(_SIZE)] for r in range(_SIZE)])
_WEST_OPEN = np.array([[MAP[1 + r][2 * c] == ":" for c in range(_SIZE)] for r in range(_SIZE)])
_SOUTH, _NORTH, _EAST, _WEST, _PICKUP, _DROPOFF = range(6)


def encode(row: Any, col: Any, passenger: Any, destination: Any) -> Any:
    """The state index `((row * 5 + col) * 5 + passenger) * 4 + destination` (of ints or
    of jax arrays)."""
    return ((row * _SIZE + col) * _SIZE + passenger) * 4 + destination


def decode(state: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """(taxi row, taxi column, passenger: a pad 0-3 or 4 in the cab, destination pad)."""
    rest, destination = jnp.divmod(state, 4)
    rest, passenger = jnp.divmod(rest, _SIZE)
    row, col = jnp.divmod(rest, _SIZE)
    return row, col, passenger, destination


# Every state an episode may start in: the passenger waits at a pad that is not the destination.
_STARTS = np.array(
    [
        encode(row, col, passenger, destination)
        for row in range(_SIZE)
        for col in range(_SIZE)
        for passenger in range(4)
        for destination in range(4)
        if passenger != destination
    ],
    dtype=np.int32,
)


class TaxiParams(NamedTuple):
    """The rewards (a pytree: jit may trace it)."""

    step_reward: float = -1.0  # every move, legal pick-up, or drop-off at another pad
    illegal_reward: float = -10.0  # a pick-up or drop-off where there is none to make
    delivery_reward: float = 20.0  # the drop-off at the destination, which ends the episode


def _pad_at(row: jax.Array, col: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Whether (row, col) is a pad, and which."""
    here = (jnp.asarray(_PADS)[:, 0] == row) & (jnp.asarray(_PADS)[:, 1] == col)
    return jnp.any(here), jnp.argmax(here)


class TaxiFunctional(
    FuncEnv[jax.Array, jax.Array, ArrayLike, jax.Array, jax.Array, "Canvas", TaxiParams]
):
    """Pick the passenger up and drop them at the destination: -1 per step, -10 for a wrong
    pick-up or drop-off, +20 for the delivery, which ends the episode.

    State and observation: the int32 index of (taxi row, taxi column, passenger,
    destination). Action: 0 south, 1 north, 2 east, 3 west, 4 pick up, 5 drop off.
    """

    action_space = Discrete(6)
    observation_space: Space[Any] = Discrete(500, dtype=np.int32)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 4}
    default_params: TaxiParams

    def initial(self, rng: jax.Array, params: TaxiParams | None = None) -> jax.Array:
        """A start uniform over taxi cells, passenger pads and other destination pads."""
        return jnp.asarray(_STARTS)[jax.random.randint(rng, (), 0, len(_STARTS))]

    def transition(
        self,
        state: jax.Array,
        action: ArrayLike,
        rng: Any = None,
        params: TaxiParams | None = None,
    ) -> jax.Array:
        row, col, passenger, destination = decode(state)
        action = jnp.asarray(action, jnp.int32)
        new_row = jnp.clip(
            row + jnp.where(action == _SOUTH, 1, 0) - jnp.where(action == _NORTH, 1, 0),
            0,
            _SIZE - 1,
        )
        east = (action == _EAST) & jnp.asarray(_EAST_OPEN)[row, col]
        west = (action == _WEST) & jnp.asarray(_WEST_OPEN)[row, col]
        new_col = jnp.clip(col + east.astype(jnp.int32) - west.astype(jnp.int32), 0, _SIZE - 1)
        on_pad, pad = _pad_at(row, col)
        waiting_here = (passenger < _IN_CAB) & on_pad & (pad == passenger)
        picked = jnp.where(waiting_here, _IN_CAB, passenger)
        dropped = jnp.where((passenger == _IN_CAB) & on_pad, pad, passenger)
        new_passenger = jnp.where(
            action == _PICKUP, picked, jnp.where(action == _DROPOFF, dropped, passenger)
        )
        moved = action < _PICKUP
        next_row, next_col = jnp.where(moved, new_row, row), jnp.where(moved, new_col, col)
        next_state = encode(next_row, next_col, new_passenger, destination)
        return jnp.asarray(next_state, jnp.int32)

    def observation(
        self, state: jax.Array, rng: Any = None, params: TaxiParams | None = None
    ) -> jax.Array:
        return state

    def terminal(
        self, state: jax.Array, rng: Any = None, params: TaxiParams | None = None
    ) -> jax.Array:
        """Delivered: the passenger is at the destination pad (no other state has them
        there, since a drop-off elsewhere leaves them at another pad)."""
        _, _, passenger, destination = decode(state)
        return passenger == destination

    def reward(
        self,
        state: jax.Array,
        action: ArrayLike,
        next_state: jax.Array,
        rng: Any = None,
        params: TaxiParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        row, col, passenger, destination = decode(state)
        action = jnp.asarray(action, jnp.int32)
        on_pad, pad = _pad_at(row, col)
        in_cab = passenger == _IN_CAB
        pickup = jnp.where(
            (passenger < _IN_CAB) & on_pad & (pad == passenger), p.step_reward, p.illegal_reward
        )
        dropoff = jnp.where(
            in_cab & on_pad & (pad == destination),
            p.delivery_reward,
            jnp.where(in_cab & on_pad, p.step_reward, p.illegal_reward),
        )
        reward = jnp.where(
            action == _PICKUP, pickup, jnp.where(action == _DROPOFF, dropoff, p.step_reward)
        )
        return reward.astype(jnp.float32)

    def get_default_params(self, **kwargs: Any) -> TaxiParams:
        """`TaxiParams` with `kwargs` replacing its defaults."""
        return make_params(TaxiParams, kwargs)

    def render_init(self, params: TaxiParams | None = None, **kwargs: Any) -> Canvas:
        """An off-screen canvas of the toy-text Taxi's frame size."""
        from protogym_functional.tabular._render import open_canvas, taxi

        no_render_options("TaxiFunctional", kwargs)
        return open_canvas("Taxi", taxi.FRAME_SIZE, self.metadata["render_fps"])

    def render_image(
        self, state: jax.Array, render_state: Canvas, params: TaxiParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """The toy-text Taxi's frame of `state`."""
        from protogym_functional.tabular._render import finish, taxi

        taxi.draw_state(render_state.surface(), int(state))
        return render_state, finish(render_state)

    def render_close(self, render_state: Canvas, params: TaxiParams | None = None) -> None:
        render_state.close()


class TaxiJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Deliver the passenger (`TaxiFunctional` through the `Env` API); keyword arguments
    replace fields of its `TaxiParams`."""

    metadata = single_metadata(TaxiFunctional.metadata)

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        func_env = configured(TaxiFunctional(), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class TaxiJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.int32], ArrayLike]
):
    """`num_envs` taxis as one compiled `VectorEnv`: a time limit of `max_episode_steps`
    (0: none), next-step autoreset unless `autoreset_mode` says otherwise; keyword
    arguments replace the default params."""

    metadata = vector_metadata(TaxiFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 200,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **params: Any,
    ) -> None:
        func_env = configured(TaxiFunctional(), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(TaxiFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
