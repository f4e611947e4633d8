"""Stable-Baselines3 interop: any protogym vector env as an SB3 `VecEnv`.

SB3's `VecEnv` contract is the Gym 0.26 legacy one, and so protogym's same-step autoreset:
`dones = terminated | truncated`, the observation of a finished sub-env is already the next
episode's first, `infos[i]["terminal_observation"]` holds the last one and
`infos[i]["TimeLimit.truncated"]` says the episode was cut by a time limit. Over a native
vector env (``make_vec`` of CartPole, the default mode) SB3 then steps thousands of envs in
one numpy call per step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from protogym.interop._optional import missing_extra
from protogym.vector.sync_vector_env import set_sub_env_attr, sub_env_attr
from protogym.vector.utils import info_of
from protogym.vector.vector_env import AutoresetMode, VectorEnv

try:
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import (
        VecEnvIndices,
        VecEnvObs,
        VecEnvStepReturn,
    )

    from protogym.interop.gymnasium import to_gymnasium_space
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise missing_extra("stable_baselines3", "sb3", "protogym.interop.sb3") from error

__all__ = ["Sb3VecEnv", "to_sb3_vec_env"]


class Sb3VecEnv(VecEnv):
    """An SB3 `VecEnv` over a protogym vector env in same-step autoreset mode."""

    def __init__(self, vector_env: VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(vector_env, VectorEnv):
            raise TypeError(
                f"to_sb3_vec_env needs a protogym vector env (from protogym.make_vec), got "
                f"{vector_env!r} ({type(vector_env).__name__})"
            )
        if AutoresetMode(vector_env.autoreset_mode) is not AutoresetMode.SAME_STEP:
            raise ValueError(
                f"SB3 needs same-step autoreset, but this vector env resets "
                f"{AutoresetMode(vector_env.autoreset_mode).value}; make it with "
                "make_vec(..., vector_kwargs={'autoreset_mode': 'same_step'}) (the default)"
            )
        self.protogym_vector_env = vector_env
        self._actions: Any = None
        super().__init__(
            vector_env.num_envs,
            to_gymnasium_space(vector_env.single_observation_space),
            to_gymnasium_space(vector_env.single_action_space),
        )

    # -- stepping ------------------------------------------------------------------------

    def reset(self) -> VecEnvObs:
        seeds = None if all(seed is None for seed in self._seeds) else list(self._seeds)
        obs, infos = self.protogym_vector_env.reset(seed=seeds, options=self._one_options())
        self.reset_infos = [{} for _ in range(self.num_envs)]
        _add_per_env(self.reset_infos, infos)
        self._reset_seeds()
        self._reset_options()
        return obs  # type: ignore[no-any-return]

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, infos = self.protogym_vector_env.step(self._actions)
        dones = terminated | truncated
        cut = truncated & ~terminated
        per_env: list[dict[str, Any]] = [{"TimeLimit.truncated": flag} for flag in cut.tolist()]
        if infos:
            _add_per_env(per_env, infos)
        if dones.any():
            final_infos = infos.get("final_info", {})
            for index in np.flatnonzero(dones).tolist():
                self.reset_infos[index] = per_env[index]
                ended = info_of(final_infos, index)
                ended["terminal_observation"] = infos["final_obs"][index]
                ended["TimeLimit.truncated"] = bool(cut[index])
                per_env[index] = ended
        return obs, np.asarray(rewards, dtype=np.float32), dones, per_env

    def _one_options(self) -> dict[str, Any] | None:
        """protogym's reset takes one options dict for all sub-envs."""
        first = self._options[0]
        if any(options != first for options in self._options):
            raise ValueError(
                "a protogym vector env resets all sub-envs with the same options; "
                "call set_options() with one dict"
            )
        return first or None

    def close(self) -> None:
        self.protogym_vector_env.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        return list(self.protogym_vector_env.render())

    # -- attributes and methods of the sub-envs ------------------------------------------

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Each sub-env's attribute; a native vector env has one value for all of them."""
        chosen = list(self._get_indices(indices))
        vector_env = self.protogym_vector_env
        sub_envs = getattr(vector_env, "envs", None)
        if sub_envs is not None:
            return [sub_env_attr(sub_envs[index], attr_name) for index in chosen]
        getter = getattr(vector_env, "get_attr", None)
        if getter is not None:
            values = list(getter(attr_name))
            return [values[index] for index in chosen]
        return [getattr(vector_env, attr_name)] * len(chosen)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        chosen = list(self._get_indices(indices))
        vector_env = self.protogym_vector_env
        sub_envs = getattr(vector_env, "envs", None)
        if sub_envs is not None:
            for index in chosen:
                set_sub_env_attr(sub_envs[index], attr_name, value)
            return
        if len(chosen) != self.num_envs:
            raise ValueError(
                f"{type(vector_env).__name__} sets {attr_name!r} on all sub-envs at once; "
                "set it without indices"
            )
        setter = getattr(vector_env, "set_attr", None)
        if setter is not None:
            setter(attr_name, [value] * self.num_envs)
        else:
            setattr(vector_env, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Call a method of the sub-envs: of each one with `call`, or of the native env."""
        chosen = list(self._get_indices(indices))
        vector_env = self.protogym_vector_env
        sub_envs = getattr(vector_env, "envs", None)
        if sub_envs is not None:
            methods = [sub_env_attr(sub_envs[index], method_name) for index in chosen]
            return [method(*method_args, **method_kwargs) for method in methods]
        if len(chosen) != self.num_envs:
            raise ValueError(
                f"{type(vector_env).__name__} calls {method_name!r} on all sub-envs at once; "
                "call env_method without indices"
            )
        caller = getattr(vector_env, "call", None)
        if caller is not None:
            return list(caller(method_name, *method_args, **method_kwargs))
        result = getattr(vector_env, method_name)(*method_args, **method_kwargs)
        return [result] * self.num_envs

    def env_is_wrapped(self, wrapper_class: type[Any], indices: VecEnvIndices = None) -> list[bool]:
        """protogym sub-envs are never wrapped in a Gymnasium wrapper such as SB3's Monitor."""
        return [False for _ in self._get_indices(indices)]


def _add_per_env(per_env: list[dict[str, Any]], infos: dict[str, Any]) -> None:
    """Spread protogym's batched infos (arrays with `_key` masks) over one dict per sub-env."""
    for key, values in infos.items():
        if key.startswith("_") or key in ("final_obs", "final_info"):
            continue
        mask = infos.get(f"_{key}")
        indices: Iterable[int] = (
            np.flatnonzero(mask).tolist() if mask is not None else range(len(per_env))
        )
        for index in indices:
            per_env[index][key] = values[index]


def to_sb3_vec_env(vector_env: VectorEnv[Any, Any, Any]) -> Sb3VecEnv:
    """`vector_env` as an SB3 `VecEnv` (see `Sb3VecEnv`)."""
    return Sb3VecEnv(vector_env)
