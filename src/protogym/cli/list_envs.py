"""`protogym list`: every registered env with the plugin that provides it."""

from __future__ import annotations

import argparse
from typing import Any

from protogym.cli.console import console


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("list", help="list registered environments and their plugins")
    parser.add_argument("--namespace", help="only ids in this namespace")
    parser.set_defaults(func=list_envs)


def list_envs(args: argparse.Namespace) -> int:
    from rich.table import Table

    import protogym

    table = Table("id", "plugin", "max steps", "reward threshold", "entry point")
    shown = 0
    for env_id in sorted(protogym.registry):
        spec = protogym.registry[env_id]
        if args.namespace is not None and spec.namespace != args.namespace:
            continue
        table.add_row(
            env_id,
            spec.plugin or "(registered in code)",
            "" if spec.max_episode_steps is None else str(spec.max_episode_steps),
            "" if spec.reward_threshold is None else f"{spec.reward_threshold:g}",
            spec.to_dict()["entry_point"] or "",
        )
        shown += 1
    out = console()
    if not shown:
        where = f" in namespace {args.namespace!r}" if args.namespace else ""
        out.print(f"no environments are registered{where}")
        return 1
    out.print(table)
    return 0
