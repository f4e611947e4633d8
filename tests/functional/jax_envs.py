"""Small jax functional envs for the tests: the noisy walk of `envs.py`, and a pendulum
whose dynamics are differentiable (for `jax.grad` through a rollout)."""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from protogym.functional import FuncEnv
from protogym.spaces import Box, Discrete
from tests.functional.envs import OBS_SPACE, WalkParams, WalkState


class JaxWalk(FuncEnv[WalkState, jax.Array, jax.Array, jax.Array, jax.Array, None, WalkParams]):
    """`envs.NumpyWalk` in jax: the same dynamics, drawing from jax keys."""

    observation_space = OBS_SPACE
    action_space = Discrete(2)

    def initial(self, rng: Any, params: WalkParams | None = None) -> WalkState:
        return WalkState(jax.random.uniform(rng, (), minval=-0.5, maxval=0.5), jnp.int32(0))

    def transition(
        self, state: WalkState, action: jax.Array, rng: Any, params: WalkParams | None = None
    ) -> WalkState:
        size = (params or WalkParams()).step_size
        move = (2.0 * action - 1.0) * size + jax.random.normal(rng) * 0.01
        return WalkState(state.position + move, state.moves + 1)

    def observation(
        self, state: WalkState, rng: Any, params: WalkParams | None = None
    ) -> jax.Array:
        obs: jax.Array = jnp.stack([state.position, jax.random.uniform(rng)]).astype(jnp.float32)
        return obs

    def reward(
        self,
        state: WalkState,
        action: jax.Array,
        next_state: WalkState,
        rng: Any,
        params: WalkParams | None = None,
    ) -> jax.Array:
        moved: jax.Array = next_state.position - state.position
        return moved

    def terminal(self, state: WalkState, rng: Any, params: WalkParams | None = None) -> jax.Array:
        return jnp.abs(state.position) > (params or WalkParams()).bound

    def transition_info(
        self,
        state: WalkState,
        action: jax.Array,
        next_state: WalkState,
        params: WalkParams | None = None,
    ) -> dict[str, Any]:
        return {"moves": next_state.moves}


class PendulumState(NamedTuple):
    angle: jax.Array
    speed: jax.Array


class Swing(FuncEnv[PendulumState, jax.Array, jax.Array, jax.Array, jax.Array, Any, None]):
    """A torque-driven pendulum (Pendulum-v1's dynamics, no angle wrapping) that never ends
    and draws a 16x16 frame whose bright column follows the angle."""

    observation_space = Box(-np.inf, np.inf, (2,), np.float32)
    action_space = Box(-2.0, 2.0, (1,), np.float32)
    dt = 0.05

    def initial(self, rng: Any, params: None = None) -> PendulumState:
        angle, speed = jax.random.uniform(rng, (2,), minval=-1.0, maxval=1.0)
        return PendulumState(angle, speed)

    def transition(
        self, state: PendulumState, action: jax.Array, rng: Any, params: None = None
    ) -> PendulumState:
        torque = jnp.clip(action[0], -2.0, 2.0)
        speed = state.speed + (15.0 * jnp.sin(state.angle) + 3.0 * torque) * self.dt
        speed = jnp.clip(speed, -8.0, 8.0)
        return PendulumState(state.angle + speed * self.dt, speed)

    def observation(self, state: PendulumState, rng: Any, params: None = None) -> jax.Array:
        return jnp.stack([state.angle, state.speed])

    def reward(
        self,
        state: PendulumState,
        action: jax.Array,
        next_state: PendulumState,
        rng: Any,
        params: None = None,
    ) -> jax.Array:
        return -(state.angle**2 + 0.1 * state.speed**2 + 0.001 * action[0] ** 2)

    def terminal(self, state: PendulumState, rng: Any, params: None = None) -> jax.Array:
        return jnp.zeros((), dtype=bool)

    def render_init(self, params: None = None, **kwargs: Any) -> list[int]:
        return []  # the render state counts the frames drawn

    def render_image(
        self, state: PendulumState, render_state: list[int], params: None = None
    ) -> tuple[list[int], np.ndarray[Any, Any]]:
        frame = np.zeros((16, 16, 3), dtype=np.uint8)
        column = int(np.clip(8 + 4 * float(state.angle), 0, 15))
        frame[:, column] = 255
        return [*render_state, column], frame

    def render_close(self, render_state: list[int], params: None = None) -> None:
        render_state.clear()


class CountdownState(NamedTuple):
    value: jax.Array
    left: jax.Array


class Countdown(FuncEnv[CountdownState, jax.Array, jax.Array, jax.Array, jax.Array, None, None]):
    """Episodes of 1 to `longest` steps, their length drawn at the start; every function
    that takes a key draws from it, and the reset's info has a key of its own ("start")
    and one the step also reports ("left")."""

    observation_space = Box(0.0, 1.0, (2,), np.float32)
    action_space = Discrete(2)
    longest = 20

    def initial(self, rng: Any, params: None = None) -> CountdownState:
        value = jax.random.uniform(rng)
        return CountdownState(value, 1 + (value * self.longest).astype(jnp.int32))

    def transition(
        self, state: CountdownState, action: jax.Array, rng: Any, params: None = None
    ) -> CountdownState:
        return CountdownState(jax.random.uniform(rng), state.left - 1)

    def observation(self, state: CountdownState, rng: Any, params: None = None) -> jax.Array:
        return jnp.stack([state.value, jax.random.uniform(rng)])

    def reward(self, state: CountdownState, action: jax.Array, next_state: CountdownState,
               rng: Any, params: None = None) -> jax.Array:
        return jax.random.uniform(rng) + action

    def terminal(self, state: CountdownState, rng: Any, params: None = None) -> jax.Array:
        return state.left <= 0

    def state_info(self, state: CountdownState, params: None = None) -> dict[str, Any]:
        return {"start": state.value, "left": state.left}

    def transition_info(self, state: CountdownState, action: jax.Array,
                        next_state: CountdownState, params: None = None) -> dict[str, Any]:
        return {"left": next_state.left}
