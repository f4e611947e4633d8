"""ale-py's own envs' trajectories to the bit: recorded goldens replayed without Gymnasium,
also through AtariPreprocessing + FrameStackObservation against Gymnasium's.

See goldens/record_atari.py for the cases and how to regenerate them.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from protogym_atari.atari_env import ContinuousAtariEnv

import protogym
from protogym.wrappers import AtariPreprocessing, FrameStackObservation

GOLDENS = np.load(Path(__file__).parent / "goldens" / "atari.npz")
CASES: list[dict[str, Any]] = json.loads(str(GOLDENS["cases"]))


def digest(obs: Any) -> bytes:
    return hashlib.sha1(np.ascontiguousarray(obs).tobytes()).digest()


def make(case: dict[str, Any]) -> Any:
    kwargs = dict(case["kwargs"])
    if kwargs.pop("continuous", False):
        spec = protogym.spec(case["id"])
        arguments = {k: v for k, v in spec.kwargs.items() if k != "full_action_space"}
        return ContinuousAtariEnv(**{**arguments, **kwargs})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Pong-v0 is an old version
        env = protogym.make(case["id"], **kwargs)
    if "preprocessing" in case:
        options = dict(case["preprocessing"])
        if isinstance(options.get("screen_size"), list):
            options["screen_size"] = tuple(options["screen_size"])
        return FrameStackObservation(AtariPreprocessing(env, **options), 4)
    return env


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_replays_ale_pys_trajectory_byte_for_byte(case: dict[str, Any]) -> None:
    golden = {key: GOLDENS[f"{case['name']}/{key}"] for key in (
        "actions", "kinds", "hashes", "rewards", "flags", "counters", "seeds"
    )}
    env = make(case)
    events: list[tuple[int, bytes, float, bool, bool, tuple[int, int, int]]] = []
    seeds = []

    def event(kind: int, obs: Any, reward: float, term: bool, trunc: bool, info: Any) -> None:
        counters = (info["lives"], info["episode_frame_number"], info["frame_number"])
        events.append((kind, digest(obs), reward, term, trunc, counters))

    actions = iter(golden["actions"])
    for seed in case["seeds"]:
        obs, info = env.reset(seed=seed)
        seeds.append(tuple(info["seeds"]))
        event(0, obs, 0.0, False, False, info)
        for _ in range(case["steps"]):
            obs, reward, terminated, truncated, info = env.step(next(actions))
            event(1, obs, float(reward), terminated, truncated, info)
            if terminated or truncated:
                obs, info = env.reset()
                event(2, obs, 0.0, False, False, info)
    env.close()

    expected = [
        (int(kind), hashed.tobytes(), float(reward), bool(flags[0]), bool(flags[1]),
         tuple(int(c) for c in counters))
        for kind, hashed, reward, flags, counters in zip(
            golden["kinds"], golden["hashes"], golden["rewards"], golden["flags"],
            golden["counters"], strict=True,
        )
    ]
    assert len(events) == len(expected)
    for number, (got, wanted) in enumerate(zip(events, expected, strict=True)):
        assert got == wanted, f"event {number} differs"
    assert seeds == [tuple(int(w) for w in words) for words in golden["seeds"]]


def test_the_goldens_cover_every_obs_type_life_losses_and_both_episode_ends() -> None:
    assert {case["kwargs"].get("obs_type", "rgb") for case in CASES} == {"rgb", "grayscale", "ram"}
    terminated = truncated = lives_lost = 0
    for case in CASES:
        flags = GOLDENS[f"{case['name']}/flags"]
        terminated += int(flags[:, 0].sum())
        truncated += int(flags[:, 1].sum())
        lives = GOLDENS[f"{case['name']}/counters"][:, 0]
        lives_lost += int((np.diff(lives) < 0).sum())
    assert terminated >= 4 and truncated >= 2 and lives_lost >= 10
