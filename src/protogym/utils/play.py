"""Play an environment with the keyboard, and watch live plots of what happens.

`play` shows an env's ``rgb_array`` frames in a pygame window and turns the keys held down
into actions; `PlayPlot` turns a per-step callback into rolling plots, drawn with pygame too
(no matplotlib needed) beside the game in the same window.

pygame is imported when `play` runs or a plot is drawn, never at import time, so this module
can be imported (and its mappings checked) without it.
"""

from __future__ import annotations

import importlib
import os
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, SupportsFloat, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env, Wrapper
from protogym.error import DependencyNotInstalled

if TYPE_CHECKING:
    from types import ModuleType

    import pygame

__all__ = [
    "KeyCombination",
    "MissingKeysToAction",
    "PlayCallback",
    "PlayPlot",
    "PlayableGame",
    "display_arr",
    "normalise_keys_to_action",
    "play",
]

ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")

KeyCombination = tuple[int | str, ...] | str | int
"""Keys pressed together: a key code, a string of characters, or a tuple of either."""

PlayCallback = Callable[[ObsT, ObsT, ActT, SupportsFloat, bool, bool, dict[str, Any]], object]
"""Called after every step with ``(obs_t, obs_tp1, action, rew, terminated, truncated, info)``."""

_PLOT_BACKGROUND = (250, 250, 250)
_PLOT_INK = (40, 40, 40)
_PLOT_POINTS = (30, 90, 200)


class MissingKeysToAction(ValueError):  # noqa: N818 - Gymnasium's spelling
    """`play` got no `keys_to_action` and the env offers no `get_keys_to_action()`."""


def _pygame() -> ModuleType:
    """pygame, imported on first need, with a message that says how to install it."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        return importlib.import_module("pygame")
    except ImportError as exc:
        raise DependencyNotInstalled(
            "protogym.utils.play needs pygame to open a window and read the keyboard; "
            'install it with `pip install "protogym[render]"`'
        ) from exc


def _key_code(key: int | str, combination: object) -> int:
    if isinstance(key, bool) or not isinstance(key, int | str):
        raise TypeError(
            f"keys_to_action key {combination!r} contains {key!r}; keys are pygame key codes "
            "(ints) or single characters (str)"
        )
    if isinstance(key, str):
        if len(key) != 1:
            raise ValueError(
                f"keys_to_action key {combination!r} contains {key!r}; inside a tuple each "
                "string must be one character (write 'wa' or ('w', 'a') for two keys)"
            )
        return ord(key)
    return key


def normalise_keys_to_action(
    keys_to_action: Mapping[KeyCombination, ActT], action_space: Any = None
) -> dict[tuple[int, ...], ActT]:
    """Turn every key combination into a sorted tuple of key codes, checking as it goes.

    An empty combination (``()`` or ``""``) names the action taken while no key is held, in
    place of `play`'s `noop`. Raises `TypeError` for a mapping or key of the wrong kind and
    `ValueError` for an action outside `action_space` (unless it is None) or two spellings
    of the same keys mapped to different actions.
    """
    if not isinstance(keys_to_action, Mapping):
        raise TypeError(
            "keys_to_action must be a mapping from keys to actions, e.g. {'a': 0, 'd': 1}, "
            f"got {type(keys_to_action).__name__}"
        )
    if not keys_to_action:
        raise ValueError("keys_to_action is empty; map at least one key to an action")
    normalised: dict[tuple[int, ...], ActT] = {}
    spelled: dict[tuple[int, ...], KeyCombination] = {}
    for combination, action in keys_to_action.items():
        keys: tuple[int | str, ...]
        if isinstance(combination, tuple):
            keys = combination
        elif isinstance(combination, str):
            keys = tuple(combination)
        else:
            keys = (combination,)
        codes = tuple(sorted({_key_code(key, combination) for key in keys}))
        if action_space is not None and action not in action_space:
            raise ValueError(
                f"keys_to_action maps {combination!r} to {action!r}, which is not in the "
                f"env's action space {action_space}"
            )
        if codes in normalised and not _same_action(normalised[codes], action):
            raise ValueError(
                f"keys_to_action maps the same keys twice: {spelled[codes]!r} to "
                f"{normalised[codes]!r} and {combination!r} to {action!r}"
            )
        normalised[codes] = action
        spelled[codes] = combination
    return normalised


def _same_action(a: object, b: object) -> bool:
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def _default_keys_to_action(env: Env[Any, Any]) -> Mapping[KeyCombination, Any]:
    """The `get_keys_to_action()` of the env or the first wrapper in its stack that has one."""
    layer: Any = env
    while True:
        method = getattr(layer, "get_keys_to_action", None)
        if callable(method):
            return cast("Mapping[KeyCombination, Any]", method())
        if not isinstance(layer, Wrapper):
            break
        layer = layer.env
    spec = getattr(env, "spec", None)
    name = getattr(spec, "id", None) or type(env).__name__
    raise MissingKeysToAction(
        f"{name} has no get_keys_to_action(), so play() does not know which keys to use; "
        "pass keys_to_action={...} mapping keys (e.g. 'a', ('w', 'd'), pygame.K_LEFT) to actions"
    )


def _latest_frame(env: Env[Any, Any]) -> object:
    """The env's current picture, the last one of an ``rgb_array_list`` batch."""
    rendered = env.render()
    if isinstance(rendered, list):
        rendered = rendered[-1] if rendered else None
    return rendered


