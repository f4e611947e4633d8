"""mkdocs hook: benchmark charts and tables from the committed results, at build time.

Each ``benchmarks/results/<name>.json`` (written by the bench scripts through
``benchmarks/results.py``) becomes, where a page says ``<!-- benchmark: NAME -->``, one bar
chart per table of the file (an SVG this module draws: no chart library, no fonts to fetch;
a narrower one for phones) with the numbers right under it in a table, and a line saying
when, where and how they were measured. ``<!-- benchmark-ratio: NAME | ROW -->`` is replaced
by protogym's ratio in that row against the row's reference library, e.g. "4.3x", and
``<!-- benchmark-value: NAME | ROW | LIBRARY -->`` by one library's number in its unit, e.g.
"80 ns".

A chart shows each row's libraries as bars relative to the row's reference library (the
second one measured, drawn at 1x), so rows in different units share one axis; a tick on
protogym's bar marks its goal. A table whose rows measure protogym alone is drawn in its own
unit instead.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

CHARTS = "benchmarks"
# Each chart is drawn twice: for a page's full width, and narrower for phones, so that its
# text stays readable when the picture is scaled to the screen.
WIDE, NARROW = 640, 360
PHONE = "(max-width: 44.9375em)"
_BLOCK = re.compile(r"<!-- benchmark: (\w+) -->")
_RATIO = re.compile(r"<!-- benchmark-ratio: (\w+) \| (.+?) -->")
_VALUE = re.compile(r"<!-- benchmark-value: (\w+) \| (.+?) \| ([\w-]+) -->")
LABELS = {"protogym": "protogym", "gymnasium": "Gymnasium", "ale-py": "ale-py",
          "envpool": "EnvPool"}
COLOURS = {"protogym": "#3949ab", "gymnasium": "#9e9e9e", "ale-py": "#a1887f",
           "envpool": "#26a69a"}
OTHER_COLOURS = ("#bdbdbd", "#90a4ae", "#ffb74d", "#81c784")
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
UNITS = {"/s": "/s", "us": " µs", "ns": " ns", "ms": " ms", "s": " s", "MB": " MB"}
# A time this many of its unit reads better in the next one.
_LARGER = {"ns": ((1e6, " ms"), (1e3, " µs")), "us": ((1e3, " ms"),), "ms": ((1e3, " s"),)}

_results: dict[str, dict[str, Any]] = {}


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Reads every results file."""
    folder = Path(config.config_file_path).parent / "benchmarks" / "results"
    _results.clear()
    for path in sorted(folder.glob("*.json")):
        _results[path.stem] = json.loads(path.read_text(encoding="utf-8"))
    return config


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Adds one chart per table of each results file."""
    for name, result in _results.items():
        for number, table in enumerate(result["tables"], start=1):
            labels = result.get("labels") or {}
            for suffix, width in (("", WIDE), ("-narrow", NARROW)):
                files.append(File.generated(config, f"{CHARTS}/{name}-{number}{suffix}.svg",
                                            content=Chart(table, labels, width).svg()))
    return files


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Puts each requested benchmark's charts, tables and provenance in the page."""
    def block(match: re.Match[str]) -> str:
        return _block(_result(match[1], page), match[1], page.url)

    def ratio(match: re.Match[str]) -> str:
        row = _row(_result(match[1], page), match[2].strip(), page)
        ratios = row["ratios"]
        if not ratios:
            raise ValueError(f"{page.file.src_uri}: row {match[2]!r} has no ratio")
        return f"{next(iter(ratios.values())):.3g}x"

    def value(match: re.Match[str]) -> str:
        row = _row(_result(match[1], page), match[2].strip(), page)
        if match[3] not in row["values"]:
            raise ValueError(f"{page.file.src_uri}: row {match[2]!r} has no {match[3]!r} value")
        return _value(row["values"][match[3]], row["unit"])

    return _VALUE.sub(value, _RATIO.sub(ratio, _BLOCK.sub(block, markdown)))


def _result(name: str, page: Page) -> dict[str, Any]:
    if name not in _results:
        raise ValueError(f"{page.file.src_uri} asks for benchmark {name!r}, but there is no "
                         f"benchmarks/results/{name}.json (run its bench script)")
    return _results[name]


def _row(result: dict[str, Any], name: str, page: Page) -> dict[str, Any]:
    for table in result["tables"]:
        for row in table["rows"]:
            if row["name"] == name:
                found: dict[str, Any] = row
                return found
    raise ValueError(f"{page.file.src_uri}: benchmark {result['name']!r} has no row {name!r}")


