"""Runs mypy with the protogym plugin in-process and parses what it reports.

One mypy cache is shared by every run in the session, so the standard library, numpy and
protogym are analysed only once.
"""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from mypy import api

_OUTPUT = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<severity>error|note): (?P<message>.*)$")

Report = tuple[int, str, str]
"""`(line, "E" or "N", message)`."""

RunMypy = Callable[[Path, Iterable[Path]], dict[str, list[Report]]]


def _run_in_process(args: list[str]) -> tuple[str, str]:
    """`mypy.api.run`, undoing what mypy changes in the process for the tests after it.

    mypy raises the garbage collector's thresholds and the recursion limit for its own run
    and leaves them so; the other tests in this process should not run under them.
    """
    thresholds, limit, collecting = gc.get_threshold(), sys.getrecursionlimit(), gc.isenabled()
    try:
        stdout, stderr, _ = api.run(args)
    finally:
        gc.set_threshold(*thresholds)
        sys.setrecursionlimit(limit)
        if collecting:
            gc.enable()
    return stdout, stderr


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


@pytest.fixture(scope="session")
def run_mypy(mypy_cache: Path) -> RunMypy:
    """Check `files` (in `folder`, which is also the import path) with the plugin on.

    Returns the reports per file name. mypy's exit status is not asserted: snippets with
    expected errors make it 1, and a crash shows up as output that matches no file.
    """

    def run(folder: Path, files: Iterable[Path]) -> dict[str, list[Report]]:
        config = folder / "mypy.ini"
        config.write_text(
            "[mypy]\n"
            "strict = True\n"
            "python_version = 3.11\n"
            "plugins = protogym.mypy\n"
            f"mypy_path = {folder}\n"
        )
        stdout, stderr = _run_in_process(
            [
                "--config-file", str(config),
                "--cache-dir", str(mypy_cache),
                "--no-error-summary",
                "--no-pretty",
                "--no-color-output",
                *(str(path) for path in files),
            ]
        )
        reports: dict[str, list[Report]] = {}
        for line in stdout.splitlines():
            match = _OUTPUT.match(line)
            if match is None:
                reports.setdefault("<unparsed>", []).append((0, "?", line))
                continue
            kind = "E" if match["severity"] == "error" else "N"
            name = Path(match["path"]).name
            reports.setdefault(name, []).append((int(match["line"]), kind, match["message"]))
        if stderr.strip():
            reports.setdefault("<stderr>", []).append((0, "?", stderr))
        return reports

    return run
