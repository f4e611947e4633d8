"""Record CarRacing goldens from the reference, Gymnasium 1.4, once.

Regenerate (in a venv with gymnasium==1.4.0, box2d==2.3.10 and pygame 2.6, such as the
project's):

    SDL_VIDEODRIVER=dummy .venv/bin/python plugins/box2d/tests/goldens/record_car_racing.py

Each case is a seed, env arguments, a driver and two episodes (the second reset continues
the seeded generator, and reuses the reference's Box2D world as a long run does). Drivers:
`pursuit` steers toward the track a few tiles ahead (tiles, laps, kerbs, skids), `escape`
drives straight on, off the track, until the car leaves the playfield (grass, the -100
ending), `wild` draws random actions beyond the action box (the clipping), `random` the
discrete actions.
Stored per episode: the track, the road's polygons and colours; per step: the action, the
car's state (hull pose and speeds, wheel spins and phases, tiles visited), reward,
termination, a hash of every 96x96 observation, and every 100th observation in full. One
case also keeps a few 600x400 `rgb_array` frames. The plugin's tests replay the actions
without Gymnasium and compare all of it exactly.

``--measure`` instead drives both libraries side by side over more seeds and prints how
many observation pixels differ, the number the docs quote.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

CASES: list[dict[str, Any]] = [
    {"name": "continuous-lap", "kwargs": {}, "seed": 0, "driver": "pursuit", "steps": 1200},
    {"name": "continuous-wild", "kwargs": {}, "seed": 1, "driver": "wild", "steps": 300},
    {"name": "continuous-off-playfield", "kwargs": {}, "seed": 2, "driver": "escape",
     "steps": 1000},
    {"name": "discrete-pursuit", "kwargs": {"continuous": False}, "seed": 3, "driver": "pursuit",
     "steps": 600},
    {"name": "discrete-random", "kwargs": {"continuous": False}, "seed": 4, "driver": "random",
     "steps": 300},
    {"name": "randomized-colours", "kwargs": {"domain_randomize": True}, "seed": 5,
     "driver": "pursuit", "steps": 300, "second_reset": {"randomize": False}},
    {"name": "short-lap", "kwargs": {"lap_complete_percent": 0.0}, "seed": 6,
     "driver": "pursuit", "steps": 50},
    {"name": "rgb-array", "kwargs": {"render_mode": "rgb_array"}, "seed": 7, "driver": "pursuit",
     "steps": 400, "rgb_frames": [1, 200, 400]},
]
FULL_FRAME_EVERY = 100


def observation_hash(obs: np.ndarray) -> int:
    """The first 8 bytes of the observation's BLAKE2b digest, as an int."""
    return int.from_bytes(hashlib.blake2b(obs.tobytes(), digest_size=8).digest(), "little")


def car_state(env: Any) -> list[float]:
    hull = env.car.hull
    wheels = env.car.wheels
    return [
        *hull.position,
        hull.angle,
        *hull.linearVelocity,
        hull.angularVelocity,
        *(wheel.omega for wheel in wheels),
        *(wheel.phase for wheel in wheels),
        float(env.tile_visited_count),
    ]


def drive(env: Any, driver: str, continuous: bool, rng: np.random.Generator) -> Any:
    """The next action of `driver`, from the reference env's state."""
    if driver == "random":
        return np.int64(rng.integers(0, 5))
    if driver == "wild":
        return rng.uniform(-2.0, 2.0, size=3).astype(np.float32)
    if driver == "escape":  # straight ahead at half throttle, off the track and away
        return np.array([0.0, 0.5, 0.0], np.float32) if continuous else 3
    hull = env.car.hull
    x, y = hull.position
    points = np.array(env.track)[:, 2:4]
    nearest = int(np.argmin(np.hypot(points[:, 0] - x, points[:, 1] - y)))
    tx, ty = points[(nearest + 6) % len(points)]
    forward = (-math.sin(hull.angle), math.cos(hull.angle))
    to_x, to_y = tx - x, ty - y
    error = math.atan2(forward[0] * to_y - forward[1] * to_x, forward[0] * to_x + forward[1] * to_y)
    speed = math.hypot(*hull.linearVelocity)
    if continuous:
        steer = float(np.clip(-2.0 * error, -1.0, 1.0))
        return np.array([steer, 0.6 if speed < 45 else 0.0, 0.0], np.float32)
    if abs(error) > 0.15:
        return 1 if error < 0 else 2
    return 3 if speed < 25 else 0


