"""The protogym plugin of the Box2D envs: registers their ids and nothing more.

protogym imports this module during plugin discovery, so it imports no env module (and so
neither Box2D nor pygame): entry points are strings that `make` resolves on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protogym

if TYPE_CHECKING:
    from protogym.registration import Registry

_ENVS = "protogym_box2d"


@protogym.hookimpl
def protogym_register_envs(registry: Registry) -> None:
    """Registers the Box2D ids with Gymnasium 1.4's limits and thresholds, and the
    LunarLander pilot as their "heuristic" policy."""
    registry.register(
        id="LunarLander-v3",
        entry_point=f"{_ENVS}.lunar_lander:LunarLanderEnv",
        max_episode_steps=1000,
        reward_threshold=200.0,
    )
    registry.register(
        id="LunarLanderContinuous-v3",
        entry_point=f"{_ENVS}.lunar_lander:LunarLanderEnv",
        max_episode_steps=1000,
        reward_threshold=200.0,
        kwargs={"continuous": True},
    )
    # gym 0.26's versions, the seeds' LunarLander-v2 (see docs/envs/box2d.md for the changes)
    registry.register(
        id="LunarLander-v2",
        entry_point=f"{_ENVS}.lunar_lander:LunarLanderV2Env",
        max_episode_steps=1000,
        reward_threshold=200.0,
    )
    registry.register(
        id="LunarLanderContinuous-v2",
        entry_point=f"{_ENVS}.lunar_lander:LunarLanderV2Env",
        max_episode_steps=1000,
        reward_threshold=200.0,
        kwargs={"continuous": True},
    )
    registry.register(
        id="BipedalWalker-v3",
        entry_point=f"{_ENVS}.bipedal_walker:BipedalWalkerEnv",
        max_episode_steps=1600,
        reward_threshold=300.0,
    )
    registry.register(
        id="BipedalWalkerHardcore-v3",
        entry_point=f"{_ENVS}.bipedal_walker:BipedalWalkerEnv",
        max_episode_steps=2000,
        reward_threshold=300.0,
        kwargs={"hardcore": True},
    )
    registry.register(
        id="CarRacing-v3",
        entry_point=f"{_ENVS}.car_racing:CarRacingEnv",
        max_episode_steps=1000,
        reward_threshold=900.0,
    )
    for version in ("v2", "v3"):
        registry.register_policy(
            f"LunarLander-{version}", "heuristic", f"{_ENVS}.heuristics:lunar_lander"
        )
        registry.register_policy(
            f"LunarLanderContinuous-{version}",
            "heuristic",
            f"{_ENVS}.heuristics:lunar_lander_continuous",
        )
