"""Behaviour every toy-text env shares: registration, bad input, rendering, the checker."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from typing import Any, ClassVar

import gymnasium
import numpy as np
import pytest

import protogym
from protogym.error import InvalidAction, ResetNeeded
from protogym.spaces import Discrete

pytestmark = pytest.mark.filterwarnings("ignore:'.*' is out of date:DeprecationWarning")

ALL_IDS = (
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "Taxi-v3",
    "Taxi-v4",
    "CliffWalking-v0",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Blackjack-v1",
    "GridWorld-v0",
)
# Gymnasium 1.4 registers these ids; Taxi-v3 and CliffWalking-v0 only older releases did.
GYMNASIUM_IDS = tuple(i for i in ALL_IDS if i not in ("Taxi-v3", "CliffWalking-v0", "GridWorld-v0"))
OLD_IDS: dict[str, tuple[int | None, float | None, dict[str, Any]]] = {
    # id: (max_episode_steps, reward_threshold, kwargs) as Gymnasium 1.2 / 1.0 registered them
    "Taxi-v3": (200, 8, {}),
    "CliffWalking-v0": (None, None, {}),
    "GridWorld-v0": (200, None, {}),
}
FRAME_SHAPES = {
    "FrozenLake-v1": (256, 256, 3),
    "FrozenLake8x8-v1": (512, 512, 3),
    "Taxi-v3": (392, 512, 3),
    "Taxi-v4": (392, 512, 3),
    "CliffWalking-v0": (256, 768, 3),
    "CliffWalking-v1": (256, 768, 3),
    "CliffWalkingSlippery-v1": (256, 768, 3),
    "Blackjack-v1": (400, 480, 3),
    "GridWorld-v0": (512, 512, 3),
}


def _state(env: Any) -> Any:
    """Everything a step could change: the env's own attributes and its generator state."""
    inner = env.unwrapped
    snapshot = {
        key: (value.copy() if isinstance(value, list | np.ndarray) else value)
        for key, value in vars(inner).items()
        if not key.startswith("_np_random") and key != "_canvas"
    }
    return repr(snapshot), inner.np_random.bit_generator.state


@pytest.mark.parametrize("env_id", GYMNASIUM_IDS)
def test_tt_spec_matches_gymnasium(env_id: str) -> None:
    ours, theirs = protogym.registry[env_id], gymnasium.spec(env_id)
    assert ours.max_episode_steps == theirs.max_episode_steps
    assert ours.reward_threshold == theirs.reward_threshold
    assert ours.kwargs == theirs.kwargs
    assert ours.nondeterministic == theirs.nondeterministic


@pytest.mark.parametrize("env_id", sorted(OLD_IDS))
def test_tt_older_specs(env_id: str) -> None:
    spec = protogym.registry[env_id]
    assert (spec.max_episode_steps, spec.reward_threshold, spec.kwargs) == OLD_IDS[env_id]


@pytest.mark.parametrize("env_id", [i for i in ALL_IDS if i != "GridWorld-v0"])
def test_tt_spaces_match_gymnasium(env_id: str) -> None:
    ours = protogym.make(env_id)
    theirs = gymnasium.make(
        {"Taxi-v3": "Taxi-v4", "CliffWalking-v0": "CliffWalking-v1"}.get(env_id, env_id)
    )
    assert repr(ours.action_space) == repr(theirs.action_space)
    assert repr(ours.observation_space) == repr(theirs.observation_space)


@pytest.mark.parametrize("env_id", ALL_IDS)
@pytest.mark.parametrize("action", [-1, 99, 1.0, 1.5, "1", None, np.array([0, 1]), np.float64(0.0)])
def test_tt_invalid_action_raises_and_changes_nothing(env_id: str, action: Any) -> None:
    env = protogym.make(env_id).unwrapped
    env.reset(seed=3)
    before = _state(env)
    with pytest.raises(InvalidAction) as caught:
        env.step(action)
    message = str(caught.value)
    assert f"invalid action {action!r}" in message
    assert f"the action space is {env.action_space}" in message
    assert isinstance(caught.value, ValueError)
    assert _state(env) == before


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_numpy_and_python_actions_agree(env_id: str) -> None:
    python_env = protogym.make(env_id).unwrapped
    numpy_env = protogym.make(env_id).unwrapped
    python_env.reset(seed=11)
    numpy_env.reset(seed=11)
    space = python_env.action_space
    assert isinstance(space, Discrete)
    n = int(space.n)
    for action in np.random.default_rng(1).integers(0, n, 50):
        a = python_env.step(int(action))
        b = numpy_env.step(action)
        assert repr(a) == repr(b)
        if a[2]:
            python_env.reset()
            numpy_env.reset()


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_step_and_render_before_reset(env_id: str) -> None:
    env = protogym.make(env_id, render_mode="ansi").unwrapped
    name = type(env).__name__
    with pytest.raises(ResetNeeded, match=rf"^{name}\.step\(\) was called before reset\(\)"):
        env.step(0)
    with pytest.raises(ResetNeeded, match=rf"^{name}\.render\(\) was called before reset\(\)"):
        env.render()


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_unknown_render_mode(env_id: str) -> None:
    spec = protogym.registry[env_id]
    assert isinstance(spec.entry_point, str)
    module, _, name = spec.entry_point.partition(":")
    cls = getattr(importlib.import_module(module), name)
    with pytest.raises(ValueError, match=r"does not support render_mode='rgb'; choose one of"):
        cls(render_mode="rgb", **spec.kwargs)


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_render_without_mode_warns(env_id: str) -> None:
    env = protogym.make(env_id, disable_env_checker=True)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.unwrapped.render() is None


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_ansi_is_text(env_id: str) -> None:
    env = protogym.make(env_id, render_mode="ansi")
    env.reset(seed=0)
    first = env.render()
    assert isinstance(first, str) and first.endswith("\n")


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_rgb_frames(env_id: str) -> None:
    env = protogym.make(env_id, render_mode="rgb_array")
    obs, _ = env.reset(seed=5)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    assert frame.shape == FRAME_SHAPES[env_id] and frame.dtype == np.uint8
    assert frame.flags.c_contiguous
    assert np.array_equal(env.render(), frame)  # rendering twice draws the same picture
    changed = 0
    space = env.action_space
    assert isinstance(space, Discrete)
    n = int(space.n)
    for action in (1, 0, 2, 3, 1, 2, 0, 1):
        new_obs, _, terminated, truncated, _ = env.step(action % n)
        new_frame = env.render()
        if repr(new_obs) != repr(obs):
            assert not np.array_equal(new_frame, frame), f"frame unchanged after {action}"
            changed += 1
        obs, frame = new_obs, new_frame
        if terminated or truncated:
            obs, _ = env.reset()
            frame = env.render()
    assert changed > 0
    env.close()
    env.close()


