"""Functional tabular envs in jax (Gymnasium's `gymnasium.envs.tabular`): Blackjack,
CliffWalking, FrozenLake and Taxi."""

from protogym_functional._jax import require_jax

require_jax()
