"""Core benchmarks, side by side with Gymnasium in one run: import time, repeated `make`,
CartPole through `make`'s default stack, and plugin discovery with 50 synthetic plugins.

Run: ``.venv/bin/python benchmarks/bench_core.py``
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harness import Row, best_rate, print_rows
from results import Result, from_row, table, write_results

PLUGINS = 50
IMPORT_RUNS = 15


def import_seconds(module: str, env: dict[str, str] | None = None) -> float:
    """Best wall time of `import module` in a fresh interpreter (interpreter start excluded)."""
    code = (
        "import time; t = time.perf_counter(); "
        f"import {module}; print(time.perf_counter() - t)"
    )
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=env).stdout)
        for _ in range(IMPORT_RUNS)
    ]
    return min(runs)


def first_lookup_seconds(site: str | None) -> float:
    """Best time of the first registry look-up (which runs discovery) in a fresh process."""
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = site
    code = (
        "import protogym, time; t = time.perf_counter(); n = len(protogym.registry); "
        "print(time.perf_counter() - t)"
    )
    return min(
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=env).stdout)
        for _ in range(IMPORT_RUNS)
    )


def write_synthetic_plugins(site: Path, count: int) -> None:
    """`count` installed distributions, each with a plugin module registering two envs."""
    for index in range(count):
        package = f"synthetic_plugin_{index}"
        (site / package).mkdir()
        (site / package / "__init__.py").write_text("")
        (site / package / "plugin.py").write_text(
            "import protogym\n\n"
            "@protogym.hookimpl\n"
            "def protogym_register_envs(registry):\n"
            f"    registry.register('synth{index}/Walk-v0', entry_point='{package}.env:Walk',\n"
            "                      max_episode_steps=100)\n"
            f"    registry.register('synth{index}/Walk-v1', entry_point='{package}.env:Walk')\n"
        )
        dist_info = site / f"synthetic_plugin_{index}-1.0.dist-info"
        dist_info.mkdir()
        (dist_info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: synthetic-plugin-{index}\nVersion: 1.0\n"
        )
        (dist_info / "entry_points.txt").write_text(
            f"[protogym.plugins]\nsynth{index} = {package}.plugin\n"
        )


def main() -> None:
    import gymnasium

    import protogym

    warnings.simplefilter("ignore")
    rows: list[Row] = []

    ours_import = import_seconds("protogym")
    reference_import = import_seconds("gymnasium")
    rows.append(Row("import time", "ms", ours_import * 1e3, reference_import * 1e3,
                    higher_is_better=False, target=1 / 0.6))

    protogym.make("CartPole-v1").close()
    gymnasium.make("CartPole-v1").close()
    rows.append(Row(
        "repeated make('CartPole-v1')", "/s",
        best_rate(lambda: protogym.make("CartPole-v1"), 2000),
        best_rate(lambda: gymnasium.make("CartPole-v1"), 2000),
        higher_is_better=True, target=1 / 0.3,
    ))

    ours_env = protogym.make("CartPole-v1")
    reference_env = gymnasium.make("CartPole-v1")
    ours_env.reset(seed=0)
    reference_env.reset(seed=0)

    def ours_step() -> None:
        if ours_env.step(0)[2]:
            ours_env.reset()

    def reference_step() -> None:
        if reference_env.step(0)[2]:
            reference_env.reset()

    rows.append(Row(
        "CartPole-v1 step through make's stack", "/s",
        best_rate(ours_step, 100_000), best_rate(reference_step, 100_000),
        higher_is_better=True, target=2.5,
    ))
    print_rows("core (protogym vs gymnasium 1.4, same process)", rows)

    bare = first_lookup_seconds(None)
    with tempfile.TemporaryDirectory() as folder:
        write_synthetic_plugins(Path(folder), PLUGINS)
        loaded = first_lookup_seconds(folder)
    print(
        f"\nplugin discovery (first registry look-up, fresh process; no reference: Gymnasium "
        f"1.4 has no entry-point plugins)\n"
        f"  installed first-party plugins only: {bare * 1e3:.1f} ms\n"
        f"  plus {PLUGINS} synthetic plugins:      {loaded * 1e3:.1f} ms "
        f"({(loaded - bare) / PLUGINS * 1e3:.2f} ms per plugin)"
    )
    discovery = [
        Result("first registry look-up, first-party plugins", "ms", False,
               {"protogym": bare * 1e3}),
        Result(f"the same with {PLUGINS} more plugins", "ms", False, {"protogym": loaded * 1e3}),
    ]
    write_results(
        "core",
        [table("import, make and step, against Gymnasium 1.4", [from_row(r) for r in rows]),
         table("plugin discovery in a fresh process (Gymnasium 1.4 loads no plugins)",
               discovery)],
        title="Core: import, make, a step through make, plugin discovery",
    )


if __name__ == "__main__":
    main()