class _Clock:
    """Stands in for pygame's clock to record the frame rate `human` mode asks for."""

    ticks: ClassVar[list[float]] = []

    def tick(self, fps: float = 0) -> int:
        self.ticks.append(fps)
        return 0


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_human_mode_with_dummy_display(env_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    _Clock.ticks = []
    monkeypatch.setattr(pygame.time, "Clock", _Clock)
    env = protogym.make(env_id, render_mode="human")
    env.reset(seed=0)  # human mode draws on reset and step, without render() calls
    assert pygame.display.get_surface() is not None
    assert pygame.display.get_surface().get_size() == FRAME_SHAPES[env_id][1::-1]
    env.step(0)
    assert env.render() is None
    assert _Clock.ticks == [4, 4, 4]
    env.close()
    assert not pygame.display.get_init()
    env.close()


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_no_pygame_without_pixels(env_id: str) -> None:
    code = (
        "import sys, protogym\n"
        f"env = protogym.make({env_id!r}, render_mode='ansi')\n"
        "env.reset(seed=0); env.step(0); env.render(); env.close()\n"
        "print('pygame' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


def test_tt_plugin_module_imports_no_env_module() -> None:
    code = (
        "import sys, protogym\n"
        "protogym.spec('Taxi-v4')\n"
        "print(sorted(m for m in sys.modules if m.startswith('protogym_toy_text')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['protogym_toy_text', 'protogym_toy_text.plugin']"


@pytest.mark.parametrize("env_id", ALL_IDS)
@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array"])
def test_tt_checker_passes_without_warnings(env_id: str, render_mode: str | None) -> None:
    env = protogym.make(env_id, render_mode=render_mode, disable_env_checker=True).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        protogym.check_env(env, skip_render_check=render_mode is None)


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_tt_keys_to_action_are_valid_actions(env_id: str) -> None:
    env = protogym.make(env_id).unwrapped
    mapping = getattr(env, "get_keys_to_action")()  # noqa: B009 - not in the Env protocol
    assert mapping
    for keys, action in mapping.items():
        assert isinstance(keys, str | tuple)
        assert action in env.action_space


def test_tt_rgb_array_never_opens_a_window() -> None:
    code = (
        "import os, protogym\n"
        "os.environ['SDL_VIDEODRIVER'] = 'no-such-driver'  # any display use would fail\n"
        f"for env_id in {list(ALL_IDS)!r}:\n"
        "    env = protogym.make(env_id, render_mode='rgb_array')\n"
        "    env.reset(seed=0); env.step(0); frame = env.render(); env.close()\n"
        "    assert frame.ndim == 3, env_id\n"
        "import pygame\n"
        "print(pygame.display.get_init())\n"
    )
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


def test_tt_rendering_survives_pygame_quit() -> None:
    import pygame

    env = protogym.make("Blackjack-v1", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    pygame.quit()  # what Gymnasium's envs do on close(); it also shuts pygame's fonts down
    assert np.array_equal(env.render(), first)


def test_tt_human_window_reopens_after_pygame_quit() -> None:
    import pygame

    env = protogym.make("CliffWalking-v1", render_mode="human")
    env.reset(seed=0)
    pygame.quit()
    env.step(0)  # draws again, in a new window
    assert pygame.display.get_surface().get_size() == (768, 256)
    env.close()
    assert not pygame.display.get_init()


def test_tt_rendering_after_pygame_restarts_does_not_crash() -> None:
    """After another library's pygame.quit() and pygame.init(), the text is drawn with a new
    font (an old one would crash the interpreter, hence the child process)."""
    code = (
        "import numpy as np, pygame, protogym\n"
        "env = protogym.make('Taxi-v3', render_mode='rgb_array')\n"
        "env.reset(seed=5)\n"
        "first = env.render()\n"
        "pygame.quit()\n"
        "pygame.init()\n"
        "assert np.array_equal(env.render(), first)\n"
        "print('same frame')\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"the child died with {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.strip() == "same frame"
