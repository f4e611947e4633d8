"""CarRacing: Gymnasium 1.4's tracks, car states, rewards and pixels exactly (recorded
goldens, no Gymnasium here), rendering, pickling, keys and bad input."""

from __future__ import annotations

import hashlib
import json
import pickle
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protogym_box2d.car_racing import CarRacingEnv
from protogym_box2d.racing_track import generate_track

import protogym
from protogym.error import InvalidAction, ResetNeeded

GOLDENS = np.load(Path(__file__).parent / "goldens" / "car_racing.npz")
CASES = json.loads(str(GOLDENS["cases"]))


def observation_hash(obs: np.ndarray) -> int:
    """As the recorder hashes: the first 8 bytes of BLAKE2b, little-endian."""
    return int.from_bytes(hashlib.blake2b(obs.tobytes(), digest_size=8).digest(), "little")


def car_state(env: CarRacingEnv) -> list[float]:
    assert env.car is not None
    hull, wheels = env.car.hull, env.car.wheels
    return [
        *hull.position,
        hull.angle,
        *hull.linearVelocity,
        hull.angularVelocity,
        *(wheel.omega for wheel in wheels),
        *(wheel.phase for wheel in wheels),
        float(env.tile_visited_count),
    ]


def pixel_difference(ours: np.ndarray, reference: np.ndarray) -> tuple[float, int]:
    """(fraction of pixels that differ in any channel, largest channel difference)."""
    differs = (ours != reference).any(axis=-1)
    return float(differs.mean()), int(np.abs(ours.astype(int) - reference).max())


def _steps(case: dict[str, Any]) -> int:
    return sum(len(GOLDENS[f"{case['name']}/{episode}/actions"]) for episode in range(2))


@pytest.mark.parametrize(
    "case",
    # a full lap takes a few seconds to replay
    [pytest.param(case, marks=[pytest.mark.slow] * (_steps(case) > 1000)) for case in CASES],
    ids=[case["name"] for case in CASES],
)
def test_episodes_match_gymnasiums_exactly(case: dict[str, Any]) -> None:
    env = protogym.make("CarRacing-v3", **case["kwargs"]).unwrapped
    assert isinstance(env, CarRacingEnv)
    for episode in range(2):
        golden = {
            key.rsplit("/", 1)[1]: GOLDENS[key]
            for key in GOLDENS.files
            if key.startswith(f"{case['name']}/{episode}/")
        }
        if episode == 0:
            obs, _ = env.reset(seed=case["seed"])
        else:
            obs, _ = env.reset(options=case.get("second_reset"))
        np.testing.assert_array_equal(np.array(env.track), golden["track"])
        np.testing.assert_array_equal([corners for corners, _ in env.road_poly], golden["road"])
        np.testing.assert_array_equal(
            [colour for _, colour in env.road_poly], golden["road_colours"]
        )
        np.testing.assert_array_equal(
            [env.road_color, env.bg_color, env.grass_color], golden["colours"]
        )
        full_frames = dict(zip(golden["frame_steps"].tolist(), golden["frames"], strict=True))
        rgb_frames = dict(
            zip(golden.get("rgb_steps", []), golden.get("rgb_frames", []), strict=True)
        )
        observations: dict[int, np.ndarray] = {0: obs}
        assert car_state(env) == golden["states"][0].tolist()
        assert observation_hash(obs) == golden["hashes"][0]
        for step, action in enumerate(golden["actions"], start=1):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the passive checker notes wild actions
                obs, reward, terminated, truncated, info = env.step(action)
            where = f"{case['name']} episode {episode} step {step}"
            assert car_state(env) == golden["states"][step].tolist(), where
            assert float(reward) == golden["rewards"][step - 1], where
            assert terminated == golden["terminations"][step - 1], where
            assert not truncated
            lap = golden["lap_finished"][step - 1]
            assert info.get("lap_finished", -1) == (lap if lap < 0 else bool(lap)), where
            if step in full_frames:
                observations[step] = obs
            assert observation_hash(obs) == golden["hashes"][step], (
                where,
                pixel_difference(obs, full_frames[step]) if step in full_frames else None,
            )
            if step in rgb_frames:
                frame = env.render()
                assert frame is not None
                assert pixel_difference(frame, rgb_frames[step]) == (0.0, 0), where
        # the stored frames themselves, compared pixel by pixel: no pixel differs at all
        for step, reference in full_frames.items():
            assert pixel_difference(observations[step], reference) == (0.0, 0)
    env.close()


def test_a_track_attempt_that_does_not_close_is_rejected_and_drawn_again() -> None:
    attempts = []
    rng = np.random.default_rng(0)
    for _ in range(200):
        attempts.append(generate_track(rng))
    assert any(track is None for track in attempts)
    assert all(len(track.tiles) == len(track.points) for track in attempts if track)


def test_spaces_and_registration_follow_gymnasium() -> None:
    spec = protogym.spec("CarRacing-v3")
    assert (spec.max_episode_steps, spec.reward_threshold) == (1000, 900.0)
    env = protogym.make("CarRacing-v3")
    assert env.observation_space.shape == (96, 96, 3)
    assert env.observation_space.dtype == np.uint8
    assert env.action_space == protogym.spaces.Box(
        np.array([-1, 0, 0], np.float32), np.array([1, 1, 1], np.float32)
    )
    discrete = protogym.make("CarRacing-v3", continuous=False)
    assert discrete.action_space == protogym.spaces.Discrete(5)


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.floats(-10, 10, allow_nan=False, width=32),
        min_size=3,
        max_size=3,
    )
)
def test_continuous_actions_outside_the_box_act_as_if_clipped(raw: list[float]) -> None:
    action = np.array(raw, dtype=np.float32)
    wild, clipped = CarRacingEnv(), CarRacingEnv()
    wild.reset(seed=1)
    clipped.reset(seed=1)
    low, high = np.array([-1, 0, 0], np.float32), np.array([1, 1, 1], np.float32)
    for _ in range(3):
        a = wild.step(action)
        b = clipped.step(np.clip(action, low, high))
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1:] == b[1:]
        assert car_state(wild) == car_state(clipped)


