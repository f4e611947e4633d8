"""`ArrayConversion` for vector envs: whole batches cross between numpy, torch and jax,
rewards and done flags included (they are arrays here), and infos through their masks and
object arrays. Importing this module imports neither torch nor jax."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from protogym.vector.vector_env import VectorEnv, VectorStepResult
from protogym.vector.wrappers.base import VectorWrapper
from protogym.wrappers.array_conversion import (
    Framework,
    convert,
    framework_of,
    resolve_device,
)

__all__ = ["ArrayConversion"]


class ArrayConversion(VectorWrapper[Any, Any, Any, Any]):
    """A vector env whose arrays live in one framework (`env_xp`), driven from another
    (`target_xp`): actions and reset options go to the env's framework on `env_device`;
    observations, rewards, flags and infos come back in the target's on `target_device`.
    """

    def __init__(
        self,
        env: VectorEnv[Any, Any, Any],
        env_xp: ModuleType | Framework,
        target_xp: ModuleType | Framework,
        env_device: Any = None,
        target_device: Any = None,
    ) -> None:
        super().__init__(env)
        self.env_framework = framework_of(env_xp)
        self.target_framework = framework_of(target_xp)
        self.env_device = resolve_device(self.env_framework, env_device)
        self.target_device = resolve_device(self.target_framework, target_device)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        if options:
            options = convert(options, self.env_framework, self.env_device)
        result = self.env.reset(seed=seed, options=options)
        return convert(result, self.target_framework, self.target_device)  # type: ignore[no-any-return]

    def step(self, actions: Any) -> VectorStepResult[Any]:
        result = self.env.step(convert(actions, self.env_framework, self.env_device))
        return convert(result, self.target_framework, self.target_device)  # type: ignore[no-any-return]
