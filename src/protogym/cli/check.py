"""`protogym check <id | module:Class>`: run `check_env` and print the report as a table.

The exit code is 1 when a contract error (``PG1xx``) fired, else 0, so the command can gate
a CI job. An id, in any form `make` takes (``gymnasium:PKG:ID`` included), is built with
`protogym.make` (the report then covers the made env); only a target that is no id is read
as ``module:Class``: a class (or factory) that is called with no arguments, or an env object.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from protogym.checker.report import CheckReport, ContractError
from protogym.cli.targets import TargetError, find_spec, load_env

__all__ = ["add_parser", "load_target", "print_rules", "render_report", "run_check"]

_STYLES = {"error": "bold red", "warning": "yellow", "hint": "cyan"}


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check", help="check an environment against the contract (exit 1 on errors)",
        description="Run the conformance checker on a registered id or on module:Class, "
                    "print every finding with its rule id and fix, and exit 1 if a contract "
                    "error fired.",
    )
    parser.add_argument("target", nargs="?",
                        help="an env id (CartPole-v1, gymnasium:ale_py:ALE/Pong-v5), or "
                             "module:Class / module:factory")
    parser.add_argument("--render", action="store_true",
                        help="also check rendering (the env's mode and every declared mode)")
    parser.add_argument("--vector", type=int, metavar="N",
                        help="check make_vec(id, N) with check_vector_env instead")
    parser.add_argument("--rules", action="store_true",
                        help="list every rule with its severity and fix, and exit")
    parser.add_argument("--skip", action="append", default=[], metavar="PGxxx[,PGxxx]",
                        help="silence rules by id; repeat or separate with commas")
    parser.add_argument("--plain", action="store_true", help="plain text even if rich is there")
    parser.set_defaults(func=run_check)


def load_target(target: str) -> Any:
    """The env to check: `make(target)` for an id in any form `make` takes (tried first), else
    the object ``module:attr`` names (a class or factory is called with no arguments)."""
    try:
        return load_env(target)
    except TargetError as error:
        raise SystemExit(f"protogym check: {error}") from None


def run_check(args: argparse.Namespace) -> int:
    if args.rules:
        print_rules(plain=args.plain)
        return 0
    if args.target is None:
        raise SystemExit("protogym check: give an env id or module:Class (or --rules)")
    skip = [rule.strip() for item in args.skip for rule in item.split(",") if rule.strip()]
    from protogym.checker import check_env, check_vector_env

    if args.vector is not None:
        if args.vector < 1 or find_spec(args.target)[0] is None:
            raise SystemExit("protogym check: --vector N takes a registered id and N >= 1")
        import protogym

        env: Any = protogym.make_vec(args.target, args.vector)
    else:
        env = load_target(args.target)
    try:
        if args.vector is not None:
            report = check_vector_env(env, warn=False, skip=skip)
        else:
            report = check_env(env, warn=False, skip_render_check=not args.render, skip=skip)
    except ContractError as exc:
        report = exc.report
    finally:
        close = getattr(env, "close", None)
        if callable(close):
            close()
    render_report(report, plain=args.plain)
    return 0 if report.ok else 1


def render_report(
    report: CheckReport, *, plain: bool = False, out: TextIO | None = None,
    width: int | None = None,
) -> None:
    """Print the findings as a table: with rich when installed (and not `plain`)."""
    stream = out if out is not None else sys.stdout
    rows = [(r.id, r.severity.value, r.name, r.message, r.fix) for r in report.results]
    summary = (f"{report.target}: {len(report.errors)} error(s), {len(report.warnings)} "
               f"warning(s), {len(report.hints)} hint(s)")
    if report.silenced:
        summary += f"; silenced: {', '.join(dict.fromkeys(r.id for r in report.silenced))}"
    verdict = "PASS" if report.ok else "FAIL"
    try:
        if plain:
            raise ImportError
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        _plain_table(rows, stream)
        print(f"{verdict} {summary}", file=stream)
        return
    console = Console(file=stream, highlight=False, width=width)
    if rows:
        table = Table(title=report.target, show_lines=True)
        for column in ("rule", "severity", "name", "message", "fix"):
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(*row, style=_STYLES[row[1]])
        console.print(table)
    console.print(f"[{'green' if report.ok else 'bold red'}]{verdict}[/] {summary}")


def _plain_table(rows: list[tuple[str, str, str, str, str]], stream: TextIO) -> None:
    if not rows:
        return
    header = ("rule", "severity", "name", "message")
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(3)]
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=False))
    print(f"{line}  {header[3]}", file=stream)
    for row in rows:
        cells = "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False))
        print(f"{cells}  {row[3]}", file=stream)
        print(f"{' ' * (sum(widths) + 6)}fix: {row[4]}", file=stream)


def print_rules(*, plain: bool = False, out: TextIO | None = None) -> None:
    """Print the rule catalogue: id, severity, name, what it checks and the fix."""
    from protogym.checker import RULES

    stream = out if out is not None else sys.stdout
    try:
        if plain:
            raise ImportError
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        for rule in RULES.values():
            print(f"{rule.id}  {rule.severity.value:<7}  {rule.name}: {rule.summary}",
                  file=stream)
            print(f"{'':18}fix: {rule.fix}", file=stream)
        return
    table = Table(title="protogym conformance rules", show_lines=True)
    for column in ("rule", "severity", "name", "checks", "fix"):
        table.add_column(column, overflow="fold")
    for rule in RULES.values():
        table.add_row(rule.id, rule.severity.value, rule.name, rule.summary, rule.fix,
                      style=_STYLES[rule.severity.value])
    Console(file=stream, highlight=False).print(table)
