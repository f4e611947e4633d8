"""Wrappers around `render`: collect frames, show them in a window, write them to video.

* `RenderCollection` turns a frame-per-call render mode into a `<mode>_list` mode.
* `HumanRendering` gives an `rgb_array` env a pygame window (`render_mode="human"`).
* `RecordVideo` writes mp4 files of chosen episodes or step ranges through imageio.
* `AddWhiteNoise` and `ObstructView` corrupt rendered frames, for robustness experiments.

pygame and imageio are optional dependencies, imported the first time they are needed.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, SupportsFloat

from protogym.core import ActType, Env, ObsType, Wrapper
from protogym.error import InvalidProbability
from protogym.utils.save_video import capped_cubic_video_schedule
from protogym.wrappers.human_window import close_window, show_in_window
from protogym.wrappers.video_recording import VideoRecording

if TYPE_CHECKING:
    import numpy as np
    import pygame
    from numpy.typing import NDArray

__all__ = [
    "AddWhiteNoise",
    "HumanRendering",
    "ObstructView",
    "RecordVideo",
    "RenderCollection",
    "capped_cubic_video_schedule",
]

def _metadata_with_mode(metadata: Mapping[str, Any], mode: str) -> dict[str, Any]:
    """A copy of `metadata` whose `render_modes` also lists `mode`."""
    copied = dict(metadata)
    modes = list(copied.get("render_modes", ()))
    if mode not in modes:
        modes.append(mode)
    copied["render_modes"] = modes
    return copied


class RenderCollection(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Renders after every `reset` and `step` and returns all frames since the last `render`.

    The inner env's mode `m` becomes `m_list`. With `pop_frames=False` the list keeps
    growing across `render` calls; with `reset_clean=False` it also survives `reset`.
    """

    def __init__(
        self, env: Env[ObsType, ActType], pop_frames: bool = True, reset_clean: bool = True
    ) -> None:
        super().__init__(env)
        mode = env.render_mode
        if mode is None:
            raise ValueError(
                "RenderCollection needs an env with a render_mode (such as 'rgb_array'), "
                "got render_mode=None"
            )
        if mode.endswith("_list"):
            raise ValueError(
                f"RenderCollection: the env's render_mode {mode!r} already collects frames; "
                "wrap an env whose render_mode does not end in '_list'"
            )
        self.frame_list: list[Any] = []
        self.pop_frames = pop_frames
        self.reset_clean = reset_clean
        self.metadata = _metadata_with_mode(env.metadata, f"{mode}_list")

    @property
    def render_mode(self) -> str | None:
        return f"{self.env.render_mode}_list"

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self.env.step(action)
        self.frame_list.append(self.env.render())
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        result = self.env.reset(seed=seed, options=options)
        if self.reset_clean:
            self.frame_list = []
        self.frame_list.append(self.env.render())
        return result

    def render(self) -> list[Any]:
        frames = self.frame_list
        if self.pop_frames:
            self.frame_list = []
        return frames


