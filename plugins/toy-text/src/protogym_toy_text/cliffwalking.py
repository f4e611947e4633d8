"""Gymnasium's module name for CliffWalking: everything of `protogym_toy_text.cliff_walking`.

Code written for ``gymnasium.envs.toy_text.cliffwalking`` imports from here unchanged.
"""

from __future__ import annotations

from protogym_toy_text.cliff_walking import DOWN, LEFT, RIGHT, UP, CliffWalkingEnv

__all__ = ["DOWN", "LEFT", "RIGHT", "UP", "CliffWalkingEnv"]
