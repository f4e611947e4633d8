"""Benchmark results as one small JSON file per benchmark, which the docs site charts.

Every ``bench_*.py`` script ends with `write_results`, which writes
``benchmarks/results/<name>.json``: when and on what machine it ran, the command line, and its
tables of rows, each row the numbers of every library measured and protogym's ratio to each.
The docs build (``scripts/docs_benchmarks.py``) draws a chart and a table from each file, so
the site shows what a script measured, not numbers typed by hand. Commit the file after a run.

A script calls, for example (a MuJoCo benchmark would do the same)::

    from results import Result, table, write_results

    rows = [Result("Hopper-v5 step (make)", "/s", higher_is_better=True,
                   values={"protogym": 41_000.0, "gymnasium": 19_500.0}, target=2.0)]
    write_results("mujoco", [table("steps per second through make", rows)],
                  title="MuJoCo envs against Gymnasium 1.4")

`values` maps each library to its number, protogym first; the second library is the one the
chart compares against (shown as 1x). Rows from `harness.Row` convert with `from_row`.
`labels` names the libraries for the chart's legend where the docs' default names
("protogym", "Gymnasium", "ale-py", "EnvPool") do not fit, as for mypy with and without
protogym's plugin.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

RESULTS = Path(__file__).resolve().parent / "results"
# Libraries whose versions the machine record names when they are installed.
_LIBRARIES = ("protogym", "numpy", "gymnasium", "ale-py", "envpool", "ray", "mypy", "mujoco")

Source = Literal["measured", "transcribed"]


@dataclass(frozen=True)
class Result:
    """One row: the number each library gets for the same work, in `unit` ("/s", "ms", "us",
    "ns", "MB", "x"...), and protogym's goal as a ratio to the second library, if it has one."""

    name: str
    unit: str
    higher_is_better: bool
    values: Mapping[str, float]
    target: float | None = None
    note: str = ""

    def ratios(self) -> dict[str, float]:
        """How many times better protogym is than each other library (>1: protogym wins)."""
        ours = self.values["protogym"]
        return {
            library: (ours / value if self.higher_is_better else value / ours)
            for library, value in self.values.items()
            if library != "protogym" and value and ours
        }


@dataclass(frozen=True)
class Table:
    """Rows measured together, under one title."""

    title: str
    rows: Sequence[Result] = field(default_factory=list)


def table(title: str, rows: Sequence[Result]) -> Table:
    """A `Table` of `rows` under `title`."""
    return Table(title, list(rows))


def from_row(row: Any, reference: str = "gymnasium", note: str = "") -> Result:
    """A `harness.Row` (protogym's number against one reference library) as a `Result`."""
    return Result(
        name=row.name.strip(),
        unit=row.unit,
        higher_is_better=row.higher_is_better,
        values={"protogym": row.ours, reference: row.reference},
        target=row.target,
        note=note,
    )


def write_results(
    name: str,
    tables: Sequence[Table],
    *,
    title: str,
    source: Source = "measured",
    notes: str = "",
    command: Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
    directory: Path | None = None,
) -> Path:
    """Write ``<directory or benchmarks/results>/<name>.json`` and return its path.

    `source` is "measured" for numbers this run produced, "transcribed" for numbers copied
    from an earlier record (say from where in `notes`). `command` defaults to this process's
    own command line, with the script's path relative to the repository.
    """
    if not name.replace("_", "").isalnum():
        raise ValueError(f"a results name is letters, digits and '_', got {name!r}")
    for each in tables:
        for row in each.rows:
            if "protogym" not in row.values:
                raise ValueError(f"row {row.name!r} has no 'protogym' value: {dict(row.values)}")
    record = {
        "name": name,
        "title": title,
        "source": source,
        "notes": notes,
        "date": datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat(),
        "command": " ".join(command if command is not None else _command()),
        "machine": machine(),
        "labels": dict(labels or {}),
        "tables": [
            {
                "title": each.title,
                "rows": [
                    {
                        "name": row.name,
                        "unit": row.unit,
                        "higher_is_better": row.higher_is_better,
                        "values": {library: _number(v) for library, v in row.values.items()},
                        "ratios": {library: _number(v) for library, v in row.ratios().items()},
                        "target": row.target,
                        **({"note": row.note} if row.note else {}),
                    }
                    for row in each.rows
                ],
            }
            for each in tables
        ],
    }
    folder = directory if directory is not None else RESULTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nresults written to {_shown(path)}")
    return path


def machine() -> dict[str, Any]:
    """The machine a run happened on: cores, CPU model, load, Python and library versions."""
    versions = {}
    for library in _LIBRARIES:
        try:
            versions[library] = metadata.version(library)
        except metadata.PackageNotFoundError:
            continue
    return {
        "cpu_count": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "load_average": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        "system": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "versions": versions,
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _number(value: float) -> float:
    """Four significant digits: more is noise between runs, and the files stay small."""
    return float(f"{value:.4g}")


def _command() -> list[str]:
    script = Path(sys.argv[0]).resolve()
    try:
        shown = str(script.relative_to(RESULTS.parents[1]))
    except ValueError:
        shown = script.name
    return ["python", shown, *sys.argv[1:]]


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
