"""rgb_array frames through render_init / render_image / render_close: the same pixels as the
classic-control or toy-text env draws for the same state (SDL's dummy video driver, no
display)."""

from __future__ import annotations

import sys
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
from protogym_functional.phys2d.cartpole import CartPoleFunctional
from protogym_functional.phys2d.mountain_car import MountainCarFunctional
from protogym_functional.phys2d.mountain_car_continuous import MountainCarContinuousFunctional
from protogym_functional.phys2d.pendulum import PendulumFunctional
from protogym_functional.tabular.blackjack import BlackjackFunctional
from protogym_functional.tabular.cliffwalking import CliffWalkingFunctional
from protogym_functional.tabular.frozen_lake import FrozenLakeFunctional
from protogym_functional.tabular.taxi import TaxiFunctional
from protogym_toy_text import BlackjackEnv, CliffWalkingEnv, FrozenLakeEnv, TaxiEnv

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


# The tabular envs whose state is one cell index: (functional env, toy-text env, frame shape).
GRIDS: dict[str, tuple[Callable[[], Any], Callable[[], Any], tuple[int, int, int]]] = {
    "Taxi": (TaxiFunctional, lambda: TaxiEnv(render_mode="rgb_array"), (392, 512, 3)),
    "CliffWalking": (
        CliffWalkingFunctional,
        lambda: CliffWalkingEnv(render_mode="rgb_array"),
        (256, 768, 3),
    ),
    "FrozenLake": (
        FrozenLakeFunctional,
        lambda: FrozenLakeEnv(render_mode="rgb_array"),
        (256, 256, 3),
    ),
    "FrozenLake8x8": (
        lambda: FrozenLakeFunctional(map_name="8x8"),
        lambda: FrozenLakeEnv(render_mode="rgb_array", map_name="8x8"),
        (512, 512, 3),
    ),
}


def _cell(env: Any, state: Any) -> int:
    """The state's cell index, as the toy-text env numbers its states."""
    return int(np.asarray(env.observation(state)).reshape(()))


def _random_step(env: Any, key: jax.Array, state: Any) -> tuple[jax.Array, Any]:
    """The state after a random action, or a fresh start once that ends the episode."""
    key, pick, step = jax.random.split(key, 3)
    state = env.transition(state, jax.random.randint(pick, (), 0, int(env.action_space.n)), step)
    if env.terminal(state):
        key, start = jax.random.split(key)
        state = env.initial(start)
    return key, state


@pytest.mark.parametrize("name", GRIDS)
def test_tabular_frames_equal_the_toy_text_envs(name: str) -> None:
    make_functional, make_toy_text, shape = GRIDS[name]
    env = make_functional()
    toy_text = make_toy_text()
    toy_text.reset(seed=0)
    canvas = env.render_init()
    key = jax.random.key(5)
    key, start = jax.random.split(key)
    state = env.initial(start)
    cells = set()
    try:
        for _ in range(25):
            canvas, frame = env.render_image(state, canvas)
            assert frame.shape == shape and frame.dtype == np.uint8
            toy_text.s = _cell(env, state)  # the toy-text env draws the same state
            np.testing.assert_array_equal(frame, toy_text.render())
            cells.add(_cell(env, state))
            key, state = _random_step(env, key, state)
    finally:
        env.render_close(canvas)
        toy_text.close()
    assert len(cells) > 3  # the rollout drew the agent in several places


