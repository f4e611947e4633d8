"""LunarLander: Gymnasium 1.4's trajectories to the bit (recorded goldens, no Gymnasium
here), the heuristic pilot lands, rendering, pickling, and bad input."""

from __future__ import annotations

import json
import pickle
import re
import statistics
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from protogym_box2d.heuristics import lunar_lander, lunar_lander_continuous
from protogym_box2d.lunar_lander import LunarLanderEnv

import protogym
from protogym.error import InvalidAction, ResetNeeded

GOLDENS = np.load(Path(__file__).parent / "goldens" / "lunar_lander.npz")
CASES = json.loads(str(GOLDENS["cases"]))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_trajectories_match_gymnasiums_to_the_bit(case: dict[str, Any]) -> None:
    env = protogym.make("LunarLander-v3", **case["kwargs"])
    name = case["name"]
    observations = GOLDENS[f"{name}/observations"]
    obs, _ = env.reset(seed=case["seed"])
    np.testing.assert_array_equal(obs, observations[0])
    for step, action in enumerate(GOLDENS[f"{name}/actions"]):
        obs, reward, terminated, truncated, _ = env.step(action)
        np.testing.assert_array_equal(obs, observations[step + 1], err_msg=f"step {step}")
        assert float(reward) == GOLDENS[f"{name}/rewards"][step]
        assert terminated == GOLDENS[f"{name}/terminations"][step]
        assert not truncated
    assert terminated  # every recorded case ends: crash, off screen, or at rest


@pytest.mark.parametrize(
    ("env_id", "pilot"),
    [("LunarLander-v3", lunar_lander), ("LunarLanderContinuous-v3", lunar_lander_continuous)],
)
def test_the_heuristic_lands_with_a_mean_return_over_200(env_id: str, pilot: Any) -> None:
    env = protogym.make(env_id)
    returns = []
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(pilot(obs))
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
    assert statistics.fmean(returns) >= 200.0, returns
    assert protogym.registry.policy(env_id, "heuristic") is pilot


def test_rgb_array_frames_and_particles() -> None:
    env = protogym.make("LunarLander-v3", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    for _ in range(5):
        env.step(2)  # the main engine leaves exhaust particles
    frame = env.render()
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    assert not np.array_equal(first, frame)
    env.close()


def test_human_rendering_opens_and_closes_a_window() -> None:
    import pygame

    env = protogym.make("LunarLander-v3", render_mode="human")
    env.reset(seed=0)
    env.step(0)
    assert pygame.display.get_init()
    env.close()
    assert not pygame.display.get_init()


def test_a_pickled_env_starts_over_like_a_fresh_one() -> None:
    env = protogym.make("LunarLanderContinuous-v3")
    env.reset(seed=3)
    env.step(np.array([1.0, 0.0], dtype=np.float32))
    copy = pickle.loads(pickle.dumps(env))
    fresh = protogym.make("LunarLanderContinuous-v3")
    np.testing.assert_array_equal(copy.reset(seed=9)[0], fresh.reset(seed=9)[0])


def test_continuous_actions_outside_the_box_are_clipped_as_in_the_reference() -> None:
    clipped, wild = protogym.make("LunarLanderContinuous-v3"), protogym.make(
        "LunarLanderContinuous-v3"
    )
    clipped.reset(seed=1)
    wild.reset(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the passive checker notes the out-of-space action
        a = wild.step(np.array([5.0, -7.0], dtype=np.float32))
    b = clipped.step(np.array([1.0, -1.0], dtype=np.float32))
    np.testing.assert_array_equal(a[0], b[0])


def test_bad_input_says_what_was_wrong() -> None:
    env = LunarLanderEnv()
    with pytest.raises(ResetNeeded, match="before reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"pass 0 \(nothing\), 1 \(left engine\)"):
        env.step(4)
    with pytest.raises(ValueError, match="gravity must be between -12 and 0"):
        LunarLanderEnv(gravity=-15.0)
    with pytest.raises(AssertionError):  # the class Gymnasium's check raises
        LunarLanderEnv(gravity=0.0)
    with pytest.raises(ValueError, match="does not support render_mode='ansi'"):
        LunarLanderEnv(render_mode="ansi")
    continuous = LunarLanderEnv(continuous=True)
    continuous.reset(seed=0)
    wrong_shapes: tuple[Any, ...] = (np.zeros(3, np.float32), np.zeros((2, 2)), 0.5)
    for wrong_shape in wrong_shapes:
        with pytest.raises(InvalidAction, match=r"pass two floats.*shape \(2,\)"):
            continuous.step(wrong_shape)


def test_protogym_play_keys_fire_the_engines() -> None:
    keys = LunarLanderEnv().get_keys_to_action()
    assert keys["w"] == 2 and keys["a"] == 1 and keys["d"] == 3 and keys[()] == 0


@pytest.mark.parametrize(
    ("kwargs", "warning"),
    [
        ({"wind_power": -1.0}, "wind_power=-1.0 is outside the tuned range [0, 20]"),
        ({"wind_power": 25.0}, "wind_power=25.0 is outside the tuned range [0, 20]"),
        ({"turbulence_power": 3.0}, "turbulence_power=3.0 is outside the tuned range [0, 2]"),
    ],
)
def test_untuned_wind_warns_and_still_blows(kwargs: dict[str, Any], warning: str) -> None:
    with pytest.warns(UserWarning, match=re.escape(warning)):
        env = LunarLanderEnv(enable_wind=True, **kwargs)
    env.reset(seed=0)
    assert env.wind_idx != 0 and env.torque_idx != 0
    env.step(0)
