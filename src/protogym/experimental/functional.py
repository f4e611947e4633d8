"""`protogym.functional` at Gymnasium's path, `gymnasium.experimental.functional`."""

from protogym.functional import *  # noqa: F403 - this module is that one under another path
from protogym.functional import __all__ as __all__
