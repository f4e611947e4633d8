"""AtariPreprocessing on a fake ALE env: no-op starts, frame skip with max-pooling, life loss,
resizing, greyscale and scaling, and the errors for envs it cannot handle."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from protogym.spaces import Box
from protogym.utils.seeding import np_random
from protogym.wrappers import AtariPreprocessing
from protogym.wrappers.area_resize import AreaResize
from tests.wrappers.wrapper_test_envs import CountingEnv, FakeAtariEnv


def grey(env: FakeAtariEnv, frame: int) -> Any:
    saved = env.ale.frame
    env.ale.frame = frame
    image = env.ale.rgb().mean(axis=-1).astype(np.uint8)
    env.ale.frame = saved
    return image


def test_wrappers_atari_preprocessing_noop_start_uses_the_env_generator() -> None:
    inner = FakeAtariEnv()
    env = AtariPreprocessing(inner, noop_max=30, screen_size=(8, 7))
    obs, info = env.reset(seed=42)
    expected_noops = int(np_random(42)[0].integers(1, 31))
    assert inner.actions == [0] * expected_noops
    assert info == {"lives": 3, "frame": expected_noops}
    assert env.observation_space == Box(0, 255, (7, 8), np.uint8)
    resize = AreaResize((21, 16), (7, 8))
    np.testing.assert_array_equal(obs, resize(grey(inner, expected_noops)))


def test_wrappers_atari_preprocessing_frame_skip_max_pools_last_two_frames() -> None:
    inner = FakeAtariEnv()
    env = AtariPreprocessing(inner, noop_max=0, frame_skip=4, screen_size=(16, 21))
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(2)
    assert inner.actions == [2, 2, 2, 2]
    assert (reward, terminated, truncated, info) == (1 + 2 + 3 + 4, False, False, {"frame": 4})
    # same size: resizing is the identity, so the max of frames 3 and 4 comes through
    np.testing.assert_array_equal(obs, np.maximum(grey(inner, 3), grey(inner, 4)))


def test_wrappers_atari_preprocessing_rgb_scaled_with_newaxis_shapes() -> None:
    rgb = AtariPreprocessing(FakeAtariEnv(), noop_max=0, screen_size=10, grayscale_obs=False)
    assert rgb.observation_space == Box(0, 255, (10, 10, 3), np.uint8)
    assert rgb.reset()[0].shape == (10, 10, 3)
    scaled = AtariPreprocessing(FakeAtariEnv(), noop_max=0, screen_size=10, scale_obs=True,
                                grayscale_newaxis=True)
    assert scaled.observation_space == Box(0.0, 1.0, (10, 10, 1), np.float32)
    obs = scaled.reset()[0]
    assert obs.dtype == np.float32 and obs.shape == (10, 10, 1)
    assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_wrappers_atari_preprocessing_terminal_on_life_loss() -> None:
    inner = FakeAtariEnv(life_every=6)
    env = AtariPreprocessing(inner, noop_max=0, terminal_on_life_loss=True, screen_size=8)
    env.reset()
    assert env.lives == 3
    assert env.step(0)[2] is False
    obs, reward, terminated, truncated, info = env.step(0)  # frame 6 loses a life: stops early
    assert terminated and reward == 5 + 6 and info == {"frame": 6}
    assert env.lives == 2 and env.game_over
    plain = AtariPreprocessing(FakeAtariEnv(life_every=6), noop_max=0, screen_size=8)
    plain.reset()
    plain.step(0)
    assert plain.step(0)[2] is False


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"frame_skip": 0}, "frame_skip must be at least 1, got 0"),
    ({"noop_max": -1}, "noop_max must be at least 0, got -1"),
    ({"screen_size": 0}, "screen_size must be at least 1, got 0"),
    ({"screen_size": (84, 0)}, "screen_size height must be at least 1, got 0"),
    ({"screen_size": "84"}, "screen_size must be a positive int or a"),
])
def test_wrappers_atari_preprocessing_rejects_bad_arguments(
    kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        AtariPreprocessing(FakeAtariEnv(), **kwargs)


def test_wrappers_atari_preprocessing_rejects_unsuitable_envs() -> None:
    with pytest.raises(ValueError, match="make the env with frameskip=1"):
        AtariPreprocessing(FakeAtariEnv(frameskip=4))
    AtariPreprocessing(FakeAtariEnv(frameskip=4), frame_skip=1)
    with pytest.raises(ValueError, match="needs an ALE-backed env"):
        AtariPreprocessing(CountingEnv())
