"""The protogym plugin of the functional envs: registers their ids and nothing more.

protogym imports this module during plugin discovery, so it imports no env module (and so
neither jax nor pygame): entry points are strings that `make` resolves on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protogym

if TYPE_CHECKING:
    from protogym.registration import Registry

_ENVS = "protogym_functional"
_HEURISTIC_MODULE = "protogym_classic_control.heuristics"


@protogym.hookimpl
def protogym_register_envs(registry: Registry) -> None:
    """Registers Gymnasium's functional ids and ours, with the classic ids' limits.

    As in Gymnasium, `make` adds no passive checker: the envs return jax arrays, which the
    checker's numpy rules would flag on every step.
    """
    cartpole = f"{_ENVS}.phys2d.cartpole"
    registry.register(
        id="phys2d/CartPole-v0",
        entry_point=f"{cartpole}:CartPoleJaxEnv",
        vector_entry_point=f"{cartpole}:CartPoleJaxVectorEnv",
        max_episode_steps=200,
        reward_threshold=195.0,
        disable_env_checker=True,
    )
    registry.register(
        id="phys2d/CartPole-v1",
        entry_point=f"{cartpole}:CartPoleJaxEnv",
        vector_entry_point=f"{cartpole}:CartPoleJaxVectorEnv",
        max_episode_steps=500,
        reward_threshold=475.0,
        disable_env_checker=True,
    )
    registry.register(
        id="phys2d/Pendulum-v0",
        entry_point=f"{_ENVS}.phys2d.pendulum:PendulumJaxEnv",
        vector_entry_point=f"{_ENVS}.phys2d.pendulum:PendulumJaxVectorEnv",
        max_episode_steps=200,
        disable_env_checker=True,
    )
    registry.register(
        id="phys2d/Acrobot-v1",
        entry_point=f"{_ENVS}.phys2d.acrobot:AcrobotJaxEnv",
        vector_entry_point=f"{_ENVS}.phys2d.acrobot:AcrobotJaxVectorEnv",
        max_episode_steps=500,
        reward_threshold=-100.0,
        disable_env_checker=True,
    )
    registry.register(
        id="phys2d/MountainCar-v0",
        entry_point=f"{_ENVS}.phys2d.mountain_car:MountainCarJaxEnv",
        vector_entry_point=f"{_ENVS}.phys2d.mountain_car:MountainCarJaxVectorEnv",
        max_episode_steps=200,
        reward_threshold=-110.0,
        disable_env_checker=True,
    )
    continuous = f"{_ENVS}.phys2d.mountain_car_continuous"
    registry.register(
        id="phys2d/MountainCarContinuous-v0",
        entry_point=f"{continuous}:MountainCarContinuousJaxEnv",
        vector_entry_point=f"{continuous}:MountainCarContinuousJaxVectorEnv",
        max_episode_steps=999,
        reward_threshold=90.0,
        disable_env_checker=True,
    )
    registry.register(
        id="tabular/Blackjack-v0",
        entry_point=f"{_ENVS}.tabular.blackjack:BlackJackJaxEnv",
        vector_entry_point=f"{_ENVS}.tabular.blackjack:BlackJackJaxVectorEnv",
        disable_env_checker=True,
    )
    registry.register(
        id="tabular/CliffWalking-v0",
        entry_point=f"{_ENVS}.tabular.cliffwalking:CliffWalkingJaxEnv",
        vector_entry_point=f"{_ENVS}.tabular.cliffwalking:CliffWalkingJaxVectorEnv",
        disable_env_checker=True,
    )
    frozen_lake = f"{_ENVS}.tabular.frozen_lake"
    registry.register(
        id="tabular/FrozenLake-v1",
        entry_point=f"{frozen_lake}:FrozenLakeJaxEnv",
        vector_entry_point=f"{frozen_lake}:FrozenLakeJaxVectorEnv",
        kwargs={"map_name": "4x4"},
        max_episode_steps=100,
        reward_threshold=0.70,
        disable_env_checker=True,
    )
    registry.register(
        id="tabular/FrozenLake8x8-v1",
        entry_point=f"{frozen_lake}:FrozenLakeJaxEnv",
        vector_entry_point=f"{frozen_lake}:FrozenLakeJaxVectorEnv",
        kwargs={"map_name": "8x8"},
        max_episode_steps=200,
        reward_threshold=0.85,
        disable_env_checker=True,
    )
    registry.register(
        id="tabular/Taxi-v3",
        entry_point=f"{_ENVS}.tabular.taxi:TaxiJaxEnv",
        vector_entry_point=f"{_ENVS}.tabular.taxi:TaxiJaxVectorEnv",
        max_episode_steps=200,
        reward_threshold=8.0,
        disable_env_checker=True,
    )
    for env_id, function in _HEURISTICS.items():
        registry.register_policy(env_id, "heuristic", f"{_HEURISTIC_MODULE}:{function}")


# The classic-control plugin's hand-written policies, named "heuristic" for `protogym run ID
# --policy heuristic` and the docs gallery: the observations are the classic envs' (as jax
# arrays, which the policies read the same way). Resolved on first use only.
_HEURISTICS = {
    "phys2d/CartPole-v0": "cartpole",
    "phys2d/CartPole-v1": "cartpole",
    "phys2d/Pendulum-v0": "pendulum",
    "phys2d/Acrobot-v1": "acrobot",
    "phys2d/MountainCar-v0": "mountain_car",
    "phys2d/MountainCarContinuous-v0": "continuous_mountain_car",
}
