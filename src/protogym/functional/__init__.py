"""Functional environments: pure functions of an explicit state and random key.

`FuncEnv` is the contract; `transformed` applies `jax.jit`/`jax.vmap`-style transformations
without touching the caller's env. Importing this package never imports jax.
"""

from protogym.functional.func_env import (
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
