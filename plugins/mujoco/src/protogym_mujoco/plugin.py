"""The protogym plugin of the MuJoCo envs: registers their ids and nothing more.

protogym imports this module during plugin discovery, so it imports no env module (and so
neither MuJoCo nor pygame): entry points are strings that `make` resolves on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protogym

if TYPE_CHECKING:
    from protogym.registration import Registry

_ENVS = "protogym_mujoco"

# id name -> (module name without version, class, max episode steps, reward threshold),
# Gymnasium 1.4's limits and thresholds.
_FAMILIES: dict[str, tuple[str, str, int, float | None]] = {
    "Ant": ("ant", "AntEnv", 1000, 6000.0),
    "HalfCheetah": ("half_cheetah", "HalfCheetahEnv", 1000, 4800.0),
    "Hopper": ("hopper", "HopperEnv", 1000, 3800.0),
    "Humanoid": ("humanoid", "HumanoidEnv", 1000, None),
    "HumanoidStandup": ("humanoidstandup", "HumanoidStandupEnv", 1000, None),
    "InvertedDoublePendulum": (
        "inverted_double_pendulum",
        "InvertedDoublePendulumEnv",
        1000,
        9100.0,
    ),
    "InvertedPendulum": ("inverted_pendulum", "InvertedPendulumEnv", 1000, 950.0),
    "Pusher": ("pusher", "PusherEnv", 100, 0.0),
    "Reacher": ("reacher", "ReacherEnv", 50, -3.75),
    "Swimmer": ("swimmer", "SwimmerEnv", 1000, 360.0),
    "Walker2d": ("walker2d", "Walker2dEnv", 1000, None),
}

# The ids that ran on mujoco-py: registered so that make names the id to use instead.
_MUJOCO_PY_VERSIONS = {
    "Ant": (2, 3),
    "HalfCheetah": (2, 3),
    "Hopper": (2, 3),
    "Humanoid": (2, 3),
    "HumanoidStandup": (2,),
    "InvertedDoublePendulum": (2,),
    "InvertedPendulum": (2,),
    "Pusher": (2,),
    "Reacher": (2,),
    "Swimmer": (2, 3),
    "Walker2d": (2, 3),
}

# The hand-written policy of each id that has one (protogym_mujoco.heuristics), named
# "heuristic" for `protogym run ID --policy heuristic` and the docs gallery.
_HEURISTICS = {
    "InvertedPendulum": "inverted_pendulum",
    "InvertedDoublePendulum": "inverted_double_pendulum",
    "Reacher": "reacher",
    "Swimmer": "swimmer",
}


@protogym.hookimpl
def protogym_register_envs(registry: Registry) -> None:
    """Registers every MuJoCo id of Gymnasium 1.4: v5 and v4 with their limits and
    thresholds, and v2/v3 as errors that name the id to use instead."""
    for name, (module, cls, max_steps, threshold) in _FAMILIES.items():
        for version in (5, 4):
            # Pusher-v4 only refuses to be made (it needs mujoco < 3): no vector env.
            vector = None if name == "Pusher" and version == 4 else f"{name}V{version}VectorEnv"
            registry.register(
                id=f"{name}-v{version}",
                entry_point=f"{_ENVS}.{module}_v{version}:{cls}",
                vector_entry_point=None if vector is None else f"{_ENVS}.vector:{vector}",
                max_episode_steps=max_steps,
                reward_threshold=threshold,
            )
        for version in _MUJOCO_PY_VERSIONS[name]:
            registry.register(
                id=f"{name}-v{version}",
                entry_point=f"{_ENVS}.mujoco_py_env:{module}_v{version}",
            )
    for name, function in _HEURISTICS.items():
        for version in (5, 4):
            env_id = f"{name}-v{version}"
            registry.register_policy(env_id, "heuristic", f"{_ENVS}.heuristics:{function}")
