"""Tianshou interop: a protogym vector env as one Tianshou vector env.

Tianshou's own vector envs (`DummyVectorEnv`, `SubprocVectorEnv`) take Gymnasium envs, so
``DummyVectorEnv([lambda: to_gymnasium(protogym.make(id))] * n)`` needs no adapter. What
they cannot take is a protogym vector env, least of all a native one that steps every
sub-env in one numpy call: `to_tianshou_vector_env` gives Tianshou that.

Tianshou's collector resets ended sub-envs itself, by id, so the vector env must not reset
them: it has to be in disabled autoreset mode, and ``reset(env_id=ids)`` becomes
``reset(options={"reset_mask": mask})``. When collecting whole episodes the collector also
steps a subset of the sub-envs (it sets aside those it needs no more episodes from); a
protogym vector env steps all of them, so the ones set aside take a step with the first
chosen sub-env's action, their results are dropped, and they must be reset before they are
stepped again, which Tianshou's collector always does (stepping one earlier is an error).

A vector env with partial batches (`AsyncVectorEnv(..., batch_size=k)`, k < num_envs)
becomes an asynchronous Tianshou vector env with ``wait_num == k``, for Tianshou's
`AsyncCollector`: ``step(actions, ids)`` is ``send(actions, ids)`` then ``recv()``, so it
returns the first k sub-envs to finish, each info naming its ``env_id``; the others stay
out (`waiting_id`) until a later step returns them. ``step(None)`` returns every sub-env
still out, which `AsyncCollector` asks for before it resets them all (``recv(count=...)``
receives other than k). Sub-envs that are not out can be reset by id meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

import numpy as np
from numpy.typing import NDArray

from protogym.interop._optional import missing_extra
from protogym.vector.utils import info_of
from protogym.vector.vector_env import AutoresetMode, VectorEnv

try:
    from tianshou.env import BaseVectorEnv

    from protogym.interop.gymnasium import to_gymnasium_space
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise missing_extra("tianshou", "tianshou", "protogym.interop.tianshou") from error

__all__ = ["TianshouVectorEnv", "to_tianshou_vector_env"]

EnvIds = int | Sequence[int] | NDArray[np.integer[Any]] | None
StepResult = tuple[Any, NDArray[Any], NDArray[np.bool_], NDArray[np.bool_], NDArray[np.object_]]


class PartialBatches(Protocol):
    """The send/recv half of a vector env with partial batches (EnvPool's async mode)."""

    batch_size: int

    def send(self, actions: Any, env_ids: Any = None) -> None: ...

    def recv(self, *, count: int | None = None) -> tuple[Any, Any, Any, Any, dict[str, Any]]: ...


class TianshouVectorEnv(BaseVectorEnv):
    """A Tianshou `BaseVectorEnv` over a protogym vector env in disabled autoreset mode;
    asynchronous (``wait_num`` < ``env_num``) when the vector env has partial batches."""

    def __init__(
        self,
        vector_env: VectorEnv[Any, Any, Any],
        wait_num: int | None = None,
        timeout: float | None = None,
    ) -> None:
        # BaseVectorEnv.__init__ builds one worker per env factory; there are none here.
        if not isinstance(vector_env, VectorEnv):
            raise TypeError(
                f"to_tianshou_vector_env needs a protogym vector env (from protogym.make_vec), "
                f"got {vector_env!r} ({type(vector_env).__name__})"
            )
        mode = AutoresetMode(vector_env.autoreset_mode)
        if mode is not AutoresetMode.DISABLED:
            raise ValueError(
                f"Tianshou's collector resets ended sub-envs itself, but this vector env "
                f"resets them {mode.value}; make it with make_vec(..., "
                "vector_kwargs={'autoreset_mode': 'disabled'})"
            )
        self.protogym_vector_env = vector_env
        self.env_num = vector_env.num_envs
        self.wait_num = _wait_num_of(vector_env, wait_num)
        if timeout is not None:
            raise ValueError(
                f"timeout={timeout!r}: Tianshou's timeout returns whichever sub-envs are "
                "ready after that many seconds, which protogym's partial batches do not "
                "do (recv returns exactly batch_size sub-envs); leave timeout unset"
            )
        self.timeout = None
        self.is_async = self.wait_num != self.env_num
        self.workers: list[Any] = []
        self.waiting_conn: list[Any] = []
        self.waiting_id: list[int] = []
        self.ready_id = list(range(self.env_num))
        self.is_closed = False
        self._spaces = {
            "action_space": to_gymnasium_space(vector_env.single_action_space),
            "observation_space": to_gymnasium_space(vector_env.single_observation_space),
        }
        self._needs_reset = np.ones(self.env_num, dtype=bool)

    # -- attributes ----------------------------------------------------------------------

    def get_env_attr(self, key: str, id: EnvIds = None) -> list[Any]:
        """Each chosen sub-env's attribute; spaces are Gymnasium's, as Tianshou checks."""
        self._assert_is_not_closed()
        chosen = self._ids(id)
        if key in self._spaces:
            return [self._spaces[key]] * len(chosen)
        vector_env = self.protogym_vector_env
        getter = getattr(vector_env, "get_attr", None)
        if getter is not None:
            values = list(getter(key))
            return [values[index] for index in chosen]
        return [getattr(vector_env, key)] * len(chosen)

    def set_env_attr(self, key: str, value: Any, id: EnvIds = None) -> None:
        self._assert_is_not_closed()
        chosen = self._ids(id)
        vector_env = self.protogym_vector_env
        setter = getattr(vector_env, "set_attr", None)
        if setter is None:
            raise AttributeError(
                f"{type(vector_env).__name__} has no set_attr; set {key!r} on the vector env"
            )
        if len(chosen) != self.env_num:
            values = list(vector_env.get_attr(key))  # type: ignore[attr-defined]
            for index in chosen:
                values[index] = value
            setter(key, values)
        else:
            setter(key, [value] * self.env_num)

    # -- stepping ------------------------------------------------------------------------

    def reset(self, env_id: EnvIds = None, **kwargs: Any) -> tuple[Any, NDArray[np.object_]]:
        """Reset the chosen sub-envs (all by default); `seed` may be one int or one per id."""
        self._assert_is_not_closed()
        chosen = self._ids(env_id)
        self._refuse_waiting("reset", chosen)
        mask = np.zeros(self.env_num, dtype=bool)
        mask[chosen] = True
        seed = kwargs.pop("seed", None)
        options = dict(kwargs.pop("options", None) or {})
        if kwargs:
            raise TypeError(
                f"reset takes env_id, seed and options, not {sorted(kwargs)}; pass env "
                "settings to protogym.make_vec instead"
            )
        seeds = _seeds_for(seed, chosen, self.env_num)
        if not mask.all():
            options["reset_mask"] = mask
        obs, infos = self.protogym_vector_env.reset(seed=seeds, options=options or None)
        self._needs_reset[chosen] = False
        per_env = np.array([info_of(infos, index) for index in chosen], dtype=object)
        return obs[chosen], per_env

    def step(self, action: Any, id: EnvIds = None) -> StepResult:
        """Step the chosen sub-envs with `action` (one row per id); see the module doc for
        what happens to the others, and for the asynchronous case."""
        self._assert_is_not_closed()
        if action is None:
            if self.is_async:
                return self._collect_waiting()
            raise ValueError(
                "action is None, which only Tianshou's asynchronous vector envs accept; "
                "this one is synchronous"
            )
        chosen = self._ids(id)
        self._refuse_waiting("step", chosen)
        actions = np.asarray(action)
        if len(actions) != len(chosen):
            raise ValueError(
                f"got {len(actions)} actions for {len(chosen)} sub-envs ({list(chosen)})"
            )
        stale = [index for index in chosen if self._needs_reset[index]]
        if stale:
            raise RuntimeError(
                f"sub-envs {stale} must be reset before they are stepped (reset(env_id=...)): "
                "their episode ended or they were left out of an earlier step"
            )
        if self.is_async:
            self._partial().send(actions, chosen)
            self.waiting_id.extend(chosen)
            self.ready_id = [index for index in self.ready_id if index not in chosen]
            return self._receive(min(self.wait_num, len(self.waiting_id)))
        batch = actions
        if len(chosen) != self.env_num:
            batch = np.repeat(actions[:1], self.env_num, axis=0)
            batch[chosen] = actions
            left_out = np.ones(self.env_num, dtype=bool)
            left_out[chosen] = False
            self._needs_reset |= left_out
        obs, rewards, terminated, truncated, infos = self.protogym_vector_env.step(batch)
        self._needs_reset |= terminated | truncated
        per_env = []
        for index in chosen:
            info = info_of(infos, index)
            info["env_id"] = index
            per_env.append(info)
        return (
            obs[chosen],
            rewards[chosen],
            terminated[chosen],
            truncated[chosen],
            np.array(per_env, dtype=object),
        )

    def _partial(self) -> PartialBatches:
        return cast(PartialBatches, self.protogym_vector_env)

    def _refuse_waiting(self, what: str, chosen: list[int]) -> None:
        stepping = [index for index in chosen if index in self.waiting_id]
        if stepping:
            raise ValueError(
                f"{what}(): sub-envs {stepping} are still stepping (sent by an earlier step "
                "and not yet returned); use the env_ids of the last step's infos, or "
                "step(None) to wait for the sub-envs still stepping"
            )

    def _receive(self, count: int) -> StepResult:
        """The next `count` sub-envs to finish, in order of completion."""
        obs, rewards, terminated, truncated, infos = self._partial().recv(count=count)
        ids = [int(index) for index in infos["env_id"]]
        plain = {key: value for key, value in infos.items() if key != "env_id"}
        per_env = []
        for row, index in enumerate(ids):
            info = info_of(plain, row)
            info["env_id"] = index
            per_env.append(info)
        self.waiting_id = [index for index in self.waiting_id if index not in ids]
        self.ready_id.extend(ids)
        self._needs_reset[ids] |= np.asarray(terminated) | np.asarray(truncated)
        return obs, rewards, terminated, truncated, np.array(per_env, dtype=object)

    def _collect_waiting(self) -> StepResult:
        """`step(None)`: every sub-env still stepping, as `AsyncCollector` needs before
        it resets them all."""
        if not self.waiting_id:
            raise ValueError(
                "step(None) returns the sub-envs still stepping, but none are; pass actions"
            )
        return self._receive(len(self.waiting_id))

    def seed(self, seed: int | list[int] | None = None) -> list[list[int] | None]:
        """Reset every sub-env with a seed (an int counts up from sub-env 0), as Tianshou's
        own vector envs do, and seed the action space's sampler."""
        self._assert_is_not_closed()
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * self.env_num
        elif isinstance(seed, int):
            seeds = [seed + index for index in range(self.env_num)]
        else:
            seeds = list(seed)
        self.reset(seed=seeds)
        for space in self._spaces.values():
            space.seed(seeds[0])
        return [None if value is None else [value] for value in seeds]

    def render(self, **kwargs: Any) -> list[Any]:
        self._assert_is_not_closed()
        return list(self.protogym_vector_env.render())

    def close(self) -> None:
        self._assert_is_not_closed()
        self.protogym_vector_env.close()
        self.is_closed = True

    def _ids(self, id: EnvIds) -> list[int]:
        if id is None:
            return list(range(self.env_num))
        chosen = [int(id)] if isinstance(id, int | np.integer) else [int(index) for index in id]
        wrong = [index for index in chosen if not 0 <= index < self.env_num]
        if wrong:
            raise IndexError(f"env ids {wrong} are out of range for {self.env_num} sub-envs")
        return chosen


def _wait_num_of(vector_env: VectorEnv[Any, Any, Any], wait_num: int | None) -> int:
    """Tianshou's `wait_num`: the vector env's partial batch size (`batch_size`)."""
    num_envs = vector_env.num_envs
    batch_size = int(getattr(vector_env, "batch_size", num_envs))
    if wait_num is not None and wait_num != batch_size:
        raise ValueError(
            f"wait_num={wait_num!r}, but this vector env returns {batch_size} of its "
            f"{num_envs} sub-envs per step; make it with batch_size={wait_num} (e.g. "
            f"make_vec(..., vectorization_mode='async', vector_kwargs={{'batch_size': "
            f"{wait_num}, 'autoreset_mode': 'disabled'}})) or leave wait_num unset"
        )
    return batch_size


def _seeds_for(seed: Any, chosen: list[int], num_envs: int) -> list[int | None] | None:
    """protogym's per-sub-env seed list for a reset of the `chosen` sub-envs."""
    if seed is None:
        return None
    if isinstance(seed, int | np.integer):
        given: list[int | None] = [int(seed) + offset for offset in range(len(chosen))]
    else:
        given = list(seed)
        if len(given) == num_envs and len(chosen) != num_envs:
            given = [given[index] for index in chosen]
    if len(given) != len(chosen):
        raise ValueError(f"got {len(given)} seeds for {len(chosen)} sub-envs ({chosen})")
    seeds: list[int | None] = [None] * num_envs
    for index, value in zip(chosen, given, strict=True):
        seeds[index] = value
    return seeds


def to_tianshou_vector_env(
    vector_env: VectorEnv[Any, Any, Any], wait_num: int | None = None, timeout: float | None = None
) -> TianshouVectorEnv:
    """`vector_env` as a Tianshou vector env (see `TianshouVectorEnv`); `wait_num`, if
    given, must be the vector env's `batch_size`, and `timeout` is not supported."""
    return TianshouVectorEnv(vector_env, wait_num, timeout)
