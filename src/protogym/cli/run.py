"""`protogym run ID`: rollouts of a random agent, or of a policy the env's plugin names, with
a progress bar (with rich), a table and a summary. ID is any id `make` takes, or
``module:Class``."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from protogym.cli.console import output
from protogym.cli.targets import TargetError, load_env


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run", help="run episodes (random or a named policy) and report returns and lengths"
    )
    parser.add_argument(
        "env_id", metavar="ID",
        help="an env id (CartPole-v1, gymnasium:ale_py:ALE/Pong-v5) or module:Class",
    )
    parser.add_argument("--episodes", type=_positive_int, default=10, help="default: 10")
    parser.add_argument("--seed", type=int, default=None, help="seed of env and actions")
    parser.add_argument("--max-episode-steps", type=_positive_int, default=None)
    parser.add_argument(
        "--policy",
        default="random",
        help="'random' (default) or a policy the env's plugin names, e.g. 'heuristic'",
    )
    parser.add_argument("--plain", action="store_true", help="plain text even if rich is there")
    parser.set_defaults(func=run)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def run(args: argparse.Namespace) -> int:
    import protogym
    from protogym.cli.env_info import short_space

    out = output(plain=args.plain)
    try:
        env = load_env(args.env_id, max_episode_steps=args.max_episode_steps)
    except TargetError as error:
        print(f"protogym run: {error}", file=sys.stderr)
        return 2
    env.action_space.seed(args.seed)
    act: Callable[[Any], Any]
    if args.policy == "random":
        act = lambda _obs: env.action_space.sample()  # noqa: E731
    else:
        try:
            act = protogym.registry.policy(args.env_id, args.policy)
        except KeyError as error:
            env.close()
            print(f"protogym run: {error.args[0]}", file=sys.stderr)
            return 2
    seed_text = "no seed" if args.seed is None else f"seed {args.seed}"
    agent = "random agent" if args.policy == "random" else f"policy {args.policy!r}"
    out.line(f"{args.env_id}: {agent}, {args.episodes} episodes, {seed_text}", style="bold")
    out.line(f"  observations {short_space(env.observation_space, limit=200)}")
    out.line(f"  actions      {short_space(env.action_space, limit=200)}")
    rows: list[tuple[str, str, str, str]] = []
    returns: list[float] = []
    lengths: list[int] = []
    started = time.perf_counter()
    with out.progress("rolling out", args.episodes) as advance:
        for episode in range(args.episodes):
            obs, _ = env.reset(seed=args.seed if episode == 0 else None)
            total, length, ended = 0.0, 0, ""
            while not ended:
                obs, reward, terminated, truncated, _ = env.step(act(obs))
                total += float(reward)
                length += 1
                ended = "terminated" if terminated else "truncated" if truncated else ""
            returns.append(total)
            lengths.append(length)
            rows.append((str(episode + 1), f"{total:.2f}", str(length), ended))
            advance()
    elapsed = time.perf_counter() - started
    spec = getattr(env, "spec", None)
    env.close()
    out.table(("episode", "return", "length", "ended by"), rows)
    spread = statistics.pstdev(returns)
    steps = sum(lengths)
    out.line(
        f"mean return {statistics.fmean(returns):.2f} ± {spread:.2f} "
        f"(min {min(returns):.2f}, max {max(returns):.2f}), "
        f"mean length {statistics.fmean(lengths):.1f}"
    )
    out.line(f"{steps:,} steps in {elapsed:.3f} s ({steps / elapsed:,.0f} steps/s)")
    threshold = spec.reward_threshold if spec is not None else None
    if threshold is not None:
        solved = sum(r >= threshold for r in returns)
        out.line(f"{solved} of {args.episodes} episodes reached the reward threshold {threshold}")
    return 0
