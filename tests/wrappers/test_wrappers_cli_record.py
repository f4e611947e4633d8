"""`protogym record`: argument parsing and real videos of CartPole episodes."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import imageio.v2 as imageio
import pytest

from protogym.cli import record


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="protogym")
    record.add_parser(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def count_frames(path: Path) -> int:
    reader: Any = imageio.get_reader(str(path), format="FFMPEG")
    try:
        return sum(1 for _ in reader)
    finally:
        reader.close()


def test_wrappers_cli_record_writes_one_video_per_episode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parse(["record", "CartPole-v1", "--episodes", "2", "--out", str(tmp_path),
                  "--seed", "3", "--max-steps", "5"])
    assert args.func(args) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["CartPole-v1-episode-0.mp4", "CartPole-v1-episode-1.mp4"]
    for name in names:
        assert count_frames(tmp_path / name) == 6  # the reset frame and 5 steps
    out = capsys.readouterr().out
    assert "episode 0: 5 steps ->" in out and "episode 1: 5 steps ->" in out


def test_wrappers_cli_record_reports_unknown_env(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parse(["record", "NoSuchEnv-v0", "--out", str(tmp_path)])
    assert args.func(args) == 1
    assert "cannot make 'NoSuchEnv-v0'" in capsys.readouterr().err


def test_wrappers_cli_record_rejects_bad_counts() -> None:
    with pytest.raises(SystemExit):
        parse(["record", "CartPole-v1", "--episodes", "0", "--out", "x"])
