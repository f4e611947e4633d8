"""`protogym describe ID`: the spec, spaces and render modes of one env."""

from __future__ import annotations

import argparse
from typing import Any

from protogym.cli.console import console


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("describe", help="show one environment's spec and spaces")
    parser.add_argument("env_id")
    parser.set_defaults(func=describe)


def describe(args: argparse.Namespace) -> int:
    from rich.table import Table

    import protogym

    spec = protogym.spec(args.env_id)
    env = protogym.make(spec, disable_env_checker=True)
    table = Table(show_header=False)
    for key, value in spec.to_dict().items():
        table.add_row(key, repr(value))
    table.add_row("observation_space", str(env.observation_space))
    table.add_row("action_space", str(env.action_space))
    table.add_row("render_modes", repr(list(env.metadata.get("render_modes", []))))
    table.add_row("wrapper stack", str(env))
    env.close()
    console().print(table)
    return 0
