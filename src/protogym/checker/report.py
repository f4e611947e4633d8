"""Findings, the report that `check_env` returns, and how findings are raised or warned."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from protogym.checker.rules import RULES, Severity
from protogym.error import Error

__all__ = [
    "CheckReport",
    "CheckerWarning",
    "ContractError",
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


@dataclass(frozen=True, slots=True)
class RuleResult:
    """One finding: which rule fired, how severe it is, what happened and how to fix it."""

    id: str
    severity: Severity
    message: str
    fix: str

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

    It is also an `AssertionError`, which is what Gymnasium's checker raises for the same
    problems, so code written against either library catches it.
    """

    def __init__(self, report: CheckReport) -> None:
        self.report = report
        errors = report.errors
        lines = [f"{report.target} breaks the environment contract "
                 f"({len(errors)} error{'s' if len(errors) != 1 else ''}):"]
        lines.extend(f"  {r}" for r in errors)
        super().__init__("\n".join(lines))


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
    """Collects findings for one check, dropping the silenced ones into `report.silenced`."""

    __slots__ = ("report", "skip")

    def __init__(self, target: str, skip: frozenset[str] = frozenset()) -> None:
        self.report = CheckReport(target)
        self.skip = skip

    def add(self, rule_id: str, message: str, fix: str | None = None) -> None:
        rule = RULES[rule_id]
        result = RuleResult(rule_id, rule.severity, message, fix or rule.fix)
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
        """Warn each warning (if `warn`), then raise `ContractError` if any error fired."""
        if warn:
            by_id: dict[str, list[RuleResult]] = {}
            for result in self.report.warnings:
                by_id.setdefault(result.id, []).append(result)
            for same in by_id.values():  # one warning per rule; the report keeps them all
                more = f" ({len(same) - 1} more like this in the report)" if len(same) > 1 else ""
                warnings.warn(f"{same[0]}{more}", CheckerWarning, stacklevel=stacklevel)
        if self.report.errors:
            raise ContractError(self.report)
        return self.report
