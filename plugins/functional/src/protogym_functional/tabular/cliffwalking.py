"""CliffWalking as a functional env: pure jax functions of an explicit state.

The rules of protogym's toy-text `CliffWalking-v0`: a 4 x 12 grid, start at (3, 0), goal at
(3, 11), a cliff along (3, 1..10) that costs -100 and sends the agent back to the start
without ending the episode. The action space is `Discrete(4)` (Gymnasium's functional
version declares a `Box`); the observation and state layouts are Gymnasium's.
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
from protogym_functional._checks import no_render_options

if TYPE_CHECKING:
    from protogym_toy_text._render import Canvas

__all__ = ["CliffWalkingFunctional", "CliffWalkingJaxEnv", "CliffWalkingJaxVectorEnv", "EnvState"]

_ROWS, _COLS = 4, 12
_START = (_ROWS - 1, 0)
_GOAL = (_ROWS - 1, _COLS - 1)
# The (row, column) change of each action: up, right, down, left.
_MOVES = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]], dtype=np.int32)


class EnvState(NamedTuple):
    """Where the agent stands, the action that brought it there (-1 after `initial`), and
    whether that action walked it off the cliff."""

    player_position: jax.Array  # int32 (row, column)
    last_action: jax.Array  # int32
    fallen: jax.Array  # bool


def fell_off(position: jax.Array) -> jax.Array:
    """Whether `position` is on the cliff."""
    return (position[0] == _ROWS - 1) & (position[1] >= 1) & (position[1] <= _COLS - 2)


class CliffWalkingFunctional(
    FuncEnv[EnvState, jax.Array, ArrayLike, jax.Array, jax.Array, "Canvas", None]
):
    """Walk from the bottom-left corner to the bottom-right one along a cliff: -1 per step,
    -100 for a fall (back to the start).

    Observation: int32 shape (1,), the cell `row * 12 + column`. Action: 0 up, 1 right,
    2 down, 3 left; moves into the border leave the agent in place. No params.
    """

    observation_space: Space[Any] = Box(low=0, high=_ROWS * _COLS - 1, shape=(1,), dtype=np.int32)
    action_space = Discrete(4)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 4}
    default_params: None

    def get_default_params(self, **kwargs: Any) -> None:
        """None: the grid has no params, so any keyword is a TypeError."""
        if kwargs:
            raise TypeError(
                f"CliffWalkingFunctional has no params, got {sorted(kwargs)}; the grid, "
                "the cliff and the rewards are fixed"
            )

    def initial(self, rng: Any = None, params: None = None) -> EnvState:
        return EnvState(
            player_position=jnp.array(_START, dtype=jnp.int32),
            last_action=jnp.int32(-1),
            fallen=jnp.bool_(False),
        )

    def transition(
        self, state: EnvState, action: ArrayLike, rng: Any = None, params: None = None
    ) -> EnvState:
        action = jnp.asarray(action, jnp.int32).reshape(())
        moved = state.player_position + jnp.asarray(_MOVES)[action]
        moved = jnp.clip(moved, 0, jnp.array([_ROWS - 1, _COLS - 1], dtype=jnp.int32))
        fallen = fell_off(moved)
        position = jnp.where(fallen, jnp.array(_START, dtype=jnp.int32), moved)
        return EnvState(player_position=position, last_action=action, fallen=fallen)

    def observation(self, state: EnvState, rng: Any = None, params: None = None) -> jax.Array:
        row, column = state.player_position[0], state.player_position[1]
        return jnp.reshape(row * _COLS + column, (1,)).astype(jnp.int32)

    def terminal(self, state: EnvState, rng: Any = None, params: None = None) -> jax.Array:
        return jnp.all(state.player_position == jnp.array(_GOAL, dtype=jnp.int32))

    def reward(
        self,
        state: EnvState,
        action: ArrayLike,
        next_state: EnvState,
        rng: Any = None,
        params: None = None,
    ) -> jax.Array:
        return jnp.where(next_state.fallen, -100.0, -1.0).astype(jnp.float32)

    def render_init(self, params: None = None, **kwargs: Any) -> Canvas:
        """An off-screen canvas of the toy-text CliffWalking's frame size."""
        from protogym_functional.tabular._render import cliff_walking, open_canvas

        no_render_options("CliffWalkingFunctional", kwargs)
        return open_canvas("CliffWalking", cliff_walking.FRAME_SIZE, self.metadata["render_fps"])

    def render_image(
        self, state: EnvState, render_state: Canvas, params: None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """The toy-text CliffWalking's frame of `state` (after a fall, the agent is back at
        the start)."""
        from protogym_functional.tabular._render import cliff_walking, finish

        row, column = (int(v) for v in np.asarray(state.player_position))
        cliff_walking.draw_state(render_state.surface(), row * _COLS + column)
        return render_state, finish(render_state)

    def render_close(self, render_state: Canvas, params: None = None) -> None:
        render_state.close()


class CliffWalkingJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Walk along the cliff to the far corner (`CliffWalkingFunctional` through
    the `Env` API); it has no params."""

    metadata = single_metadata(CliffWalkingFunctional.metadata)

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        func_env = configured(CliffWalkingFunctional(), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class CliffWalkingJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.int32], ArrayLike]
):
    """`num_envs` CliffWalkings as one compiled `VectorEnv`: a time limit of
    `max_episode_steps` (0: none), next-step autoreset unless `autoreset_mode` says
    otherwise; keyword arguments replace the default params."""

    metadata = vector_metadata(CliffWalkingFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **params: Any,
    ) -> None:
        func_env = configured(CliffWalkingFunctional(), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(CliffWalkingFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
