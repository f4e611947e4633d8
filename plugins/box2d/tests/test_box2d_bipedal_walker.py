"""BipedalWalker: Gymnasium 1.4's trajectories and pixels to the bit (recorded goldens, no
Gymnasium here), the lidar shortcut against Box2D's own ray casts, clipping, rendering,
pickling, vector envs, and bad input."""

from __future__ import annotations

import importlib
import json
import math
import pickle
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from Box2D.b2 import rayCastCallback
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from protogym_box2d.bipedal_walker import LIDAR_RANGE, BipedalWalkerEnv

import protogym
from protogym.error import InvalidAction, ResetNeeded

GOLDENS = np.load(Path(__file__).parent / "goldens" / "bipedal_walker.npz")
CASES = json.loads(str(GOLDENS["cases"]))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_trajectories_and_frames_match_gymnasiums_to_the_bit(case: dict[str, Any]) -> None:
    render_mode = "rgb_array" if case["frame_steps"] else None
    env = protogym.make("BipedalWalker-v3", render_mode=render_mode, **case["kwargs"])
    for episode, seed in enumerate(case["seeds"]):
        golden = {key: GOLDENS[f"{case['name']}/{episode}/{key}"] for key in
                  ("actions", "observations", "rewards", "terminations")}
        frames = iter(GOLDENS.get(f"{case['name']}/{episode}/frames", []))
        obs, _ = env.reset(seed=seed)
        np.testing.assert_array_equal(obs, golden["observations"][0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the passive checker notes out-of-space actions
            for step, action in enumerate(golden["actions"]):
                obs, reward, terminated, truncated, _ = env.step(action)
                where = f"episode {episode}, step {step}"
                np.testing.assert_array_equal(obs, golden["observations"][step + 1], err_msg=where)
                assert float(reward) == golden["rewards"][step], where
                assert terminated == golden["terminations"][step], where
                assert not truncated
                if step in case["frame_steps"]:
                    np.testing.assert_array_equal(env.render(), next(frames), err_msg=where)
        assert next(frames, None) is None
    env.close()


def test_the_goldens_cover_falls_the_far_end_and_unseeded_episodes() -> None:
    """The cases pin what they claim: -100 falls, a walk that ends at the far end without
    penalty, episodes that go on without a seed, and hardcore terrain."""
    ends = [
        (GOLDENS[f"{name}/rewards"][-1], GOLDENS[f"{name}/terminations"][-1])
        for case in CASES
        for name in (f"{case['name']}/{n}" for n in range(len(case["seeds"])))
    ]
    assert sum(reward == -100.0 and done for reward, done in ends) >= 4
    assert any(done and reward != -100.0 for reward, done in ends)
    assert any(seed is None for case in CASES for seed in case["seeds"])
    assert any(case["kwargs"].get("hardcore") for case in CASES)


class _ReferenceRay(rayCastCallback):
    """The reference's way: cast in the walker's own world, skip fixtures without bit 1."""

    def __init__(self) -> None:
        rayCastCallback.__init__(self)
        self.fraction = 1.0

    def ReportFixture(  # noqa: N802 - Box2D's callback name
        self, fixture: Any, point: Any, normal: Any, fraction: float
    ) -> float:
        if not fixture.filterData.categoryBits & 1:
            return -1.0
        self.fraction = fraction
        return fraction


@pytest.mark.parametrize("hardcore", [False, True])
def test_the_terrain_only_lidar_reads_what_box2d_reads_in_the_walkers_world(
    hardcore: bool,
) -> None:
    env = BipedalWalkerEnv(hardcore=hardcore)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        for _ in range(200):
            x = float(np.float32(rng.uniform(0.0, 90.0)))
            y = float(np.float32(rng.uniform(0.5, 8.0)))
            ours = env._lidar.scan(x, y, None)  # type: ignore[union-attr]
            theirs = []
            ray = _ReferenceRay()
            for i in range(10):
                ray.fraction = 1.0
                angle = 1.5 * i / 10.0
                end = (x + math.sin(angle) * LIDAR_RANGE, y - math.cos(angle) * LIDAR_RANGE)
                env.world.RayCast(ray, (x, y), end)
                theirs.append(ray.fraction)
            assert ours == theirs


def test_spaces_are_the_references() -> None:
    env = BipedalWalkerEnv()
    assert env.action_space.shape == (4,) and env.action_space.dtype == np.float32
    assert np.all(env.action_space.low == -1.0) and np.all(env.action_space.high == 1.0)
    space = env.observation_space
    assert space.shape == (24,) and space.dtype == np.float32
    angles = [0, 4, 6, 9, 11]
    np.testing.assert_array_equal(space.high[angles], np.float32(np.pi))
    np.testing.assert_array_equal(space.low[angles], np.float32(-np.pi))
    np.testing.assert_array_equal(space.high[[1, 2, 3, 5, 7, 8, 10, 12, 13]], 5.0)
    np.testing.assert_array_equal(space.low[[8, 13]], 0.0)
    np.testing.assert_array_equal(space.low[14:], -1.0)
    np.testing.assert_array_equal(space.high[14:], 1.0)


def test_registered_limits_and_thresholds_are_gymnasiums() -> None:
    normal, hardcore = protogym.spec("BipedalWalker-v3"), protogym.spec("BipedalWalkerHardcore-v3")
    assert (normal.max_episode_steps, normal.reward_threshold) == (1600, 300.0)
    assert (hardcore.max_episode_steps, hardcore.reward_threshold) == (2000, 300.0)
    assert hardcore.kwargs == {"hardcore": True}
    assert protogym.make("BipedalWalkerHardcore-v3").unwrapped.hardcore


@settings(max_examples=25, deadline=None)
@given(arrays(np.float32, 4, elements=st.floats(-10.0, 10.0, width=32)))
def test_magnitudes_above_one_are_clipped_as_in_the_reference(action: Any) -> None:
    wild, clipped = BipedalWalkerEnv(), BipedalWalkerEnv()
    wild.reset(seed=4)
    clipped.reset(seed=4)
    for _ in range(3):
        a = wild.step(action)
        b = clipped.step(np.clip(action, -1.0, 1.0))
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1:] == b[1:]


def test_float64_actions_are_accepted_and_lists_too() -> None:
    a, b = BipedalWalkerEnv(), BipedalWalkerEnv()
    a.reset(seed=0)
    b.reset(seed=0)
    for _ in range(20):
        np.testing.assert_array_equal(
            a.step(np.array([0.5, -0.25, 1.0, 0.0]))[0],
            b.step([0.5, -0.25, 1.0, 0.0])[0],  # type: ignore[arg-type]
        )


def test_bad_input_says_what_was_wrong() -> None:
    env = BipedalWalkerEnv()
    with pytest.raises(ResetNeeded, match="before reset"):
        env.step(np.zeros(4, dtype=np.float32))
    with pytest.raises(ResetNeeded, match="before reset"):
        BipedalWalkerEnv(render_mode="rgb_array").render()
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"shape \(3,\): pass 4 numbers in \[-1, 1\]"):
        env.step(np.zeros(3, dtype=np.float32))
    with pytest.raises(InvalidAction, match="NaN"):
        env.step(np.array([0.0, np.nan, 0.0, 0.0], dtype=np.float32))
    with pytest.raises(ValueError, match="does not support render_mode='ansi'"):
        BipedalWalkerEnv(render_mode="ansi")
    with pytest.raises(TypeError, match=r"unexpected keyword argument.*'hardcor'.*'hardcore'"):
        protogym.make("BipedalWalker-v3", hardcor=True)  # type: ignore[protogym-kwargs]


