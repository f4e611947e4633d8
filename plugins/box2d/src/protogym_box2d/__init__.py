"""protogym's Box2D envs: LunarLander, BipedalWalker and CarRacing, with Gymnasium 1.4's dynamics.

This package imports nothing on its own, so plugin discovery never loads Box2D.
"""

__version__ = "0.1.0"
