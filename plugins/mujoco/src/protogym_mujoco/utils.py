"""MuJoCo's whole simulation state of an env, to save and restore it (Gymnasium's
`gymnasium.envs.mujoco.utils`, same names and arguments).

`qpos` and `qvel` are not all of MuJoCo's state (actuator activations, warm starts and the
time are more); `get_state` and `set_state` read and write the part `state_type` names, by
default all of it (`mjSTATE_FULLPHYSICS`).
"""

from __future__ import annotations

from typing import Any

import mujoco
import numpy as np
from numpy.typing import NDArray

__all__ = ["check_mujoco_reset_state", "get_state", "set_state"]

_FULL_PHYSICS = mujoco.mjtState.mjSTATE_FULLPHYSICS
_INTEGRATION = mujoco.mjtState.mjSTATE_INTEGRATION


def get_state(env: Any, state_type: Any = _FULL_PHYSICS) -> NDArray[np.float64]:
    """The `state_type` part of the MuJoCo state of `env` (made or unwrapped), as one array."""
    model, data = env.unwrapped.model, env.unwrapped.data
    state = np.empty(mujoco.mj_stateSize(model, state_type))
    mujoco.mj_getState(model, data, state, state_type)
    return state


def set_state(
    env: Any, state: NDArray[np.float64], state_type: Any = _FULL_PHYSICS
) -> NDArray[np.float64]:
    """Write `state` (from `get_state` with the same `state_type`) back into `env`."""
    model, data = env.unwrapped.model, env.unwrapped.data
    expected = mujoco.mj_stateSize(model, state_type)
    if np.shape(state) != (expected,):
        raise ValueError(
            f"set_state needs a state of shape ({expected},) for this model and state_type, "
            f"got {np.shape(state)}; take it from get_state(env, state_type)"
        )
    mujoco.mj_setState(model, data, state, state_type)
    return state


def check_mujoco_reset_state(env: Any, seed: int = 1234, state_type: Any = _INTEGRATION) -> None:
    """Assert that `reset(seed=seed)` restores the same state after a step was taken."""
    env.action_space.seed(seed)
    action = env.action_space.sample()
    env.reset(seed=seed)
    first = get_state(env, state_type)
    env.step(action)
    env.reset(seed=seed)
    second = get_state(env, state_type)
    assert np.array_equal(first, second), "reset(seed) does not restore the same MuJoCo state"
