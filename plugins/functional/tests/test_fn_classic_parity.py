"""The functional physics envs against protogym's classic-control envs: the same transition
function, to float32 precision, along 500-step trajectories.

Tolerance. A functional env computes in float32, the classic one in float64 (Python
floats). One step is a few dozen float32 operations on values below 30 in magnitude, each
rounding by at most half an ulp (2**-24 relative), so a step's result can differ from the
float64 one by a few units of 1e-6; `STEP_TOL` (rtol = atol = 1e-5) bounds that with a small
margin, and is still far below what a wrong equation changes: Gymnasium's CartPole with
`polemass_length = masspole + length` moves the next angular velocity by over 1e-3 in
one step (tested).

Why re-synced steps. CartPole's upright pole, Pendulum's upright position and Acrobot (a
chaotic system) are unstable: a rounding difference of 1e-7 grows by a constant factor each
step (about 1.08 per step for the pole), so no float32 run stays within float32 precision of
a float64 run for 500 steps, whatever the code. `test_step_matches_classic_along_500_steps`
therefore sets the classic env's state to the functional state before every step (a float32
value is exact in float64) and compares one step at a time, along a 500-step trajectory of
seeded actions. The stable MountainCars are also compared open loop for 500 steps, and the
unstable envs open loop over their first 40 steps.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from protogym_classic_control import (
    AcrobotEnv,
    CartPoleEnv,
    ContinuousMountainCarEnv,
    MountainCarEnv,
    PendulumEnv,
)
from protogym_functional.phys2d.acrobot import AcrobotFunctional
from protogym_functional.phys2d.cartpole import CartPoleFunctional, CartPoleParams
from protogym_functional.phys2d.mountain_car import MountainCarFunctional
from protogym_functional.phys2d.mountain_car_continuous import MountainCarContinuousFunctional
from protogym_functional.phys2d.pendulum import PendulumFunctional

pytestmark = pytest.mark.jax

RTOL = ATOL = 1e-5  # the module docstring's STEP_TOL

# name: (functional env, classic env, size of the classic state)
PAIRS: dict[str, tuple[Callable[[], Any], Callable[[], Any], int]] = {
    "CartPole": (CartPoleFunctional, CartPoleEnv, 4),
    "Pendulum": (PendulumFunctional, PendulumEnv, 2),
    "Acrobot": (AcrobotFunctional, AcrobotEnv, 4),
    "MountainCar": (MountainCarFunctional, MountainCarEnv, 2),
    "MountainCarContinuous": (MountainCarContinuousFunctional, ContinuousMountainCarEnv, 2),
}


def _jitted(env: Any) -> tuple[Callable[..., Any], ...]:
    return (
        jax.jit(env.transition),
        jax.jit(env.observation),
        jax.jit(env.reward),
        jax.jit(env.terminal),
    )


def _actions(env: Any, count: int, seed: int) -> list[Any]:
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(count)]


def _classic_at(classic: Any, state: jax.Array, size: int) -> None:
    """Puts the classic env in the functional state, as a fresh (not yet ended) episode."""
    classic.state = np.asarray(state[:size], dtype=np.float64)
    if isinstance(classic, CartPoleEnv):  # it pays 0 for steps after the episode ended
        classic.steps_beyond_terminated = None


@pytest.mark.parametrize("name", PAIRS)
def test_step_matches_classic_along_500_steps(name: str) -> None:
    make_functional, make_classic, size = PAIRS[name]
    env, classic = make_functional(), make_classic()
    transition, observation, reward, terminal = _jitted(env)
    classic.reset(seed=0)
    state = env.initial(jax.random.key(7))
    worst = 0.0
    for action in _actions(env, 500, seed=1):
        _classic_at(classic, state, size)
        obs, rew, term, _, _ = classic.step(action)
        next_state = transition(state, action, None)
        np.testing.assert_allclose(observation(next_state, None), obs, rtol=RTOL, atol=ATOL)
        ours = reward(state, action, next_state, None)
        np.testing.assert_allclose(ours, rew, rtol=RTOL, atol=ATOL)
        assert bool(terminal(next_state, None)) == term
        worst = max(worst, float(np.abs(np.asarray(observation(next_state, None)) - obs).max()))
        state = next_state
    assert worst > 0.0  # float32 against float64: equal to the bit would mean float64 here


@pytest.mark.parametrize(
    ("name", "steps"),
    [
        ("MountainCar", 500),
        ("MountainCarContinuous", 500),
        ("CartPole", 40),
        ("Pendulum", 40),
        ("Acrobot", 40),
    ],
)
def test_open_loop_trajectory_matches_classic(name: str, steps: int) -> None:
    make_functional, make_classic, size = PAIRS[name]
    env, classic = make_functional(), make_classic()
    transition, observation, _, _ = _jitted(env)
    classic.reset(seed=0)
    state = env.initial(jax.random.key(3))
    _classic_at(classic, state, size)
    for action in _actions(env, steps, seed=2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obs, *_ = classic.step(action)
        state = transition(state, action, None)
        np.testing.assert_allclose(observation(state, None), obs, rtol=1e-5, atol=2e-5)


def test_cartpole_pole_mass_length_is_the_product() -> None:
    assert CartPoleParams().polemass_length == pytest.approx(0.05)
    # Gymnasium's phys2d value (masspole + length) moves the pole far beyond the tolerance
    env = CartPoleFunctional()
    state = jnp.array([0.0, 0.0, 0.1, 1.0], dtype=jnp.float32)
    ours = env.transition(state, 1, None)
    classic = CartPoleEnv()
    classic.reset(seed=0)
    classic.state = np.asarray(state, dtype=np.float64)
    obs, *_ = classic.step(1)
    np.testing.assert_allclose(ours, obs, rtol=RTOL, atol=ATOL)

    class SumParams(CartPoleParams):
        @property
        def polemass_length(self) -> float:
            return self.masspole + self.length

    gymnasium_like = env.transition(state, 1, None, SumParams())
    assert abs(float(gymnasium_like[3]) - float(ours[3])) > 100 * ATOL
