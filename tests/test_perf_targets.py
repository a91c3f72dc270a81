"""``python -m perf.run targets``: issue 12's targets in one run, each read from the section
that measures it. A tiny catalog, run end to end as a user runs it, so that a section whose
figures change shape, or a target the summary stops reading, fails here and not an hour into
a run at 100,000 records."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from perf import startup_perf, targets

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def test_targets_runs_each_section_at_its_size_and_reads_every_target(tmp_path: Path) -> None:
    figures_file = tmp_path / "targets.json"
    done = subprocess.run(
        [sys.executable, "-m", "perf.run", "targets", "--records", "40", "--rounds", "1",
         "--scale-no-floor", "--scale-seconds", "1", "--scale-clients", "1",
         "--page-requests", "3", "--queries", "publishers", "--json", str(figures_file)],
        cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp_path)}, capture_output=True, text=True,
        timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(figures_file.read_text(encoding="utf-8"))
    assert list(figures["sections"]) == ["incremental", "startup", "scale", "pages", "validate"]
    rows = figures["targets"]
    kinds = ["rebuild after one record changed", "serve --store ready", "serve --store ready",
             "build --store", "serve --store, whole tree", "benchmark page",
             "full validation grows", "full validation within"]
    assert len(rows) == len(kinds)
    assert all(row["target"].startswith(kind) for row, kind in zip(rows, kinds, strict=True))
    assert [row["records"] for row in rows] == ["4", "4", "40", "40", "40", "40", "4 -> 40",
                                                "40"]
    assert all(row["verdict"] in {"met", "met (PSS)"} or row["verdict"].startswith("MISSED")
               for row in rows)
    assert all(row["ours"] for row in rows)
    # the floors were left out: the scale rows say so, not a figure from somewhere else
    assert rows[3]["baseline"] == rows[4]["baseline"] == "not run"
    # the pages section served the store the scale section built, not one of its own
    assert "in the scale section" in figures["sections"]["pages"]["build"]["how"]
    # the whole dump is a download: shown with its throughput, judged by no page's bound
    # the pages of the store the targets are about: the store folder, alone at 100,000
    assert list(figures["sections"]["pages"]["by_store"]) == ["oxigraph"]
    pages = figures["sections"]["pages"]["by_store"]["oxigraph"]
    dump = pages["dump.ttl (whole)"]
    assert dump["download"] and dump["met"] is None and dump["mb_per_s_at_p50"] > 0
    assert all(isinstance(page["met"], bool) for name, page in pages.items()
               if name != "dump.ttl (whole)")
    assert "== issue 12's targets, in this run ==" in done.stdout


def test_targets_take_no_sizes() -> None:
    done = subprocess.run([sys.executable, "-m", "perf.run", "targets", "--sizes", "10,100"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "not --sizes" in done.stderr


def test_targets_run_the_sections_that_carry_them() -> None:
    from perf.run import make_parser

    plan = targets.steps(make_parser().parse_args(["targets", "--records", "1000"]))
    assert [(section.NAME, options.records, options.rounds) for section, options in plan] == [
        ("incremental", 100, 3), ("startup", 100, 3), ("scale", 1000, 1), ("pages", 1000, 3),
        ("validate", 1000, 1)]
    validate_options = plan[-1][1]
    assert validate_options.full_only and validate_options.small == 100
    # the growth's smaller figure is a median of as many runs as the other sections' rounds
    assert validate_options.small_rounds == 3
    # the page target is the store folder's: a memory store of 100,000 records takes minutes
    assert plan[3][1].stores == ("oxigraph",)


def test_a_query_process_past_its_target_says_whether_the_floor_is_too() -> None:
    assert startup_perf.verdict(0.93, 0.13) == "met"
    assert startup_perf.verdict(1.52, 0.85) == "MISSED"
    assert startup_perf.verdict(19.4, 18.2) == "MISSED, as the floor"
