"""`DictInfoToList`: a vector env's infos as a list of per-sub-env dicts (Gym 0.2x's form)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from protogym.error import Error
from protogym.vector.vector_env import VectorEnv
from protogym.vector.wrappers.base import ActT, ObsT, VectorWrapper

__all__ = ["DictInfoToList", "InfoLayoutError"]


class InfoLayoutError(Error, ValueError, AssertionError):
    """A batched info does not have one entry per sub-env. Also an `AssertionError`, the
    class Gymnasium raises for it."""


class DictInfoToList(VectorWrapper[ObsT, ActT, ObsT, ActT]):
    """Returns infos as a list with one dict per sub-env instead of a dict of arrays.

    Sub-env i's dict holds ``key: value[i]`` for every key whose mask ``_key`` is True at
    i (every sub-env, if the key has no mask); nested info dicts convert the same way.
    Observations, rewards and done flags are unchanged.
    """

    def __init__(self, env: VectorEnv[ObsT, ActT, Any]) -> None:
        super().__init__(env)

    def reset(  # type: ignore[override]
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsT, list[dict[str, Any]]]:
        observations, infos = self.env.reset(seed=seed, options=options)
        return observations, self._to_list(infos)

    def step(  # type: ignore[override]
        self, actions: ActT
    ) -> tuple[ObsT, Any, Any, Any, list[dict[str, Any]]]:
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return observations, rewards, terminations, truncations, self._to_list(infos)

    def _to_list(self, infos: dict[str, Any], where: str = "info") -> list[dict[str, Any]]:
        num_envs = self.num_envs
        if not isinstance(infos, dict):
            raise TypeError(f"DictInfoToList expects {where} to be a dict, got {infos!r}")
        per_env: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        for key, value in infos.items():
            if key.startswith("_"):
                continue
            mask = infos.get(f"_{key}")
            if mask is not None:
                self._check_length(mask, f"{where}['_{key}']")
            if isinstance(value, dict):
                values: Sequence[Any] = self._to_list(value, f"{where}[{key!r}]")
            else:
                self._check_length(value, f"{where}[{key!r}]")
                values = value
            for index in range(num_envs):
                if mask is None or mask[index]:
                    per_env[index][key] = values[index]
        return per_env

    def _check_length(self, value: Any, where: str) -> None:
        try:
            length = len(value)
        except TypeError:
            length = None
        if length != self.num_envs:
            raise InfoLayoutError(
                f"DictInfoToList: {where} should hold one entry per sub-env "
                f"({self.num_envs}), got {value!r}"
            )
