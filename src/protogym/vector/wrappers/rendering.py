"""Rendering wrappers for vector envs: show the sub-envs' frames in one window
(`HumanRendering`), or write them to mp4 videos (`RecordVideo`), tiled into one picture.

Both read the vector env's `render()`, a tuple with one frame per sub-env (in a ``*_list``
render mode, a list of frames per sub-env, of which the last is used).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from protogym.vector.sync_vector_env import reset_mask_of
from protogym.vector.vector_env import AutoresetMode, VectorEnv, VectorStepResult
from protogym.vector.wrappers.base import ActT, ObsT, VectorWrapper
from protogym.wrappers.human_window import close_window, show_in_window
from protogym.wrappers.video_recording import VideoRecording

__all__ = ["HumanRendering", "RecordVideo"]

def _latest_frames(frames: Any, num_envs: int, owner: str) -> list[NDArray[Any]]:
    """One RGB frame per sub-env from a vector env's `render()`."""
    if not isinstance(frames, Sequence) or len(frames) != num_envs:
        raise ValueError(
            f"{owner} expects the vector env's render() to return one frame per sub-env "
            f"({num_envs}), got {type(frames).__name__}"
        )
    latest = []
    for index, frame in enumerate(frames):
        if isinstance(frame, list):
            if not frame:
                raise ValueError(
                    f"{owner}: sub-env {index} rendered an empty frame list; something else "
                    "called render() on it since the last step"
                )
            frame = frame[-1]
        if not isinstance(frame, np.ndarray):
            raise TypeError(
                f"{owner} expects numpy images from render(), got {type(frame).__name__} "
                f"from sub-env {index}"
            )
        if frame.ndim == 2:  # depth arrays: shown as grey
            frame = np.repeat(frame[:, :, None], 3, axis=2)
        latest.append(frame)
    return latest


def _grid(count: int, cell_hw: tuple[int, int], target_wh: tuple[float, float]) -> tuple[int, int]:
    """`(rows, cols)` of a grid of `count` cells of `cell_hw` pixels whose picture comes
    closest to the aspect ratio width/height of `target_wh` (fewest empty cells on a tie)."""
    height, width = cell_hw
    target = target_wh[0] / target_wh[1]
    best: tuple[float, int, int, int] | None = None
    for rows in range(1, count + 1):
        cols = math.ceil(count / rows)
        if (rows - 1) * cols >= count:
            continue  # a whole empty row
        score = (abs(cols * width / (rows * height) - target), rows * cols - count, rows, cols)
        if best is None or score < best:
            best = score
    assert best is not None
    return best[2], best[3]


def _tile(frames: Sequence[NDArray[Any]], rows: int, cols: int) -> NDArray[Any]:
    """The frames laid out row by row on a black picture of `rows` x `cols` cells."""
    height, width, channels = frames[0].shape
    picture = np.zeros((rows * height, cols * width, channels), dtype=frames[0].dtype)
    for index, frame in enumerate(frames):
        row, col = divmod(index, cols)
        picture[row * height:(row + 1) * height, col * width:(col + 1) * width] = frame
    return picture


def _scaled(frame: NDArray[Any], height: int, width: int) -> NDArray[Any]:
    """`frame` resized to `height` x `width` by nearest-neighbour sampling (for display)."""
    rows = (np.arange(height) * frame.shape[0]) // height
    cols = (np.arange(width) * frame.shape[1]) // width
    scaled: NDArray[Any] = frame[rows[:, None], cols[None, :]]
    return scaled


class HumanRendering(VectorWrapper[ObsT, ActT, ObsT, ActT]):
    """Shows every sub-env's frame, tiled in one pygame window, after each reset and step.

    The inner vector env must render images (`rgb_array`, `depth_array` or their
    ``_list`` modes) and give `render_fps`. `screen_size` is the window's `(width, height)`;
    by default one sub-env frame's size, into which all sub-envs are scaled.
    """

    ACCEPTED_RENDER_MODES = ("rgb_array", "rgb_array_list", "depth_array", "depth_array_list")

    def __init__(
        self, env: VectorEnv[ObsT, ActT, Any], screen_size: tuple[int, int] | None = None
    ) -> None:
        super().__init__(env)
        if env.render_mode not in self.ACCEPTED_RENDER_MODES:
            raise ValueError(
                f"HumanRendering needs a vector env whose render_mode is one of "
                f"{list(self.ACCEPTED_RENDER_MODES)}, got {env.render_mode!r}"
            )
        if "render_fps" not in env.metadata:
            raise ValueError(
                "HumanRendering needs the env's metadata to give 'render_fps', the rate at "
                "which frames are shown"
            )
        if screen_size is not None and not (
            len(screen_size) == 2 and all(int(side) > 0 for side in screen_size)
        ):
            raise ValueError(
                f"HumanRendering: screen_size must be a (width, height) pair of positive "
                f"ints, got {screen_size!r}"
            )
        self.screen_size = None if screen_size is None else (int(screen_size[0]),
                                                              int(screen_size[1]))
        modes = list(env.metadata.get("render_modes", []))
        self.metadata = {**env.metadata, "render_modes": [*modes, "human"]}
        self.window: Any = None
        self.clock: Any = None
        self._layout: tuple[int, int, int, int] | None = None  # rows, cols, cell h, cell w

    @property  # type: ignore[misc]
    def render_mode(self) -> str:  # type: ignore[override]
        return "human"

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT, dict[str, Any]]:
        result = self.env.reset(seed=seed, options=options)
        self._render_frame()
        return result

    def step(self, actions: ActT) -> VectorStepResult[ObsT]:
        result = self.env.step(actions)
        self._render_frame()
        return result

    def render(self) -> None:
        """Nothing to return: frames are drawn by `reset` and `step`."""
        return None

    def _render_frame(self) -> None:
        frames = _latest_frames(self.env.render(), self.num_envs, "HumanRendering")
        frame_h, frame_w = frames[0].shape[:2]
        if self.screen_size is None:
            self.screen_size = (frame_w, frame_h)
        screen_w, screen_h = self.screen_size
        if self._layout is None:
            rows, cols = _grid(self.num_envs, (frame_h, frame_w), (screen_w, screen_h))
            scale = min(screen_w / (cols * frame_w), screen_h / (rows * frame_h))
            self._layout = (rows, cols, max(1, int(frame_h * scale)),
                            max(1, int(frame_w * scale)))
        rows, cols, cell_h, cell_w = self._layout
        picture = np.zeros((screen_h, screen_w, 3), dtype=np.uint8)
        tiled = _tile([_scaled(frame, cell_h, cell_w) for frame in frames], rows, cols)
        picture[:tiled.shape[0], :tiled.shape[1]] = tiled[:, :, :3]
        # pygame surfaces are indexed (x, y); pictures are (row, column).
        show_in_window(self, picture.transpose(1, 0, 2))

    def close(self, **kwargs: Any) -> None:
        close_window(self)
        super().close(**kwargs)


