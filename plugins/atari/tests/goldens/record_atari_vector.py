"""Record the native vector env's goldens from the reference, ale-py 0.12.1's vector env.

Regenerate (in a venv with gymnasium==1.4.* and ale-py==0.12.1, such as the project's):

    .venv/bin/python plugins/atari/tests/goldens/record_atari_vector.py

Each case builds ``gymnasium.make_vec(id, num_envs, vectorization_mode="vector_entry_point",
**kwargs)`` (ale-py's `AtariVectorEnv` with the id's registered arguments), resets it with a
seed and steps it with random actions drawn here. Stored per case in atari_vector.npz: the
arguments the reference env was built with (registered and given, as JSON), the seed, the
actions, a hash of every observation batch, and the rewards, terminations, truncations,
lives and env ids; in same-step mode also a hash of each ended episode's final observation.

With ``batch_size < num_envs`` (ale-py's asynchronous mode) the threads decide which
sub-envs each batch holds, so that case records each sub-env's own stream instead: the
action of a sub-env depends only on its id and how often it has acted, and the hashes are
kept per sub-env in the order its results came.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import ale_py
import gymnasium
import numpy as np

CASES: list[tuple[str, str, int, dict[str, Any], Any, int]] = [
    # name, id, num_envs, make_vec kwargs, reset seed, steps
    ("pong-defaults", "ALE/Pong-v5", 3, {}, 42, 80),
    (
        "breakout-episodic-same-step", "ALE/Breakout-v5", 3,
        {"episodic_life": True, "autoreset_mode": "SameStep"}, [5, 11, 17], 160,
    ),
    (
        "breakout-truncated-next-step", "ALE/Breakout-v5", 2,
        {"max_num_frames_per_episode": 200, "repeat_action_probability": 0.0}, 3, 70,
    ),
    (
        "space-invaders-rgb-settings", "ALE/SpaceInvaders-v5", 2,
        {
            "grayscale": False, "img_height": 60, "img_width": 50, "stack_num": 2,
            "frameskip": 3, "maxpool": False, "noop_max": 0, "reward_clipping": False,
            "use_fire_reset": False, "full_action_space": True, "autoreset_mode": "SameStep",
        },
        9, 60,
    ),
    ("pong-continuous", "ALE/Pong-v5", 2, {"continuous": True}, 21, 60),
    ("pong-async", "ALE/Pong-v5", 4, {"batch_size": 2, "num_threads": 2}, 30, 120),
]  # fmt: skip


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def spec_kwargs(env_id: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The constructor arguments make_vec passes: the id's registered ones, then ours."""
    return {**gymnasium.spec(env_id).kwargs, **kwargs}


def record_sync(env: Any, seed: Any, steps: int, rng: np.random.Generator) -> dict[str, Any]:
    obs, info = env.reset(seed=np.asarray(seed) if isinstance(seed, list) else seed)
    hashes, lives, env_ids = [digest(obs)], [info["lives"]], [info["env_id"]]
    actions, rewards, terminated, truncated, finals = [], [], [], [], []
    for _ in range(steps):
        action = sample(env.single_action_space, env.num_envs, rng)
        obs, reward, term, trunc, info = env.step(action)
        actions.append(action)
        hashes.append(digest(obs))
        rewards.append(reward)
        terminated.append(term)
        truncated.append(trunc)
        lives.append(info["lives"])
        env_ids.append(info["env_id"])
        for row in np.flatnonzero(term | trunc).tolist():
            if "final_obs" in info:
                finals.append(f"{len(hashes) - 2}:{row}:{digest(info['final_obs'][row])}")
    return {
        "actions": np.stack(actions),
        "obs_hashes": np.array(hashes),
        "rewards": np.stack(rewards),
        "terminated": np.stack(terminated),
        "truncated": np.stack(truncated),
        "lives": np.stack(lives),
        "env_ids": np.stack(env_ids),
        "final_hashes": np.array(finals, dtype=str),
    }


def record_async(env: Any, seed: int, steps: int) -> dict[str, Any]:
    obs, info = env.reset(seed=seed)
    streams: dict[int, list[str]] = defaultdict(list)
    acted: dict[int, int] = defaultdict(int)
    for row, env_id in enumerate(info["env_id"].tolist()):
        streams[env_id].append(f"{digest(obs[row])}:{info['lives'][row]}:0:0:0")
    for _ in range(steps):
        ids = info["env_id"].tolist()
        action = np.array([async_action(env_id, acted[env_id]) for env_id in ids])
        for env_id in ids:
            acted[env_id] += 1
        obs, reward, term, trunc, info = env.step(action)
        for row, env_id in enumerate(info["env_id"].tolist()):
            streams[env_id].append(
                f"{digest(obs[row])}:{info['lives'][row]}:{int(reward[row])}:"
                f"{int(term[row])}:{int(trunc[row])}"
            )
    # Per sub-env, only the results it produced in every run: the threads decide how many.
    shortest = min(len(stream) for stream in streams.values())
    return {
        "streams": np.array([streams[i][:shortest] for i in range(env.num_envs)], dtype=str)
    }


def async_action(env_id: int, count: int) -> int:
    """The action of sub-env `env_id` at its `count`-th step: fixed, whatever the batch."""
    return (env_id * 7 + count * 3 + count // 5) % 6


def sample(space: Any, num_envs: int, rng: np.random.Generator) -> np.ndarray:
    if isinstance(space, gymnasium.spaces.Discrete):
        return rng.integers(0, int(space.n), num_envs)
    low: np.ndarray = space.low
    high: np.ndarray = space.high
    drawn: np.ndarray = (low + (high - low) * rng.random((num_envs, 3))).astype(np.float32)
    return drawn


def main() -> None:
    gymnasium.register_envs(ale_py)
    arrays: dict[str, Any] = {}
    for index, (name, env_id, num_envs, kwargs, seed, steps) in enumerate(CASES):
        env = gymnasium.make_vec(
            env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
        )
        config = {
            "id": env_id,
            "num_envs": num_envs,
            "kwargs": spec_kwargs(env_id, kwargs),
            "seed": seed,
            "steps": steps,
        }
        if kwargs.get("batch_size", 0) not in (0, num_envs):
            result = record_async(env, seed, steps)
        else:
            result = record_sync(env, seed, steps, np.random.default_rng(1000 + index))
        env.close()
        arrays[f"{name}/config"] = np.array(json.dumps(config))
        for key, value in result.items():
            arrays[f"{name}/{key}"] = value
        print(name, {key: np.shape(value) for key, value in result.items()})
    np.savez_compressed(Path(__file__).with_name("atari_vector.npz"), **arrays)


if __name__ == "__main__":
    main()
