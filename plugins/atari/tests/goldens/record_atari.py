"""Record the Atari goldens from the reference, ale-py 0.12.1's Gymnasium envs, once.

Regenerate (in a venv with gymnasium==1.4.0 and ale-py==0.12.1, such as the project's):

    .venv/bin/python plugins/atari/tests/goldens/record_atari.py

Each case is an id with extra arguments, reset seeds and a number of random actions per seed
(drawn from ``default_rng(first seed)`` and stored). For every event, a seeded reset, a step
or the unseeded reset after an episode ends, the golden holds the SHA-1 of the observation,
the reward, both flags and the info's lives and frame numbers; seeded resets also store the
info's two seed words. The plugin's tests replay the actions without Gymnasium and compare
to the bit. Cases with ``preprocessing`` wrap the env in Gymnasium's ``AtariPreprocessing``
(those arguments) and ``FrameStackObservation(4)``, replayed with protogym's wrappers.
``registry`` lists every id ale-py registers in Gymnasium with its arguments, for
the test that the plugin registers the same.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

CASES: list[dict[str, Any]] = [
    {"name": "pong-v0", "id": "Pong-v0", "kwargs": {}, "seeds": [0, 42], "steps": 300},
    {
        "name": "breakout-noframeskip-v4",
        "id": "BreakoutNoFrameskip-v4",
        "kwargs": {},
        "seeds": [0],
        "steps": 600,  # five lives lost and the game over at step 497
    },
    {"name": "breakout-v5-rgb", "id": "ALE/Breakout-v5", "kwargs": {}, "seeds": [1, 2],
     "steps": 300},
    {
        "name": "space-invaders-v5-grayscale",
        "id": "ALE/SpaceInvaders-v5",
        "kwargs": {"obs_type": "grayscale"},
        "seeds": [0],
        "steps": 350,
    },
    {
        "name": "ms-pacman-v5-ram",
        "id": "ALE/MsPacman-v5",
        "kwargs": {"obs_type": "ram"},
        "seeds": [3],
        "steps": 300,
    },
    {
        "name": "pong-v5-ram-truncated",
        "id": "ALE/Pong-v5",
        "kwargs": {"obs_type": "ram", "max_num_frames_per_episode": 400},
        "seeds": [5],
        "steps": 250,
    },
    {
        "name": "seaquest-v5-full-action-space",
        "id": "ALE/Seaquest-v5",
        "kwargs": {"obs_type": "grayscale", "full_action_space": True},
        "seeds": [7],
        "steps": 200,
    },
    {
        "name": "breakout-v5-mode-difficulty-skips",
        "id": "ALE/Breakout-v5",
        "kwargs": {"mode": 4, "difficulty": 1, "frameskip": [2, 6],
                   "repeat_action_probability": 0.5},
        "seeds": [9],
        "steps": 200,
    },
    {
        "name": "breakout-noframeskip-v4-preprocessed",
        "id": "BreakoutNoFrameskip-v4",
        "kwargs": {},
        "preprocessing": {"terminal_on_life_loss": True},
        "seeds": [3],
        "steps": 300,
    },
    {
        "name": "space-invaders-v5-preprocessed-rgb",
        "id": "ALE/SpaceInvaders-v5",
        "kwargs": {"frameskip": 1},
        "preprocessing": {"screen_size": [64, 48], "grayscale_obs": False, "noop_max": 10},
        "seeds": [4],
        "steps": 200,
    },
    {
        "name": "pong-v5-continuous",
        "id": "ALE/Pong-v5",
        "kwargs": {"continuous": True},
        "seeds": [11],
        "steps": 200,
    },
]


def digest(obs: np.ndarray) -> np.ndarray:
    """The SHA-1 of an observation's bytes, as 20 uint8."""
    return np.frombuffer(hashlib.sha1(np.ascontiguousarray(obs).tobytes()).digest(), np.uint8)


