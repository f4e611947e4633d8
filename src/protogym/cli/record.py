"""`protogym record ENV_ID --episodes N --out DIR [--seed S]`: mp4 videos of random episodes.

The env is made with ``render_mode="rgb_array"`` and wrapped in `RecordVideo`, which writes
one file per episode (``<prefix>-episode-<i>.mp4``); the agent samples random actions from a
seeded action space, so the same seed records the same episodes.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_parser", "run_record"]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "record",
        help="record mp4 videos of random-action episodes",
        description="Make ENV_ID with render_mode='rgb_array', play random actions and write "
        "one mp4 per episode to DIR (needs the video extra: pip install protogym[video]).",
    )
    parser.add_argument("env_id", metavar="ENV_ID",
                        help="an env id (CartPole-v1, gymnasium:ale_py:ALE/Pong-v5) or "
                             "module:Class")
    parser.add_argument("--episodes", type=_positive_int, default=1, metavar="N",
                        help="number of episodes to record (default 1)")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the videos")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed for the env and the random actions")
    parser.add_argument("--max-steps", type=_positive_int, default=None, metavar="T",
                        help="cut each episode after T steps (default: the env's time limit)")
    parser.add_argument("--fps", type=_positive_int, default=None,
                        help="frames per second (default: the env's render_fps)")
    parser.set_defaults(func=run_record)


def run_record(args: argparse.Namespace) -> int:
    """Record `args.episodes` episodes; 0 on success, 1 if the env cannot be recorded."""
    from protogym.cli.targets import TargetError, load_env
    from protogym.wrappers.rendering import RecordVideo

    try:
        env: Any = load_env(args.env_id, render_mode="rgb_array",
                            max_episode_steps=args.max_steps)
    except TargetError as exc:
        text = str(exc)
        if not text.startswith("cannot make"):
            text = f"cannot make {args.env_id!r}: {text}"
        print(f"protogym record: {text}", file=sys.stderr)
        return 1
    prefix = args.env_id.replace("/", "_").replace(":", "_")
    try:
        recorder = RecordVideo(env, args.out, episode_trigger=lambda _: True,
                               name_prefix=prefix, fps=args.fps)
    except (ImportError, ValueError) as exc:
        env.close()
        print(f"protogym record: {exc}", file=sys.stderr)
        return 1
    paths: list[str] = []
    with recorder:
        recorder.action_space.seed(args.seed)
        for episode in range(args.episodes):
            recorder.reset(seed=args.seed if episode == 0 else None)
            paths.append(recorder.video_path or "")
            steps, done = 0, False
            while not done:
                _, _, terminated, truncated, _ = recorder.step(recorder.action_space.sample())
                steps += 1
                done = terminated or truncated
            print(f"episode {episode}: {steps} steps -> {paths[-1]}")
    return 0
