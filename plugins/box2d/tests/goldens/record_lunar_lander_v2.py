"""Record LunarLander-v2 goldens from the reference of that version, gym 0.26.2, once.

gym 0.26 needs NumPy 1, so this runs in a throwaway venv, from the repository root:

    python3.11 -m venv /tmp/gym026
    /tmp/gym026/bin/pip install gym==0.26.2 box2d==2.3.10 numpy==1.26.4
    /tmp/gym026/bin/python plugins/box2d/tests/goldens/record_lunar_lander_v2.py

v2 draws its wind phase from NumPy's global generator when the env is built, so each case
seeds that generator first (the tests do the same). Stored per case, in lunar_lander_v2.npz:
the actions, every observation, reward and termination, over two episodes (the second
without a seed, so what carries over between episodes is pinned too).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from protogym_box2d.heuristics import lunar_lander, lunar_lander_continuous

CASES: list[tuple[str, dict[str, Any], int, str]] = [
    ("discrete-heuristic", {}, 11, "heuristic"),
    ("discrete-random", {}, 12, "random"),
    ("continuous-heuristic", {"continuous": True}, 13, "heuristic"),
    ("continuous-random", {"continuous": True}, 14, "random"),
    ("wind-heuristic", {"enable_wind": True}, 15, "heuristic"),
]
MAX_STEPS = 500


def record(kwargs: dict[str, Any], seed: int, policy: str) -> dict[str, np.ndarray]:
    np.random.seed(seed)
    env = gym.make("LunarLander-v2", **kwargs).unwrapped
    rng = np.random.default_rng(seed)
    pilot = lunar_lander_continuous if kwargs.get("continuous") else lunar_lander
    observations, actions, rewards, terminations = [], [], [], []
    for episode in range(2):
        obs, _ = env.reset(seed=seed if episode == 0 else None)
        observations.append(obs)
        for _ in range(MAX_STEPS):
            action: Any
            if policy == "heuristic":
                action = pilot(obs)
            elif kwargs.get("continuous"):
                action = rng.uniform(-1.2, 1.2, size=2).astype(np.float32)
            else:
                action = np.int64(rng.integers(0, 4))
            obs, reward, terminated, _, _ = env.step(action)
            actions.append(action)
            observations.append(obs)
            rewards.append(float(reward))
            terminations.append(terminated)
            if terminated:
                break
    return {
        "actions": np.array(actions),
        "observations": np.array(observations, dtype=np.float32),
        "rewards": np.array(rewards, dtype=np.float64),
        "terminations": np.array(terminations),
    }


def main() -> None:
    arrays: dict[str, np.ndarray] = {}
    index = []
    for name, kwargs, seed, policy in CASES:
        for key, value in record(kwargs, seed, policy).items():
            arrays[f"{name}/{key}"] = value
        index.append({"name": name, "kwargs": kwargs, "seed": seed, "policy": policy})
    arrays["cases"] = np.array(json.dumps(index))
    out = Path(__file__).with_name("lunar_lander_v2.npz")
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    print(f"wrote {out.name}: {len(CASES)} cases, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
