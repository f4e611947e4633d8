"""Findings, the report that `check_env` returns, and how findings are raised or warned.

A check collects every finding first and surfaces them at the end: if a contract error
fired, one `ContractError` is raised carrying the whole report (warnings included, and
not warned separately); otherwise each warning rule is warned once. Warnings honour
`protogym.logger`'s level, as Gymnasium's checker warnings do: ``logger.set_level(40)``
silences them.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from protogym import logger
from protogym.checker.rules import RULES, Severity
from protogym.error import Error

__all__ = [
    "CheckReport",
    "CheckerDeprecationWarning",
    "CheckerWarning",
    "ContractAttributeError",
    "ContractError",
    "ContractTypeError",
    "Findings",
    "RuleResult",
    "passive_checks_muted",
    "validate_skip",
]

_PASSIVE_MUTED: ContextVar[bool] = ContextVar("protogym_passive_checks_muted", default=False)


def passive_checks_muted() -> bool:
    """True while `check_env` runs: a `PassiveEnvChecker` inside the env then stays quiet."""
    return _PASSIVE_MUTED.get()


class CheckerWarning(UserWarning):
    """A best-practice problem found by the conformance checker; the message starts with its id."""


class CheckerDeprecationWarning(CheckerWarning, DeprecationWarning):
    """A finding about a deprecated API (an old reset signature, the 4-tuple step) that the
    passive checker warns about instead of raising, as Gymnasium's does."""


@dataclass(frozen=True, slots=True)
class RuleResult:
    """One finding: which rule fired, how severe it is, what happened and how to fix it."""

    id: str
    severity: Severity
    message: str
    fix: str
    raises: type[Exception] = field(default=AssertionError, compare=False)
    """The builtin exception class the finding is raised as, besides `ContractError`."""

    @property
    def name(self) -> str:
        return RULES[self.id].name

    def __str__(self) -> str:
        return f"{self.id} {self.name}: {self.message} Fix: {self.fix}"


@dataclass(slots=True)
class CheckReport:
    """What a check found: `results` in the order found, and the ids that were silenced."""

    target: str
    results: list[RuleResult] = field(default_factory=list)
    silenced: list[RuleResult] = field(default_factory=list)

    @property
    def errors(self) -> list[RuleResult]:
        return [r for r in self.results if r.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[RuleResult]:
        return [r for r in self.results if r.severity is Severity.WARNING]

    @property
    def hints(self) -> list[RuleResult]:
        return [r for r in self.results if r.severity is Severity.HINT]

    @property
    def ok(self) -> bool:
        """True when no contract error fired (warnings and hints allowed)."""
        return not self.errors

    @property
    def ids(self) -> list[str]:
        """The ids that fired, in order, without repeats."""
        return list(dict.fromkeys(r.id for r in self.results))

    def __iter__(self) -> Iterator[RuleResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __str__(self) -> str:
        if not self.results:
            return f"{self.target}: no findings"
        lines = [f"{self.target}: {len(self.errors)} error(s), {len(self.warnings)} "
                 f"warning(s), {len(self.hints)} hint(s)"]
        lines.extend(f"  [{r.severity.value}] {r}" for r in self.results)
        return "\n".join(lines)


class ContractError(Error, AssertionError):
    """The env breaks the contract; `report` holds every finding made before it was raised.

    It is also an `AssertionError`, which is what Gymnasium's checker raises for most of the
    same problems, so code written against either library catches it. `raised_for` picks
    the subclass that is also the builtin class Gymnasium raises for the first error
    (`TypeError` for something that is not an env or not a space, `AttributeError` for a
    missing space).
    """

    def __init__(self, report: CheckReport) -> None:
        self.report = report
        errors = report.errors
        lines = [f"{report.target} breaks the environment contract "
                 f"({len(errors)} error{'s' if len(errors) != 1 else ''}):"]
        lines.extend(f"  {r}" for r in errors)
        if report.warnings:
            lines.append("  and warns:")
            lines.extend(f"  {r}" for r in report.warnings)
        super().__init__("\n".join(lines))

    @staticmethod
    def raised_for(report: CheckReport) -> ContractError:
        """The error to raise for `report`, of the class its first error asks for."""
        first = report.errors[0].raises
        if issubclass(first, AttributeError):
            return ContractAttributeError(report)
        if issubclass(first, TypeError):
            return ContractTypeError(report)
        return ContractError(report)


class ContractTypeError(ContractError, TypeError):
    """A `ContractError` for an object that is not an env, or a space that is not a Space."""


class ContractAttributeError(ContractError, AttributeError):
    """A `ContractError` for an env that lacks its action or observation space."""


def validate_skip(skip: Iterable[str]) -> frozenset[str]:
    """Check that every id in `skip` names a rule, so a typo never silences nothing quietly."""
    if isinstance(skip, str):
        raise TypeError(f"skip must be a collection of rule ids, got the str {skip!r}; "
                        f"write skip=({skip!r},)")
    ids = frozenset(skip)
    unknown = sorted(ids - RULES.keys())
    if unknown:
        raise ValueError(f"unknown rule id(s) in skip: {', '.join(unknown)}; every rule "
                         "is listed in protogym.checker.RULES and docs/checker.md")
    return ids


class Findings:
    """Collects findings for one check, dropping the silenced ones into `report.silenced`.

    With `passive`, each rule takes its passive severity (see `Rule.passive`).
    """

    __slots__ = ("passive", "report", "skip")

    def __init__(
        self, target: str, skip: frozenset[str] = frozenset(), *, passive: bool = False
    ) -> None:
        self.report = CheckReport(target)
        self.skip = skip
        self.passive = passive

    def add(
        self, rule_id: str, message: str, fix: str | None = None,
        *, raises: type[Exception] | None = None,
    ) -> None:
        """Record a finding of `rule_id`; `raises` overrides the rule's builtin class."""
        rule = RULES[rule_id]
        severity = rule.passive_severity if self.passive else rule.severity
        result = RuleResult(rule_id, severity, message, fix or rule.fix, raises or rule.raises)
        if result in self.report.results or result in self.report.silenced:
            return  # the same finding from a repeated call says nothing new
        if rule_id in self.skip:
            self.report.silenced.append(result)
        else:
            self.report.results.append(result)

    @property
    def has_errors(self) -> bool:
        return any(r.severity is Severity.ERROR for r in self.report.results)

    def emit(self, *, warn: bool = True, stacklevel: int = 3) -> CheckReport:
        """Raise `ContractError` if any error fired; else warn each warning (if `warn`)."""
        if self.report.errors:
            raise ContractError.raised_for(self.report)
        if warn and logger.min_level <= logger.WARN:
            by_id: dict[str, list[RuleResult]] = {}
            for result in self.report.warnings:
                by_id.setdefault(result.id, []).append(result)
            for rule_id, same in by_id.items():  # one warning per rule; the report keeps all
                more = f" ({len(same) - 1} more like this in the report)" if len(same) > 1 else ""
                category = (CheckerDeprecationWarning if RULES[rule_id].deprecation
                            else CheckerWarning)
                warnings.warn(f"{same[0]}{more}", category, stacklevel=stacklevel)
        return self.report