def _block(result: dict[str, Any], name: str, page_url: str) -> str:
    labels = {**LABELS, **(result.get("labels") or {})}
    parts = []
    for number, table in enumerate(result["tables"], start=1):
        chart = Chart(table, result.get("labels") or {})
        wide = get_relative_url(f"{CHARTS}/{name}-{number}.svg", page_url)
        narrow = get_relative_url(f"{CHARTS}/{name}-{number}-narrow.svg", page_url)
        parts += [
            '<div class="pg-bench" markdown>', "",
            f'<p class="pg-bench-title">{html.escape(table["title"])}</p>',
            f'<picture><source media="{PHONE}" srcset="{narrow}">'
            f'<img class="pg-chart" src="{wide}" alt="{html.escape(chart.alt())}"></picture>', "",
            _numbers(table, labels), "", "</div>", "",
        ]
    parts.append(f'<p class="pg-bench-meta">{_provenance(result)}</p>')
    return "\n".join(parts)


def _numbers(table: dict[str, Any], labels: dict[str, str]) -> str:
    libraries = list(dict.fromkeys(lib for row in table["rows"] for lib in row["values"]))
    compared = [lib for lib in libraries if lib != "protogym"]
    head = ["", *(labels.get(lib, lib) for lib in libraries)]
    if compared:
        head += ["protogym's ratio", "goal"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in table["rows"]:
        cells = [_escape(row["name"])]
        cells += [_value(row["values"][lib], row["unit"]) if lib in row["values"] else ""
                  for lib in libraries]
        if compared:
            ratio = next(iter(row["ratios"].values()), None)
            cells.append("" if ratio is None else f"**{ratio:.3g}x**")
            goal = row.get("target")
            if goal is None or ratio is None:
                cells.append("")
            else:
                cells.append(f"{goal:.3g}x {'met' if ratio >= goal else 'not met'}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _provenance(result: dict[str, Any]) -> str:
    machine = result["machine"]
    versions = ", ".join(f"{lib} {version}" for lib, version in machine["versions"].items())
    load = machine.get("load_average")
    how = ("Measured" if result["source"] == "measured"
           else "Transcribed from an earlier record, not re-run")
    text = (
        f"{how} {result['date'][:10]} on {machine['cpu_count']} cores of {machine['cpu_model']}"
        + (f" (load average {load:g})" if load is not None else "")
        + f"; Python {machine['python']}, {versions}. "
        + f"<code>{html.escape(result['command'])}</code>"
    )
    if result.get("notes"):
        text += f" {html.escape(result['notes'])}"
    return text


def _value(value: float, unit: str) -> str:
    """A number in its unit, scaled to read easily: ``523k/s``, ``80 ns``, ``2.63 µs``."""
    if unit == "/s":
        if value >= 1e6:
            return f"{value / 1e6:.3g}M/s"
        if value >= 1e4:
            return f"{value / 1e3:.3g}k/s"
        return f"{_plain(value)}/s"
    for factor, larger in _LARGER.get(unit, ()):
        if value >= factor:
            return f"{_plain(value / factor)}{larger}"
    return _plain(value) + UNITS.get(unit, f" {unit}")


def _plain(value: float) -> str:
    """Three significant digits, with thousands separated: ``0.77``, ``15.4``, ``3,521``."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


# -- the chart ------------------------------------------------------------------------------


@dataclass
class Chart:
    """One table of a results file as a horizontal bar chart (SVG)."""

    table: dict[str, Any]
    names: dict[str, str]
    width: int = 640

    LABEL_HEIGHT = 20
    BAR = 15
    GAP = 4
    ROW_GAP = 14

    @property
    def libraries(self) -> list[str]:
        return list(dict.fromkeys(
            lib for row in self.table["rows"] for lib in row["values"]
        ))

    @property
    def relative(self) -> bool:
        """Bars relative to each row's reference library, unless protogym stands alone."""
        return len(self.libraries) > 1

    def label(self, library: str) -> str:
        return {**LABELS, **self.names}.get(library, library)

    def colour(self, library: str) -> str:
        if library in COLOURS:
            return COLOURS[library]
        others = [lib for lib in self.libraries if lib not in COLOURS]
        return OTHER_COLOURS[others.index(library) % len(OTHER_COLOURS)]

    def bars(self, row: dict[str, Any]) -> list[tuple[str, float, str]]:
        """(library, length in chart units, text at the end of the bar) of each bar."""
        values = row["values"]
        if not self.relative:
            return [(lib, value, _value(value, row["unit"])) for lib, value in values.items()]
        reference = next((lib for lib in values if lib != "protogym"), None)
        if reference is None:
            return []
        base = values[reference]
        found = []
        for lib, value in values.items():
            if not value or not base:
                continue
            times = value / base if row["higher_is_better"] else base / value
            found.append((lib, times, f"{times:.3g}x"))
        return found

    def svg(self) -> str:
        rows = self.table["rows"]
        drawn = [(row, self.bars(row)) for row in rows]
        longest = max((length for _, bars in drawn for _, length, _ in bars), default=1.0)
        goals = [row["target"] for row in rows if row.get("target") and self.relative]
        scale_to = max(longest, *goals) if goals else longest
        room = self.width - 70  # for the text after the longest bar
        legend, y = self._legend()
        parts = [legend]
        for row, bars in drawn:
            parts.append(self._text(0, y + 14, row["name"], weight="600"))
            y += self.LABEL_HEIGHT
            for lib, length, text in bars:
                width = max(1.0, room * length / scale_to)
                parts.append(
                    f'<rect x="0" y="{y}" width="{width:.1f}" height="{self.BAR}" rx="2" '
                    f'fill="{self.colour(lib)}"><title>{html.escape(self.label(lib))}: '
                    f"{html.escape(text)}</title></rect>"
                )
                end = width
                if lib == "protogym" and row.get("target") and self.relative:
                    x = room * row["target"] / scale_to
                    parts.append(
                        f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y - 2}" y2="{y + self.BAR + 2}" '
                        'stroke="#212121" stroke-width="2"><title>goal: '
                        f'{row["target"]:.3g}x</title></line>'
                    )
                    if x < width + 40:  # keep the number clear of the goal's tick
                        end = max(width, x + 2)
                parts.append(self._text(end + 6, y + 12, text, size=12))
                y += self.BAR + self.GAP
            y += self.ROW_GAP
        height = y
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{height}" '
            f'viewBox="0 0 {self.width} {height}" role="img" font-family="{FONT}">'
            f"<title>{html.escape(self.alt())}</title>" + "".join(parts) + "</svg>\n"
        )

    def _legend(self) -> tuple[str, int]:
        """The legend's SVG and height: a swatch and a name per library, wrapped to width."""
        parts, x, y = [], 0.0, 4
        for lib in self.libraries:
            width = 17 + 7.2 * len(self.label(lib)) + 18
            if x and x + width > self.width:
                x, y = 0.0, y + 20
            parts.append(f'<rect x="{x:.0f}" y="{y}" width="12" height="12" rx="2" '
                         f'fill="{self.colour(lib)}"/>')
            parts.append(self._text(x + 17, y + 11, self.label(lib), size=12))
            x += width
        if self.relative and any(row.get("target") for row in self.table["rows"]):
            if x and x + 70 > self.width:
                x, y = 0.0, y + 20
            parts.append(f'<line x1="{x + 6:.0f}" x2="{x + 6:.0f}" y1="{y - 1}" y2="{y + 13}" '
                         'stroke="#212121" stroke-width="2"/>')
            parts.append(self._text(x + 17, y + 11, "goal", size=12))
        return "".join(parts), y + 26

    def _text(self, x: float, y: float, text: str, *, size: int = 13, weight: str = "400",
              fill: str = "#212121") -> str:
        return (f'<text x="{x:.1f}" y="{y}" font-size="{size}" font-weight="{weight}" '
                f'fill="{fill}">{html.escape(text)}</text>')

    def alt(self) -> str:
        """The chart in words, for screen readers and for when the image does not load."""
        parts = []
        for row in self.table["rows"]:
            bars = self.bars(row)
            if not bars:
                continue
            if self.relative:
                ours = next((text for lib, _, text in bars if lib == "protogym"), "?")
                reference = self.label(bars[1][0] if bars[0][0] == "protogym" else bars[0][0])
                parts.append(f"{row['name']}: protogym {ours} {reference}'s")
            else:
                parts.append(f"{row['name']}: {bars[0][2]}")
        kind = "relative to the reference library" if self.relative else "measured values"
        return f"Bar chart of {self.table['title']}, {kind}. " + "; ".join(parts) + "."
