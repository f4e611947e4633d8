"""What the protogym mypy plugin costs: mypy over the tests and examples, with and without it.

Both runs use the project's `[tool.mypy]` settings from pyproject.toml; the only difference
is the `plugins` line. "cold" starts from an empty cache (a CI run), "warm" re-checks with
the cache of a previous run and nothing changed (an editor or pre-commit run). The target is
at most 15% longer with the plugin. Without it mypy reports errors that the plugin would
prevent (explicit `Env` subclasses lack their defaults); the work is the same apart from that.

Run: ``.venv/bin/python benchmarks/bench_mypy.py [--repeats N] [PATH ...]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.harness import best_time  # noqa: E402

TARGET_SLOWDOWN = 1.15


def default_paths() -> list[Path]:
    """The core's tests, every first-party plugin's tests, and the examples."""
    candidates = [ROOT / "tests", *sorted(ROOT.glob("plugins/*/tests")), ROOT / "examples"]
    return [path for path in candidates if path.is_dir()]


def write_config(folder: Path, with_plugin: bool) -> Path:
    """An ini copy of pyproject's `[tool.mypy]`, with or without the protogym plugin."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    lines = ["[mypy]"]
    for key, value in settings.items():
        if key == "overrides" or (key == "plugins" and not with_plugin):
            continue
        if key == "mypy_path":
            value = ",".join(str(ROOT / part) for part in str(value).split(","))
        lines.append(f"{key} = {_ini_value(value)}")
    for override in settings.get("overrides", []):
        modules = override["module"]
        names = modules if isinstance(modules, list) else [modules]
        lines.append(f"[mypy-{','.join(names)}]")
        lines.extend(f"{k} = {_ini_value(v)}" for k, v in override.items() if k != "module")
    config = folder / ("with-plugin.ini" if with_plugin else "without-plugin.ini")
    config.write_text("\n".join(lines) + "\n")
    return config


def _ini_value(value: object) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)


def run_mypy(config: Path, cache: Path, paths: list[Path]) -> None:
    subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache),
         "--no-error-summary", *(str(path) for path in paths)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,  # the run without the plugin reports errors; only its time matters
    )


def seconds(config: Path, cache: Path, paths: list[Path]) -> float:
    return best_time(lambda: run_mypy(config, cache, paths), repeats=1)


def measure(paths: list[Path], repeats: int) -> dict[tuple[str, bool], float]:
    """Best times of cold and warm runs, with and without the plugin.

    The runs alternate (without, with, without, ...) so that load from other processes on
    the machine hits both sides alike; each cold run gets a new, empty cache folder.
    """
    times: dict[tuple[str, bool], float] = {}
    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        configs = {flag: write_config(scratch, flag) for flag in (False, True)}
        for run in range(repeats):
            for flag, config in configs.items():
                cold = seconds(config, scratch / f"{config.stem}-{run}", paths)
                warm = seconds(config, scratch / f"{config.stem}-{run}", paths)
                times["cold", flag] = min(times.get(("cold", flag), cold), cold)
                times["warm", flag] = min(times.get(("warm", flag), warm), warm)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="default: tests and examples")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    paths = [path.resolve() for path in args.paths] or default_paths()
    times = measure(paths, args.repeats)
    print(f"\nmypy over {', '.join(str(p.relative_to(ROOT)) for p in paths)}")
    print(f"{'run':<8} {'without plugin':>15} {'with plugin':>12} {'slowdown':>9}  target")
    for kind in ("cold", "warm"):
        without, with_ = times[kind, False], times[kind, True]
        slowdown = with_ / without
        met = "ok" if slowdown <= TARGET_SLOWDOWN else "MISSED"
        print(
            f"{kind:<8} {without:>14.2f}s {with_:>11.2f}s {slowdown:>8.3f}x  "
            f"<= {TARGET_SLOWDOWN:g}x {met}"
        )


if __name__ == "__main__":
    main()
