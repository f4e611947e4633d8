"""Playing the toy-text envs with the keyboard, driven by posted pygame events."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

import protogym
from protogym.cli import play as play_command
from protogym.utils.play import play

pygame = pytest.importorskip("pygame")


def _post(*events: Any) -> None:
    pygame.display.init()
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)


def _press(*keys: int) -> list[Any]:
    events = []
    for code in keys:
        events.append(pygame.event.Event(pygame.KEYDOWN, key=code))
        events.append(pygame.event.Event(pygame.KEYUP, key=code))
    return events


QUIT = pygame.event.Event(pygame.QUIT)


def test_tt_play_taxi_with_its_keys() -> None:
    env = protogym.make("Taxi-v4", render_mode="rgb_array")
    seen: list[tuple[Any, ...]] = []
    keys = (pygame.K_DOWN, ord("w"), pygame.K_RIGHT, ord("a"), ord("p"), ord("o"))
    _post(*_press(*keys), QUIT)
    play(env, callback=lambda *t: seen.append(t), wait_on_player=True, seed=0, fps=1000)
    assert [t[2] for t in seen] == [0, 1, 2, 3, 4, 5]
    # The same actions from the same seed, without the keyboard, give the same rewards.
    twin = protogym.make("Taxi-v4")
    twin.reset(seed=0)
    assert [t[3] for t in seen] == [twin.step(a)[1] for a in range(6)]


def test_tt_play_command_waits_on_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    original = play

    def recording_play(env: Any, **kwargs: Any) -> None:
        original(env, callback=lambda *t: seen.append(t[2]), **kwargs)

    monkeypatch.setattr("protogym.utils.play.play", recording_play)
    parser = argparse.ArgumentParser(prog="protogym")
    play_command.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["play", "FrozenLake-v1", "--seed", "0", "--fps", "1000"])
    # Turn-based: nothing happens between key presses, one step per press.
    _post(*_press(pygame.K_RIGHT, ord("s"), ord("h")), QUIT)
    assert args.func(args) == 0
    assert seen == [2, 1]  # H is not a FrozenLake key
