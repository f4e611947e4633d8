"""The runtime conformance checker: `check_env`, `check_vector_env` and the rule catalogue.

Every finding names a rule from `RULES` by a stable id: ``PG1xx`` contract errors are raised
as `ContractError`, ``PG2xx`` best-practice problems are warned as `CheckerWarning`, ``PG3xx``
hints only appear in the returned `CheckReport`. docs/checker.md explains each rule.
"""

from __future__ import annotations

from protogym.checker.env import check_env
from protogym.checker.report import (
    CheckerWarning,
    CheckReport,
    ContractError,
    RuleResult,
)
from protogym.checker.rules import RULES, Rule, Severity
from protogym.checker.vector import check_vector_env

__all__ = [
    "RULES",
    "CheckReport",
    "CheckerWarning",
    "ContractError",
    "Rule",
    "RuleResult",
    "Severity",
    "check_env",
    "check_vector_env",
]
