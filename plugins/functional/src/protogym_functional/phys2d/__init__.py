"""Functional physics envs in jax (Gymnasium's `gymnasium.envs.phys2d`): CartPole, Pendulum,
Acrobot, MountainCar and MountainCarContinuous, each with the dynamics of protogym's
classic-control env of the same name, in float32.
"""

from protogym_functional._jax import require_jax

require_jax()
