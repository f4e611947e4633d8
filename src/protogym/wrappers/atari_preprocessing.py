"""`AtariPreprocessing`: the standard Atari pipeline of Machado et al. (2018) in one wrapper.

No-op starts, frame skipping with max-pooling over the last two frames, optional episode end
on life loss, resizing (area averaging, no OpenCV needed), greyscale and scaling to [0, 1].
It reads screens straight from the emulator (`env.unwrapped.ale`), which an ALE-backed env
provides.
"""

from __future__ import annotations

from typing import Any, Protocol, SupportsFloat

import numpy as np
from numpy.typing import NDArray

from protogym.core import ActType, Env, Wrapper
from protogym.wrappers.area_resize import AreaResize
from protogym.wrappers.utils import check_positive_int, require_box

__all__ = ["ALEInterface", "AtariPreprocessing"]


class ALEInterface(Protocol):
    """The part of the Arcade Learning Environment's interface this wrapper uses."""

    def lives(self) -> int: ...

    def getScreenGrayscale(self, out: NDArray[np.uint8]) -> Any: ...  # noqa: N802 - ALE's name

    def getScreenRGB(self, out: NDArray[np.uint8]) -> Any: ...  # noqa: N802 - ALE's name


class AtariPreprocessing(Wrapper[NDArray[Any], ActType, Any, ActType]):
    """Preprocesses an ALE env's frames the way most Atari agents expect.

    * `noop_max`: at reset, take a random number (1 to `noop_max`) of action-0 ("NOOP")
      steps, drawn from the env's `np_random`; 0 disables it.
    * `frame_skip`: repeat each action this many times (the env's own frame skip must be 1)
      and return the pixel-wise max of the last two frames.
    * `screen_size`: output size, an int for a square or a `(width, height)` pair.
    * `terminal_on_life_loss`: end the episode (`terminated=True`) when a life is lost.
    * `grayscale_obs` / `grayscale_newaxis`: greyscale frames, optionally with a channel axis.
    * `scale_obs`: float32 frames in [0, 1] instead of uint8.
    """

    def __init__(
        self,
        env: Env[Any, ActType],
        noop_max: int = 30,
        frame_skip: int = 4,
        screen_size: int | tuple[int, int] = 84,
        terminal_on_life_loss: bool = False,
        grayscale_obs: bool = True,
        grayscale_newaxis: bool = False,
        scale_obs: bool = False,
    ) -> None:
        from protogym.spaces import Box

        self.frame_skip = check_positive_int("AtariPreprocessing", "frame_skip", frame_skip)
        self.noop_max = check_positive_int("AtariPreprocessing", "noop_max", noop_max, minimum=0)
        if isinstance(screen_size, int | np.integer) and not isinstance(screen_size, bool):
            size = check_positive_int("AtariPreprocessing", "screen_size", screen_size)
            self.screen_size = (size, size)
        elif isinstance(screen_size, tuple) and len(screen_size) == 2:
            self.screen_size = (
                check_positive_int("AtariPreprocessing", "screen_size width", screen_size[0]),
                check_positive_int("AtariPreprocessing", "screen_size height", screen_size[1]),
            )
        else:
            raise ValueError(
                "AtariPreprocessing: screen_size must be a positive int or a (width, height) "
                f"pair, got {screen_size!r}"
            )
        box = require_box("AtariPreprocessing", "observation", env.observation_space)
        inner: Any = getattr(env, "unwrapped", env)
        if not hasattr(inner, "ale"):
            raise ValueError(
                "AtariPreprocessing needs an ALE-backed env (one whose unwrapped env has an "
                f"`ale` emulator interface), got {type(inner).__name__}"
            )
        if self.frame_skip > 1 and getattr(inner, "_frameskip", None) != 1:
            raise ValueError(
                "AtariPreprocessing skips frames itself: make the env with frameskip=1 (or "
                "pass frame_skip=1 here), or frames would be skipped twice"
            )
        if self.noop_max > 0:
            meanings = getattr(inner, "get_action_meanings", None)
            if meanings is None or meanings()[0] != "NOOP":
                raise ValueError(
                    "AtariPreprocessing: noop_max > 0 needs action 0 to be 'NOOP'; pass "
                    "noop_max=0 for this env"
                )
        super().__init__(env)
        self.terminal_on_life_loss = terminal_on_life_loss
        self.grayscale_obs = grayscale_obs
        self.grayscale_newaxis = grayscale_newaxis
        self.scale_obs = scale_obs
        screen = box.shape[:2] if grayscale_obs else box.shape
        self.obs_buffer = [np.empty(screen, dtype=np.uint8), np.empty(screen, dtype=np.uint8)]
        self.lives = 0
        self.game_over = False
        width, height = self.screen_size
        self._resize = AreaResize((box.shape[0], box.shape[1]), (height, width))
        shape: tuple[int, ...] = (height, width, 1 if grayscale_obs else 3)
        if grayscale_obs and not grayscale_newaxis:
            shape = shape[:-1]
        if scale_obs:
            self.observation_space = Box(0.0, 1.0, shape=shape, dtype=np.float32)
        else:
            self.observation_space = Box(0, 255, shape=shape, dtype=np.uint8)

    @property
    def ale(self) -> ALEInterface:
        """The emulator of the innermost env."""
        inner: Any = self.unwrapped
        ale: ALEInterface = inner.ale
        return ale

    def _grab(self, out: NDArray[np.uint8]) -> None:
        if self.grayscale_obs:
            self.ale.getScreenGrayscale(out)
        else:
            self.ale.getScreenRGB(out)

    def step(
        self, action: ActType
    ) -> tuple[NDArray[Any], SupportsFloat, bool, bool, dict[str, Any]]:
        total = 0.0
        terminated = truncated = False
        info: dict[str, Any] = {}
        for t in range(self.frame_skip):
            _, reward, terminated, truncated, info = self.env.step(action)
            total += float(reward)
            self.game_over = terminated
            if self.terminal_on_life_loss:
                lives = self.ale.lives()
                terminated = terminated or lives < self.lives
                self.game_over = terminated
                self.lives = lives
            if terminated or truncated:
                break
            if t == self.frame_skip - 2:
                self._grab(self.obs_buffer[1])
            elif t == self.frame_skip - 1:
                self._grab(self.obs_buffer[0])
        return self._observation(), total, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[Any], dict[str, Any]]:
        _, info = self.env.reset(seed=seed, options=options)
        noops = 0
        if self.noop_max > 0:
            inner: Any = self.unwrapped
            noops = int(inner.np_random.integers(1, self.noop_max + 1))
        for _ in range(noops):
            _, _, terminated, truncated, step_info = self.env.step(0)  # type: ignore[arg-type]
            info.update(step_info)
            if terminated or truncated:
                _, info = self.env.reset(seed=seed, options=options)
        self.lives = self.ale.lives()
        self._grab(self.obs_buffer[0])
        self.obs_buffer[1].fill(0)
        return self._observation(), info

    def _observation(self) -> NDArray[Any]:
        if self.frame_skip > 1:
            np.maximum(self.obs_buffer[0], self.obs_buffer[1], out=self.obs_buffer[0])
        frame: NDArray[Any] = self._resize(self.obs_buffer[0])
        if self.scale_obs:
            frame = frame.astype(np.float32) / 255.0
        if self.grayscale_obs and self.grayscale_newaxis:
            frame = frame[..., None]
        return frame
