"""The protogym plugin of the classic-control envs: registers their ids and nothing more.

protogym imports this module during plugin discovery, so it imports no env module (and so
neither numpy nor pygame): entry points are strings that `make` resolves on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protogym

if TYPE_CHECKING:
    from protogym.registration import Registry

_ENVS = "protogym_classic_control"


@protogym.hookimpl
def protogym_register_envs(registry: Registry) -> None:
    """Registers the classic-control ids with Gymnasium 1.4's limits and thresholds."""
    registry.register(
        id="CartPole-v0",
        entry_point=f"{_ENVS}.cartpole:CartPoleEnv",
        vector_entry_point=f"{_ENVS}.vector.cartpole:CartPoleVectorEnv",
        max_episode_steps=200,
        reward_threshold=195.0,
    )
    registry.register(
        id="CartPole-v1",
        entry_point=f"{_ENVS}.cartpole:CartPoleEnv",
        vector_entry_point=f"{_ENVS}.vector.cartpole:CartPoleVectorEnv",
        max_episode_steps=500,
        reward_threshold=475.0,
    )
    registry.register(
        id="MountainCar-v0",
        entry_point=f"{_ENVS}.mountain_car:MountainCarEnv",
        vector_entry_point=f"{_ENVS}.vector.mountain_car:MountainCarVectorEnv",
        max_episode_steps=200,
        reward_threshold=-110.0,
    )
    registry.register(
        id="MountainCarContinuous-v0",
        entry_point=f"{_ENVS}.continuous_mountain_car:ContinuousMountainCarEnv",
        vector_entry_point=f"{_ENVS}.vector.continuous_mountain_car:ContinuousMountainCarVectorEnv",
        max_episode_steps=999,
        reward_threshold=90.0,
    )
    registry.register(
        id="Pendulum-v1",
        entry_point=f"{_ENVS}.pendulum:PendulumEnv",
        vector_entry_point=f"{_ENVS}.vector.pendulum:PendulumVectorEnv",
        max_episode_steps=200,
    )
    registry.register(
        id="Acrobot-v1",
        entry_point=f"{_ENVS}.acrobot:AcrobotEnv",
        vector_entry_point=f"{_ENVS}.vector.acrobot:AcrobotVectorEnv",
        max_episode_steps=500,
        reward_threshold=-100.0,
    )
    for env_id, function in _HEURISTICS.items():
        registry.register_policy(env_id, "heuristic", f"{_ENVS}.heuristics:{function}")


# The hand-written policy of each id (protogym_classic_control.heuristics), named "heuristic"
# for `protogym run ID --policy heuristic` and the docs gallery.
_HEURISTICS = {
    "CartPole-v0": "cartpole",
    "CartPole-v1": "cartpole",
    "MountainCar-v0": "mountain_car",
    "MountainCarContinuous-v0": "continuous_mountain_car",
    "Pendulum-v1": "pendulum",
    "Acrobot-v1": "acrobot",
}
