"""protogym's toy-text environments, shipped as a plugin distribution.

Importing the package is cheap: the environment classes live in their own modules
(`frozen_lake`, `taxi`, `cliff_walking`, `blackjack`, `grid_world`), which `protogym.make`
imports on demand through the entry points that `protogym_toy_text.plugin` registers.
"""

__version__ = "0.1.0"