def _frame(env: Env[Any, Any]) -> NDArray[np.uint8]:
    """The env's current picture, which must be an (H, W, 3) uint8 array to be shown."""
    rendered = _latest_frame(env)
    if isinstance(rendered, np.ndarray):
        if rendered.dtype == np.uint8 and rendered.ndim == 3 and rendered.shape[2] == 3:
            return rendered
        got = f"an array of shape {rendered.shape} and dtype {rendered.dtype}"
    else:
        got = type(rendered).__name__
    raise TypeError(
        f"play() shows the env's frames, so render() must return an (H, W, 3) uint8 array; "
        f"got {got}"
    )


def _plot_of(callback: object) -> PlayPlot[Any, Any] | None:
    """The `PlayPlot` whose `callback` method `callback` is, if it is one."""
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, PlayPlot) and getattr(callback, "__name__", None) == "callback":
        return owner
    return None


def _check_playable(env: Env[Any, Any], zoom: float | None) -> None:
    """Refuse an env whose frames cannot be shown, and a zoom that is not positive."""
    if env.render_mode not in ("rgb_array", "rgb_array_list"):
        raise ValueError(
            "play() shows rendered frames, so make the env with render_mode='rgb_array' "
            f"(got render_mode={env.render_mode!r})"
        )
    if zoom is not None and not zoom > 0:
        raise ValueError(f"zoom must be a positive number, got {zoom!r}")


class PlayableGame:
    """The window and keyboard state of a game of `play`: which keys matter, which are held,
    how big the picture is drawn, and whether the player has quit.

    Building it opens a resizable pygame window of `video_size` (the env's frame size times
    `zoom`, truncated to whole pixels). `process_event` follows key presses of the keys in
    `keys_to_action` (default: the env's `get_keys_to_action()`), stops on Escape or when
    the window is closed, and refits the picture when the window is resized. `reserved_width`
    pixels on the right of the window are left to other drawings (`play` puts a `PlayPlot`
    there). `transpose` says the frames are (H, W, 3), as `render` returns them.
    """

    def __init__(
        self,
        env: Env[Any, Any],
        keys_to_action: Mapping[Any, Any] | None = None,
        zoom: float | None = None,
        *,
        transpose: bool = True,
        reserved_width: int = 0,
    ) -> None:
        _check_playable(env, zoom)
        self.env = env
        mapping = normalise_keys_to_action(
            _default_keys_to_action(env) if keys_to_action is None else keys_to_action
        )
        self.relevant_keys: set[int] = {code for codes in mapping for code in codes}
        frame = _latest_frame(env)
        if not isinstance(frame, np.ndarray) or frame.ndim < 2:
            raise TypeError(
                "play() shows the env's frames, so render() must return an image array; got "
                f"{type(frame).__name__}"
            )
        height, width = frame.shape[:2] if transpose else frame.shape[1::-1]
        scale = 1.0 if zoom is None else zoom
        self.original_video_size: tuple[int, int] = (int(width * scale), int(height * scale))
        self.video_size = self.original_video_size
        self.reserved_width = reserved_width
        self.pressed_keys: set[int] = set()
        self.running = True
        pg = _pygame()
        self.screen: pygame.Surface = pg.display.set_mode(
            (self.video_size[0] + reserved_width, self.video_size[1]), pg.RESIZABLE
        )

    def process_event(self, event: pygame.event.Event) -> None:
        """Update the held keys, the running flag or the picture size from one event."""
        pygame = _pygame()
        if event.type == pygame.KEYDOWN:
            if event.key in self.relevant_keys:
                self.pressed_keys.add(event.key)
            elif event.key == pygame.K_ESCAPE:
                self.running = False
        elif event.type == pygame.KEYUP:
            self.pressed_keys.discard(event.key)
        elif event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.WINDOWRESIZED:
            # Fit the picture, aspect kept, into what the reserved strip leaves; always
            # scaled from the original size, so repeated resizes do not drift.
            width, height = self.original_video_size
            fit = min(max(1, event.x - self.reserved_width) / width, max(1, event.y) / height)
            self.video_size = (max(1, round(width * fit)), max(1, round(height * fit)))
            self.screen = pygame.display.get_surface()


