"""protogym's Atari 2600 envs on the Arcade Learning Environment (ale-py), without Gymnasium.

This package imports nothing on its own, so plugin discovery never loads ale-py or a ROM.
"""

__version__ = "0.1.0"
