"""Rendering with pygame under SDL's dummy video driver: real pixels, windows, imports."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import Any, ClassVar

import numpy as np
import pytest

from protogym.error import ResetNeeded

ENVS = {
    "CartPole-v1": ("cartpole", "CartPoleEnv", (400, 600, 3), 50),
    "MountainCar-v0": ("mountain_car", "MountainCarEnv", (400, 600, 3), 30),
    "MountainCarContinuous-v0": (
        "continuous_mountain_car",
        "ContinuousMountainCarEnv",
        (400, 600, 3),
        30,
    ),
    "Pendulum-v1": ("pendulum", "PendulumEnv", (500, 500, 3), 30),
    "Acrobot-v1": ("acrobot", "AcrobotEnv", (500, 500, 3), 15),
}


def _make(env_id: str, **kwargs: Any) -> Any:
    module, name, _, _ = ENVS[env_id]
    cls = getattr(importlib.import_module(f"protogym_classic_control.{module}"), name)
    return cls(**kwargs)


def _actions(env: Any, seed: int, count: int) -> list[Any]:
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(count)]


@pytest.mark.parametrize("env_id", ENVS)
def test_cc_rgb_array_frames_have_the_screen_shape_and_change_with_the_state(env_id: str) -> None:
    env = _make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    assert first.shape == ENVS[env_id][2]
    assert first.dtype == np.uint8 and first.flags.c_contiguous
    # Not blank: the background is white and something is drawn on it.
    assert (first == 255).all(axis=2).mean() > 0.5
    assert (first != 255).any(axis=2).sum() > 200
    np.testing.assert_array_equal(env.render(), first)
    for action in _actions(env, 0, 10):
        env.step(action)
    later = env.render()
    assert (later != first).any(axis=2).sum() > 50
    env.close()
    env.close()


@pytest.mark.parametrize("env_id", ENVS)
def test_cc_rgb_array_frames_equal_gymnasiums(env_id: str) -> None:
    import gymnasium

    env = _make(env_id, render_mode="rgb_array")
    reference = gymnasium.make(env_id, render_mode="rgb_array").unwrapped
    env.reset(seed=3)
    reference.reset(seed=3)
    np.testing.assert_array_equal(env.render(), reference.render())
    if env_id != "Pendulum-v1":  # Pendulum draws its own torque arrow, not Gymnasium's image
        for action in _actions(reference, 3, 15):
            env.step(action)
            reference.step(action)
        np.testing.assert_array_equal(env.render(), reference.render())
    env.close()
    reference.close()


def test_cc_pendulum_torque_arrow_shows_direction_and_size() -> None:
    env = _make("Pendulum-v1", render_mode="rgb_array")
    env.reset(seed=0, options={"x_init": 0.0, "y_init": 0.0})
    still = env.render()
    frames = {}
    for torque in (2.0, -2.0, 0.5):
        env.reset(seed=0, options={"x_init": 0.0, "y_init": 0.0})
        env.step(np.array([torque], dtype=np.float32))
        frames[torque] = env.render()
    drawn = {torque: int((frame != still).any(axis=2).sum()) for torque, frame in frames.items()}
    assert drawn[2.0] > drawn[0.5] > 0
    assert not np.array_equal(frames[2.0], frames[-2.0])
    # Opposite torques draw mirror-image arrows about the vertical axis through the axle.
    left_heavy = [(frame[:, :250] != still[:, :250]).sum() for frame in frames.values()]
    right_heavy = [(frame[:, 250:] != still[:, 250:]).sum() for frame in frames.values()]
    assert left_heavy[0] != right_heavy[0]
    assert (left_heavy[0] > right_heavy[0]) == (right_heavy[1] > left_heavy[1])


class _RecordingClock:
    """Stands in for `pygame.time.Clock`: records each `tick(fps)` instead of sleeping."""

    ticks: ClassVar[list[int]] = []

    def tick(self, fps: int = 0) -> int:
        self.ticks.append(fps)
        return 0


@pytest.mark.parametrize("env_id", ENVS)
def test_cc_human_mode_opens_a_window_paced_by_render_fps(
    env_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pygame

    _RecordingClock.ticks = []
    monkeypatch.setattr(pygame.time, "Clock", _RecordingClock)
    env = _make(env_id, render_mode="human")
    env.reset(seed=0)
    window = pygame.display.get_surface()
    assert window is not None
    assert window.get_size() == ENVS[env_id][2][1::-1]
    for action in _actions(env, 0, 4):
        env.step(action)
    assert env.render() is None
    # One frame for the reset, one per step, one for the explicit render().
    assert _RecordingClock.ticks == [ENVS[env_id][3]] * 6
    env.close()
    assert pygame.display.get_surface() is None
    env.close()


@pytest.mark.parametrize("env_id", ENVS)
def test_cc_rgb_array_never_opens_a_window(env_id: str) -> None:
    import pygame

    env = _make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    display_before = pygame.display.get_surface()
    env.render()
    assert not env._canvas.has_window
    assert pygame.display.get_surface() is display_before
    env.close()


@pytest.mark.parametrize("env_id", ENVS)
def test_cc_render_without_a_mode_warns_and_returns_none(env_id: str) -> None:
    env = _make(env_id)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match=rf'protogym.make\("{env_id}", render_mode="rgb_array"\)'):
        assert env.render() is None
    env.close()


@pytest.mark.parametrize("env_id", ENVS)
def test_cc_render_before_reset_raises_reset_needed(env_id: str) -> None:
    env = _make(env_id, render_mode="rgb_array")
    with pytest.raises(ResetNeeded, match=r"call env.reset\(\) before"):
        env.render()
    env.close()


@pytest.mark.parametrize("env_id", ENVS)
def test_cc_unknown_render_mode_is_rejected(env_id: str) -> None:
    with pytest.raises(ValueError, match=r"supports render_mode 'human', 'rgb_array' or None"):
        _make(env_id, render_mode="rgb")


def test_cc_missing_pygame_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import protogym_classic_control

    monkeypatch.delitem(sys.modules, "protogym_classic_control.rendering", raising=False)
    monkeypatch.delattr(protogym_classic_control, "rendering", raising=False)
    monkeypatch.setitem(sys.modules, "pygame", None)
    env = _make("CartPole-v1", render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(ImportError, match=r'pip install "protogym\[render\]"'):
        env.render()
    env.close()


def test_cc_stepping_every_env_never_imports_pygame() -> None:
    script = (
        "import sys, numpy as np\n"
        "import protogym\n"
        "for env_id in ['CartPole-v1', 'MountainCar-v0', 'MountainCarContinuous-v0',\n"
        "               'Pendulum-v1', 'Acrobot-v1']:\n"
        "    env = protogym.make(env_id)\n"
        "    env.reset(seed=0)\n"
        "    env.step(env.action_space.sample())\n"
        "    env.close()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
