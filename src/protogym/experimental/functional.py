"""`protogym.functional` at Gymnasium's path, `gymnasium.experimental.functional`."""

from protogym.functional import (
    ActType,
    FuncEnv,
    ObsType,
    Params,
    RenderStateType,
    RewardType,
    StateType,
    TerminalType,
    transformed,
)

__all__ = [
    "ActType",
    "FuncEnv",
    "ObsType",
    "Params",
    "RenderStateType",
    "RewardType",
    "StateType",
    "TerminalType",
    "transformed",
]
