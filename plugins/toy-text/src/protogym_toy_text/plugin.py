"""The pluggy hooks that register the toy-text environments with protogym.

This module is what the ``protogym.plugins`` entry point names. It only records ids and entry
points: no environment module is imported until `protogym.make` asks for one. Ids, kwargs,
episode limits and reward thresholds are those of Gymnasium (1.4 for the current versions;
`Taxi-v3` and `CliffWalking-v0` as the older releases registered them).
"""

from __future__ import annotations

from typing import Any, Protocol

import protogym

__all__ = ["protogym_register_envs"]

_PACKAGE = "protogym_toy_text"


class _EnvRegistry(Protocol):
    def register(self, id: str, entry_point: str, **options: Any) -> object: ...


@protogym.hookimpl
def protogym_register_envs(registry: _EnvRegistry) -> None:
    """Register every toy-text id (entry points are strings, so nothing heavy loads here)."""
    frozen_lake = f"{_PACKAGE}.frozen_lake:FrozenLakeEnv"
    registry.register(
        id="FrozenLake-v1",
        entry_point=frozen_lake,
        kwargs={"map_name": "4x4"},
        max_episode_steps=100,
        reward_threshold=0.70,
    )
    registry.register(
        id="FrozenLake8x8-v1",
        entry_point=frozen_lake,
        kwargs={"map_name": "8x8"},
        max_episode_steps=200,
        reward_threshold=0.85,
    )
    registry.register(
        id="Taxi-v3",
        entry_point=f"{_PACKAGE}.taxi:TaxiV3Env",
        max_episode_steps=200,
        reward_threshold=8,
    )
    registry.register(
        id="Taxi-v4",
        entry_point=f"{_PACKAGE}.taxi:TaxiEnv",
        max_episode_steps=200,
        reward_threshold=8,
    )
    cliff_walking = f"{_PACKAGE}.cliff_walking:CliffWalkingEnv"
    registry.register(id="CliffWalking-v0", entry_point=cliff_walking)
    registry.register(id="CliffWalking-v1", entry_point=cliff_walking)
    registry.register(
        id="CliffWalkingSlippery-v1",
        entry_point=cliff_walking,
        kwargs={"is_slippery": True},
    )
    registry.register(
        id="Blackjack-v1",
        entry_point=f"{_PACKAGE}.blackjack:BlackjackEnv",
        kwargs={"sab": True, "natural": False},
    )
    registry.register(
        id="GridWorld-v0",
        entry_point=f"{_PACKAGE}.grid_world:GridWorldEnv",
        max_episode_steps=200,
    )
