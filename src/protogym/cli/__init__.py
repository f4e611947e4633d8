"""The `protogym` command: one sub-command per module in this package."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each module defines `add_parser(subparsers)`, which registers its sub-command and sets
# `func` on the parsed namespace to the callable that runs it and returns an exit code.
COMMAND_MODULES: tuple[str, ...] = (
    "list_envs",
    "describe",
    "run",
    "check",
    "play",
    "record",
    "stubs",
    "new_plugin",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="protogym",
        description=(
            "List, describe, run, check, play and record environments; write stubs; "
            "scaffold a new env plugin."
        ),
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"protogym.cli.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
