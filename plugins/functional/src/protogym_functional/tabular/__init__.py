"""Functional tabular envs in jax (Gymnasium's `gymnasium.envs.tabular`): Blackjack and
CliffWalking."""

from protogym_functional._jax import require_jax

require_jax()
