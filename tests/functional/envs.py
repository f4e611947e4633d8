"""Two small functional envs for the tests: a noisy walk on a line, in numpy and in jax.

The state is a NamedTuple (a pytree), both envs draw random numbers in `initial`,
`transition` and `observation` (so a reused key shows), and both report infos.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from protogym.functional import FuncEnv
from protogym.spaces import Box, Discrete


class WalkState(NamedTuple):
    position: Any
    moves: Any


class WalkParams(NamedTuple):
    step_size: float = 0.5
    bound: float = 1.5


OBS_SPACE = Box(-10.0, 10.0, (2,), np.float32)


class NumpyWalk(
    FuncEnv[WalkState, NDArray[np.float32], np.int64, float, bool, None, WalkParams]
):
    """A walk left (0) or right (1) from a random start; ends beyond `bound`."""

    observation_space = OBS_SPACE
    action_space = Discrete(2)

    def initial(self, rng: Any, params: WalkParams | None = None) -> WalkState:
        return WalkState(np.float32(rng.uniform(-0.5, 0.5)), np.int32(0))

    def transition(
        self, state: WalkState, action: np.int64, rng: Any, params: WalkParams | None = None
    ) -> WalkState:
        size = (params or WalkParams()).step_size
        move = (2.0 * action - 1.0) * size + rng.normal() * 0.01
        return WalkState(np.float32(state.position + move), np.int32(state.moves + 1))

    def observation(
        self, state: WalkState, rng: Any, params: WalkParams | None = None
    ) -> NDArray[np.float32]:
        return np.array([state.position, rng.uniform()], dtype=np.float32)

    def reward(
        self,
        state: WalkState,
        action: np.int64,
        next_state: WalkState,
        rng: Any,
        params: WalkParams | None = None,
    ) -> float:
        return float(next_state.position - state.position)

    def terminal(self, state: WalkState, rng: Any, params: WalkParams | None = None) -> bool:
        return bool(abs(state.position) > (params or WalkParams()).bound)

    def state_info(self, state: WalkState, params: WalkParams | None = None) -> dict[str, Any]:
        return {"start": state.position}

    def transition_info(
        self,
        state: WalkState,
        action: np.int64,
        next_state: WalkState,
        params: WalkParams | None = None,
    ) -> dict[str, Any]:
        return {"moves": next_state.moves}