class HumanRendering(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Shows an `rgb_array` (or `depth_array`, or their `_list`) env's frames in a window.

    The frame is drawn after every `reset` and `step` at the env's `render_fps`, so the
    wrapper's own `render` does nothing, as in a native `human` mode.
    """

    ACCEPTED_RENDER_MODES = ("rgb_array", "rgb_array_list", "depth_array", "depth_array_list")

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        super().__init__(env)
        self.screen_size: tuple[int, int] | None = None
        self.window: pygame.Surface | None = None
        self.clock: pygame.time.Clock | None = None
        if env.render_mode not in self.ACCEPTED_RENDER_MODES:
            raise ValueError(
                f"HumanRendering needs an env whose render_mode is one of "
                f"{list(self.ACCEPTED_RENDER_MODES)}, got {env.render_mode!r}"
            )
        if "render_fps" not in env.metadata:
            raise ValueError(
                "HumanRendering needs the env's metadata to give 'render_fps', the rate at "
                "which frames are shown"
            )
        self.metadata = _metadata_with_mode(env.metadata, "human")

    @property
    def render_mode(self) -> str | None:
        return "human"

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self.env.step(action)
        self._render_frame()
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        result = self.env.reset(seed=seed, options=options)
        self._render_frame()
        return result

    def render(self) -> None:
        """Nothing to return: frames are drawn by `reset` and `step`."""
        return None

    def _last_frame(self) -> NDArray[Any]:
        import numpy as np

        frame = self.env.render()
        if isinstance(frame, list):
            if not frame:
                raise ValueError(
                    "HumanRendering: the env's render() returned an empty frame list; "
                    "something else called render() on the inner env since the last step"
                )
            frame = frame[-1]
        if not isinstance(frame, np.ndarray):
            raise TypeError(
                f"HumanRendering expects the env's render() to return a numpy array, "
                f"got {type(frame).__name__}"
            )
        return frame

    def _render_frame(self) -> None:
        import numpy as np

        frame: np.ndarray[Any, Any] = self._last_frame()
        if frame.ndim == 2:  # depth arrays: show as grey
            frame = np.repeat(frame[:, :, None], 3, axis=2)
        # pygame surfaces are indexed (x, y); frames are (row, column).
        pixels = np.transpose(frame, (1, 0, 2))
        size = (int(pixels.shape[0]), int(pixels.shape[1]))
        if self.screen_size is None:
            self.screen_size = size
        elif self.screen_size != size:
            raise ValueError(
                f"HumanRendering: the frame size changed from {self.screen_size} to {size}"
            )
        show_in_window(self, pixels)

    def close(self) -> None:
        close_window(self)
        self.env.close()


class RecordVideo(Wrapper[ObsType, ActType, ObsType, ActType], VideoRecording):
    """Writes mp4 videos of the env's rendered frames to `video_folder`.

    A recording starts at a reset when `episode_trigger(episode_id)` is true (files named
    `{name_prefix}-episode-{id}.mp4`) or at a step when `step_trigger(step_id)` is true
    (`{name_prefix}-step-{id}.mp4`); with neither, episodes 0, 1, 8, 27, ... are recorded.
    With `video_length=0` a recording lasts until the episode ends (the next reset);
    otherwise it holds exactly `video_length` frames and may span episodes. Frames are
    streamed to the encoder as they come, so a long video does not sit in memory. `fps`
    defaults to the env's `render_fps` (else 30).
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        video_folder: str,
        episode_trigger: Callable[[int], bool] | None = None,
        step_trigger: Callable[[int], bool] | None = None,
        video_length: int = 0,
        name_prefix: str = "rl-video",
        fps: int | None = None,
        disable_logger: bool = True,
        gc_trigger: Callable[[int], bool] | None = None,
    ) -> None:
        super().__init__(env)
        if env.render_mode in (None, "human", "ansi"):
            raise ValueError(
                f"RecordVideo needs an env that renders images (render_mode='rgb_array'), got "
                f"render_mode={env.render_mode!r}"
            )
        self._setup_recording(
            video_folder, episode_trigger, step_trigger, video_length, name_prefix, fps,
            disable_logger, gc_trigger, env.metadata,
        )
        self.render_history: list[Any] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        result = self.env.reset(seed=seed, options=options)
        self._new_episode()
        if self.recording:
            self._capture_frame()
        return result

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self.env.step(action)
        self._new_step()
        if self.recording:
            self._capture_frame()
        return result

    def render(self) -> Any:
        """The inner env's frame(s), plus any list frames this wrapper consumed meanwhile."""
        frames = self.env.render()
        if self.render_history:
            history, self.render_history = self.render_history, []
            return history + list(frames)
        return frames

    def _capture_frame(self) -> None:
        import numpy as np

        frame = self.env.render()
        if isinstance(frame, list):
            if not frame:
                warnings.warn(
                    "RecordVideo: the env's render() returned no frames (render() was called "
                    "since the last step), so this step is missing from the video",
                    stacklevel=3,
                )
                return
            self.render_history += frame
            frame = frame[-1]
        if not isinstance(frame, np.ndarray):
            self.stop_recording()
            warnings.warn(
                "RecordVideo stopped recording: the env's render() returned "
                f"{type(frame).__name__}, not a numpy image",
                stacklevel=3,
            )
            return
        self._record(frame)

    def close(self) -> None:
        """Close the env and write the video being recorded, if any."""
        self.env.close()
        if self.recording:
            self.stop_recording()