def test_without_box2d_the_import_error_names_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "Box2D", None)
    monkeypatch.setitem(sys.modules, "Box2D.b2", None)
    monkeypatch.delitem(sys.modules, "protogym_box2d.bipedal_walker")
    with pytest.raises(ImportError, match=r'needs the box2d package.*pip install "protogym-box2d"'):
        importlib.import_module("protogym_box2d.bipedal_walker")


def test_rgb_array_frames_follow_the_walker() -> None:
    env = protogym.make("BipedalWalker-v3", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    assert first.shape == (400, 600, 3) and first.dtype == np.uint8
    for _ in range(30):
        env.step(np.array([1.0, 0.0, -1.0, 0.0], dtype=np.float32))
    assert not np.array_equal(first, env.render())
    env.close()


def test_render_without_a_mode_warns_and_returns_none() -> None:
    env = BipedalWalkerEnv()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match='render_mode="rgb_array"'):
        assert env.render() is None


def test_human_rendering_opens_and_closes_a_window() -> None:
    import pygame

    env = protogym.make("BipedalWalkerHardcore-v3", render_mode="human")
    env.reset(seed=0)
    env.step(np.zeros(4, dtype=np.float32))
    assert pygame.display.get_init()
    env.close()
    assert not pygame.display.get_init()
    env.close()  # twice is harmless


def test_a_pickled_env_starts_over_like_a_fresh_one() -> None:
    env = protogym.make("BipedalWalkerHardcore-v3")
    env.reset(seed=3)
    env.step(np.ones(4, dtype=np.float32))
    copy = pickle.loads(pickle.dumps(env))
    fresh = protogym.make("BipedalWalkerHardcore-v3")
    np.testing.assert_array_equal(copy.reset(seed=9)[0], fresh.reset(seed=9)[0])
    action = np.array([0.3, -0.8, 0.9, 0.1], dtype=np.float32)
    np.testing.assert_array_equal(copy.step(action)[0], fresh.step(action)[0])


def test_sync_and_async_vector_envs_walk_the_same() -> None:
    sync = protogym.make_vec("BipedalWalkerHardcore-v3", 2, vectorization_mode="sync")
    async_ = protogym.make_vec("BipedalWalkerHardcore-v3", 2, vectorization_mode="async")
    try:
        np.testing.assert_array_equal(sync.reset(seed=5)[0], async_.reset(seed=5)[0])
        sync.action_space.seed(1)
        for _ in range(100):
            actions = sync.action_space.sample()
            ours, theirs = sync.step(actions), async_.step(actions)
            for a, b in zip(ours[:4], theirs[:4], strict=True):
                np.testing.assert_array_equal(a, b)
    finally:
        sync.close()
        async_.close()
