"""`protogym run ID`: rollouts of a random agent, or of a policy the env's plugin names, with
a progress bar, a table and a summary."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from protogym.cli.console import console


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run", help="run episodes (random or a named policy) and report returns and lengths"
    )
    parser.add_argument("env_id", help="a registered id, e.g. CartPole-v1")
    parser.add_argument("--episodes", type=_positive_int, default=10, help="default: 10")
    parser.add_argument("--seed", type=int, default=None, help="seed of env and actions")
    parser.add_argument("--max-episode-steps", type=_positive_int, default=None)
    parser.add_argument(
        "--policy",
        default="random",
        help="'random' (default) or a policy the env's plugin names, e.g. 'heuristic'",
    )
    parser.set_defaults(func=run)


def _short(space: Any) -> str:
    """A space on one line: a Box by its shape and dtype (`describe` shows the bounds)."""
    from protogym.spaces import Box

    if isinstance(space, Box):
        return f"Box{space.shape} of {space.dtype}"
    return str(space)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def run(args: argparse.Namespace) -> int:
    from rich.progress import Progress
    from rich.table import Table

    import protogym

    out = console()
    env = protogym.make(args.env_id, max_episode_steps=args.max_episode_steps)
    env.action_space.seed(args.seed)
    act: Callable[[Any], Any]
    if args.policy == "random":
        act = lambda _obs: env.action_space.sample()  # noqa: E731
    else:
        try:
            act = protogym.registry.policy(args.env_id, args.policy)
        except KeyError as error:
            out.print(f"[red]{error}[/red]")
            return 2
    seed_text = "no seed" if args.seed is None else f"seed {args.seed}"
    agent = "random agent" if args.policy == "random" else f"policy {args.policy!r}"
    out.print(
        f"[bold]{args.env_id}[/bold]: {agent}, {args.episodes} episodes, {seed_text}\n"
        f"  observations {_short(env.observation_space)}\n  actions      {_short(env.action_space)}"
    )
    table = Table("episode", "return", "length", "ended by", title=None)
    returns: list[float] = []
    lengths: list[int] = []
    started = time.perf_counter()
    with Progress(console=out, transient=True) as progress:
        task = progress.add_task("rolling out", total=args.episodes)
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
            table.add_row(str(episode + 1), f"{total:.2f}", str(length), ended)
            progress.advance(task)
    elapsed = time.perf_counter() - started
    env.close()
    out.print(table)
    spread = statistics.pstdev(returns)
    steps = sum(lengths)
    out.print(
        f"mean return {statistics.fmean(returns):.2f} ± {spread:.2f} "
        f"(min {min(returns):.2f}, max {max(returns):.2f}), "
        f"mean length {statistics.fmean(lengths):.1f}\n"
        f"{steps:,} steps in {elapsed:.3f} s ({steps / elapsed:,.0f} steps/s)"
    )
    threshold = env.spec.reward_threshold if env.spec is not None else None
    if threshold is not None:
        solved = sum(r >= threshold for r in returns)
        out.print(f"{solved} of {args.episodes} episodes reached the reward threshold {threshold}")
    return 0