def _noise_like(rng: np.random.Generator, shape: tuple[int, ...], grayscale: bool) -> Any:
    """Random uint8 pixels; grey noise sums luminance-weighted channels, as Gymnasium does."""
    import numpy as np

    if grayscale:
        high = 255 * np.array([0.2989, 0.587, 0.114])
        parts = rng.integers((0, 0, 0), high, size=shape, dtype=np.uint8)
        return parts.sum(-1, keepdims=True).repeat(3, -1)
    return rng.integers(0, 255, size=shape, dtype=np.uint8)


class AddWhiteNoise(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Replaces each rendered pixel by random noise with `probability_of_noise_per_pixel`."""

    def __init__(
        self,
        env: Env[ObsType, ActType],
        probability_of_noise_per_pixel: float,
        is_noise_grayscale: bool = False,
    ) -> None:
        if not 0 <= probability_of_noise_per_pixel < 1:
            raise InvalidProbability(
                "AddWhiteNoise: probability_of_noise_per_pixel must be in [0, 1), got "
                f"{probability_of_noise_per_pixel}"
            )
        super().__init__(env)
        self.probability_of_noise_per_pixel = probability_of_noise_per_pixel
        self.is_noise_grayscale = is_noise_grayscale

    def render(self) -> Any:
        import numpy as np

        frame = self.env.render()
        rng = self.np_random
        noise = _noise_like(rng, frame.shape, self.is_noise_grayscale)
        mask = rng.random(frame.shape[:2]) < self.probability_of_noise_per_pixel
        return np.where(mask[..., None], noise, frame)


class ObstructView(Wrapper[ObsType, ActType, ObsType, ActType]):
    """Covers random square patches (`obstruction_width` wide) of each frame with noise.

    About `obstructed_pixels_ratio` of the pixels are covered (patches may overlap).
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        obstructed_pixels_ratio: float,
        obstruction_width: int,
        is_noise_grayscale: bool = False,
    ) -> None:
        if not 0 <= obstructed_pixels_ratio < 1:
            raise ValueError(
                "ObstructView: obstructed_pixels_ratio must be in [0, 1), got "
                f"{obstructed_pixels_ratio}"
            )
        if isinstance(obstruction_width, bool) or not isinstance(obstruction_width, int):
            raise ValueError(
                f"ObstructView: obstruction_width must be an int, got {obstruction_width!r}"
            )
        if obstruction_width < 1:
            raise ValueError(
                f"ObstructView: obstruction_width must be at least 1, got {obstruction_width}"
            )
        super().__init__(env)
        self.obstruction_centers_ratio = obstructed_pixels_ratio / obstruction_width**2
        self.obstruction_width = obstruction_width
        self.is_noise_grayscale = is_noise_grayscale

    def render(self) -> Any:
        import numpy as np

        frame = self.env.render()
        rows, cols = frame.shape[0], frame.shape[1]
        rng = self.np_random
        count = int(rows * cols * self.obstruction_centers_ratio)
        centre_rows, centre_cols = np.unravel_index(rng.integers(0, rows * cols, count),
                                                    (rows, cols))
        mask = np.zeros((rows, cols), dtype=bool)
        before = self.obstruction_width // 2
        after = self.obstruction_width - before
        for r, c in zip(centre_rows.tolist(), centre_cols.tolist(), strict=True):
            top, left = max(r - before, 0), max(c - before, 0)
            mask[top : min(r + after, rows), left : min(c + after, cols)] = True
        noise = _noise_like(rng, frame.shape, self.is_noise_grayscale)
        return np.where(mask[..., None], noise, frame)