def record(case: dict[str, Any]) -> dict[str, np.ndarray]:
    env: Any = gymnasium.make("CarRacing-v3", **case["kwargs"]).unwrapped
    continuous = case["kwargs"].get("continuous", True)
    rng = np.random.default_rng(case["seed"])
    arrays: dict[str, np.ndarray] = {}
    for episode in range(2):
        prefix = f"{case['name']}/{episode}"
        if episode == 0:
            obs, _ = env.reset(seed=case["seed"])
        else:
            obs, _ = env.reset(options=case.get("second_reset"))
        arrays[f"{prefix}/track"] = np.array(env.track, dtype=np.float64)
        arrays[f"{prefix}/road"] = np.array([poly for poly, _ in env.road_poly], np.float64)
        arrays[f"{prefix}/road_colours"] = np.array(
            [[int(c) for c in colour] for _, colour in env.road_poly], np.int64
        )
        arrays[f"{prefix}/colours"] = np.array(
            [env.road_color, env.bg_color, env.grass_color], np.float64
        )
        actions, states, rewards, terminations, laps = [], [car_state(env)], [], [], []
        hashes, full = [observation_hash(obs)], {0: obs}
        rgb = {}
        for step in range(1, case["steps"] + 1):
            action = drive(env, case["driver"], continuous, rng)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                obs, reward, terminated, _, info = env.step(action)
            actions.append(action)
            states.append(car_state(env))
            rewards.append(float(reward))
            terminations.append(terminated)
            laps.append(-1 if "lap_finished" not in info else int(info["lap_finished"]))
            hashes.append(observation_hash(obs))
            if step % FULL_FRAME_EVERY == 0:
                full[step] = obs
            if episode == 0 and step in case.get("rgb_frames", ()):
                rgb[step] = env.render()
            if terminated:
                full[step] = obs
                break
        arrays[f"{prefix}/actions"] = np.array(actions)
        arrays[f"{prefix}/states"] = np.array(states, dtype=np.float64)
        arrays[f"{prefix}/rewards"] = np.array(rewards, dtype=np.float64)
        arrays[f"{prefix}/terminations"] = np.array(terminations)
        arrays[f"{prefix}/lap_finished"] = np.array(laps, dtype=np.int8)
        arrays[f"{prefix}/hashes"] = np.array(hashes, dtype=np.uint64)
        arrays[f"{prefix}/frame_steps"] = np.array(sorted(full), dtype=np.int64)
        arrays[f"{prefix}/frames"] = np.array([full[k] for k in sorted(full)], dtype=np.uint8)
        if rgb:
            arrays[f"{prefix}/rgb_steps"] = np.array(sorted(rgb), dtype=np.int64)
            arrays[f"{prefix}/rgb_frames"] = np.array([rgb[k] for k in sorted(rgb)], np.uint8)
    env.close()
    return arrays


def measure(seeds: int = 10, steps: int = 1000) -> None:
    """Pixels of protogym's observations that differ from Gymnasium's, over `seeds`
    pursuit episodes of up to `steps` steps."""
    import protogym

    frames = differing = worst = 0
    for seed in range(seeds):
        theirs: Any = gymnasium.make("CarRacing-v3").unwrapped
        ours = protogym.make("CarRacing-v3").unwrapped
        rng = np.random.default_rng(seed)
        reference, _ = theirs.reset(seed=seed)
        obs, _ = ours.reset(seed=seed)
        for _ in range(steps):
            differing += int((obs != reference).any(axis=2).sum())
            worst = max(worst, int(np.abs(obs.astype(int) - reference).max()))
            frames += 1
            action = drive(theirs, "pursuit", True, rng)
            reference, _, done, _, _ = theirs.step(action)
            obs, *_ = ours.step(action)
            if done:
                break
    pixels = frames * 96 * 96
    print(f"{frames} observations, {differing} of {pixels} pixels differ "
          f"({differing / pixels:.2e}), max abs difference {worst}")


def main() -> None:
    if "--measure" in sys.argv:
        measure()
        return
    arrays: dict[str, np.ndarray] = {}
    for case in CASES:
        arrays.update(record(case))
    out = Path(__file__).with_name("car_racing.npz")
    arrays["cases"] = np.array(json.dumps(CASES))
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    print(f"wrote {out.name}: {len(CASES)} cases, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