def display_arr(
    screen: pygame.Surface,
    arr: NDArray[np.uint8],
    video_size: tuple[int, int],
    transpose: bool | None,
) -> None:
    """Draw image `arr` on `screen`, scaled to `video_size` and centred on black.

    `transpose` says `arr` is (H, W, 3), as `render` returns frames; pygame wants (W, H, 3).
    """
    if not isinstance(arr, np.ndarray) or arr.dtype != np.uint8:
        got = f"dtype {arr.dtype}" if isinstance(arr, np.ndarray) else type(arr).__name__
        raise TypeError(f"display_arr shows uint8 image arrays, got {got}")
    pygame = _pygame()
    surface = pygame.surfarray.make_surface(arr.swapaxes(0, 1) if transpose else arr)
    room = screen.get_size()
    offset = ((room[0] - video_size[0]) // 2, (room[1] - video_size[1]) // 2)
    screen.fill((0, 0, 0))
    screen.blit(pygame.transform.scale(surface, video_size), offset)


def play(
    env: Env[ObsT, ActT],
    transpose: bool = True,
    fps: float | None = None,
    zoom: float | None = None,
    callback: PlayCallback[ObsT, ActT] | None = None,
    keys_to_action: Mapping[KeyCombination, ActT] | None = None,
    seed: int | None = None,
    noop: ActT | int | None = None,
    wait_on_player: bool = False,
) -> None:
    """Play `env` with the keyboard until the window is closed or Escape is pressed.

    `env` must render ``rgb_array`` (or ``rgb_array_list``). Each frame, the keys held down
    pick the action through `keys_to_action` (default: the env's `get_keys_to_action()`);
    unmapped combinations give `noop`, and so does holding no key unless the mapping has an
    empty combination ``()`` for that; `noop` defaults to that empty combination's action if
    there is one (so continuous envs need none), else 0. With ``wait_on_player=True`` the
    env instead steps once per key press, for turn-based games. `fps` caps frames per
    second (default ``metadata["render_fps"]``, else 30); `zoom` scales the picture, and
    resizing the window rescales it; `transpose` says that frames are (H, W, 3) as `render`
    returns them. The first reset uses `seed`; later ones continue its random stream.
    `callback` runs after every step with ``(obs_t, obs_tp1, action, rew, terminated,
    truncated, info)``; a `PlayPlot`'s callback also draws its plots beside the game.
    """
    _check_playable(env, zoom)  # before the env is reset or a window opens
    if fps is None:
        fps = env.metadata.get("render_fps") or 30
    if isinstance(fps, bool) or not isinstance(fps, int | float) or not fps > 0:
        raise ValueError(f"fps must be a positive number, got {fps!r}")
    mapping = normalise_keys_to_action(
        _default_keys_to_action(env) if keys_to_action is None else keys_to_action,
        env.action_space,
    )
    if noop is None:
        noop = mapping.get((), 0)
    if noop not in env.action_space:
        raise ValueError(
            f"noop={noop!r} is not in the env's action space {env.action_space}; pass "
            "noop=<an action to take when no mapped keys are pressed>"
        )
    idle = cast("ActT", noop)
    plot = _plot_of(callback)

    pygame = _pygame()
    obs, _ = env.reset(seed=seed)
    _frame(env)  # says now, before a window opens, if the frames cannot be shown
    pygame.display.init()
    try:
        game = PlayableGame(env, mapping, zoom, transpose=transpose,
                            reserved_width=plot.size[0] if plot is not None else 0)
        if plot is not None and plot.size[1] > game.video_size[1]:
            game.screen = pygame.display.set_mode(
                (game.video_size[0] + plot.size[0], plot.size[1]), pygame.RESIZABLE
            )
        spec = getattr(env, "spec", None)
        pygame.display.set_caption(str(getattr(spec, "id", None) or type(env).__name__))
        clock = pygame.time.Clock()
        done = False

        def take_step() -> None:
            nonlocal obs, done
            if done:
                obs, _ = env.reset()
                done = False
            action = mapping.get(tuple(sorted(game.pressed_keys)), idle)
            previous = obs
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            if callback is not None:
                callback(previous, obs, action, reward, terminated, truncated, info)

        while game.running:
            if done:
                obs, _ = env.reset()
                done = False
            for event in pygame.event.get():
                pressed_before = set(game.pressed_keys)
                game.process_event(event)
                if not game.running:
                    break
                if wait_on_player and game.pressed_keys - pressed_before:
                    take_step()
            if not game.running:
                break
            if not wait_on_player:
                take_step()
            screen = game.screen
            game_area = pygame.Rect(0, 0, screen.get_width() - game.reserved_width,
                                    screen.get_height())
            display_arr(screen.subsurface(game_area), _frame(env), game.video_size, transpose)
            if plot is not None:
                plot.draw(screen, pygame.Rect(game_area.right, 0, *plot.size))
            pygame.display.flip()
            clock.tick(fps)
    finally:
        pygame.display.quit()


class PlayPlot(Generic[ObsT, ActT]):
    """Rolling scatter plots of per-step metrics, drawn with pygame.

    `callback` computes one number per plot from each transition; pass this object's
    `callback` method to `play` and the plots appear to the right of the game, each over
    the last `horizon_timesteps` steps. `render()` returns the plots as an RGB array for use
    outside `play`.
    """

    def __init__(
        self,
        callback: Callable[
            [ObsT, ObsT, ActT, SupportsFloat, bool, bool, dict[str, Any]],
            Iterable[SupportsFloat],
        ],
        horizon_timesteps: int,
        plot_names: Sequence[str],
        *,
        size: tuple[int, int] | None = None,
    ) -> None:
        if isinstance(horizon_timesteps, bool) or not isinstance(horizon_timesteps, int):
            raise TypeError(f"horizon_timesteps must be an int, got {horizon_timesteps!r}")
        if horizon_timesteps < 1:
            raise ValueError(f"horizon_timesteps must be at least 1, got {horizon_timesteps}")
        if isinstance(plot_names, str) or not all(isinstance(n, str) for n in plot_names):
            raise TypeError(
                f"plot_names must be a list of strings, one per plot, got {plot_names!r}"
            )
        if not plot_names:
            raise ValueError("plot_names is empty; name at least one plot")
        self.data_callback = callback
        self.horizon_timesteps = horizon_timesteps
        self.plot_names = list(plot_names)
        self.size = size if size is not None else (360, 140 * len(self.plot_names))
        if self.size[0] < 60 or self.size[1] < 40 * len(self.plot_names):
            raise ValueError(
                f"size {self.size} is too small for {len(self.plot_names)} plots; give at "
                "least 60 pixels of width and 40 of height per plot"
            )
        self.t = 0
        self.data: list[deque[float]] = [deque(maxlen=horizon_timesteps) for _ in plot_names]

    def callback(
        self,
        obs_t: ObsT,
        obs_tp1: ObsT,
        action: ActT,
        rew: SupportsFloat,
        terminated: bool,
        truncated: bool,
        info: dict[str, Any],
    ) -> None:
        """Compute this step's metrics and add them to the plots."""
        points = [
            float(point)
            for point in self.data_callback(
                obs_t, obs_tp1, action, rew, terminated, truncated, info
            )
        ]
        if len(points) != len(self.plot_names):
            raise ValueError(
                f"the PlayPlot callback returned {len(points)} values for the "
                f"{len(self.plot_names)} plots {self.plot_names}; return one per plot"
            )
        for point, series in zip(points, self.data, strict=True):
            series.append(point)
        self.t += 1

    def draw(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Draw the plots into `area` of `surface`, stacked top to bottom."""
        pygame = _pygame()
        from protogym.utils.pygame_fonts import font as cached_font

        font = cached_font(18)
        surface.fill(_PLOT_BACKGROUND, area)
        panel_height = area.height // len(self.plot_names)
        first = max(0, self.t - self.horizon_timesteps)
        for index, (name, series) in enumerate(zip(self.plot_names, self.data, strict=True)):
            panel = pygame.Rect(
                area.left, area.top + index * panel_height, area.width, panel_height
            )
            surface.blit(font.render(name, True, _PLOT_INK), (panel.left + 6, panel.top + 4))
            axes = pygame.Rect(panel.left + 44, panel.top + 20, panel.width - 52, panel.height - 36)
            pygame.draw.rect(surface, _PLOT_INK, axes, 1)
            if not series:
                continue
            low, high = min(series), max(series)
            if low == high:
                low, high = low - 1.0, high + 1.0
            for value, y in ((high, axes.top), (low, axes.bottom - 12)):
                surface.blit(font.render(f"{value:.3g}", True, _PLOT_INK), (panel.left + 2, y))
            surface.blit(
                font.render(f"t={first}..{self.t}", True, _PLOT_INK),
                (axes.left, axes.bottom + 2),
            )
            span = max(1, self.horizon_timesteps - 1)
            for step, value in enumerate(series):
                x = axes.left + 2 + (axes.width - 4) * step / span
                y = axes.bottom - 2 - (axes.height - 4) * (value - low) / (high - low)
                pygame.draw.circle(surface, _PLOT_POINTS, (round(x), round(y)), 2)

    def render(self) -> NDArray[np.uint8]:
        """The plots as an (H, W, 3) uint8 image, drawn off screen (no display needed)."""
        pygame = _pygame()
        surface = pygame.Surface(self.size)
        self.draw(surface, surface.get_rect())
        frame = pygame.surfarray.array3d(surface)
        return cast("NDArray[np.uint8]", np.ascontiguousarray(frame.transpose(1, 0, 2)))
