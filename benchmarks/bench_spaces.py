"""Space hot paths, protogym against Gymnasium 1.4 in one process: sampling and membership.

Each pair does the same work on equal spaces seeded alike (the samples are the same, draw for
draw). The two libraries' timed runs alternate and the best of each is kept, so load on the
machine hits both alike. Targets: ``Box(0, 1, (84, 84, 3), float32).sample()`` at least 2x
Gymnasium's rate (issue 2) and ``Discrete(5).sample()`` at least 2x (issue 14).

Run: ``.venv/bin/python benchmarks/bench_spaces.py [--scale S] [--repeats R]``
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from protogym import spaces

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Row, interleaved_rates, print_rows
from results import from_row, table, write_results

Work = Callable[[], object]


def _cases() -> list[tuple[str, Work, Work, int, float | None]]:
    """(name, protogym work, Gymnasium work, calls per run, target ratio)."""
    g = gymnasium.spaces
    cases: list[tuple[str, Work, Work, int, float | None]] = []

    def pair(
        name: str,
        make: Callable[[Any], Any],
        calls: int,
        target: float | None = None,
        action: str = "sample",
    ) -> None:
        ours, theirs = make(spaces), make(g)
        ours.seed(0)
        theirs.seed(0)
        if action == "sample":
            cases.append((name, ours.sample, theirs.sample, calls, target))
        else:
            element = theirs.sample()
            cases.append(
                (
                    name,
                    lambda: ours.contains(element),
                    lambda: theirs.contains(element),
                    calls,
                    target,
                )
            )

    pair("Box(0, 1, (84, 84, 3), float32).sample", lambda m: m.Box(0, 1, (84, 84, 3)), 300, 2.0)
    pair(
        "Box(0, 1, (84, 84, 3), float32).contains",
        lambda m: m.Box(0, 1, (84, 84, 3)),
        2000,
        action="contains",
    )
    pair(
        "Box(0, 255, (84, 84, 3), uint8).sample",
        lambda m: m.Box(0, 255, (84, 84, 3), np.uint8),
        300,
    )
    pair("Box(-1, 1, (4,), float32).sample", lambda m: m.Box(-1, 1, (4,)), 20_000)
    pair(
        "Box(-1, 1, (4,), float32).contains",
        lambda m: m.Box(-1, 1, (4,)),
        20_000,
        action="contains",
    )
    pair("Box(-inf, inf, (4,), float32).sample", lambda m: m.Box(-np.inf, np.inf, (4,)), 20_000)
    pair("Discrete(5).sample", lambda m: m.Discrete(5), 50_000, 2.0)

    ours_d, theirs_d = spaces.Discrete(5), g.Discrete(5)
    cases.append(
        (
            "Discrete(5).contains(int)",
            lambda: ours_d.contains(3),
            lambda: theirs_d.contains(3),
            100_000,
            None,
        )
    )
    value = np.int64(3)
    cases.append(
        (
            "Discrete(5).contains(np.int64)",
            lambda: ours_d.contains(value),
            lambda: theirs_d.contains(value),
            100_000,
            None,
        )
    )
    pair("MultiDiscrete([3, 4, 5]).sample", lambda m: m.MultiDiscrete([3, 4, 5]), 20_000)
    pair("MultiBinary(8).sample", lambda m: m.MultiBinary(8), 20_000)
    pair(
        "Dict(pos=Box(4), id=Discrete(3)).sample",
        lambda m: m.Dict(pos=m.Box(-1, 1, (4,)), id=m.Discrete(3)),
        20_000,
    )
    for count in (4, 16):
        box = spaces.Box(-1, 1, (4,))
        items = [box.sample() for _ in range(count)]
        ours_out = spaces.create_empty_array(box, count)
        theirs_out = gymnasium.vector.utils.create_empty_array(g.Box(-1, 1, (4,)), count)
        ours_box, theirs_box = box, g.Box(-1, 1, (4,))
        cases.append(
            (
                f"concatenate(Box(4,), {count} items, out)",
                lambda ob=ours_box, it=items, o=ours_out: spaces.concatenate(ob, it, o),
                lambda tb=theirs_box, it=items, o=theirs_out: gymnasium.vector.utils.concatenate(
                    tb, it, o
                ),
                20_000,
                None,
            )
        )
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every call count")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs, best is kept")
    args = parser.parse_args()
    warnings.simplefilter("ignore")

    rows: list[Row] = []
    for name, ours, theirs, calls, target in _cases():
        count = max(1, int(calls * args.scale))
        rates = interleaved_rates(ours, theirs, count, args.repeats)
        rows.append(Row(name, "/s", *rates, True, target))
    print_rows("spaces: calls per second", rows)
    write_results("spaces", [table("calls per second", [from_row(row) for row in rows])],
                  title="Spaces against Gymnasium 1.4")


if __name__ == "__main__":
    main()
