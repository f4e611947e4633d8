"""`check_env` under the Gym and Gymnasium docs' path, with Gymnasium's single checks.

Each ``check_*`` function here is a thin entry onto one part of protogym's checker, for
code that calls Gymnasium's pieces one by one: it runs those rules only, raises
`ContractError` (an `AssertionError` and an `error.Error`) for a contract error and warns
`CheckerWarning` (a `UserWarning`) for the rest, with messages that start with the rule id.
The passive checker's functions are importable from here too, as in Gymnasium.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protogym.checker import CheckReport, ContractError, check_env, passive
from protogym.checker.env import (
    StopChecks,
    check_data_reuse,
    check_reset_seeding,
    data_equal,
    describe,
    run_checks,
)
from protogym.checker.env import (
    check_step_determinism as _check_step_determinism,
)
from protogym.checker.report import Findings
from protogym.checker.rules import Severity
from protogym.utils.passive_env_checker import (
    check_action_space,
    check_observation_space,
    data_shares_objects,
    env_render_passive_checker,
    env_reset_passive_checker,
    env_step_passive_checker,
)

__all__ = [
    "CheckReport",
    "ContractError",
    "check_action_space",
    "check_env",
    "check_observation_space",
    "check_reset_options",
    "check_reset_return_info_deprecation",
    "check_reset_return_type",
    "check_reset_seed_determinism",
    "check_returned_data_not_reused",
    "check_seed_deprecation",
    "check_space_limit",
    "check_step_determinism",
    "data_equivalence",
    "data_shares_objects",
    "env_render_passive_checker",
    "env_reset_passive_checker",
    "env_step_passive_checker",
]


def data_equivalence(data_1: Any, data_2: Any, exact: bool = False) -> bool:
    """Whether two observations, actions or infos are equal: same types and structure,
    float arrays within 1e-5 (relative and absolute) unless `exact`; NaNs equal NaNs."""
    return data_equal(data_1, data_2, exact=exact)


def _check(env: Any, checks: Callable[[Findings], object]) -> None:
    findings = run_checks(Findings(describe(env)), checks)
    findings.emit(stacklevel=4)


def _nondeterministic(env: Any) -> bool:
    return bool(getattr(getattr(env, "spec", None), "nondeterministic", False))


def check_reset_seed_determinism(env: Any) -> None:
    """PG103 if reset() takes no `seed` (an `error.Error`); then PG130/PG131: reset(seed=s)
    reseeds `np_random` and repeats its observation from any state; PG202 warns for a seed
    default other than None."""

    def checks(f: Findings) -> None:
        if not passive.check_reset_signature(env, f, needs=("seed",), deprecations=False):
            raise StopChecks
        check_reset_seeding(env, f, check_values=not _nondeterministic(env))

    _check(env, checks)


def check_reset_options(env: Any) -> None:
    """PG103 if reset() takes no `options` (an `error.Error`); PG104 if
    ``reset(options={})`` raises."""

    def checks(f: Findings) -> None:
        if not passive.check_reset_signature(env, f, needs=("options",), deprecations=False):
            raise StopChecks
        try:
            env.reset(options={})
        except Exception as exc:
            f.add("PG104", f"reset(options={{}}) raised {type(exc).__name__}: {exc}")

    _check(env, checks)


def check_step_determinism(env: Any, seed: int = 123) -> None:
    """PG132 (and PG214/PG213): after ``reset(seed=seed)`` the same action gives the same
    step twice. Skipped for an env whose spec says it is nondeterministic."""
    if _nondeterministic(env):
        return
    _check(env, lambda f: _check_step_determinism(env, f, seed, validate=False))


def check_returned_data_not_reused(env: Any, seed: int = 123) -> None:
    """PG133: no two of a few resets and steps return observations or infos that share a
    mutable object."""
    _check(env, lambda f: check_data_reuse(env, f, seed))


def check_reset_return_info_deprecation(env: Any) -> None:
    """PG204 warns if reset() still takes the deprecated `return_info` argument."""
    _check(env, lambda f: passive.check_return_info(env, f))


def check_seed_deprecation(env: Any) -> None:
    """PG203 warns if the env still has a callable seed() method."""
    _check(env, lambda f: passive.check_seed_method(env, f))


def check_reset_return_type(env: Any) -> None:
    """Call ``env.reset()``: PG110/PG111 (not `(obs, info)`), PG112 (info not a dict) and
    PG113 (observation not in the space) raise."""
    _check(env, lambda f: passive.check_reset_result(env.reset(), env.observation_space, f))


def check_space_limit(space: Any, space_type: str) -> CheckReport:
    """The Box-limit hints for `space` (PG300-PG302: infinite bounds, an action space that
    is not normalised), through Tuple and Dict spaces.

    They are returned, not warned: many correct envs have unbounded observations, so
    protogym keeps this advice out of the warnings (Gymnasium warns it).
    """
    findings = Findings(f"{space_type}_space")
    passive.check_space(space, space_type, findings, hints=True)
    report = findings.report
    report.results = [r for r in report.results if r.severity is Severity.HINT]
    return report
