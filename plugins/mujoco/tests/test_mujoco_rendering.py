"""Rendering: frame shapes and types per mode, the human window (SDL's dummy driver, no
display), markers and overlays, several envs drawing in turn, the OpenGL backend choice, and
RecordVideo. Pixels equal to Gymnasium's are pinned by the goldens (test_mujoco_goldens.py).

The light InvertedPendulum scene keeps these tests quick on Mesa's software renderer.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import mujoco
import numpy as np
import pytest
from protogym_mujoco.inverted_pendulum_v5 import InvertedPendulumEnv
from protogym_mujoco.mujoco_rendering import gl_backends

import protogym

SIZE: dict[str, Any] = {"width": 96, "height": 64}
PUSH = np.array([1.5], dtype=np.float32)


def pendulum(**kwargs: Any) -> Any:
    return protogym.make("InvertedPendulum-v5", **{**SIZE, **kwargs})


def test_each_mode_renders_what_it_says() -> None:
    rgb_env, depth_env, both_env = (
        pendulum(render_mode=mode) for mode in ("rgb_array", "depth_array", "rgbd_tuple")
    )
    for env in (rgb_env, depth_env, both_env):
        env.reset(seed=0)
    rgb, depth, (rgb2, depth2) = rgb_env.render(), depth_env.render(), both_env.render()
    assert rgb.shape == (64, 96, 3) and rgb.dtype == np.uint8 and rgb.flags.c_contiguous
    assert depth.shape == (64, 96) and depth.dtype == np.float32
    assert 0.0 < depth.min() < depth.max() <= 1.0
    assert rgb.tobytes() == rgb2.tobytes() and depth.tobytes() == depth2.tobytes()
    for env in (rgb_env, depth_env, both_env):
        env.close()


def test_the_default_frame_is_480_square_and_follows_the_state() -> None:
    env = protogym.make("InvertedPendulum-v5", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    assert first.shape == (480, 480, 3)
    for _ in range(5):
        env.step(PUSH)
    assert not np.array_equal(first, env.render())
    env.close()


def test_a_named_camera_sees_another_picture_than_the_free_one() -> None:
    free = protogym.make("Hopper-v5", render_mode="rgb_array", **SIZE)
    tracking = protogym.make("Hopper-v5", render_mode="rgb_array", camera_name="track", **SIZE)
    by_id = protogym.make("Hopper-v5", render_mode="rgb_array", camera_id=0, **SIZE)
    frames = []
    for env in (free, tracking, by_id):
        env.reset(seed=0)
        frames.append(env.render())
        env.close()
    assert not np.array_equal(frames[0], frames[1])
    assert frames[1].tobytes() == frames[2].tobytes()


def test_envs_drawing_in_turn_draw_what_each_draws_alone() -> None:
    """Each env's OpenGL context is made current before it draws, whoever drew last. (The
    free camera is placed at the first frame, so each env draws after reset too.)"""
    alone = []
    for seed in (0, 1):
        env = pendulum(render_mode="rgb_array")
        env.reset(seed=seed)
        env.render()
        env.step(PUSH)
        alone.append(env.render())
        env.close()
    first, second = pendulum(render_mode="rgb_array"), pendulum(render_mode="rgb_array")
    first.reset(seed=0)
    second.reset(seed=1)
    second.render()
    first.render()
    first.step(PUSH)
    second.step(PUSH)
    assert first.render().tobytes() == alone[0].tobytes()
    assert second.render().tobytes() == alone[1].tobytes()
    first.close()
    second.close()


def test_markers_and_overlays_are_drawn_on_the_next_frame_only() -> None:
    env = pendulum(render_mode="rgb_array")
    env.reset(seed=0)
    plain = env.render()
    viewer = env.unwrapped.mujoco_renderer.viewer
    viewer.add_marker(pos=np.array([0.0, 0.0, 0.0]), size=np.array([0.3] * 3),
                      rgba=np.array([1.0, 0.0, 0.0, 1.0]))  # fmt: skip
    marked = env.render()
    assert (marked != plain).any(axis=2).sum() > 100
    assert env.render().tobytes() == plain.tobytes()
    viewer.add_overlay(mujoco.mjtGridPos.mjGRID_TOPLEFT, "step", "0")
    assert not np.array_equal(plain, env.render())
    env.close()


def test_a_closed_env_renders_again_on_a_new_context() -> None:
    env = pendulum(render_mode="rgb_array")
    env.reset(seed=0)
    before = env.render()
    env.close()
    env.close()  # twice is harmless
    assert env.render().tobytes() == before.tobytes()
    env.close()


def test_human_mode_shows_the_frames_in_a_pygame_window() -> None:
    import pygame

    env = pendulum(render_mode="human")
    env.reset(seed=0)  # draws the first frame, as step does
    assert pygame.display.get_init() and pygame.display.get_surface().get_size() == (96, 64)
    assert env.step(PUSH)[0].shape == (4,)
    assert env.render() is None
    window = pygame.surfarray.array3d(pygame.display.get_surface()).swapaxes(0, 1)
    offscreen = pendulum(render_mode="rgb_array")
    offscreen.reset(seed=0)
    offscreen.render()
    offscreen.step(PUSH)
    assert window.tobytes() == offscreen.render().tobytes()
    env.close()
    assert not pygame.display.get_init()
    env.close()
    offscreen.close()


def test_render_without_a_mode_warns_and_returns_none() -> None:
    env = pendulum()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match='render_mode="rgb_array"'):
        assert env.render() is None


def test_an_unknown_camera_setting_is_named_at_the_first_frame() -> None:
    env = InvertedPendulumEnv(render_mode="rgb_array", default_camera_config={"zoom": 2.0}, **SIZE)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="'zoom', which is not a field of MuJoCo's camera"):
        env.render()


def test_the_opengl_backend_follows_mujoco_gl(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUJOCO_GL", "osmesa")
    assert gl_backends() == ["osmesa"]
    monkeypatch.delenv("MUJOCO_GL")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert gl_backends() == ["egl", "osmesa"]
    monkeypatch.setenv("DISPLAY", ":0")
    assert gl_backends() == ["glfw", "egl", "osmesa"]
    monkeypatch.setenv("MUJOCO_GL", "vulkan")
    env = InvertedPendulumEnv(render_mode="rgb_array", **SIZE)
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match=r"MUJOCO_GL='vulkan' .* \['glfw', 'egl', 'osmesa'\]"):
        env.render()


def test_record_video_writes_an_episode(tmp_path: Path) -> None:
    from protogym.wrappers import RecordVideo

    env = RecordVideo(pendulum(render_mode="rgb_array"), str(tmp_path), disable_logger=True)
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(20):
            _, _, terminated, truncated, _ = env.step(PUSH * 0)
            if terminated or truncated:
                break
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0
