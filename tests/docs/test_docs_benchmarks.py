"""Benchmark results as JSON (benchmarks/results.py) and the charts and tables the docs build
draws from them (scripts/docs_benchmarks.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "scripts"))

import docs_benchmarks  # noqa: E402
import results  # noqa: E402
from harness import Row  # noqa: E402


def write(tmp_path: Path, *tables: results.Table, **options: Any) -> dict[str, Any]:
    path = results.write_results("demo", list(tables), title="Demo", directory=tmp_path,
                                 command=["python", "benchmarks/bench_demo.py"], **options)
    assert path == tmp_path / "demo.json"
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def test_a_results_file_holds_the_date_machine_rows_and_ratios(tmp_path: Path) -> None:
    rows = [
        results.from_row(Row("CartPole step", "/s", 400_000.0, 100_000.0, True, 3.0)),
        results.from_row(Row("wrapper cost", "ns", 80.0, 240.0, False, None)),
        results.Result("native", "/s", True, {"protogym": 900.0, "ale-py": 1000.0,
                                              "envpool": 450.0}),
    ]
    record = write(tmp_path, results.table("steps", rows), notes="a note")
    assert record["name"] == "demo" and record["title"] == "Demo"
    assert record["source"] == "measured" and record["notes"] == "a note"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", record["date"])
    assert record["command"] == "python benchmarks/bench_demo.py"
    machine = record["machine"]
    assert machine["cpu_count"] >= 1 and machine["cpu_model"] and machine["python"]
    assert {"numpy", "protogym"} <= set(machine["versions"])
    first, second, third = record["tables"][0]["rows"]
    assert first["values"] == {"protogym": 400_000.0, "gymnasium": 100_000.0}
    assert first["ratios"] == {"gymnasium": 4.0} and first["target"] == 3.0
    assert second["ratios"] == {"gymnasium": 3.0}  # lower is better: theirs over ours
    assert third["ratios"] == {"ale-py": 0.9, "envpool": 2.0}


def test_numbers_keep_four_significant_digits(tmp_path: Path) -> None:
    row = results.Result("x", "/s", True, {"protogym": 123456.789, "gymnasium": 3.0})
    stored = write(tmp_path, results.table("t", [row]))["tables"][0]["rows"][0]
    assert stored["values"]["protogym"] == 123500.0
    assert stored["ratios"]["gymnasium"] == 41150.0


def test_bad_results_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="has no 'protogym' value"):
        write(tmp_path, results.table("t", [results.Result("x", "/s", True, {"gym": 1.0})]))
    with pytest.raises(ValueError, match="letters, digits and '_'"):
        results.write_results("../escape", [], title="x", directory=tmp_path)


def chart_of(*rows: results.Result, title: str = "steps per second",
             labels: dict[str, str] | None = None) -> docs_benchmarks.Chart:
    record = json.loads(json.dumps({"rows": [
        {"name": r.name, "unit": r.unit, "higher_is_better": r.higher_is_better,
         "values": dict(r.values), "ratios": r.ratios(), "target": r.target} for r in rows
    ], "title": title}))
    return docs_benchmarks.Chart(record, labels or {})


def test_a_chart_draws_each_library_relative_to_the_row_s_reference() -> None:
    chart = chart_of(
        results.Result("CartPole", "/s", True, {"protogym": 400.0, "gymnasium": 100.0}, 3.0),
        results.Result("cost", "ns", False, {"protogym": 50.0, "gymnasium": 100.0}),
    )
    svg = chart.svg()
    bars = r'<rect x="0" y="\d+" width="([\d.]+)" height="15"'
    widths = [float(w) for w in re.findall(bars, svg)]
    # bars: 4x and 1x, then 2x and 1x, on one scale (the longest bar is the width less 70)
    assert widths == pytest.approx([570.0, 142.5, 285.0, 142.5])
    narrow = docs_benchmarks.Chart(chart.table, {}, width=360).svg()
    assert [float(w) for w in re.findall(bars, narrow)] == pytest.approx([290.0, 72.5, 145.0,
                                                                          72.5])
    assert svg.count("<line") == 2 and "goal: 3x" in svg and ">goal</text>" in svg  # tick, legend
    assert chart.alt() == (
        "Bar chart of steps per second, relative to the reference library. CartPole: "
        "protogym 4x Gymnasium's; cost: protogym 2x Gymnasium's."
    )
    assert "<title>" in svg and 'role="img"' in svg and "font-family" in svg


def test_a_table_of_protogym_alone_is_drawn_in_its_unit() -> None:
    chart = chart_of(results.Result("look-up", "ms", False, {"protogym": 60.0}),
                     results.Result("with 50 plugins", "ms", False, {"protogym": 82.0}))
    assert not chart.relative
    assert ">60 ms</text>" in chart.svg() and ">82 ms</text>" in chart.svg()
    assert chart.alt().endswith("look-up: 60 ms; with 50 plugins: 82 ms.")


def test_legend_names_come_from_the_file_where_given() -> None:
    chart = chart_of(results.Result("x", "s", False, {"protogym": 1.0, "none": 0.9}),
                     labels={"protogym": "with the plugin", "none": "without"})
    assert ">with the plugin</text>" in chart.svg() and ">without</text>" in chart.svg()


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [(523_400.0, "/s", "523k/s"), (5_421_000.0, "/s", "5.42M/s"), (80.0, "ns", "80 ns"),
     (3521.0, "/s", "3,521/s"), (0.77, "ms", "0.77 ms"), (15.44, "us", "15.4 µs"),
     (2634.0, "ns", "2.63 µs"), (1250.0, "ms", "1.25 s"), (-0.5, "MB", "-0.5 MB")],
)
def test_values_are_written_in_their_unit(value: float, unit: str, text: str) -> None:
    assert docs_benchmarks._value(value, unit) == text


def test_pages_get_the_charts_tables_and_numbers_they_ask_for(tmp_path: Path) -> None:
    rows = [results.Result("CartPole step", "/s", True,
                           {"protogym": 400_000.0, "gymnasium": 100_000.0}, 3.0)]
    record = write(tmp_path, results.table("steps per second", rows))
    docs_benchmarks._results.clear()
    docs_benchmarks._results["demo"] = record
    page: Any = SimpleNamespace(file=SimpleNamespace(src_uri="guides/speed.md"),
                                url="guides/speed/")
    text = docs_benchmarks.on_page_markdown(
        "<!-- benchmark: demo -->\n\nCartPole is <!-- benchmark-ratio: demo | CartPole step -->"
        " faster (<!-- benchmark-value: demo | CartPole step | gymnasium --> for Gymnasium).",
        page=page, config=None, files=None,  # type: ignore[arg-type]
    )
    assert '<source media="(max-width: 44.9375em)" srcset="../../benchmarks/demo-1-narrow.svg">' \
        in text
    assert '<img class="pg-chart" src="../../benchmarks/demo-1.svg" alt="Bar chart of steps' in text
    assert "| CartPole step | 400k/s | 100k/s | **4x** | 3x met |" in text
    assert "Measured " in text and "python benchmarks/bench_demo.py" in text
    assert text.endswith("CartPole is 4x faster (100k/s for Gymnasium).")
    with pytest.raises(ValueError, match=r"no benchmarks/results/missing\.json"):
        docs_benchmarks.on_page_markdown("<!-- benchmark: missing -->", page=page,
                                         config=None, files=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="has no row 'nope'"):
        docs_benchmarks.on_page_markdown("<!-- benchmark-ratio: demo | nope -->", page=page,
                                         config=None, files=None)  # type: ignore[arg-type]


def test_every_committed_results_file_has_what_the_charts_need() -> None:
    files = sorted((ROOT / "benchmarks" / "results").glob("*.json"))
    assert len(files) >= 10
    for path in files:
        record = json.loads(path.read_text())
        assert record["name"] == path.stem
        assert record["source"] in ("measured", "transcribed")
        assert record["date"] and record["machine"]["cpu_count"]
        for table in record["tables"]:
            assert table["rows"], path
            for row in table["rows"]:
                assert "protogym" in row["values"], (path, row)
            assert "<rect" in docs_benchmarks.Chart(table, record.get("labels") or {}).svg()
