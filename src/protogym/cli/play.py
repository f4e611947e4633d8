"""`protogym play ID`: play an environment with the keyboard in a pygame window."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play an environment with the keyboard (needs pygame)",
        description=(
            "Open a window showing the env's frames and play it with the keys of its "
            "get_keys_to_action(). Escape or closing the window quits. Envs whose metadata "
            "says turn_based step once per key press; others run in real time."
        ),
    )
    parser.add_argument(
        "env_id", metavar="ID",
        help="an env id (FrozenLake-v1, gymnasium:ale_py:ALE/Pong-v5) or module:Class",
    )
    parser.add_argument(
        "--fps",
        type=_positive_float,
        default=None,
        help="frames per second (default: the env's render_fps, else 30)",
    )
    parser.add_argument(
        "--zoom", type=_positive_float, default=None, help="scale the picture by this factor"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the first reset")
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument(
        "--wait-on-player",
        dest="wait_on_player",
        action="store_true",
        default=None,
        help="step once per key press",
    )
    pace.add_argument(
        "--realtime",
        dest="wait_on_player",
        action="store_false",
        help="step every frame, with the no-op action when no key is held",
    )
    parser.set_defaults(func=run)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def run(args: argparse.Namespace) -> int:
    from protogym.cli.targets import TargetError, load_env
    from protogym.utils.play import MissingKeysToAction, play

    try:
        env = load_env(args.env_id, render_mode="rgb_array")
    except TargetError as exc:
        print(f"protogym play: {exc}", file=sys.stderr)
        return 2
    wait = args.wait_on_player
    if wait is None:
        innermost = getattr(env, "unwrapped", env)  # a structural env may lack `unwrapped`
        wait = bool(innermost.metadata.get("turn_based", False))
    try:
        play(env, fps=args.fps, zoom=args.zoom, seed=args.seed, wait_on_player=wait)
    except MissingKeysToAction as exc:
        print(f"protogym play: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f"protogym play: {exc}", file=sys.stderr)
        return 1
    finally:
        env.close()
    return 0
