"""`protogym list`: the registered envs, grouped by the plugin family that provides them.

The first screen is a count per family (Classic control, Toy text, Box2D, Atari, ...), then
each family's envs, one row per env (a name with its versions, namespaces and variants, such
as ``Pong-v0/v4, PongNoFrameskip-v0/v4, ALE/Pong-v5``). A family with many envs (Atari's 104
games) stays one row unless asked for: ``--plugin atari``, a PATTERN or ``--all`` (one row
per id with its limits and entry point). ``protogym list gymnasium:[PKG:][TEXT]`` lists the
ids of Gymnasium's registry instead, spelled as `protogym.make` takes them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections import defaultdict
from collections.abc import Sequence
from importlib import metadata
from typing import Any

from protogym.cli import env_info
from protogym.cli.console import Output, output

# A family with more envs than this is one row on the first screen.
COLLAPSE_ABOVE = 12


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "list",
        help="list registered environments by plugin family",
        description=(
            "List the registered envs: a count per plugin family, then each family's envs "
            "(one row per name with its versions and variants). Large families (Atari) are "
            "one row unless named with --plugin or matched by PATTERN; --all lists every id "
            "with its limits and entry point. 'gymnasium:[PKG:][TEXT]' as PATTERN lists "
            "Gymnasium's ids (after importing PKG) as protogym.make spells them."
        ),
    )
    parser.add_argument(
        "pattern", nargs="?", help="only ids containing this text (any case), e.g. pong"
    )
    parser.add_argument("--namespace", help="only ids in this namespace, e.g. ALE")
    parser.add_argument(
        "--plugin", help="only this family: its name or distribution, e.g. atari or "
        "protogym-atari"
    )
    parser.add_argument(
        "--all", action="store_true", help="one row per id, with max steps, reward threshold "
        "and entry point"
    )
    parser.add_argument("--plain", action="store_true", help="plain text even if rich is there")
    parser.set_defaults(func=list_envs)


def list_envs(args: argparse.Namespace) -> int:
    import protogym

    out = output(plain=args.plain)
    if args.pattern and args.pattern.startswith("gymnasium:"):
        return _list_gymnasium(args.pattern.removeprefix("gymnasium:"), out)
    pattern = (args.pattern or "").lower()
    specs = [
        spec
        for env_id, spec in sorted(protogym.registry.items())
        if pattern in env_id.lower()
        and (args.namespace is None or spec.namespace == args.namespace)
        and (args.plugin is None or _is_family(spec.plugin, args.plugin))
    ]
    if not specs:
        out.line(f"no registered environment matches{_filters(args)}")
        return 1
    if args.all:
        out.table(
            ("id", "plugin", "max steps", "reward threshold", "entry point"),
            [
                (
                    spec.id,
                    spec.plugin or "(registered in code)",
                    "" if spec.max_episode_steps is None else str(spec.max_episode_steps),
                    "" if spec.reward_threshold is None else f"{spec.reward_threshold:g}",
                    spec.to_dict()["entry_point"] or "",
                )
                for spec in specs
            ],
        )
        return 0
    _list_families(specs, out, expand=bool(args.pattern or args.plugin or args.namespace))
    return 0


def _list_families(specs: Sequence[Any], out: Output, *, expand: bool) -> None:
    from protogym.registration.pprint import compact_ids, env_families

    by_plugin: dict[str | None, list[tuple[str, list[str]]]] = defaultdict(list)
    for name, plugin, ids in env_families(specs):
        by_plugin[plugin].append((name, ids))
    plugins = sorted(
        by_plugin,
        key=lambda p: (len(by_plugin[p]) > COLLAPSE_ABOVE, env_info.family_name(p).lower()),
    )
    out.table(
        ("family", "plugin", "envs", "ids"),
        [
            (
                env_info.family_name(plugin),
                _distribution(plugin),
                str(len(by_plugin[plugin])),
                str(sum(len(ids) for _, ids in by_plugin[plugin])),
            )
            for plugin in plugins
        ],
    )
    for plugin in plugins:
        envs = by_plugin[plugin]
        title = f"{env_info.family_name(plugin)} ({_distribution(plugin)})"
        out.line()
        if expand or len(envs) <= COLLAPSE_ABOVE:
            out.table(("env", "ids"), [(name, compact_ids(ids)) for name, ids in envs],
                      title=title)
            continue
        names = ", ".join(name for name, _ in envs[:8])
        out.line(f"{title}: {len(envs)} envs, {names} and {len(envs) - 8} more", style="bold")
        slug = env_info.family_slug(plugin)
        out.line(f"  `protogym list --plugin {slug}` lists them with their ids")
    total = len(specs)
    count = len(by_plugin)
    out.line()
    out.line(
        f"{total} ids from {count} {'plugin' if count == 1 else 'plugins'}; "
        "`protogym list PATTERN` keeps the ids containing PATTERN, `--all` gives one row per "
        "id, `protogym describe ID` shows one env"
    )


def _is_family(plugin: str | None, wanted: str) -> bool:
    """Whether `wanted` names the family of `plugin`: its distribution, name or slug."""
    wanted = wanted.lower()
    names = {env_info.family_name(plugin).lower(), env_info.family_slug(plugin)}
    if plugin is not None:
        names.add(plugin.lower())
    return wanted in names


def _distribution(plugin: str | None) -> str:
    if plugin is None:
        return "(no plugin)"
    try:
        return f"{plugin} {metadata.version(plugin)}"
    except metadata.PackageNotFoundError:
        return plugin


def _list_gymnasium(rest: str, out: Output) -> int:
    """Gymnasium's registered ids containing TEXT, after importing PKG when named."""
    package, _, text = rest.rpartition(":")
    try:
        import gymnasium

        if package:
            importlib.import_module(package)
    except ImportError as error:
        print(f"protogym list: cannot list 'gymnasium:{rest}': {error}", file=sys.stderr)
        return 2
    prefix = f"gymnasium:{package}:" if package else "gymnasium:"
    top = package.split(".")[0]
    rows = []
    for env_id, spec in sorted(gymnasium.envs.registry.items()):
        entry = spec.entry_point if isinstance(spec.entry_point, str) else ""
        if text.lower() not in env_id.lower():
            continue
        if package and not entry.startswith((f"{top}.", f"{top}:")):
            continue
        limit = "" if spec.max_episode_steps is None else str(spec.max_episode_steps)
        rows.append((prefix + env_id, limit, entry))
    if not rows:
        where = f" registered by {package!r}" if package else ""
        out.line(f"Gymnasium has no id{where} containing {text!r}")
        return 1
    out.table(("id", "max steps", "Gymnasium's entry point"), rows)
    out.line(f"{len(rows)} Gymnasium ids; each works wherever protogym takes an id")
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
