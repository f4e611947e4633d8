"""`check_environments_match`: drive two envs side by side and say where they first differ.

For porting an env (a rewrite, a native vector version, a Gymnasium env brought over):
both get the same seed and the same random actions, and every reset and step is compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from protogym.checker.env import data_equal

__all__ = ["InfoComparison", "check_environments_match"]

InfoComparison = Literal["equivalence", "superset", "skip", "keys-equivalence", "keys-superset"]
"""How infos are compared: equal; every key of `env_a`'s with an equal value in `env_b`'s;
not at all; the same keys; `env_b`'s keys include `env_a`'s."""


def _info_difference(how: str, info_a: Mapping[str, Any], info_b: Mapping[str, Any]) -> str:
    """What differs between two infos under comparison `how`, or "" if nothing does."""
    if how == "equivalence":
        return "" if data_equal(info_a, info_b) else f"info_a = {info_a}, info_b = {info_b}"
    if how == "superset":
        for key, value in info_a.items():
            if key not in info_b or not data_equal(value, info_b[key]):
                return (f"info_b lacks or differs at key {key!r}: info_a has {value!r}, "
                        f"info_b {info_b.get(key, '<missing>')!r}")
        return ""
    if how == "keys-equivalence":
        return "" if info_a.keys() == info_b.keys() else (
            f"the keys differ: info_a {sorted(info_a)}, info_b {sorted(info_b)}")
    if how == "keys-superset":
        missing = info_a.keys() - info_b.keys()
        return f"info_b lacks the keys {sorted(missing)}" if missing else ""
    return ""


def check_environments_match(
    env_a: Any,
    env_b: Any,
    num_steps: int,
    seed: int = 0,
    skip_obs: bool = False,
    skip_rew: bool = False,
    skip_terminal: bool = False,
    skip_truncated: bool = False,
    skip_render: bool = False,
    info_comparison: InfoComparison = "equivalence",
) -> None:
    """Raise `AssertionError` at the first reset or step where `env_a` and `env_b` differ.

    Both are reset with `seed`, then stepped `num_steps` times with actions sampled from
    `env_a`'s action space (seeded with `seed`) and reset with `seed` whenever either ends.
    The ``skip_*`` flags leave out observations (and the observation spaces), rewards,
    terminations, truncations or frames; frames are only compared when both envs render to
    arrays. `info_comparison` says how infos are compared (see `InfoComparison`).
    """
    if info_comparison not in ("equivalence", "superset", "skip", "keys-equivalence",
                               "keys-superset"):
        raise ValueError(
            f"info_comparison must be one of 'equivalence', 'superset', 'skip', "
            f"'keys-equivalence', 'keys-superset'; got {info_comparison!r}"
        )
    compare_frames = not skip_render and all(
        env.unwrapped.render_mode not in (None, "human") for env in (env_a, env_b)
    )

    def compare_reset(when: str) -> None:
        obs_a, info_a = env_a.reset(seed=seed)
        obs_b, info_b = env_b.reset(seed=seed)
        if not (skip_obs or data_equal(obs_a, obs_b)):
            raise AssertionError(f"the observations of reset {when} differ: {obs_a} vs {obs_b}")
        difference = _info_difference(info_comparison, info_a, info_b)
        if difference:
            raise AssertionError(f"the infos of reset {when} differ: {difference}")
        if compare_frames and not np.all(env_a.render() == env_b.render()):
            raise AssertionError(f"the frames rendered after reset {when} differ")

    if env_a.action_space != env_b.action_space:
        raise AssertionError(
            f"the action spaces differ: {env_a.action_space} vs {env_b.action_space}"
        )
    if not skip_obs and env_a.observation_space != env_b.observation_space:
        raise AssertionError(f"the observation spaces differ: {env_a.observation_space} vs "
                             f"{env_b.observation_space}")
    env_a.action_space.seed(seed)
    compare_reset("at the start")
    for step in range(num_steps):
        action = env_a.action_space.sample()
        obs_a, reward_a, terminated_a, truncated_a, info_a = env_a.step(action)
        obs_b, reward_b, terminated_b, truncated_b, info_b = env_b.step(action)
        where = f"step {step} (action {action})"
        if not (skip_obs or data_equal(obs_a, obs_b)):
            raise AssertionError(f"the observations of {where} differ: {obs_a} vs {obs_b}")
        if not (skip_rew or data_equal(reward_a, reward_b)):
            raise AssertionError(f"the rewards of {where} differ: {reward_a} vs {reward_b}")
        if not (skip_terminal or terminated_a == terminated_b):
            raise AssertionError(
                f"terminated of {where} differs: {terminated_a} vs {terminated_b}"
            )
        if not (skip_truncated or truncated_a == truncated_b):
            raise AssertionError(f"truncated of {where} differs: {truncated_a} vs {truncated_b}")
        difference = _info_difference(info_comparison, info_a, info_b)
        if difference:
            raise AssertionError(f"the infos of {where} differ: {difference}")
        if compare_frames and not np.all(env_a.render() == env_b.render()):
            raise AssertionError(f"the frames rendered after {where} differ")
        if terminated_a or truncated_a or terminated_b or truncated_b:
            compare_reset(f"after {where}")
