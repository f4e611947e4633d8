"""The runtime conformance checker: `check_env`, `check_vector_env`, `check_func_env` and the
rule catalogue.

Every finding names a rule from `RULES` by a stable id: ``PG1xx`` contract errors are raised
as `ContractError`, ``PG2xx`` best-practice problems are warned as `CheckerWarning`, ``PG3xx``
hints only appear in the returned `CheckReport`. The passive checker warns about some contract
errors instead, as Gymnasium's does (see `Rule.passive`). docs/checker.md explains each rule;
`protogym.utils.env_checker` and `protogym.utils.passive_env_checker` hold Gymnasium's
single-check functions on top of these rules.
"""

from __future__ import annotations

from protogym.checker.env import check_env
from protogym.checker.func_env import check_func_env
from protogym.checker.report import (
    CheckerDeprecationWarning,
    CheckerWarning,
    CheckReport,
    ContractAttributeError,
    ContractError,
    ContractTypeError,
    RuleResult,
)
from protogym.checker.rules import RULES, Rule, Severity
from protogym.checker.vector import check_vector_env

__all__ = [
    "RULES",
    "CheckReport",
    "CheckerDeprecationWarning",
    "CheckerWarning",
    "ContractAttributeError",
    "ContractError",
    "ContractTypeError",
    "Rule",
    "RuleResult",
    "Severity",
    "check_env",
    "check_func_env",
    "check_vector_env",
]
