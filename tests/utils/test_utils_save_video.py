"""`protogym.utils.save_video`: episodes and step snippets written as mp4 through imageio."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import protogym
from protogym.error import DependencyNotInstalled
from protogym.utils.save_video import (
    capped_cubic_video_schedule,
    encodable_frame,
    save_video,
)

imageio = pytest.importorskip("imageio.v2")


def frames(n: int, shape: tuple[int, int] = (6, 8)) -> list[Any]:
    """`n` frames whose brightness counts 0, 20, 40, ... so files can be told apart."""
    return [np.full((*shape, 3), 20 * i, np.uint8) for i in range(n)]


def decoded(path: Path) -> list[Any]:
    reader = imageio.get_reader(str(path), format="FFMPEG")
    try:
        return [frame for frame in reader]  # list() would trust the reader's infinite len()
    finally:
        reader.close()


def videos(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.mp4"))


def test_capped_cubic_schedule() -> None:
    assert [e for e in range(1001) if capped_cubic_video_schedule(e)] == [
        k**3 for k in range(10)] + [1000]
    assert capped_cubic_video_schedule(3000) and not capped_cubic_video_schedule(3001)


def test_episodes_are_picked_by_the_cubic_schedule_by_default(tmp_path: Path) -> None:
    for episode in range(3):
        save_video(frames(4), str(tmp_path), episode_index=episode, fps=10)
    assert videos(tmp_path) == ["rl-video-episode-0.mp4", "rl-video-episode-1.mp4"]
    assert len(decoded(tmp_path / "rl-video-episode-1.mp4")) == 4


def test_episode_trigger_prefix_and_length(tmp_path: Path) -> None:
    save_video(frames(6), str(tmp_path / "out"), episode_trigger=lambda e: True,
               video_length=3, name_prefix="run", episode_index=7, fps=5)
    written = decoded(tmp_path / "out" / "run-episode-7.mp4")
    assert len(written) == 3
    assert [int(f.mean()) for f in written] == pytest.approx([0, 20, 40], abs=3)


def test_step_trigger_starts_a_snippet_at_each_triggered_step(tmp_path: Path) -> None:
    # frames[0] is the reset frame; frames[i] follows step step_starting_index + i - 1
    save_video(frames(7), str(tmp_path), step_trigger=lambda s: s % 4 == 0,
               step_starting_index=10, video_length=2, fps=10)
    assert videos(tmp_path) == ["rl-video-step-12.mp4"]
    assert [int(f.mean()) for f in decoded(tmp_path / "rl-video-step-12.mp4")] == pytest.approx(
        [60, 80], abs=3)


def test_step_snippets_run_to_the_end_without_a_length(tmp_path: Path) -> None:
    save_video(frames(5), str(tmp_path), step_trigger=lambda s: s in (0, 2), fps=10)
    assert videos(tmp_path) == ["rl-video-step-0.mp4", "rl-video-step-2.mp4"]
    assert len(decoded(tmp_path / "rl-video-step-0.mp4")) == 4
    assert len(decoded(tmp_path / "rl-video-step-2.mp4")) == 2


def test_both_triggers_and_no_frames(tmp_path: Path) -> None:
    save_video(frames(3), str(tmp_path), episode_trigger=lambda e: True,
               step_trigger=lambda s: s == 1, fps=10)
    assert videos(tmp_path) == ["rl-video-episode-0.mp4", "rl-video-step-1.mp4"]
    save_video([], str(tmp_path / "empty"), episode_trigger=lambda e: True)
    assert videos(tmp_path / "empty") == []


def test_odd_sizes_and_float_frames_are_made_encodable(tmp_path: Path) -> None:
    frame = encodable_frame(np.full((5, 7, 3), 300.0))
    assert frame.shape == (6, 8, 3) and frame.dtype == np.uint8 and frame.max() == 255
    save_video(frames(2, shape=(5, 7)), str(tmp_path), episode_trigger=lambda e: True)
    assert decoded(tmp_path / "rl-video-episode-0.mp4")[0].shape == (6, 8, 3)


def test_frames_of_another_size_or_kind_are_refused(tmp_path: Path) -> None:
    mixed = [np.zeros((4, 4, 3), np.uint8), np.zeros((6, 6, 3), np.uint8)]
    with pytest.raises(ValueError, match=r"the frames change size \(\(4, 4, 3\) then "):
        save_video(mixed, str(tmp_path), episode_trigger=lambda e: True)
    with pytest.raises(TypeError, match=r"takes a list of frames .* got ndarray"):
        save_video(np.zeros((2, 4, 4, 3), np.uint8), str(tmp_path))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="fps must be positive, got 0"):
        save_video(frames(2), str(tmp_path), episode_trigger=lambda e: True, fps=0)


def test_save_logger_logs_each_file(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="protogym.utils.save_video"):
        save_video(frames(2), str(tmp_path), episode_trigger=lambda e: True, save_logger="bar")
    assert "save_video wrote 2 frames to" in caplog.text


def test_an_rgb_array_list_episode_of_a_made_env(tmp_path: Path) -> None:
    env = protogym.make("CartPole-v1", render_mode="rgb_array_list", max_episode_steps=5)
    env.reset(seed=0)
    for _ in range(5):
        env.step(0)
    episode = env.render()
    save_video(episode, str(tmp_path), fps=env.metadata["render_fps"])
    assert len(decoded(tmp_path / "rl-video-episode-0.mp4")) == 6


def test_a_missing_encoder_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(DependencyNotInstalled, match=r"pip install protogym\[video\]"):
        save_video(frames(2), str(tmp_path), episode_trigger=lambda e: True)
