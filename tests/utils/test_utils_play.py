"""`protogym.utils.play`: keyboard play driven by posted pygame events (dummy video driver)."""

from __future__ import annotations

from typing import Any, ClassVar, SupportsFloat, cast

import numpy as np
import pytest
from numpy.typing import NDArray

import protogym
from protogym.spaces import Discrete
from protogym.utils.play import (
    KeyCombination,
    MissingKeysToAction,
    PlayableGame,
    PlayPlot,
    display_arr,
    normalise_keys_to_action,
    play,
)
from protogym.wrappers import TimeLimit

pygame = pytest.importorskip("pygame")

LEFT, RIGHT, JUMP = 0, 1, 2


class Corridor(protogym.Env[int | np.int64, int | np.integer[Any]]):
    """Five cells in a row: 0 steps left, 1 right, 2 jumps two right; cell 4 ends it."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 50}
    action_space: Discrete
    observation_space: Discrete
    render_mode: str | None

    def __init__(self, render_mode: str | None = "rgb_array", keys: bool = True) -> None:
        self.render_mode = render_mode
        self.action_space = Discrete(3)
        self.observation_space = Discrete(5)
        self.position = 0
        self.resets: list[int | None] = []
        self._keys = keys

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        super().reset(seed=seed)
        self.resets.append(seed)
        self.position = 0
        return 0, {}

    def step(self, action: int | np.integer[Any]) -> tuple[int, float, bool, bool, dict[str, Any]]:
        move = {LEFT: -1, RIGHT: 1, JUMP: 2}[int(action)]
        self.position = min(max(self.position + move, 0), 4)
        return self.position, float(self.position), self.position == 4, False, {}

    def render(self) -> NDArray[np.uint8]:
        frame = np.zeros((8, 40, 3), dtype=np.uint8)
        frame[:, 8 * self.position : 8 * self.position + 8] = 255
        return frame

    def get_keys_to_action(self) -> dict[tuple[int, ...] | str, int]:
        if not self._keys:
            raise AssertionError("not offered")
        return {(pygame.K_LEFT,): LEFT, (pygame.K_RIGHT,): RIGHT, "j": JUMP}


Transition = tuple[Any, Any, Any, SupportsFloat, bool, bool, dict[str, Any]]


class Recorder:
    """A play callback that keeps every transition and can post events on given steps."""

    def __init__(self, post: dict[int, list[Any]] | None = None) -> None:
        self.transitions: list[Transition] = []
        self.post = post or {}
        self.window_sizes: list[tuple[int, int]] = []

    def __call__(self, *transition: Any) -> None:
        self.transitions.append(transition)
        self.window_sizes.append(pygame.display.get_surface().get_size())
        for event in self.post.get(len(self.transitions), []):
            pygame.event.post(event)

    @property
    def actions(self) -> list[Any]:
        return [t[2] for t in self.transitions]


def key(kind: int, code: int) -> Any:
    return pygame.event.Event(kind, key=code)


def press(*codes: int) -> list[Any]:
    events = []
    for code in codes:
        events += [key(pygame.KEYDOWN, code), key(pygame.KEYUP, code)]
    return events


def post(*events: Any) -> None:
    pygame.display.init()
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)


QUIT = pygame.event.Event(pygame.QUIT)


def test_utils_play_wait_on_player_steps_once_per_key_press() -> None:
    env = Corridor()
    recorder = Recorder()
    post(*press(pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_LEFT, ord("j")), QUIT)
    play(env, callback=recorder, wait_on_player=True, fps=1000, seed=3)
    assert recorder.actions == [RIGHT, RIGHT, LEFT, JUMP]
    assert [(t[0], t[1], t[3], t[4], t[5]) for t in recorder.transitions] == [
        (0, 1, 1.0, False, False),
        (1, 2, 2.0, False, False),
        (2, 1, 1.0, False, False),
        (1, 3, 3.0, False, False),
    ]
    assert env.resets == [3]
    assert not pygame.display.get_init()


def test_utils_play_realtime_uses_held_keys_then_noop() -> None:
    env = Corridor()
    recorder = Recorder(post={1: [key(pygame.KEYUP, pygame.K_RIGHT)], 3: [QUIT]})
    post(key(pygame.KEYDOWN, pygame.K_RIGHT))
    play(env, callback=recorder, fps=1000, noop=LEFT)
    assert recorder.actions == [RIGHT, LEFT, LEFT]


def test_utils_play_key_combinations_and_unknown_keys() -> None:
    env = Corridor()
    recorder = Recorder()
    post(
        key(pygame.KEYDOWN, ord("w")),  # mapped alone to RIGHT
        key(pygame.KEYDOWN, ord("a")),  # "wa" together: JUMP
        key(pygame.KEYUP, ord("w")),
        key(pygame.KEYUP, ord("a")),
        key(pygame.KEYDOWN, ord("a")),  # "a" alone is not mapped: noop
        key(pygame.KEYDOWN, pygame.K_SPACE),  # not a relevant key: ignored
        QUIT,
    )
    mapping: dict[KeyCombination, int] = {"w": RIGHT, "aw": JUMP, (ord("q"), "a", "w"): LEFT}
    play(env, callback=recorder, keys_to_action=mapping, wait_on_player=True, fps=1000)
    assert recorder.actions == [RIGHT, JUMP, LEFT]


def test_utils_play_resets_after_episode_end() -> None:
    env = Corridor()
    recorder = Recorder()
    post(*press(ord("j"), ord("j"), pygame.K_RIGHT), QUIT)
    play(env, callback=recorder, wait_on_player=True, fps=1000, seed=1)
    assert [t[1] for t in recorder.transitions] == [2, 4, 1]
    assert recorder.transitions[1][4] is True
    assert env.resets == [1, None]


def test_utils_play_finds_keys_through_wrappers_and_zooms() -> None:
    env = TimeLimit(Corridor(), max_episode_steps=10)
    recorder = Recorder()
    post(*press(pygame.K_RIGHT), QUIT)
    play(env, callback=recorder, wait_on_player=True, fps=1000, zoom=3)
    assert recorder.actions == [RIGHT]
    assert recorder.window_sizes == [(120, 24)]


def test_utils_play_escape_quits() -> None:
    recorder = Recorder()
    post(key(pygame.KEYDOWN, pygame.K_ESCAPE), *press(pygame.K_RIGHT))
    play(Corridor(), callback=recorder, wait_on_player=True, fps=1000)
    assert recorder.actions == []


class _Clock:
    ticks: ClassVar[list[float]] = []

    def tick(self, fps: float = 0) -> int:
        self.ticks.append(fps)
        pygame.event.post(QUIT)
        return 0


@pytest.mark.parametrize("fps,expected", [(None, 50), (7, 7)])
def test_utils_play_fps(
    fps: float | None, expected: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    _Clock.ticks = []
    monkeypatch.setattr(pygame.time, "Clock", _Clock)
    post()
    play(Corridor(), fps=fps, wait_on_player=True)
    assert _Clock.ticks == [expected]


def test_utils_play_needs_rgb_frames() -> None:
    with pytest.raises(
        ValueError, match=r"make the env with render_mode='rgb_array' \(got render_mode=None\)"
    ):
        play(Corridor(render_mode=None))


class NoKeys(Corridor):
    """A corridor that offers no default keys."""

    get_keys_to_action = None  # type: ignore[assignment]


def test_utils_play_without_mapping() -> None:
    with pytest.raises(MissingKeysToAction, match=r"^NoKeys has no get_keys_to_action\(\)"):
        play(NoKeys())
    recorder = Recorder()
    post(*press(ord("x")), QUIT)
    play(NoKeys(), callback=recorder, keys_to_action={"x": JUMP}, wait_on_player=True, fps=1000)
    assert recorder.actions == [JUMP]


@pytest.mark.parametrize(
    "kwargs,error,message",
    [
        ({"zoom": 0}, ValueError, "zoom must be a positive number, got 0"),
        ({"fps": -1}, ValueError, "fps must be a positive number, got -1"),
        ({"noop": 7}, ValueError, r"noop=7 is not in the env's action space Discrete\(3\)"),
    ],
)
def test_utils_play_rejects_bad_arguments(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        play(Corridor(), **kwargs)


@pytest.mark.parametrize(
    "mapping,error,message",
    [
        ([("a", 0)], TypeError, "keys_to_action must be a mapping from keys to actions"),
        ({}, ValueError, "keys_to_action is empty"),
        ({(): 0, "": 1}, ValueError, "keys_to_action maps the same keys twice: \\(\\) to 0"),
        ({("ab",): 0}, ValueError, "inside a tuple each string must be one character"),
        ({(1.5,): 0}, TypeError, r"keys_to_action key \(1.5,\) contains 1.5"),
        ({"a": 3}, ValueError, r"maps 'a' to 3, which is not in the env's action space"),
        (
            {"wa": 0, "aw": 1},
            ValueError,
            "keys_to_action maps the same keys twice: 'wa' to 0 and 'aw' to 1",
        ),
    ],
)
def test_utils_play_rejects_bad_mappings(
    mapping: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        normalise_keys_to_action(mapping, Discrete(3))


def test_utils_play_empty_combination_is_the_no_key_action() -> None:
    recorder = Recorder(post={2: [QUIT]})
    post(key(pygame.KEYDOWN, ord("d")))
    play(Corridor(), callback=recorder, keys_to_action={(): JUMP, "d": RIGHT}, fps=1000)
    assert recorder.actions == [RIGHT, RIGHT]
    recorder = Recorder(post={2: [QUIT]})
    post()
    play(Corridor(), callback=recorder, keys_to_action={(): JUMP, "d": RIGHT}, fps=1000)
    assert recorder.actions == [JUMP, JUMP]


def test_utils_play_normalises_mappings() -> None:
    mapping = normalise_keys_to_action({"wa": 2, ("a", "w"): 2, 97: 0, (115, "d"): 1}, Discrete(3))
    assert mapping == {(97, 119): 2, (97,): 0, (100, 115): 1}


def _metrics(obs_t: int, obs_tp1: int, action: int, rew: SupportsFloat, *rest: Any) -> list[float]:
    return [float(rew), float(obs_tp1 - obs_t)]


def test_utils_play_plot_draws_rolling_plots() -> None:
    plot: PlayPlot[int, int] = PlayPlot(
        _metrics, horizon_timesteps=3, plot_names=["reward", "move"]
    )
    blank = plot.render()
    assert blank.shape == (280, 360, 3) and blank.dtype == np.uint8
    for step in range(5):
        plot.callback(step, step + 1, RIGHT, float(step), False, False, {})
    assert [list(series) for series in plot.data] == [[2.0, 3.0, 4.0], [1.0, 1.0, 1.0]]
    assert plot.t == 5
    assert not np.array_equal(plot.render(), blank)


class WindowPlot(PlayPlot[int, int]):
    """A plot that also notes the window size each time it is called."""

    sizes: ClassVar[list[tuple[int, int]]] = []

    def callback(self, *transition: Any) -> None:
        super().callback(*transition)
        self.sizes.append(pygame.display.get_surface().get_size())


def test_utils_play_plot_beside_the_game() -> None:
    plot = WindowPlot(_metrics, 10, ["reward", "move"], size=(200, 100))
    WindowPlot.sizes = []
    post(*press(pygame.K_RIGHT, pygame.K_RIGHT), QUIT)
    play(Corridor(), callback=plot.callback, wait_on_player=True, fps=1000, zoom=2)
    assert plot.t == 2 and list(plot.data[0]) == [1.0, 2.0]
    assert WindowPlot.sizes == [(80 + 200, 100)] * 2  # game 80x16, plots 200x100 beside it
    recorder = Recorder()
    post(*press(pygame.K_RIGHT), QUIT)
    play(Corridor(), callback=recorder, wait_on_player=True, fps=1000)
    assert recorder.window_sizes == [(40, 8)]  # a plain callback gets no plot panel


@pytest.mark.parametrize(
    "args,error,message",
    [
        ((0, ["r"]), ValueError, "horizon_timesteps must be at least 1, got 0"),
        ((2.0, ["r"]), TypeError, "horizon_timesteps must be an int, got 2.0"),
        ((5, "reward"), TypeError, "plot_names must be a list of strings"),
        ((5, []), ValueError, "plot_names is empty"),
    ],
)
def test_utils_play_plot_rejects_bad_arguments(
    args: tuple[Any, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        PlayPlot(_metrics, *args)


def test_utils_play_plot_checks_callback_values() -> None:
    plot: PlayPlot[int, int] = PlayPlot(_metrics, 5, ["only one"])
    with pytest.raises(ValueError, match=r"returned 2 values for the 1 plots \['only one'\]"):
        plot.callback(0, 1, RIGHT, 1.0, False, False, {})


class TurnBasedCorridor(Corridor):
    metadata: ClassVar[dict[str, Any]] = {**Corridor.metadata, "turn_based": True}


protogym.register("utils-play/Corridor-v0", entry_point=Corridor)
protogym.register("utils-play/TurnBasedCorridor-v0", entry_point=TurnBasedCorridor)
protogym.register("utils-play/NoKeys-v0", entry_point=NoKeys)


def _cli(argv: list[str]) -> int:
    import argparse

    from protogym.cli import play as play_command

    parser = argparse.ArgumentParser(prog="protogym")
    play_command.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


def test_utils_play_cli_turn_based_from_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder()
    calls: list[tuple[bool, int | None]] = []
    original = play

    def spy(env: Any, **kwargs: Any) -> None:
        calls.append((kwargs["wait_on_player"], kwargs["seed"]))
        original(env, callback=recorder, **kwargs)

    monkeypatch.setattr("protogym.utils.play.play", spy)
    post(*press(pygame.K_RIGHT, ord("j")), QUIT)
    assert _cli(["play", "utils-play/TurnBasedCorridor-v0", "--seed", "4", "--zoom", "2"]) == 0
    assert recorder.actions == [RIGHT, JUMP]
    assert calls == [(True, 4)]
    assert recorder.window_sizes == [(80, 16)] * 2
    post(QUIT)
    assert _cli(["play", "utils-play/Corridor-v0", "--fps", "500"]) == 0
    assert calls[-1] == (False, None)
    post(QUIT)
    assert _cli(["play", "utils-play/TurnBasedCorridor-v0", "--realtime"]) == 0
    assert calls[-1] == (False, None)


def test_utils_play_cli_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(["play", "utils-play/NoKeys-v0"]) == 2
    assert "has no get_keys_to_action()" in capsys.readouterr().err
    assert _cli(["play", "utils-play/Nowhere-v0"]) == 2
    assert capsys.readouterr().err.startswith("protogym play: ")
    with pytest.raises(SystemExit):
        _cli(["play", "utils-play/Corridor-v0", "--fps", "0"])
    assert "must be a positive number, got 0" in capsys.readouterr().err


class FloatFrames(Corridor):
    """Renders float frames, which pygame cannot show."""

    def render(self) -> NDArray[np.uint8]:
        return cast("NDArray[np.uint8]", np.zeros((8, 40, 3), dtype=np.float32))


def test_utils_play_rejects_frames_that_are_not_images() -> None:
    with pytest.raises(
        TypeError,
        match=r"must return an \(H, W, 3\) uint8 array; got an array of shape \(8, 40, 3\) "
        r"and dtype float32",
    ):
        play(FloatFrames())


def test_utils_play_resized_window_scales_the_picture() -> None:
    seen: list[tuple[int, int, int]] = []

    def look(*transition: Any) -> None:
        screen = pygame.display.get_surface()
        seen.append(tuple(screen.get_at((12, 4)))[:3])

    resized = pygame.event.Event(pygame.WINDOWRESIZED, x=80, y=16)
    # A callback sees the frame drawn after the previous step: nothing yet, then 1x, then
    # (the window having doubled in between) 2x.
    post()
    recorder = Recorder(post={1: [resized], 3: [QUIT]})

    def both(*transition: Any) -> None:
        look(*transition)
        recorder(*transition)
        if len(recorder.transitions) == 1:  # the dummy driver resizes only when told to
            pygame.display.set_mode((80, 16), pygame.RESIZABLE)

    play(Corridor(), callback=both, fps=1000, noop=LEFT)
    # Cell 0 is white and 8 pixels wide: x=12 is black at 1x and white at 2x.
    assert seen == [(0, 0, 0), (0, 0, 0), (255, 255, 255)]


# PlayableGame and display_arr -----------------------------------------------------------------


@pytest.fixture
def display() -> Any:
    pygame.display.init()
    yield
    pygame.display.quit()


def test_utils_playable_game_follows_the_relevant_keys(display: Any) -> None:
    game = PlayableGame(Corridor(), {"a": LEFT, ("w", "d"): RIGHT})
    assert game.relevant_keys == {ord("a"), ord("d"), ord("w")}
    assert game.running and game.pressed_keys == set()
    game.process_event(key(pygame.KEYDOWN, ord("w")))
    game.process_event(key(pygame.KEYDOWN, ord("w")))  # auto-repeat: still held once
    game.process_event(key(pygame.KEYDOWN, ord("z")))  # not in the mapping: ignored
    assert game.pressed_keys == {ord("w")}
    game.process_event(key(pygame.KEYUP, ord("d")))  # released without a press: no error
    game.process_event(key(pygame.KEYUP, ord("w")))
    assert game.pressed_keys == set()
    game.process_event(key(pygame.KEYDOWN, pygame.K_ESCAPE))
    assert not game.running


def test_utils_playable_game_sizes_and_resizes_the_picture(display: Any) -> None:
    env = Corridor()  # frames of 8 rows by 40 columns
    game = PlayableGame(env, zoom=1.5)
    assert game.original_video_size == game.video_size == (60, 12)
    assert game.screen.get_size() == (60, 12)
    game.process_event(pygame.event.Event(pygame.WINDOWRESIZED, x=120, y=100))
    assert game.video_size == (120, 24), "the aspect ratio is kept"
    for _ in range(5):  # no drift: always scaled from the original size
        game.process_event(pygame.event.Event(pygame.WINDOWRESIZED, x=90, y=100))
        game.process_event(pygame.event.Event(pygame.WINDOWRESIZED, x=120, y=100))
    assert game.video_size == (120, 24)
    game.process_event(pygame.event.Event(pygame.QUIT))
    assert not game.running


def test_utils_playable_game_leaves_room_for_plots(display: Any) -> None:
    game = PlayableGame(Corridor(), zoom=1.0, reserved_width=30)
    assert game.screen.get_size() == (70, 8)
    game.process_event(pygame.event.Event(pygame.WINDOWRESIZED, x=110, y=100))
    assert game.video_size == (80, 16)


def test_utils_playable_game_rejects_what_play_rejects(display: Any) -> None:
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        PlayableGame(Corridor(render_mode=None))
    with pytest.raises(ValueError, match="zoom must be a positive number, got 0"):
        PlayableGame(Corridor(), zoom=0)
    with pytest.raises(MissingKeysToAction):
        PlayableGame(NoKeys())


def test_utils_display_arr_scales_and_centres(display: Any) -> None:
    screen = pygame.display.set_mode((20, 10))
    frame = np.zeros((2, 4, 3), np.uint8)
    frame[:, :2] = 255  # left half white
    display_arr(screen, frame, (8, 4), transpose=True)
    assert tuple(screen.get_at((6, 3)))[:3] == (255, 255, 255)  # centred: x 6..13, y 3..6
    assert tuple(screen.get_at((11, 3)))[:3] == (0, 0, 0)
    assert tuple(screen.get_at((2, 2)))[:3] == (0, 0, 0)  # the black border
    with pytest.raises(TypeError, match="display_arr shows uint8 image arrays, got dtype float"):
        display_arr(screen, frame.astype(np.float64), (8, 4), transpose=True)


def test_utils_play_takes_its_arguments_in_gymnasiums_order() -> None:
    import inspect

    assert list(inspect.signature(play).parameters) == [
        "env", "transpose", "fps", "zoom", "callback", "keys_to_action", "seed", "noop",
        "wait_on_player"]
    recorder = Recorder(post={2: [QUIT]})
    post()
    play(Corridor(), True, 1000, None, recorder, None, 4, LEFT)  # positionally, as Gymnasium
    assert recorder.actions == [LEFT, LEFT]
