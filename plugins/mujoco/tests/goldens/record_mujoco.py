"""Record the MuJoCo goldens from the reference, Gymnasium 1.4.0 on mujoco 4.0.0, once.

Regenerate in a throwaway venv with plain `gymnasium==1.4.0` and `mujoco==4.0.0` (never
Gymnasium's extras), with headless OpenGL:

    python3.11 -m venv /tmp/gymref && /tmp/gymref/bin/pip install gymnasium==1.4.0 mujoco==4.0.0
    MUJOCO_GL=egl /tmp/gymref/bin/python plugins/mujoco/tests/goldens/record_mujoco.py

Each case is an id, make() arguments and episodes played in ONE env made by `gymnasium.make`
(its time limit included): a seed (or None to go on with the env's generator) and a step
budget; an episode stops early when it terminates or is truncated. Actions are uniform in
1.25 times the action space's bounds (so some are outside it, which MuJoCo clamps), float32
unless the case says float64 or Python lists; an episode marked "repeat" replays the first
steps of episode 0 under the same seed, to pin seeded determinism. Stored per episode: the
reset observation and info, the actions, every observation, reward, flag and info value, the
type name of every reward and info value, and, for cases that render, frames of the first
episode after chosen steps (-1: after reset). All go in mujoco.npz; the plugin's tests replay
the actions in protogym's env and Gymnasium's side by side, compare the two to the bit, and
compare to this record within a few ulps (test_mujoco_goldens.RECORDING_ULPS says why).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium
import mujoco
import numpy as np

SEEDED, UNSEEDED = "seeded", "unseeded"

# name, id, make() kwargs, action kind, episodes [(seed, steps) | ("repeat", steps)],
# render: None or (render_mode, render kwargs, steps to render after)
Case = tuple[str, str, dict[str, Any], str, list[tuple[Any, int]], Any]

_CONTACT_POINTS = int(mujoco.mjtVisFlag.mjVIS_CONTACTPOINT)


def _default(env_id: str, steps: int, seed: int, render: Any = None, then: int = 0) -> Case:
    """Episodes: seeded, then unseeded (after the first ends; `then` steps at most, by default
    `steps`), then the seeded one again."""
    episodes = [(seed, steps), (None, then or steps), ("repeat", 5)]
    return (env_id, env_id, {}, "float32", episodes, render)


CASES: list[Case] = [
    # every makeable id with its defaults
    _default("Ant-v5", 60, 0, ("rgb_array", {"width": 200, "height": 150}, [3]), then=30),
    _default("HalfCheetah-v5", 100, 1, ("rgb_array", {}, [-1, 5])),
    _default("Hopper-v5", 100, 2, ("depth_array", {"width": 160, "height": 120}, [-1, 4])),
    _default(
        "Humanoid-v5",
        25,
        3,
        ("rgb_array", {"width": 160, "height": 120, "camera_name": "track"}, [2]),
        then=10,
    ),
    _default(
        "HumanoidStandup-v5", 15, 4, ("rgb_array", {"width": 160, "height": 120}, [1]), then=10
    ),
    _default(
        "InvertedDoublePendulum-v5", 100, 5, ("rgb_array", {"width": 160, "height": 120}, [2])
    ),
    _default(
        "InvertedPendulum-v5",
        100,
        6,
        (
            "rgb_array",
            {"width": 160, "height": 120, "visual_options": {_CONTACT_POINTS: True}},
            [1],
        ),
    ),
    _default("Pusher-v5", 100, 7, ("rgb_array", {"width": 160, "height": 120}, [5])),
    _default("Reacher-v5", 50, 8, ("rgb_array", {}, [-1, 10])),
    (
        "Swimmer-v5",
        "Swimmer-v5",
        {},
        "float32",
        [(9, 1000), (None, 40), ("repeat", 5)],
        ("rgb_array", {"width": 160, "height": 120, "camera_id": 0}, [5]),
    ),
    _default("Walker2d-v5", 100, 10, ("rgbd_tuple", {"width": 120, "height": 90}, [2])),
    _default("Ant-v4", 50, 11, then=20),
    _default("HalfCheetah-v4", 60, 12, ("rgb_array", {"width": 120, "height": 90}, [1])),
    _default("Hopper-v4", 80, 13),
    _default("Humanoid-v4", 20, 14, then=10),
    _default("HumanoidStandup-v4", 12, 15, then=8),
    _default("InvertedDoublePendulum-v4", 80, 16),
    _default("InvertedPendulum-v4", 80, 17),
    _default("Reacher-v4", 50, 18),
    _default("Swimmer-v4", 60, 19),
    _default("Walker2d-v4", 80, 20),
    # non-default arguments (and float64 / list actions)
    (
        "HalfCheetah-v5 args",
        "HalfCheetah-v5",
        {
            "frame_skip": 2,
            "forward_reward_weight": 2.0,
            "ctrl_cost_weight": 0.05,
            "reset_noise_scale": 0.3,
            "exclude_current_positions_from_observation": False,
        },
        "float64",
        [(21, 60)],
        None,
    ),
    (
        "Ant-v5 args",
        "Ant-v5",
        {
            "frame_skip": 4,
            "main_body": "torso",
            "contact_cost_weight": 1e-3,
            "healthy_reward": 0.5,
            "terminate_when_unhealthy": False,
            "healthy_z_range": (0.3, 0.9),
            "contact_force_range": (-0.5, 0.5),
            "reset_noise_scale": 0.2,
            "exclude_current_positions_from_observation": False,
            "include_cfrc_ext_in_observation": False,
        },
        "float32",
        [(22, 50)],
        None,
    ),
    (
        "Hopper-v5 args",
        "Hopper-v5",
        {
            "healthy_reward": 2,
            "terminate_when_unhealthy": False,
            "healthy_state_range": (-50.0, 50.0),
            "healthy_z_range": (0.8, 2.0),
            "healthy_angle_range": (-0.3, 0.3),
            "reset_noise_scale": 0.01,
            "forward_reward_weight": 1.5,
        },
        "list",
        [(23, 60)],
        None,
    ),
    (
        "Walker2d-v5 args",
        "Walker2d-v5",
        {
            "xml_file": "walker2d.xml",
            "healthy_z_range": (0.9, 1.8),
            "ctrl_cost_weight": 0.01,
            "exclude_current_positions_from_observation": False,
        },
        "float32",
        [(24, 60), (None, 30)],
        None,
    ),
    (
        "Humanoid-v5 args",
        "Humanoid-v5",
        {
            "include_cinert_in_observation": False,
            "include_cvel_in_observation": False,
            "include_qfrc_actuator_in_observation": False,
            "contact_cost_range": (-np.inf, 1e-3),
            "healthy_z_range": (0.8, 2.1),
            "exclude_current_positions_from_observation": False,
        },
        "float32",
        [(25, 12)],
        None,
    ),
    (
        "HumanoidStandup-v5 args",
        "HumanoidStandup-v5",
        {
            "include_cfrc_ext_in_observation": False,
            "impact_cost_range": (-np.inf, 1e-4),
            "uph_cost_weight": 3,
            "ctrl_cost_weight": 0.2,
            "reset_noise_scale": 0.05,
        },
        "float32",
        [(26, 10)],
        None,
    ),
    (
        "InvertedPendulum-v5 args",
        "InvertedPendulum-v5",
        {"frame_skip": 1, "reset_noise_scale": 0.1},
        "float64",
        [(27, 60), (None, 60)],
        None,
    ),
    (
        "InvertedDoublePendulum-v5 args",
        "InvertedDoublePendulum-v5",
        {"healthy_reward": 5.0, "reset_noise_scale": 0.05},
        "float32",
        [(28, 60), (None, 60)],
        (
            "rgb_array",
            {"width": 120, "height": 90, "default_camera_config": {"distance": 3.0}},
            [1],
        ),
    ),
    (
        "Pusher-v5 args",
        "Pusher-v5",
        {
            "reward_near_weight": 1.0,
            "reward_dist_weight": 0.5,
            "reward_control_weight": 0.2,
        },
        "float64",
        [(29, 40)],
        None,
    ),
    (
        "Reacher-v5 args",
        "Reacher-v5",
        {"reward_dist_weight": 2.0, "reward_control_weight": 0.5, "frame_skip": 3},
        "float32",
        [(30, 30)],
        None,
    ),
    (
        "Swimmer-v5 args",
        "Swimmer-v5",
        {
            "forward_reward_weight": 0.5,
            "ctrl_cost_weight": 1e-3,
            "reset_noise_scale": 0.2,
            "exclude_current_positions_from_observation": False,
        },
        "float32",
        [(31, 40)],
        None,
    ),
    (
        "Ant-v4 args",
        "Ant-v4",
        {"use_contact_forces": True, "terminate_when_unhealthy": False},
        "float32",
        [(32, 40)],
        None,
    ),
    (
        "Hopper-v4 args",
        "Hopper-v4",
        {"terminate_when_unhealthy": False},
        "float32",
        [(33, 60)],
        None,
    ),
    (
        "Humanoid-v4 args",
        "Humanoid-v4",
        {"exclude_current_positions_from_observation": False},
        "float32",
        [(34, 10)],
        None,
    ),
]


def _actions(space: Any, kind: str, rng: np.random.Generator, steps: int) -> list[Any]:
    low, high = space.low.astype(np.float64) * 1.25, space.high.astype(np.float64) * 1.25
    drawn = rng.uniform(low, high, size=(steps, *space.shape))
    if kind == "float32":
        return list(drawn.astype(np.float32))
    if kind == "float64":
        return list(drawn)
    return [row.tolist() for row in drawn]


def _value(value: Any) -> tuple[str, Any]:
    """An info value or reward as (type name, float64 array)."""
    return type(value).__name__, np.asarray(value, dtype=np.float64)


def _runs(names: list[str]) -> list[list[Any]]:
    """Run-length encoding: [[name, count], ...]."""
    runs: list[list[Any]] = []
    for name in names:
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    return runs


def play(
    env: Any, seed: Any, actions: list[Any], frame_steps: list[int]
) -> tuple[dict[str, Any], dict[str, Any]]:
    obs, info = env.reset(seed=seed)
    frames: list[Any] = [env.render()] if -1 in frame_steps else []
    observations, rewards, terminated, truncated = [obs], [], [], []
    reward_types: list[str] = []
    infos: dict[str, list[Any]] = {}
    info_types: dict[str, list[str]] = {}
    for step, action in enumerate(actions):
        obs, reward, term, trunc, step_info = env.step(action)
        observations.append(obs)
        name, number = _value(reward)
        reward_types.append(name)
        rewards.append(number)
        terminated.append(term)
        truncated.append(trunc)
        assert not infos or list(step_info) == list(infos), "info keys changed mid-episode"
        for key, value in step_info.items():
            name, number = _value(value)
            infos.setdefault(key, []).append(number)
            info_types.setdefault(key, []).append(name)
        if step in frame_steps:
            frames.append(env.render())
        if term or trunc:
            break
    played = len(rewards)
    arrays: dict[str, Any] = {
        "actions": np.array([np.asarray(a, dtype=np.float64) for a in actions[:played]]),
        "observations": np.array(observations),
        "rewards": np.array(rewards),
        "terminated": np.array(terminated),
        "truncated": np.array(truncated),
    }
    for key, values in infos.items():
        arrays[f"info.{key}"] = np.array(values)
    for key, value in info.items():
        arrays[f"reset_info.{key}"] = np.asarray(value, dtype=np.float64)
    if frames and isinstance(frames[0], tuple):
        arrays["frames"] = np.array([rgb for rgb, _ in frames])
        arrays["depths"] = np.array([depth for _, depth in frames])
    elif frames:
        arrays["frames"] = np.array(frames)
    meta = {
        "steps": played,
        "action_dtype": str(np.asarray(actions[0]).dtype) if played else None,
        "reward_types": _runs(reward_types),
        "info_keys": list(infos),
        "info_types": {key: _runs(names) for key, names in info_types.items()},
        "reset_info_keys": list(info),
        "reset_info_types": {key: type(value).__name__ for key, value in info.items()},
        "observation_dtype": str(obs.dtype),
    }
    return arrays, meta


def main() -> None:
    arrays: dict[str, Any] = {}
    index = []
    for number, (name, env_id, kwargs, kind, episodes, render) in enumerate(CASES):
        make_kwargs = dict(kwargs)
        if render:
            make_kwargs.update(render_mode=render[0], **render[1])
        env = gymnasium.make(env_id, **make_kwargs)
        rng = np.random.default_rng(1000 + number)
        first_actions: list[Any] = []
        metas = []
        for episode, (seed, steps) in enumerate(episodes):
            if seed == "repeat":
                seed, actions = episodes[0][0], first_actions[:steps]
            else:
                actions = _actions(env.action_space, kind, rng, steps)
            if episode == 0:
                first_actions = actions
            # frames in the first episode only: they pin the camera, not the physics
            frame_steps = render[2] if render and episode == 0 else []
            played, meta = play(env, seed, actions, frame_steps)
            for key, value in played.items():
                arrays[f"{name}/{episode}/{key}"] = value
            metas.append({"seed": seed, **meta})
        env.close()
        index.append(
            {
                "name": name,
                "id": env_id,
                "kwargs": _jsonable(kwargs),
                "action_kind": kind,
                "repeat": [e for e, (s, _) in enumerate(episodes) if s == "repeat"],
                "render": _jsonable(render),
                "episodes": metas,
            }
        )
        print(name, [m["steps"] for m in metas])
    out = Path(__file__).with_name("mujoco.npz")
    arrays["cases"] = np.array(json.dumps(index))
    np.savez_compressed(out, **arrays)
    print(f"wrote {out.name}: {len(CASES)} cases, {out.stat().st_size} bytes")


def _jsonable(value: Any) -> Any:
    """Tuples as lists, infinities as strings, int dict keys as strings (tests undo it)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not np.isfinite(value):
        return repr(value)
    return value


if __name__ == "__main__":
    main()