class RecordVideo(VectorWrapper[ObsT, ActT, ObsT, ActT], VideoRecording):
    """Writes mp4 videos of the sub-envs' frames, tiled into one picture, to `video_folder`.

    Episodes are those of sub-env 0. A recording starts when sub-env 0 begins episode `e`
    with `episode_trigger(e)` true (file `{name_prefix}-episode-{e}.mp4`) or at step `s`
    with `step_trigger(s)` true (`{name_prefix}-step-{s}.mp4`); with neither trigger,
    episodes 0, 1, 8, 27, ... are recorded. With `video_length=0` a recording lasts until
    sub-env 0's episode ends; otherwise it holds `video_length` frames. The tiling comes as
    close as it can to `video_aspect_ratio` (width, height); `record_first_only` records
    sub-env 0 alone. Under same-step autoreset the last frame of an episode is never
    rendered (the sub-env has already reset), so it is not in the video. `fps` defaults to
    the env's `render_fps` (else 30). Frames are streamed to the encoder as they come.
    """

    def __init__(
        self,
        env: VectorEnv[ObsT, ActT, Any],
        video_folder: str,
        video_aspect_ratio: tuple[int, int] = (1, 1),
        record_first_only: bool = False,
        episode_trigger: Callable[[int], bool] | None = None,
        step_trigger: Callable[[int], bool] | None = None,
        video_length: int = 0,
        name_prefix: str = "rl-video",
        fps: int | None = None,
        disable_logger: bool = True,
        gc_trigger: Callable[[int], bool] | None = lambda episode: True,
    ) -> None:
        super().__init__(env)
        if env.render_mode in (None, "human", "ansi"):
            raise ValueError(
                f"RecordVideo needs a vector env that renders images (render_mode="
                f"'rgb_array'), got render_mode={env.render_mode!r}"
            )
        self._setup_recording(
            video_folder, episode_trigger, step_trigger, video_length, name_prefix, fps,
            disable_logger, gc_trigger, env.metadata,
        )
        if len(video_aspect_ratio) != 2 or not all(side > 0 for side in video_aspect_ratio):
            raise ValueError(
                f"RecordVideo: video_aspect_ratio must be a (width, height) pair of positive "
                f"numbers, got {video_aspect_ratio!r}"
            )
        self.record_first_only = record_first_only
        self.video_aspect_ratio = video_aspect_ratio
        self._env_mode = AutoresetMode(env.autoreset_mode)
        self._first_done = False  # sub-env 0 ended on the last step (next-step mode)
        self._grid: tuple[int, int] | None = None

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT, dict[str, Any]]:
        mask = reset_mask_of(options, self.num_envs)
        if mask is None or mask[0]:
            self._new_episode()
        result = self.env.reset(seed=seed, options=options)
        self._first_done = False
        if self.recording:
            self._capture_frame()
        return result

    def step(self, actions: ActT) -> VectorStepResult[ObsT]:
        result = self.env.step(actions)
        terminations, truncations = result[2], result[3]
        ended = bool(terminations[0] or truncations[0])
        mode = self._env_mode
        if mode is AutoresetMode.NEXT_STEP:
            if self._first_done:  # this step reset sub-env 0
                self._new_episode()
            self._first_done = ended
        elif mode is AutoresetMode.SAME_STEP and ended:
            self._new_episode()
        self._new_step()
        if self.recording:
            self._capture_frame()
        return result

    def _capture_frame(self) -> None:
        frames = _latest_frames(self.env.render(), self.num_envs, "RecordVideo")
        if self.record_first_only:
            frames = frames[:1]
        if self._grid is None:
            self._grid = _grid(len(frames), frames[0].shape[:2], self.video_aspect_ratio)
        self._record(_tile(frames, *self._grid))

    def close(self, **kwargs: Any) -> None:
        """Close the env and write the video being recorded, if any."""
        super().close(**kwargs)
        if self.recording:
            self.stop_recording()
