"""rgb_array frames through render_init / render_image / render_close: the same pixels as the
classic-control env draws for the same state (SDL's dummy video driver, no display)."""

from __future__ import annotations

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
from protogym_functional.phys2d.cartpole import CartPoleFunctional
from protogym_functional.phys2d.mountain_car import MountainCarFunctional
from protogym_functional.phys2d.mountain_car_continuous import MountainCarContinuousFunctional
from protogym_functional.phys2d.pendulum import PendulumFunctional

import protogym

pytestmark = pytest.mark.jax

PAIRS: dict[str, tuple[Any, Any, int, tuple[int, int, int]]] = {
    "CartPole": (CartPoleFunctional, CartPoleEnv, 4, (400, 600, 3)),
    "Pendulum": (PendulumFunctional, PendulumEnv, 2, (500, 500, 3)),
    "Acrobot": (AcrobotFunctional, AcrobotEnv, 4, (500, 500, 3)),
    "MountainCar": (MountainCarFunctional, MountainCarEnv, 2, (400, 600, 3)),
    "MountainCarContinuous": (
        MountainCarContinuousFunctional,
        ContinuousMountainCarEnv,
        2,
        (400, 600, 3),
    ),
}


@pytest.mark.parametrize("name", PAIRS)
def test_frames_equal_the_classic_envs(name: str) -> None:
    make_functional, make_classic, size, shape = PAIRS[name]
    env = make_functional()
    classic = make_classic(render_mode="rgb_array")
    classic.reset(seed=0)
    canvas = env.render_init()
    env.action_space.seed(0)
    state = env.initial(jax.random.key(2))
    try:
        for _ in range(12):
            action = env.action_space.sample()
            # the classic env steps from the functional state, so both draw the same one
            classic.state = np.asarray(state[:size], dtype=np.float64)
            if isinstance(classic, CartPoleEnv):
                classic.steps_beyond_terminated = None
            classic.step(action)
            state = env.transition(state, action, None)
            classic.state = np.asarray(state[:size], dtype=np.float64)
            canvas, frame = env.render_image(state, canvas)
            assert frame.shape == shape and frame.dtype == np.uint8
            np.testing.assert_array_equal(frame, classic.render())
    finally:
        env.render_close(canvas)
        classic.close()


def test_pendulum_draws_the_last_torque() -> None:
    env = PendulumFunctional()
    canvas = env.render_init()
    at_rest = jnp.array([0.5, 0.0, 0.0], dtype=jnp.float32)
    pushed = at_rest.at[2].set(2.0)
    canvas, still = env.render_image(at_rest, canvas)
    canvas, arrow = env.render_image(pushed, canvas)
    env.render_close(canvas)
    assert (still != arrow).any(axis=2).sum() > 100  # the arrow's pixels


def test_make_renders_rgb_array() -> None:
    env = protogym.make("phys2d/CartPole-v1", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    env.close()
    assert frame.shape == (400, 600, 3)
    assert (frame == 0).all(axis=2).sum() > 500  # the black cart and track


@pytest.mark.parametrize(
    ("options", "message"),
    [({"screen_width": 0}, "screen_width must be a positive int"), ({"zoom": 2}, "unknown option")],
)
def test_bad_render_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        CartPoleFunctional().render_init(**options)


def test_render_size_is_an_option() -> None:
    env = CartPoleFunctional()
    canvas = env.render_init(screen_width=300, screen_height=200)
    canvas, frame = env.render_image(env.initial(jax.random.key(0)), canvas)
    env.render_close(canvas)
    assert frame.shape == (200, 300, 3)
