"""FrozenLake as a functional env: pure jax functions of an explicit state and key.

The rules of protogym's toy-text `FrozenLake-v1`: cross the lake from S to G; a hole (H) or
the goal ends the episode; on a slippery lake the agent moves in the intended direction with
probability `success_rate` and to either side with half the rest. The map is fixed when the
env is built (its size is the observation space's); the slipperiness and the rewards are
params, so they can be traced.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    "MAPS",
    "FrozenLakeFunctional",
    "FrozenLakeJaxEnv",
    "FrozenLakeJaxVectorEnv",
    "FrozenLakeParams",
]

MAPS: dict[str, list[str]] = {
    "4x4": ["SFFF", "FHFH", "FFFH", "HFFG"],
    "8x8": [
        "SFFFFFFF",
        "FFFFFFFF",
        "FFFHFFFF",
        "FFFFFHFF",
        "FFFHFFFF",
        "FHHFFFHF",
        "FHFFHFHF",
        "FFFHFFFG",
    ],
}
_FROZEN, _HOLE, _GOAL = 0, 1, 2
_TILE_CODES = {"S": _FROZEN, "F": _FROZEN, "H": _HOLE, "G": _GOAL}
# The (row, column) change of each action: left, down, right, up.
_MOVES = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], dtype=np.int32)


class FrozenLakeParams(NamedTuple):
    """Slipperiness and rewards (a pytree: jit may trace it)."""

    is_slippery: bool = True
    success_rate: float = 1.0 / 3.0
    goal_reward: float = 1.0
    hole_reward: float = 0.0
    frozen_reward: float = 0.0


def _board(map_name: str, desc: Sequence[str] | None) -> list[str]:
    if desc is None:
        if map_name not in MAPS:
            raise ValueError(
                f"FrozenLakeFunctional has no map {map_name!r}; use one of {sorted(MAPS)} or "
                "pass desc=['SFFF', ...]"
            )
        return MAPS[map_name]
    rows = [str(row) for row in desc]
    if (
        not rows
        or len({len(row) for row in rows}) != 1
        or not all(set(row) <= set(_TILE_CODES) for row in rows)
        or "S" not in "".join(rows)
    ):
        raise ValueError(
            "FrozenLakeFunctional desc must be equal-length rows of the letters S, F, H, G "
            f"with at least one S, got {desc!r}"
        )
    return rows


class FrozenLakeFunctional(
    FuncEnv[jax.Array, jax.Array, ArrayLike, jax.Array, jax.Array, "Canvas", FrozenLakeParams]
):
    """Reach the goal without falling into a hole: the goal pays 1, everything else 0.

    State and observation: the int32 cell `row * ncol + col`. Action: 0 left, 1 down,
    2 right, 3 up. The map is `MAPS[map_name]` ("4x4" or "8x8") or any `desc`.
    """

    action_space = Discrete(4)
    observation_space: Space[Any]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 4}
    default_params: FrozenLakeParams

    def __init__(
        self,
        options: dict[str, Any] | None = None,
        *,
        map_name: str = "4x4",
        desc: Sequence[str] | None = None,
    ) -> None:
        rows = _board(map_name, desc)
        self.rows = rows  # the map's letters, for drawing
        self.nrow, self.ncol = len(rows), len(rows[0])
        letters = "".join(rows)
        self.tiles = np.array([_TILE_CODES[letter] for letter in letters], dtype=np.int32)
        self.starts = np.array([i for i, letter in enumerate(letters) if letter == "S"], np.int32)
        self.observation_space = Discrete(self.nrow * self.ncol, dtype=np.int32)
        super().__init__(options)

    def initial(self, rng: jax.Array, params: FrozenLakeParams | None = None) -> jax.Array:
        """A start cell (uniform among the S cells)."""
        starts = jnp.asarray(self.starts)
        return starts[jax.random.randint(rng, (), 0, len(self.starts))]

    def transition(
        self,
        state: jax.Array,
        action: ArrayLike,
        rng: jax.Array,
        params: FrozenLakeParams | None = None,
    ) -> jax.Array:
        p = self.default_params if params is None else params
        intended = jnp.asarray(action, jnp.int32)
        draw = jax.random.uniform(rng)
        side = (1.0 - p.success_rate) / 2.0
        slip = jnp.where(draw < side, -1, jnp.where(draw < side + p.success_rate, 0, 1))
        direction = jnp.where(p.is_slippery, (intended + slip) % 4, intended)
        move = jnp.asarray(_MOVES)[direction]
        row = jnp.clip(state // self.ncol + move[0], 0, self.nrow - 1)
        col = jnp.clip(state % self.ncol + move[1], 0, self.ncol - 1)
        ended = jnp.asarray(self.tiles)[state] != _FROZEN
        return jnp.where(ended, state, row * self.ncol + col).astype(jnp.int32)

    def observation(
        self, state: jax.Array, rng: Any = None, params: FrozenLakeParams | None = None
    ) -> jax.Array:
        return state

    def terminal(
        self, state: jax.Array, rng: Any = None, params: FrozenLakeParams | None = None
    ) -> jax.Array:
        return jnp.asarray(self.tiles)[state] != _FROZEN

    def reward(
        self,
        state: jax.Array,
        action: ArrayLike,
        next_state: jax.Array,
        rng: Any = None,
        params: FrozenLakeParams | None = None,
    ) -> jax.Array:
        """The reward of the tile landed on; 0 for a step taken after the episode ended."""
        p = self.default_params if params is None else params
        tiles = jnp.asarray(self.tiles)
        landed = jnp.asarray([p.frozen_reward, p.hole_reward, p.goal_reward])[tiles[next_state]]
        return jnp.where(tiles[state] != _FROZEN, 0.0, landed).astype(jnp.float32)

    def get_default_params(self, **kwargs: Any) -> FrozenLakeParams:
        """`FrozenLakeParams` with `kwargs` replacing its defaults."""
        return make_params(FrozenLakeParams, kwargs)

    def render_init(self, params: FrozenLakeParams | None = None, **kwargs: Any) -> Canvas:
        """An off-screen canvas of the toy-text FrozenLake's frame size for this map."""
        from protogym_functional.tabular._render import frozen_lake, open_canvas

        no_render_options("FrozenLakeFunctional", kwargs)
        size = frozen_lake.frame_size(self.nrow, self.ncol)
        return open_canvas("Frozen Lake", size, self.metadata["render_fps"])

    def render_image(
        self, state: jax.Array, render_state: Canvas, params: FrozenLakeParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """The toy-text FrozenLake's frame of `state` on this map."""
        from protogym_functional.tabular._render import finish, frozen_lake

        frozen_lake.draw_state(render_state.surface(), self.rows, int(state))
        return render_state, finish(render_state)

    def render_close(self, render_state: Canvas, params: FrozenLakeParams | None = None) -> None:
        render_state.close()


class FrozenLakeJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Cross the frozen lake (`FrozenLakeFunctional` through the `Env` API); `map_name` or
    `desc` choose the map, other keyword arguments replace fields of its params."""

    metadata = single_metadata(FrozenLakeFunctional.metadata)

    def __init__(
        self,
        render_mode: str | None = None,
        map_name: str = "4x4",
        desc: Sequence[str] | None = None,
        **params: Any,
    ) -> None:
        func_env = configured(FrozenLakeFunctional(map_name=map_name, desc=desc), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class FrozenLakeJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.int32], ArrayLike]
):
    """`num_envs` frozen lakes as one compiled `VectorEnv`: a time limit of
    `max_episode_steps` (0: none), next-step autoreset unless `autoreset_mode` says
    otherwise; `map_name`/`desc` and the params as for `FrozenLakeJaxEnv`."""

    metadata = vector_metadata(FrozenLakeFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 100,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        map_name: str = "4x4",
        desc: Sequence[str] | None = None,
        **params: Any,
    ) -> None:
        func_env = configured(FrozenLakeFunctional(map_name=map_name, desc=desc), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(FrozenLakeFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
