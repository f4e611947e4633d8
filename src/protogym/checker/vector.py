"""`check_vector_env`: batch shapes and dtypes, and the promises of the autoreset mode.

The autoreset mode is read from ``envs.autoreset_mode`` or ``metadata["autoreset_mode"]``
(an `AutoresetMode` or its string value):

- ``next_step``: on the step after a sub-env ended, its reward is 0 and both flags False;
- ``same_step``: on the step a sub-env ends, ``info["final_obs"]`` and ``info["final_info"]``
  hold its last observation and info, with the masks ``_final_obs`` / ``_final_info`` true
  exactly for the sub-envs that ended (Gymnasium 1.x's layout, which protogym's vector envs
  use; Gym 0.26's ``final_observation`` spelling is accepted too, for older third-party
  envs); the final observations may be an object array of single observations or an
  observation batch, the final infos a batched dict or an object array of dicts;
- ``disabled``: ended sub-envs are reset with ``reset(options={"reset_mask": ended})``,
  which must return a full batch.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

import numpy as np

from protogym.checker import passive
from protogym.checker.env import data_equal
from protogym.checker.report import _PASSIVE_MUTED, CheckReport, Findings, validate_skip

__all__ = ["check_vector_env"]

_MEMBERS = (
    "num_envs", "single_observation_space", "single_action_space", "observation_space",
    "action_space", "metadata", "reset", "step", "close",
)
_SEED = 123
_MAX_STEPS = 200
_FINAL_OBS_KEYS = ("final_obs", "final_observation")
_MODES = {"nextstep": "next_step", "samestep": "same_step", "disabled": "disabled"}


class _StopChecksError(Exception):
    """A finding that leaves nothing further to check."""


def check_vector_env(
    envs: Any, warn: bool = True, *, skip: Collection[str] = ()
) -> CheckReport:
    """Check a vector env's batches and autoreset behaviour; like `check_env` in reporting.

    Runs up to 200 steps of sampled actions from ``reset(seed=123)``, so that episodes end
    and the autoreset mode's promises can be observed.
    """
    findings = Findings(type(envs).__name__, validate_skip(skip))
    token = _PASSIVE_MUTED.set(True)
    try:
        _run(envs, findings)
    except _StopChecksError:
        pass
    finally:
        _PASSIVE_MUTED.reset(token)
    return findings.emit(warn=warn)


def _run(envs: Any, f: Findings) -> None:
    missing = [name for name in _MEMBERS if not hasattr(envs, name)]
    if missing:
        f.add("PG160", f"{type(envs).__name__} lacks {', '.join(missing)}.")
        raise _StopChecksError
    num_envs = envs.num_envs
    if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
        f.add("PG160", f"num_envs is {num_envs!r}, not a positive int.")
        raise _StopChecksError
    num_envs = int(num_envs)
    ok = passive.check_space(envs.single_action_space, "single_action", f)
    ok &= passive.check_space(envs.single_observation_space, "single_observation", f)
    ok &= passive.check_space(envs.action_space, "action", f)
    ok &= passive.check_space(envs.observation_space, "observation", f)
    if not ok:
        raise _StopChecksError
    for role in ("action", "observation"):
        _check_batched_space(getattr(envs, f"single_{role}_space"),
                             getattr(envs, f"{role}_space"), role, num_envs, f)
    if f.has_errors:
        raise _StopChecksError
    mode = _autoreset_mode(envs, f)

    obs = _reset(envs, f, f"reset(seed={_SEED})", seed=_SEED)
    first = copy.deepcopy(obs)
    again = _reset(envs, f, f"reset(seed={_SEED})", seed=_SEED)
    if not getattr(getattr(envs, "spec", None), "nondeterministic", False) and not data_equal(
        first, again
    ):
        f.add("PG130", f"Two vector reset(seed={_SEED}) calls gave different observations.")

    actions = copy.deepcopy(envs.action_space)
    actions.seed(_SEED)
    ended_before = np.zeros(num_envs, dtype=np.bool_)
    for _ in range(_MAX_STEPS):
        result = envs.step(actions.sample())
        checked = _check_step(envs, result, num_envs, f)
        if checked is None:
            raise _StopChecksError
        _, rewards, terminations, truncations, infos = checked
        ended = np.logical_or(terminations, truncations)
        if mode == "next_step":
            _check_next_step(rewards, terminations, truncations, ended_before, f)
        elif mode == "same_step":
            _check_same_step(envs, infos, ended, f)
        elif mode == "disabled" and ended.any():
            _reset(envs, f, "reset(options={'reset_mask': ended})",
                   options={"reset_mask": ended.copy()})
        ended_before = ended
        if f.has_errors:
            raise _StopChecksError


def _check_batched_space(single: Any, batched: Any, role: str, num_envs: int,
                         f: Findings) -> None:
    """PG161 for array spaces: the batch adds a leading axis of num_envs, same dtype."""
    if single.shape is None or batched.shape is None or single.dtype is None:
        return
    expected = (num_envs, *single.shape)
    if tuple(batched.shape) != expected or batched.dtype != single.dtype:
        f.add("PG161", f"{role}_space has shape {batched.shape} and dtype {batched.dtype}; "
                       f"batching single_{role}_space over {num_envs} envs gives shape "
                       f"{expected} and dtype {single.dtype}.")


def _autoreset_mode(envs: Any, f: Findings) -> str | None:
    declared = envs.metadata.get("autoreset_mode")
    if declared is None:
        f.add("PG260", f"{type(envs).__name__}.metadata has no 'autoreset_mode'.")
        declared = getattr(envs, "autoreset_mode", None)
    if declared is None:
        return None
    # protogym spells the values "next_step", Gymnasium's enum "NextStep": accept both.
    letters = "".join(c for c in str(getattr(declared, "value", declared)).lower() if c.isalpha())
    return _MODES.get(letters, letters)


def _reset(envs: Any, f: Findings, what: str, **kwargs: Any) -> Any:
    try:
        result = envs.reset(**kwargs)
    except Exception as exc:
        f.add("PG104", f"vector {what} raised {type(exc).__name__}: {exc}")
        raise _StopChecksError from exc
    if not (isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], dict)):
        got = (f"a {len(result)}-tuple" if isinstance(result, tuple)
               else f"a {type(result).__name__}")
        f.add("PG166", f"vector {what} returned {got}, not `(observations, infos)`.")
        raise _StopChecksError
    _check_batch(envs, result[0], what, envs.num_envs, f)
    return result[0]


def _check_batch(envs: Any, obs: Any, what: str, num_envs: int, f: Findings) -> None:
    space = envs.observation_space
    if isinstance(obs, np.ndarray) and space.shape is not None and (
        obs.shape != tuple(space.shape) or obs.dtype != space.dtype
    ):
        f.add("PG162", f"The observations from {what} have shape {obs.shape} and dtype "
                       f"{obs.dtype}; observation_space has shape {space.shape} and dtype "
                       f"{space.dtype}.")
    elif not passive._in_space(obs, space):
        f.add("PG162", f"The observations from {what}, {passive._short(obs)}, are not in "
                       "observation_space.")


def _check_step(envs: Any, result: Any, num_envs: int,
                f: Findings) -> tuple[Any, Any, Any, Any, Any] | None:
    if not isinstance(result, tuple) or len(result) != 5:
        f.add("PG163", f"vector step() returned {passive._short(result)}, not `(observations, "
                       "rewards, terminations, truncations, infos)`.")
        return None
    obs, rewards, terminations, truncations, infos = result
    _check_batch(envs, obs, "step()", num_envs, f)
    for name, array, kinds in (("rewards", rewards, "iuf"), ("terminations", terminations, "b"),
                               ("truncations", truncations, "b")):
        if not isinstance(array, np.ndarray) or array.shape != (num_envs,) or (
            array.dtype.kind not in kinds
        ):
            got = (f"an array of shape {array.shape} and dtype {array.dtype}"
                   if isinstance(array, np.ndarray) else f"a {type(array).__name__}")
            want = "numbers" if kinds == "iuf" else "bools"
            f.add("PG163", f"vector step() returned {name} as {got}; expected an array of "
                           f"{num_envs} {want}.")
            return None
    if not isinstance(infos, dict):
        f.add("PG163", f"vector step() returned infos as a {type(infos).__name__}, not a dict.")
        return None
    return result


def _check_next_step(rewards: Any, terminations: Any, truncations: Any, ended_before: Any,
                     f: Findings) -> None:
    for index in np.flatnonzero(ended_before):
        if rewards[index] != 0 or terminations[index] or truncations[index]:
            f.add("PG164", f"next_step autoreset: sub-env {index} ended, but the following "
                           f"step gave reward={float(rewards[index])}, terminated="
                           f"{bool(terminations[index])}, truncated={bool(truncations[index])}; "
                           "expected 0, False, False.")


def _check_same_step(envs: Any, infos: dict[str, Any], ended: Any, f: Findings) -> None:
    key = next((k for k in _FINAL_OBS_KEYS if k in infos), None)
    if not ended.any():
        if key is not None and np.any(infos.get(f"_{key}", False)):
            f.add("PG165", f"same_step autoreset: info['_{key}'] is set although no sub-env "
                           "ended.")
        return
    ended_list = np.flatnonzero(ended).tolist()
    if key is None or "final_info" not in infos:
        f.add("PG165", f"same_step autoreset: sub-envs {ended_list} ended, but info lacks "
                       "'final_obs' or 'final_info'.")
        return
    for name in (key, "final_info"):
        mask = infos.get(f"_{name}")
        if not isinstance(mask, np.ndarray) or not np.array_equal(mask, ended):
            f.add("PG165", f"same_step autoreset: info['_{name}'] is {passive._short(mask)}; "
                           f"it must be true exactly for the sub-envs that ended "
                           f"({ended_list}).")
            return
    single = envs.single_observation_space
    finals, final_infos = infos[key], infos["final_info"]
    # Gym 0.26 and Gymnasium 1.x: an object array of single observations. protogym: a batch
    # like the observations (rows that did not end hold their current observation).
    per_env = isinstance(finals, np.ndarray) and finals.dtype == object
    if not per_env and not passive._in_space(finals, envs.observation_space):
        f.add("PG165", f"same_step autoreset: info['{key}'] = {passive._short(finals)} is "
                       "neither an object array of observations nor a batch in "
                       "observation_space.")
    for index in ended_list:
        if per_env and not passive._in_space(finals[index], single):
            f.add("PG165", f"same_step autoreset: info['{key}'][{index}] = "
                           f"{passive._short(finals[index])} is not in "
                           "single_observation_space.")
        # protogym and Gymnasium 1.x batch the final infos; Gym 0.26 keeps one dict each.
        if not isinstance(final_infos, dict) and not isinstance(final_infos[index], dict):
            f.add("PG165", f"same_step autoreset: info['final_info'][{index}] is a "
                           f"{type(final_infos[index]).__name__}, not the sub-env's info dict.")
