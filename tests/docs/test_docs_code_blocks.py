"""Every Python code block in docs/ runs as written, so the site cannot drift from the code.

The blocks of one page run in order in one namespace (later blocks use what earlier ones
defined), in a fresh interpreter with a temporary working directory, so a page that registers
ids or initialises pygame leaves no trace in other tests. Pages that open a keyboard `play`
window get a simulated player who closes it after a moment, as a reader would.

In ```console blocks, every ``$ protogym ...`` line runs too and must exit 0. Other shell
lines (installing, running the benchmarks for minutes) are not run here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
_FENCE = re.compile(
    r"^(?P<indent> *)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```", re.M | re.S
)


def python_blocks(text: str) -> list[str]:
    """The bodies of the page's ```python blocks, in order."""
    return [
        _dedent(match["body"], len(match["indent"]))
        for match in _FENCE.finditer(text)
        if match["lang"] == "python" and not match["body"].lstrip().startswith("--8<--")
    ]


def _dedent(body: str, width: int) -> str:
    return "".join(line[width:] for line in body.splitlines(keepends=True))


def cli_commands(text: str) -> list[list[str]]:
    """The arguments of every ``$ protogym ...`` line in the page's ```console blocks."""
    return [
        shlex.split(line.removeprefix("$ protogym "))
        for match in _FENCE.finditer(text)
        if match["lang"] == "console"
        for line in _dedent(match["body"], len(match["indent"])).splitlines()
        if line.startswith("$ protogym ")
    ]


# One thread per math library: the suite runs two pytest workers on two cores, and torch's
# default thread pool would fight the other worker for them.
_ENV = {
    **os.environ,
    "SDL_VIDEODRIVER": "dummy",
    "SDL_AUDIODRIVER": "dummy",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


PAGES = sorted(path for path in DOCS.rglob("*.md") if python_blocks(_text(path)))
CLI_PAGES = sorted(path for path in DOCS.rglob("*.md") if cli_commands(_text(path)))
_PROTOGYM = Path(sys.executable).with_name("protogym")


def test_the_docs_have_code_to_run() -> None:
    assert len(PAGES) >= 10


def test_blocks_are_found_in_order() -> None:
    text = "x\n```python\na = 1\n```\n```text\nnot code\n```\n  ```python\n  b = a\n  ```\n"
    assert python_blocks(text) == ["a = 1\n", "b = a\n"]


def test_cli_lines_are_found() -> None:
    text = "```console\n$ protogym run X-v0 --seed 1\nout\n$ ls\n```\n```bash\nprotogym list\n```\n"
    assert cli_commands(text) == [["run", "X-v0", "--seed", "1"]]


@pytest.mark.parametrize("page", CLI_PAGES, ids=lambda path: str(path.relative_to(DOCS)))
def test_every_cli_line_runs(page: Path, tmp_path: Path) -> None:
    for arguments in cli_commands(_text(page)):
        result = subprocess.run(
            [str(_PROTOGYM), *arguments], capture_output=True, text=True, cwd=tmp_path,
            env=_ENV, timeout=300,
        )
        command = shlex.join(["protogym", *arguments])
        assert result.returncode == 0, f"docs/{page.relative_to(DOCS)}: `{command}` failed:\n" + (
            result.stdout[-2000:] + result.stderr[-3000:]
        )


# Runs the blocks given as JSON on stdin, each compiled under its page and number so a
# traceback names the block. The simulated player closes any pygame window after 5 polls.
_RUNNER = """
import json, sys, warnings
warnings.simplefilter("ignore", DeprecationWarning)
try:
    import pygame
except ImportError:
    pygame = None
if pygame is not None:
    _get, _polls = pygame.event.get, [0]
    def _player(*args, **kwargs):
        events = _get(*args, **kwargs)
        _polls[0] += 1
        if _polls[0] % 5 == 0:
            events.append(pygame.event.Event(pygame.QUIT))
        return events
    pygame.event.get = _player
page, blocks = json.load(sys.stdin)
namespace = {"__name__": "__main__"}
for number, block in enumerate(blocks, start=1):
    exec(compile(block, f"{page} (python block {number})", "exec"), namespace)
"""


@pytest.mark.parametrize("page", PAGES, ids=lambda path: str(path.relative_to(DOCS)))
def test_every_python_block_runs(page: Path, tmp_path: Path) -> None:
    name = str(page.relative_to(DOCS))
    blocks = python_blocks(_text(page))
    result = subprocess.run(
        [sys.executable, "-c", _RUNNER],
        input=json.dumps([name, blocks]),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_ENV,
        timeout=300,
    )
    assert result.returncode == 0, f"a code block of docs/{name} failed:\n{result.stderr}"
