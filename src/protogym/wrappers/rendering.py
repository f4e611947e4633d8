"""Wrappers around `render`: collect frames, show them in a window, write them to video.

* `RenderCollection` turns a frame-per-call render mode into a `<mode>_list` mode.
* `HumanRendering` gives an `rgb_array` env a pygame window (`render_mode="human"`).
* `RecordVideo` writes mp4 files of chosen episodes or step ranges through imageio.

pygame and imageio are optional dependencies, imported the first time they are needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, SupportsFloat

from protogym.core import ActType, Env, ObsType, Wrapper

if TYPE_CHECKING:
    import numpy as np
    import pygame
    from numpy.typing import NDArray

__all__ = ["HumanRendering", "RenderCollection"]


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


def _import_pygame() -> Any:
    try:
        import pygame
    except ImportError as exc:
        raise ImportError(
            "HumanRendering draws with pygame, which is not installed: "
            "pip install protogym[render]"
        ) from exc
    return pygame


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
        pygame = _import_pygame()
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
        if self.window is None:
            pygame.display.init()
            self.window = pygame.display.set_mode(size)
        if self.clock is None:
            self.clock = pygame.time.Clock()
        self.window.blit(pygame.surfarray.make_surface(pixels), (0, 0))
        pygame.event.pump()
        self.clock.tick(self.metadata["render_fps"])
        pygame.display.flip()

    def close(self) -> None:
        if self.window is not None:
            pygame = _import_pygame()
            pygame.display.quit()
            self.window = None
            self.clock = None
        self.env.close()
