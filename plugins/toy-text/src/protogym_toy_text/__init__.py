"""protogym's toy-text environments, shipped as a plugin distribution.

This package stands in for ``gymnasium.envs.toy_text``: the env classes are importable from
here under Gymnasium's names (``from protogym_toy_text import FrozenLakeEnv``) and from their
modules (`frozen_lake`, `taxi`, `cliff_walking`, also as Gymnasium's `cliffwalking`,
`blackjack`, `grid_world`). Plugin discovery imports `protogym_toy_text.plugin`, which runs
this file first, so the classes load on first access (module `__getattr__`), not here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protogym.utils.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from protogym_toy_text.blackjack import BlackjackEnv
    from protogym_toy_text.cliff_walking import CliffWalkingEnv
    from protogym_toy_text.frozen_lake import FrozenLakeEnv
    from protogym_toy_text.grid_world import GridWorldEnv
    from protogym_toy_text.taxi import TaxiEnv

__all__ = ["BlackjackEnv", "CliffWalkingEnv", "FrozenLakeEnv", "GridWorldEnv", "TaxiEnv"]
__version__ = "0.1.0"

# Each public class and the module that defines it, imported when the class is first asked for.
__getattr__, __dir__ = lazy_exports(
    globals(),
    {
        "BlackjackEnv": "blackjack",
        "CliffWalkingEnv": "cliff_walking",
        "FrozenLakeEnv": "frozen_lake",
        "GridWorldEnv": "grid_world",
        "TaxiEnv": "taxi",
    },
)
