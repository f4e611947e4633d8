"""`protogym describe ID`: what one env is, as its docs page says it: the one-paragraph summary,
spec, spaces and render modes, the constructor arguments with their defaults, and the wrapper
stack `make` builds."""

from __future__ import annotations

import argparse
import sys
from importlib import metadata
from typing import Any

from protogym.cli import env_info
from protogym.cli.console import output
from protogym.cli.targets import TargetError, find_spec, load_env


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "describe",
        help="show one environment's summary, spec, spaces and arguments",
        description="Describe an env: its summary, spec, spaces and render modes, the "
        "arguments its constructor takes with their defaults, and the wrapper stack make "
        "builds. ID is any id make takes (CartPole-v1, ALE/Pong-v5, gymnasium:CartPole-v1, "
        "gymnasium:ale_py:ALE/Pong-v5) or module:Class.",
    )
    parser.add_argument("env_id", metavar="ID", help="an env id, or module:Class")
    parser.add_argument("--plain", action="store_true", help="plain text even if rich is there")
    parser.set_defaults(func=describe)


def describe(args: argparse.Namespace) -> int:
    spec, _ = find_spec(args.env_id)
    try:
        env = load_env(args.env_id)
    except TargetError as error:
        print(f"protogym describe: {error}", file=sys.stderr)
        return 2
    try:
        rows = [
            *_spec_rows(spec),
            ("observation space", _one_line(env.observation_space)),
            ("action space", _one_line(env.action_space)),
            ("render modes", ", ".join(env.metadata.get("render_modes", [])) or "none"),
            ("wrapper stack", str(env)),
        ]
    finally:
        env.close()
    # a structural env need not have `unwrapped`; then it is its own innermost env
    innermost = getattr(env, "unwrapped", env)
    factory = env_info.entry_callable(spec) if spec is not None else type(innermost)
    out = output(plain=args.plain)
    out.line(_heading(args.env_id, spec), style="bold")
    text = env_info.summary(factory) if factory is not None else ""
    if text:
        out.line(text)
    out.line()
    out.fields(rows)
    found = env_info.arguments(factory, spec) if factory is not None else []
    if found:
        out.line()
        out.line(_arguments_title(args.env_id, spec), style="bold")
        out.table(
            ("argument", "default", "set by the id"),
            [(a.name, "required" if a.default is None else a.default, a.set_by_id or "")
             for a in found],
        )
    return 0


def _one_line(value: object) -> str:
    return " ".join(str(value).split())


def _heading(target: str, spec: Any) -> str:
    if spec is None:
        return target
    if spec.plugin is None and spec.id.startswith("gymnasium:"):
        return f"{target} (from Gymnasium's registry)"
    family = env_info.family_name(spec.plugin)
    if spec.plugin is None:
        return f"{target} ({family})"
    try:
        version = f" {metadata.version(spec.plugin)}"
    except metadata.PackageNotFoundError:
        version = ""
    return f"{target} ({family}: {spec.plugin}{version})"


def _arguments_title(target: str, spec: Any) -> str:
    if spec is None:
        return "Arguments of the constructor"
    return "Arguments (make passes its keyword arguments on to these)"


def _spec_rows(spec: Any) -> list[tuple[str, str]]:
    if spec is None:
        return []
    fields = spec.to_dict()
    rows = [("id", spec.id), ("entry point", str(fields["entry_point"]))]
    if fields.get("vector_entry_point"):
        rows.append(("vector entry point", str(fields["vector_entry_point"])))
    rows += [
        ("max episode steps", _or_none(spec.max_episode_steps)),
        ("reward threshold", _or_none(spec.reward_threshold)),
        ("nondeterministic", str(spec.nondeterministic)),
        ("step API", spec.api),
    ]
    if spec.kwargs:
        rows.append(("registered arguments",
                     ", ".join(f"{key}={value!r}" for key, value in spec.kwargs.items())))
    if spec.additional_wrappers:
        rows.append(("additional wrappers",
                     ", ".join(wrapper.name for wrapper in spec.additional_wrappers)))
    return rows


def _or_none(value: object) -> str:
    return "none" if value is None else str(value)
