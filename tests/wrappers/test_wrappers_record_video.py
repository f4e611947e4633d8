"""RecordVideo writes real mp4 files (decoded back here), plus AddWhiteNoise and ObstructView."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import gymnasium
import imageio.v2 as imageio
import numpy as np
import pytest

from protogym.wrappers import AddWhiteNoise, ObstructView, RecordVideo, TimeLimit
from protogym.wrappers.rendering import capped_cubic_video_schedule
from tests.wrappers.wrapper_test_envs import CountingEnv, gym_twin


def open_video(path: Path) -> Any:
    return imageio.get_reader(str(path), format="FFMPEG")


def frame_count(path: Path) -> int:
    reader = open_video(path)
    try:
        return sum(1 for _ in reader)
    finally:
        reader.close()


def play(env: Any, episodes: int, steps: int) -> None:
    for _ in range(episodes):
        env.reset(seed=0)
        for _ in range(steps):
            env.step(0)


def test_wrappers_record_video_records_each_triggered_episode(tmp_path: Path) -> None:
    env = RecordVideo(TimeLimit(CountingEnv(), 5), str(tmp_path), episode_trigger=lambda e: e != 1)
    play(env, 3, 5)
    env.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rl-video-episode-0.mp4",
        "rl-video-episode-2.mp4",
    ]
    # reset frame + 5 step frames each
    assert frame_count(tmp_path / "rl-video-episode-0.mp4") == 6
    assert frame_count(tmp_path / "rl-video-episode-2.mp4") == 6


def test_wrappers_record_video_frames_show_the_rendered_images(tmp_path: Path) -> None:
    class Bright(CountingEnv):
        def render(self) -> Any:
            return np.full((16, 16, 3), 40 * self.t, dtype=np.uint8)

    env = RecordVideo(Bright(), str(tmp_path), episode_trigger=lambda e: True, fps=10)
    play(env, 1, 4)
    env.close()
    reader = open_video(tmp_path / "rl-video-episode-0.mp4")
    assert reader.get_meta_data()["fps"] == 10
    means = [float(frame.mean()) for frame in reader]
    reader.close()
    assert len(means) == 5
    assert means == pytest.approx([0, 40, 80, 120, 160], abs=4)


def test_wrappers_record_video_step_trigger_and_exact_length(tmp_path: Path) -> None:
    env = RecordVideo(TimeLimit(CountingEnv(), 4), str(tmp_path), step_trigger=lambda s: s == 2,
                      video_length=3, name_prefix="clip")
    play(env, 2, 4)  # the clip spans the episode boundary: steps 2, 3 and the next reset
    env.close()
    assert [p.name for p in tmp_path.iterdir()] == ["clip-step-2.mp4"]
    assert frame_count(tmp_path / "clip-step-2.mp4") == 3


def test_wrappers_record_video_default_schedule_and_close(tmp_path: Path) -> None:
    assert [e for e in range(30) if capped_cubic_video_schedule(e)] == [0, 1, 8, 27]
    assert capped_cubic_video_schedule(2000) and not capped_cubic_video_schedule(2001)
    env = RecordVideo(CountingEnv(), str(tmp_path))
    play(env, 2, 2)
    assert env.recording and env.video_path is not None
    assert env.video_path.endswith("rl-video-episode-1.mp4")
    env.close()  # writes the video still being recorded
    assert not env.recording
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rl-video-episode-0.mp4",
        "rl-video-episode-1.mp4",
    ]
    assert frame_count(tmp_path / "rl-video-episode-1.mp4") == 3


def test_wrappers_record_video_pads_odd_frame_sizes(tmp_path: Path) -> None:
    class Odd(CountingEnv):
        def render(self) -> Any:
            return np.zeros((5, 7, 3), dtype=np.uint8)

    env = RecordVideo(Odd(), str(tmp_path), episode_trigger=lambda e: True)
    play(env, 1, 1)
    env.close()
    reader = open_video(tmp_path / "rl-video-episode-0.mp4")
    assert reader.get_meta_data()["size"] == (8, 6)
    reader.close()


def test_wrappers_record_video_rejects_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs an env that renders images"):
        RecordVideo(CountingEnv(render_mode=None), str(tmp_path))
    with pytest.raises(ValueError, match="video_length must be a non-negative int"):
        RecordVideo(CountingEnv(), str(tmp_path), video_length=-1)
    with pytest.raises(ValueError, match="fps must be positive, got 0"):
        RecordVideo(CountingEnv(), str(tmp_path), fps=0)


def test_wrappers_record_video_names_the_missing_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(ImportError, match=r"pip install protogym\[video\]"):
        RecordVideo(CountingEnv(), str(tmp_path))


# AddWhiteNoise and ObstructView --------------------------------------------------------------


class Gray(CountingEnv):
    def render(self) -> Any:
        return np.full((12, 10, 3), 128, dtype=np.uint8)


@pytest.mark.parametrize("grayscale", [False, True])
def test_wrappers_add_white_noise_matches_gymnasium(grayscale: bool) -> None:
    ours = AddWhiteNoise(Gray(), 0.3, is_noise_grayscale=grayscale)
    theirs = gymnasium.wrappers.AddWhiteNoise(gym_twin(Gray()), 0.3, is_noise_grayscale=grayscale)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    for _ in range(3):
        np.testing.assert_array_equal(ours.render(), theirs.render())
    frame = ours.render()
    changed = (frame != 128).any(axis=-1).mean()
    assert 0.1 < changed < 0.5


@pytest.mark.parametrize("grayscale", [False, True])
def test_wrappers_obstruct_view_matches_gymnasium(grayscale: bool) -> None:
    ours = ObstructView(Gray(), 0.4, 3, is_noise_grayscale=grayscale)
    theirs = gymnasium.wrappers.ObstructView(gym_twin(Gray()), 0.4, 3, is_noise_grayscale=grayscale)
    ours.reset(seed=5)
    theirs.reset(seed=5)
    for _ in range(3):
        np.testing.assert_array_equal(ours.render(), theirs.render())


def test_wrappers_noise_wrappers_reject_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"probability_of_noise_per_pixel must be in \[0, 1\)"):
        AddWhiteNoise(Gray(), 1.0)
    with pytest.raises(ValueError, match=r"obstructed_pixels_ratio must be in \[0, 1\)"):
        ObstructView(Gray(), -0.5, 2)
    with pytest.raises(ValueError, match="obstruction_width must be at least 1, got 0"):
        ObstructView(Gray(), 0.5, 0)


def test_wrappers_record_video_over_render_collection_keeps_the_frames(tmp_path: Path) -> None:
    from protogym.wrappers import RenderCollection

    env = RecordVideo(RenderCollection(CountingEnv()), str(tmp_path),
                      episode_trigger=lambda e: True)
    env.reset()
    env.step(0)
    env.step(0)
    # The recorder consumed the collected frames; render() still hands all of them back.
    assert [int(f[0, 0, 0]) for f in env.render()] == [0, 1, 2]
    env.close()
    assert frame_count(tmp_path / "rl-video-episode-0.mp4") == 3
