"""What the single-env and the vector `RecordVideo` share: when a video starts and stops, and
how its frames reach the file.

Each wrapper decides what a frame is (the env's picture; the sub-envs' pictures tiled into
one) and when an episode begins; `VideoRecording` does the rest: checking the settings, the
episode and step triggers, the streaming writer and its file names.
"""

from __future__ import annotations

import gc
import logging
import os
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from protogym.utils.save_video import (
    capped_cubic_video_schedule,
    encodable_frame,
    open_video_writer,
    require_imageio,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["VideoRecording"]

_logger = logging.getLogger(__name__)


class VideoRecording:
    """Mixin of the `RecordVideo` wrappers; `_setup_recording` is called from `__init__`."""

    episode_trigger: Callable[[int], bool] | None
    step_trigger: Callable[[int], bool] | None
    gc_trigger: Callable[[int], bool] | None
    disable_logger: bool
    video_folder: str
    frames_per_sec: int
    name_prefix: str
    video_length: int
    recording: bool
    recorded_frames: int
    step_id: int
    episode_id: int
    _video_name: str | None
    _writer: Any
    _frame_shape: tuple[int, ...] | None

    def _setup_recording(
        self,
        video_folder: str,
        episode_trigger: Callable[[int], bool] | None,
        step_trigger: Callable[[int], bool] | None,
        video_length: int,
        name_prefix: str,
        fps: int | None,
        disable_logger: bool,
        gc_trigger: Callable[[int], bool] | None,
        metadata: Mapping[str, Any],
    ) -> None:
        """Check and keep the settings, create `video_folder`, and start with no video."""
        if isinstance(video_length, bool) or not isinstance(video_length, int) or video_length < 0:
            raise ValueError(
                f"RecordVideo: video_length must be a non-negative int (0: whole episodes), "
                f"got {video_length!r}"
            )
        if fps is not None and not fps > 0:
            raise ValueError(f"RecordVideo: fps must be positive, got {fps}")
        require_imageio()  # a missing `video` extra is reported here, not at the first frame
        if episode_trigger is None and step_trigger is None:
            episode_trigger = capped_cubic_video_schedule
        self.episode_trigger = episode_trigger
        self.step_trigger = step_trigger
        self.disable_logger = disable_logger
        self.gc_trigger = gc_trigger
        self.video_folder = os.path.abspath(video_folder)
        os.makedirs(self.video_folder, exist_ok=True)
        self.frames_per_sec = fps if fps is not None else metadata.get("render_fps", 30)
        self.name_prefix = name_prefix
        self.video_length = video_length
        self.recording = False
        self.recorded_frames = 0
        self.step_id = -1
        self.episode_id = -1
        self._video_name = None
        self._writer = None
        self._frame_shape = None

    @property
    def video_path(self) -> str | None:
        """The file the current recording goes to, or None when not recording."""
        if self._video_name is None:
            return None
        return os.path.join(self.video_folder, f"{self._video_name}.mp4")

    def _new_episode(self) -> None:
        """An episode begins: a whole-episode video ends, and the episode trigger may start one."""
        self.episode_id += 1
        if self.recording and self.video_length == 0:
            self.stop_recording()
        if self.episode_trigger is not None and self.episode_trigger(self.episode_id):
            self.start_recording(f"{self.name_prefix}-episode-{self.episode_id}")

    def _new_step(self) -> None:
        """A step was taken: the step trigger may start a video."""
        self.step_id += 1
        if self.step_trigger is not None and self.step_trigger(self.step_id):
            self.start_recording(f"{self.name_prefix}-step-{self.step_id}")

    def _record(self, frame: NDArray[Any]) -> None:
        """Append `frame` to the current video, which ends once it holds `video_length`."""
        frame = encodable_frame(frame)
        if self._writer is None:
            self._frame_shape = frame.shape
            assert self.video_path is not None
            self._writer = open_video_writer(self.video_path, self.frames_per_sec)
        elif frame.shape != self._frame_shape:
            raise ValueError(
                f"RecordVideo: the frame size changed from {self._frame_shape} to "
                f"{frame.shape} during one video"
            )
        self._writer.append_data(frame)
        self.recorded_frames += 1
        if self.video_length and self.recorded_frames >= self.video_length:
            self.stop_recording()

    def start_recording(self, video_name: str) -> None:
        """Start a new video (finishing the current one first)."""
        if self.recording:
            self.stop_recording()
        self.recording = True
        self._video_name = video_name

    def stop_recording(self) -> None:
        """Finish the current video and write its file (nothing is written without frames)."""
        if not self.recording:
            raise RuntimeError("RecordVideo.stop_recording() was called while not recording")
        path = self.video_path
        if self._writer is not None:
            self._writer.close()
            if not self.disable_logger:
                _logger.info("RecordVideo saved %d frames to %s", self.recorded_frames, path)
        elif not self.disable_logger:
            _logger.warning("RecordVideo: no frames to save for %s", path)
        self._writer = None
        self._frame_shape = None
        self.recorded_frames = 0
        self.recording = False
        self._video_name = None
        if self.gc_trigger is not None and self.gc_trigger(self.episode_id):
            gc.collect()

    def __del__(self) -> None:
        if getattr(self, "_writer", None) is not None:
            warnings.warn(
                "RecordVideo was garbage-collected mid-recording; call close() to finish the "
                "last video",
                ResourceWarning,
                stacklevel=2,
            )
