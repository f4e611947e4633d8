"""Record BipedalWalker goldens from the reference, Gymnasium 1.4, once.

Regenerate (in a venv with gymnasium==1.4.0, box2d==2.3.10 and pygame, such as the project's):

    SDL_VIDEODRIVER=dummy .venv/bin/python plugins/box2d/tests/goldens/record_bipedal_walker.py

Each case is env arguments, a policy and a list of episodes played in ONE env (a seed, or
None to go on with the generator, and a step budget): the reference keeps its Box2D world
across episodes, so later episodes pin that too. Policies: uniform random actions in
[-1.5, 1.5] (float32, so clipping is exercised; or float64, which the reference computes
its reward in), and Gymnasium's own heuristic walker (used here only, to get long walks:
one reaches the far end, others fall). Stored per episode: the actions, every observation,
reward and termination; for some cases also rgb_array frames after chosen steps. All go in
bipedal_walker.npz. The plugin's tests replay the actions without Gymnasium and compare to
the bit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics

# name, env kwargs, policy, episodes as (seed or None, max steps), steps after which to render
CASES: list[tuple[str, dict[str, Any], str, list[tuple[int | None, int]], list[int]]] = [
    ("random", {}, "random", [(0, 150), (None, 150), (0, 150)], []),
    ("walk-to-the-end", {}, "heuristic", [(0, 1600)], [0, 200, 900, 1500]),
    ("walk-and-fall", {}, "heuristic", [(2, 600)], []),
    ("float64-actions", {}, "random64", [(7, 150)], []),
    ("hardcore-random", {"hardcore": True}, "random", [(1, 150), (None, 150)], []),
    ("hardcore-walk", {"hardcore": True}, "heuristic", [(0, 600)], [150, 300]),
]


def play(env: Any, seed: int | None, steps: int, policy: str, frame_steps: list[int],
         rng: np.random.Generator) -> dict[str, np.ndarray]:
    obs, _ = env.reset(seed=seed)
    walker = BipedalWalkerHeuristics()
    walker.a = np.zeros(4)  # the class keeps its last action at class level; start afresh
    action: Any = np.zeros(4, dtype=np.float32)
    observations, actions, rewards, terminations, frames = [obs], [], [], [], []
    for step in range(steps):
        if policy == "random":
            action = rng.uniform(-1.5, 1.5, size=4).astype(np.float32)
        elif policy == "random64":
            action = rng.uniform(-1.5, 1.5, size=4)
        elif step > 0:
            action = walker.step_heuristic(obs).astype(np.float32)  # type: ignore[no-untyped-call]
        obs, reward, terminated, _, _ = env.step(action)
        actions.append(action)
        observations.append(obs)
        rewards.append(float(reward))
        terminations.append(terminated)
        if step in frame_steps:
            frames.append(env.render())
        if terminated:
            break
    arrays = {
        "actions": np.array(actions),
        "observations": np.array(observations, dtype=np.float32),
        "rewards": np.array(rewards, dtype=np.float64),
        "terminations": np.array(terminations),
    }
    if frames:
        arrays["frames"] = np.array(frames, dtype=np.uint8)
    return arrays


def main() -> None:
    arrays: dict[str, np.ndarray] = {}
    index = []
    for case_number, (name, kwargs, policy, episodes, frame_steps) in enumerate(CASES):
        render_mode = "rgb_array" if frame_steps else None
        env = gymnasium.make("BipedalWalker-v3", render_mode=render_mode, **kwargs).unwrapped
        rng = np.random.default_rng(case_number)
        for number, (seed, steps) in enumerate(episodes):
            for key, value in play(env, seed, steps, policy, frame_steps, rng).items():
                arrays[f"{name}/{number}/{key}"] = value
        index.append({
            "name": name, "kwargs": kwargs, "policy": policy,
            "seeds": [seed for seed, _ in episodes], "frame_steps": frame_steps,
        })
        env.close()
    out = Path(__file__).with_name("bipedal_walker.npz")
    arrays["cases"] = np.array(json.dumps(index))
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    print(f"wrote {out.name}: {len(CASES)} cases, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