def random_actions(case: dict[str, Any], space: Any) -> np.ndarray:
    """The case's actions: uniform over the action set, or over the continuous box."""
    rng = np.random.default_rng(case["seeds"][0])
    count = case["steps"] * len(case["seeds"])
    if case["kwargs"].get("continuous"):
        return rng.uniform(space.low, space.high, size=(count, 3)).astype(np.float32)
    return np.asarray(rng.integers(0, space.n, size=count), dtype=np.int64)


def record(case: dict[str, Any]) -> dict[str, np.ndarray]:
    import ale_py
    import gymnasium

    gymnasium.register_envs(ale_py)
    kwargs = dict(case["kwargs"])
    if isinstance(kwargs.get("frameskip"), list):
        kwargs["frameskip"] = tuple(kwargs["frameskip"])  # ale-py takes only a tuple
    env = gymnasium.make(case["id"], **kwargs)
    if "preprocessing" in case:
        options = dict(case["preprocessing"])
        if isinstance(options.get("screen_size"), list):
            options["screen_size"] = tuple(options["screen_size"])
        env = gymnasium.wrappers.FrameStackObservation(
            gymnasium.wrappers.AtariPreprocessing(env, **options), 4
        )
    actions = random_actions(case, env.action_space)
    kinds, hashes, rewards, flags, counters, seeds = [], [], [], [], [], []

    def event(kind: int, obs: Any, reward: float, term: bool, trunc: bool, info: Any) -> None:
        kinds.append(kind)
        hashes.append(digest(obs))
        rewards.append(reward)
        flags.append((term, trunc))
        counters.append((info["lives"], info["episode_frame_number"], info["frame_number"]))

    taken = 0
    for seed in case["seeds"]:
        obs, info = env.reset(seed=seed)
        seeds.append(info["seeds"])
        event(0, obs, 0.0, False, False, info)
        for _ in range(case["steps"]):
            obs, reward, terminated, truncated, info = env.step(actions[taken])
            taken += 1
            event(1, obs, float(reward), terminated, truncated, info)
            if terminated or truncated:
                obs, info = env.reset()
                event(2, obs, 0.0, False, False, info)
    env.close()
    return {
        "actions": actions,
        "kinds": np.array(kinds, dtype=np.uint8),
        "hashes": np.array(hashes, dtype=np.uint8),
        "rewards": np.array(rewards, dtype=np.float64),
        "flags": np.array(flags, dtype=bool),
        "counters": np.array(counters, dtype=np.int64),
        "seeds": np.array(seeds, dtype=np.uint32),
    }


def ale_py_registry() -> list[dict[str, Any]]:
    """Every id ale-py registers in Gymnasium, with what `make` would use of its spec."""
    import ale_py
    import gymnasium

    gymnasium.register_envs(ale_py)
    found = []
    for env_id, spec in gymnasium.registry.items():
        if not str(spec.entry_point).startswith("ale_py"):
            continue
        kwargs = {k: list(v) if isinstance(v, tuple) else v for k, v in spec.kwargs.items()}
        found.append({
            "id": env_id,
            "kwargs": kwargs,
            "max_episode_steps": spec.max_episode_steps,
            "reward_threshold": spec.reward_threshold,
            "nondeterministic": spec.nondeterministic,
            "vector": spec.vector_entry_point is not None,
        })
    return found


def main() -> None:
    arrays: dict[str, np.ndarray] = {"registry": np.array(json.dumps(ale_py_registry()))}
    for case in CASES:
        for key, value in record(case).items():
            arrays[f"{case['name']}/{key}"] = value
        kinds = arrays[f"{case['name']}/kinds"]
        print(f"{case['name']}: {int((kinds == 1).sum())} steps, {int((kinds == 2).sum())} ends")
    out = Path(__file__).with_name("atari.npz")
    arrays["cases"] = np.array(json.dumps(CASES))
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    print(f"wrote {out.name}: {len(CASES)} cases, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
