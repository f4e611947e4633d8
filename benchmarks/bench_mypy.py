"""What the protogym mypy plugin costs: mypy over the tests and examples, with and without it.

Three variants of the project's `[tool.mypy]` settings (from pyproject.toml), differing only
in the `plugins` line:

- "none": no plugin. mypy then reports errors that the plugin prevents (explicit `Env`
  subclasses lack their inherited defaults), and modules with errors are re-checked on
  every run, so this is not quite the same work;
- "defaults": only the part that types explicit `Env` subclasses (the plugin before the
  registry features), which checks clean like the full plugin;
- "full": `protogym.mypy`: make/make_vec types, id and register checks, env modules loaded.

"cold" starts from an empty cache (a CI run), "warm" re-runs over the cache of the previous
run with nothing changed (an editor or pre-commit run), and "edit" re-runs after every checked
file changed (the libraries come from the cache, the checked code is checked again: where
the plugin's hooks do their work). The target: the full plugin takes at
most 15% longer than no plugin. Runs alternate between the variants, so that load from other
processes on the machine hits all of them alike; the best of `--repeats` is shown.

`--corpus` checks the typing corpus of everyday agent code (tests/mypy/snippets, copied to a
scratch folder as modules) instead of the tests and examples.

Run: ``.venv/bin/python benchmarks/bench_mypy.py [--repeats N] [--corpus | PATH ...]``
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import Result, table, write_results

ROOT = Path(__file__).resolve().parent.parent
TARGET_SLOWDOWN = 1.15
VARIANTS = ("none", "defaults", "full")
KINDS = ("cold", "warm", "edit")
SNIPPETS = ROOT / "tests" / "mypy" / "snippets"

DEFAULTS_ONLY_PLUGIN = '''\
"""The protogym plugin reduced to typing explicit Env subclasses (benchmark baseline)."""
from mypy.plugin import Plugin

from protogym.mypy.env_defaults import ENV_FULLNAME, add_env_defaults


class DefaultsOnly(Plugin):
    def get_base_class_hook(self, fullname):
        return add_env_defaults if fullname == ENV_FULLNAME else None


def plugin(version):
    return DefaultsOnly
'''


def default_paths() -> list[Path]:
    """The core's tests, every first-party plugin's tests, and the examples."""
    candidates = [ROOT / "tests", *sorted(ROOT.glob("plugins/*/tests")), ROOT / "examples"]
    return [path for path in candidates if path.is_dir()]


def copy_corpus(folder: Path) -> Path:
    """The snippet corpus as a folder of modules (they import each other by bare name)."""
    corpus = folder / "corpus"
    corpus.mkdir()
    for snippet in sorted(SNIPPETS.glob("*.py.txt")):
        shutil.copyfile(snippet, corpus / snippet.name.removesuffix(".txt"))
    return corpus


def touch_sources(paths: list[Path]) -> None:
    """Change every checked file (a trailing comment), so that mypy checks it again."""
    for path in paths:
        for source in path.rglob("*.py") if path.is_dir() else [path]:
            with source.open("a", encoding="utf-8") as handle:
                handle.write("# edited\n")


def write_config(folder: Path, variant: str) -> Path:
    """An ini copy of pyproject's `[tool.mypy]` with the variant's `plugins` line."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    lines = ["[mypy]"]
    for key, value in settings.items():
        if key in ("overrides", "plugins"):
            continue
        if key == "mypy_path":
            parts = str(value).replace(",", ":").split(":")
            value = ":".join(str(ROOT / part) for part in parts if part)
        lines.append(f"{key} = {_ini_value(value)}")
    if variant == "defaults":
        baseline = folder / "defaults_only_plugin.py"
        baseline.write_text(DEFAULTS_ONLY_PLUGIN)
        lines.append(f"plugins = {baseline}")
    elif variant == "full":
        lines.append("plugins = protogym.mypy")
    for override in settings.get("overrides", []):
        modules = override["module"]
        names = modules if isinstance(modules, list) else [modules]
        lines.append(f"[mypy-{','.join(names)}]")
        lines.extend(f"{k} = {_ini_value(v)}" for k, v in override.items() if k != "module")
    config = folder / f"{variant}.ini"
    config.write_text("\n".join(lines) + "\n")
    return config


def _ini_value(value: object) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)


def run_mypy(config: Path, cache: Path, paths: list[Path]) -> float:
    """Seconds for one mypy run per path, sharing a cache, as CI checks each distribution.

    (The plugins' test folders cannot go into one run: each has a `conftest.py`, and their
    folder names are not valid package names.)
    """
    start = time.perf_counter()
    for path in paths:
        completed = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
             str(cache), "--no-error-summary", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,  # "none" reports errors; only the time matters here
        )
        if completed.returncode not in (0, 1) or "prevented further checking" in completed.stdout:
            output = completed.stdout + completed.stderr
            raise RuntimeError(f"mypy could not check {path}:\n{output}")
    return time.perf_counter() - start


def measure(paths: list[Path], repeats: int) -> dict[tuple[str, str], float]:
    """Best cold and warm seconds per variant."""
    times: dict[tuple[str, str], float] = {}
    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        configs = {variant: write_config(scratch, variant) for variant in VARIANTS}
        for run in range(repeats):
            for variant, config in configs.items():
                cache = scratch / f"cache-{variant}-{run}"
                for kind in KINDS:
                    if kind == "edit":
                        touch_sources(paths)
                    seconds = run_mypy(config, cache, paths)
                    times[kind, variant] = min(times.get((kind, variant), seconds), seconds)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="default: tests and examples")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--corpus", action="store_true", help="check the typing corpus")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        if args.corpus:
            paths = [copy_corpus(Path(name))]
            shown = str(SNIPPETS.relative_to(ROOT))
        else:
            paths = [path.resolve() for path in args.paths] or default_paths()
            shown = ", ".join(str(p.relative_to(ROOT)) for p in paths)
        times = measure(paths, args.repeats)
    print(f"\nmypy over {shown}")
    print(
        f"{'run':<6} {'none':>8} {'defaults':>9} {'full':>8} "
        f"{'full/none':>10} {'full/defaults':>14}  target (full/none)"
    )
    rows = []
    for kind in KINDS:
        none, defaults, full = (times[kind, variant] for variant in VARIANTS)
        met = "ok" if full / none <= TARGET_SLOWDOWN else "MISSED"
        print(
            f"{kind:<6} {none:>7.2f}s {defaults:>8.2f}s {full:>7.2f}s "
            f"{full / none:>9.3f}x {full / defaults:>13.3f}x  <= {TARGET_SLOWDOWN:g}x {met}"
        )
        rows.append(Result(f"{kind} cache", "s", False,
                           {"protogym": full, "none": none, "defaults": defaults},
                           target=1 / TARGET_SLOWDOWN))
    write_results(
        "mypy_plugin" if not args.corpus else "mypy_plugin_corpus",
        [table(f"seconds of mypy over {shown} (lower is better)", rows)],
        title="What the mypy plugin costs",
        labels={"protogym": "with protogym's plugin", "none": "without a plugin",
                "defaults": "Env defaults only"},
    )


if __name__ == "__main__":
    main()
