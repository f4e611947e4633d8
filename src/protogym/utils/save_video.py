"""Writing rendered frames to mp4 files: `save_video`, `capped_cubic_video_schedule`, and
the encoder helpers `RecordVideo` shares.

Videos are encoded by imageio's FFMPEG writer (the ``video`` extra: imageio and
imageio-ffmpeg), not by moviepy as in Gymnasium: frames are streamed to the encoder one by
one, and H.264 needs even sizes, so an odd-sized frame gets one edge row or column repeated
rather than being rescaled. imageio is imported the first time a video is written.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "capped_cubic_video_schedule",
    "encodable_frame",
    "open_video_writer",
    "require_imageio",
    "save_video",
]

_logger = logging.getLogger(__name__)


def capped_cubic_video_schedule(episode_id: int) -> bool:
    """True for episodes 0, 1, 8, 27, ... (perfect cubes) below 1000, then every 1000th."""
    if episode_id < 1000:
        return bool(round(episode_id ** (1.0 / 3)) ** 3 == episode_id)
    return episode_id % 1000 == 0


def require_imageio() -> Any:
    """imageio, or `DependencyNotInstalled` naming the ``video`` extra."""
    try:
        import imageio.v2 as imageio
        import imageio_ffmpeg  # noqa: F401 - the FFMPEG format needs it
    except ImportError as exc:
        from protogym.error import DependencyNotInstalled

        raise DependencyNotInstalled(
            "writing mp4 videos needs imageio and imageio-ffmpeg, which are not installed: "
            "pip install protogym[video]"
        ) from exc
    return imageio


def open_video_writer(path: str, fps: float) -> Any:
    """An imageio writer of an H.264 mp4 at `path`; feed it `encodable_frame`s."""
    if not fps > 0:
        raise ValueError(f"a video's fps must be positive, got {fps!r}")
    return require_imageio().get_writer(
        path, format="FFMPEG", mode="I", fps=fps, macro_block_size=1
    )


def encodable_frame(frame: NDArray[Any]) -> NDArray[np.uint8]:
    """`frame` as uint8 (clipped to 0..255) with even height and width (edge repeated)."""
    if frame.dtype != np.uint8:
        frame = np.clip(frame, 0, 255).astype(np.uint8)
    pad_h, pad_w = frame.shape[0] % 2, frame.shape[1] % 2
    if pad_h or pad_w:
        widths = ((0, pad_h), (0, pad_w)) + ((0, 0),) * (frame.ndim - 2)
        frame = np.pad(frame, widths, mode="edge")
    return frame


def _write(path: str, frames: Sequence[NDArray[Any]], fps: float, save_logger: str | None) -> None:
    if not frames:
        return
    writer = open_video_writer(path, fps)
    try:
        shape: tuple[int, ...] | None = None
        for frame in frames:
            encoded = encodable_frame(np.asarray(frame))
            if shape is not None and encoded.shape != shape:
                raise ValueError(
                    f"save_video: the frames change size ({shape} then {encoded.shape}); "
                    "every frame of one video must have the same size"
                )
            shape = encoded.shape
            writer.append_data(encoded)
    finally:
        writer.close()
    if save_logger is not None:
        _logger.info("save_video wrote %d frames to %s", len(frames), path)


def save_video(
    frames: Sequence[NDArray[Any]],
    video_folder: str,
    episode_trigger: Callable[[int], bool] | None = None,
    step_trigger: Callable[[int], bool] | None = None,
    video_length: int | None = None,
    name_prefix: str = "rl-video",
    episode_index: int = 0,
    step_starting_index: int = 0,
    save_logger: str | None = None,
    *,
    fps: float = 30,
) -> None:
    """Write the frames of one episode (e.g. an ``rgb_array_list`` render) to mp4 files.

    With `episode_trigger(episode_index)` true, the episode goes to
    ``{name_prefix}-episode-{episode_index}.mp4``. With `step_trigger`, every step index
    ``s`` (counted from `step_starting_index` at the frame after the reset frame) for which
    it is true starts ``{name_prefix}-step-{s}.mp4``, running to the end of the frames. With
    neither, episodes are picked by `capped_cubic_video_schedule`. `video_length` caps each
    file's frames. `fps` is the frame rate (Gymnasium passes it through to moviepy; other
    moviepy options have no equivalent). Any `save_logger` (Gymnasium's ``"bar"``) logs each
    file written to the ``protogym.utils.save_video`` logger, as imageio shows no progress.
    """
    if isinstance(frames, np.ndarray) or not isinstance(frames, Sequence):
        raise TypeError(
            "save_video takes a list of frames (e.g. env.render() in 'rgb_array_list' mode), "
            f"got {type(frames).__name__}"
        )
    if episode_trigger is None and step_trigger is None:
        episode_trigger = capped_cubic_video_schedule
    folder = os.path.abspath(video_folder)
    os.makedirs(folder, exist_ok=True)
    prefix = os.path.join(folder, name_prefix)
    if episode_trigger is not None and episode_trigger(episode_index):
        _write(f"{prefix}-episode-{episode_index}.mp4", frames[:video_length], fps, save_logger)
    if step_trigger is not None:
        # frames[0] comes from the reset; frame i > 0 is the one after step i - 1.
        for frame_index in range(1, len(frames)):
            step_index = step_starting_index + frame_index - 1
            if step_trigger(step_index):
                end = None if video_length is None else frame_index + video_length
                _write(f"{prefix}-step-{step_index}.mp4", frames[frame_index:end], fps,
                       save_logger)
