"""Record LunarLander goldens from the reference, Gymnasium 1.4, once.

Regenerate (in a venv with gymnasium==1.4.0 and box2d==2.3.10, such as the project's):

    .venv/bin/python plugins/box2d/tests/goldens/record_lunar_lander.py

Each case is a seed, env arguments and an action sequence: random actions (crashes and
flights off screen) and the plugin's heuristic pilot (leg contacts and landings). Stored per
case: the actions, every observation, reward and termination, in lunar_lander.npz. The
plugin's tests replay the actions without Gymnasium and compare to the bit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from protogym_box2d.heuristics import lunar_lander, lunar_lander_continuous

CASES: list[tuple[str, dict[str, Any], int, str]] = [
    ("discrete-random", {}, 0, "random"),
    ("discrete-heuristic", {}, 1, "heuristic"),
    ("continuous-random", {"continuous": True}, 2, "random"),
    ("continuous-heuristic", {"continuous": True}, 3, "heuristic"),
    ("wind-heuristic", {"enable_wind": True, "wind_power": 10.0}, 4, "heuristic"),
    ("wind-turbulence-random", {"enable_wind": True, "turbulence_power": 2.0}, 5, "random"),
    ("low-gravity-continuous", {"continuous": True, "gravity": -4.0}, 6, "heuristic"),
]
MAX_STEPS = 600


def record(kwargs: dict[str, Any], seed: int, policy: str) -> dict[str, np.ndarray]:
    env = gymnasium.make("LunarLander-v3", **kwargs).unwrapped
    rng = np.random.default_rng(seed)
    pilot = lunar_lander_continuous if kwargs.get("continuous") else lunar_lander
    obs, _ = env.reset(seed=seed)
    observations, actions, rewards, terminations = [obs], [], [], []
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
    out = Path(__file__).with_name("lunar_lander.npz")
    arrays["cases"] = np.array(json.dumps(index))
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    print(f"wrote {out.name}: {len(CASES)} cases, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