def test_render_modes() -> None:
    env = protogym.make("CarRacing-v3", render_mode="state_pixels")
    obs, _ = env.reset(seed=0)
    np.testing.assert_array_equal(env.render(), obs)
    obs, *_ = env.step(np.array([0.0, 1.0, 0.0], np.float32))
    np.testing.assert_array_equal(env.render(), obs)
    env = protogym.make("CarRacing-v3", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert protogym.make("CarRacing-v3").unwrapped.render() is None


def test_human_rendering_opens_and_closes_a_window() -> None:
    import pygame

    env = protogym.make("CarRacing-v3", render_mode="human")
    env.reset(seed=0)
    env.step(np.array([0.0, 0.5, 0.0], np.float32))
    assert pygame.display.get_init()
    assert pygame.display.get_surface().get_size() == (1000, 800)
    env.close()
    assert not pygame.display.get_init()
    env.close()  # twice is fine


def test_a_pickled_env_starts_over_like_a_fresh_one() -> None:
    env = protogym.make("CarRacing-v3", domain_randomize=True)
    env.reset(seed=3)
    env.step(np.array([0.0, 1.0, 0.0], np.float32))
    copy = pickle.loads(pickle.dumps(env))
    fresh = protogym.make("CarRacing-v3", domain_randomize=True)
    np.testing.assert_array_equal(copy.reset(seed=9)[0], fresh.reset(seed=9)[0])
    np.testing.assert_array_equal(
        copy.step(np.array([0.1, 0.5, 0.0], np.float32))[0],
        fresh.step(np.array([0.1, 0.5, 0.0], np.float32))[0],
    )


def test_sync_and_async_vector_envs_agree() -> None:
    sync = protogym.make_vec("CarRacing-v3", 2, vectorization_mode="sync", continuous=False)
    asynchronous = protogym.make_vec(
        "CarRacing-v3", 2, vectorization_mode="async", continuous=False
    )
    try:
        np.testing.assert_array_equal(sync.reset(seed=5)[0], asynchronous.reset(seed=5)[0])
        for action in ([3, 3], [3, 1], [2, 4]):
            a, b = sync.step(np.array(action)), asynchronous.step(np.array(action))
            np.testing.assert_array_equal(a[0], b[0])
            np.testing.assert_array_equal(a[1], b[1])
    finally:
        sync.close()
        asynchronous.close()


def test_bad_input_says_what_was_wrong() -> None:
    env = CarRacingEnv()
    with pytest.raises(ResetNeeded, match="before reset"):
        env.step(np.zeros(3, np.float32))
    with pytest.raises(ResetNeeded, match="before reset"):
        CarRacingEnv(render_mode="rgb_array").render()
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match="pass 3 finite numbers"):
        env.step(np.array([0.0, np.nan, 0.0], np.float32))
    with pytest.raises(InvalidAction, match="pass 3 finite numbers"):
        env.step(np.zeros(2, np.float32))
    discrete = CarRacingEnv(continuous=False)
    discrete.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"pass 0 \(nothing\), 1 \(steer right\)"):
        discrete.step(5)
    with pytest.raises(ValueError, match="lap_complete_percent is the fraction"):
        CarRacingEnv(lap_complete_percent=1.5)
    with pytest.raises(ValueError, match="does not support render_mode='ansi'"):
        CarRacingEnv(render_mode="ansi")
    with pytest.raises(ValueError, match="needs an env made with domain_randomize=True"):
        env.reset(options={"randomize": True})


def test_protogym_play_keys_steer_accelerate_and_brake() -> None:
    import pygame

    keys = CarRacingEnv().get_keys_to_action()
    np.testing.assert_array_equal(keys[()], [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(keys[(pygame.K_UP,)], [0.0, 1.0, 0.0])
    both = tuple(sorted((pygame.K_LEFT, pygame.K_UP)))
    np.testing.assert_array_equal(keys[both], [-1.0, 1.0, 0.0])
    np.testing.assert_array_equal(keys[(ord("s"),)], np.array([0.0, 0.0, 0.8], np.float32))
    assert all(action in CarRacingEnv().action_space for action in keys.values())
    discrete = CarRacingEnv(continuous=False).get_keys_to_action()
    assert discrete[(pygame.K_RIGHT,)] == 1 and discrete["w"] == 3 and discrete[()] == 0


def test_protogym_play_drives_with_the_continuous_keys() -> None:
    import pygame

    from protogym.utils.play import play

    env = protogym.make("CarRacing-v3", render_mode="rgb_array")
    actions: list[np.ndarray] = []

    def record(*transition: Any) -> None:
        actions.append(transition[2])
        if len(actions) == 3:
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    pygame.display.init()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_UP))
    play(env, callback=record, fps=1000, seed=0)  # no noop needed: () is the idle action
    env.close()
    np.testing.assert_array_equal(actions[0], [0.0, 1.0, 0.0])
    assert len(actions) == 3