def test_blackjack_frames_equal_the_toy_text_env() -> None:
    env = BlackjackFunctional()
    toy_text = BlackjackEnv(render_mode="rgb_array")
    # the functional state holds card values only: a frame shows the dealer's card as a
    # spade and a ten-valued one as a king
    toy_text.dealer_top_card_suit = "S"
    canvas = env.render_init()
    key = jax.random.key(1)
    key, start = jax.random.split(key)
    state = env.initial(start)
    dealer_cards, hand_sizes = set(), set()
    try:
        for _ in range(30):
            canvas, frame = env.render_image(state, canvas)
            assert frame.shape == (400, 480, 3) and frame.dtype == np.uint8
            cards = int(state.player_cards)
            toy_text.player = [int(card) for card in np.asarray(state.player_hand)[:cards]]
            toy_text.dealer = [int(card) for card in np.asarray(state.dealer_hand)]
            shown = toy_text.dealer[0]
            toy_text.dealer_top_card_value_str = {1: "A", 10: "K"}.get(shown, str(shown))
            np.testing.assert_array_equal(frame, toy_text.render())
            dealer_cards.add(shown)
            hand_sizes.add(cards)
            key, state = _random_step(env, key, state)
    finally:
        env.render_close(canvas)
        toy_text.close()
    # an ace, a ten-valued card and another card shown; hands of two cards and more
    assert {1, 10} < dealer_cards and len(hand_sizes) > 1


TABULAR_IDS = {
    "tabular/Blackjack-v0": (400, 480, 3),
    "tabular/CliffWalking-v0": (256, 768, 3),
    "tabular/FrozenLake-v1": (256, 256, 3),
    "tabular/FrozenLake8x8-v1": (512, 512, 3),
    "tabular/Taxi-v3": (392, 512, 3),
}


@pytest.mark.parametrize("env_id", TABULAR_IDS)
def test_tabular_ids_render_through_make_and_make_vec(env_id: str) -> None:
    shape = TABULAR_IDS[env_id]
    env = protogym.make(env_id, render_mode="rgb_array")
    assert env.metadata["render_modes"] == ["rgb_array"] and env.metadata["render_fps"] == 4
    env.reset(seed=0)
    frame = env.render()
    env.close()
    vec = protogym.make_vec(env_id, num_envs=3, render_mode="rgb_array")
    assert vec.metadata["render_modes"] == ["rgb_array"]
    vec.reset(seed=0)
    frames = vec.render()
    vec.close()
    assert frame.shape == shape and frame.dtype == np.uint8
    assert len(frames) == 3 and all(f.shape == shape and f.dtype == np.uint8 for f in frames)


@pytest.mark.parametrize(
    ("env_id", "make_toy_text"),
    [
        ("tabular/Taxi-v3", lambda: TaxiEnv(render_mode="rgb_array")),
        (
            "tabular/FrozenLake8x8-v1",
            lambda: FrozenLakeEnv(render_mode="rgb_array", map_name="8x8"),
        ),
    ],
)
def test_make_vec_draws_each_copys_state(env_id: str, make_toy_text: Callable[[], Any]) -> None:
    vec = protogym.make_vec(env_id, num_envs=3, render_mode="rgb_array")
    toy_text = make_toy_text()
    toy_text.reset(seed=0)
    vec.reset(seed=4)
    try:
        for _ in range(4):
            observations, *_ = vec.step(np.array([1, 2, 0]))
            for cell, frame in zip(np.asarray(observations), vec.render(), strict=True):
                toy_text.s = int(cell)
                np.testing.assert_array_equal(frame, toy_text.render())
    finally:
        vec.close()
        toy_text.close()


@pytest.mark.parametrize(
    "make_env", [BlackjackFunctional, CliffWalkingFunctional, FrozenLakeFunctional, TaxiFunctional]
)
def test_tabular_render_init_refuses_unknown_options(make_env: Callable[[], Any]) -> None:
    with pytest.raises(TypeError, match=r"render_init got unknown option\(s\) \['zoom'\]"):
        make_env().render_init(zoom=2)


def test_tabular_rendering_without_the_toy_text_plugin_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "protogym_toy_text", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "protogym_functional.tabular._render", raising=False)
    with pytest.raises(ImportError, match=r"protogym-toy-text.*protogym-functional\[render\]"):
        TaxiFunctional().render_init()
