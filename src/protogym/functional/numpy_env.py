"""`FuncEnv` adapters for numpy envs: the random key is the adapter's `np_random`.

Nothing is compiled and nothing is copied; a vector env steps its copies in a Python loop
(`protogym.functional.wrappers.vectorize`), which suits cheap envs and testing more than
speed. For jax envs use `protogym.envs.functional_jax_env`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from protogym.functional.adapters import (
    BatchA,
    BatchO,
    FunctionalEnvBase,
    FunctionalVectorEnvBase,
)

__all__ = ["FunctionalNumpyEnv", "FunctionalNumpyVectorEnv"]

O = TypeVar("O")  # noqa: E741
A = TypeVar("A")


class FunctionalNumpyEnv(FunctionalEnvBase[O, A]):
    """A numpy `FuncEnv` as an `Env`; `reset(seed=...)` seeds the generator it draws from."""

    def _key_for(self, seed: int | None) -> Any:
        return self.np_random


class FunctionalNumpyVectorEnv(FunctionalVectorEnvBase[O, A, BatchO, BatchA]):
    """`num_envs` copies of a numpy `FuncEnv` as a `VectorEnv`, sharing one generator."""

    def _key_for(self, seed: int | None) -> Any:
        return self.np_random
