"""`protogym list`: the registered envs with the plugin that provides each.

By default one row per family (a name with its versions, namespaces and variants, such as
Atari's ``Pong-v0/v4, PongNoFrameskip-v0/v4, ALE/Pong-v5``), so that hundreds of ids stay
readable; ``--all`` gives one row per id with its limits and entry point.
"""

from __future__ import annotations

import argparse
from typing import Any

from protogym.cli.console import console


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "list",
        help="list registered environments and their plugins",
        description=(
            "List the registered envs, one row per family of ids (versions, namespaces and "
            "variants of one name); --all lists every id with its limits and entry point."
        ),
    )
    parser.add_argument(
        "pattern", nargs="?", help="only ids containing this text (any case), e.g. pong"
    )
    parser.add_argument("--namespace", help="only ids in this namespace")
    parser.add_argument("--plugin", help="only ids of this distribution, e.g. protogym-atari")
    parser.add_argument(
        "--all", action="store_true", help="one row per id, with max steps, reward threshold "
        "and entry point"
    )
    parser.set_defaults(func=list_envs)


def list_envs(args: argparse.Namespace) -> int:
    from rich.table import Table

    import protogym
    from protogym.registration.pprint import compact_ids, env_families

    pattern = (args.pattern or "").lower()
    specs = [
        spec
        for env_id, spec in sorted(protogym.registry.items())
        if pattern in env_id.lower()
        and (args.namespace is None or spec.namespace == args.namespace)
        and (args.plugin is None or spec.plugin == args.plugin)
    ]
    out = console()
    if not specs:
        out.print(f"no registered environment matches{_filters(args)}")
        return 1
    if args.all:
        table = Table("id", "plugin", "max steps", "reward threshold", "entry point")
        for spec in specs:
            table.add_row(
                spec.id,
                spec.plugin or "(registered in code)",
                "" if spec.max_episode_steps is None else str(spec.max_episode_steps),
                "" if spec.reward_threshold is None else f"{spec.reward_threshold:g}",
                spec.to_dict()["entry_point"] or "",
            )
        out.print(table)
        return 0
    families = env_families(specs)
    table = Table("env", "ids", "plugin")
    for family, plugin, ids in families:
        table.add_row(family, compact_ids(ids), plugin or "(registered in code)")
    out.print(table)
    plugins = len({plugin for _, plugin, _ in families})
    out.print(
        f"{len(specs)} ids in {len(families)} families from {plugins} "
        f"{'plugin' if plugins == 1 else 'plugins'}; `protogym list --all` shows one row per "
        "id, `protogym list PATTERN` only the ids containing PATTERN"
    )
    return 0


def _filters(args: argparse.Namespace) -> str:
    parts = []
    if args.pattern:
        parts.append(f"the pattern {args.pattern!r}")
    if args.namespace is not None:
        parts.append(f"namespace {args.namespace!r}")
    if args.plugin is not None:
        parts.append(f"plugin {args.plugin!r}")
    return (" " + " and ".join(parts)) if parts else ""
