"""Issue 12's targets, each at the size it names and beside its baseline, in one run.

    python -m perf.run targets [--records 100000] [--small N/10] [--rounds 3] [--json FILE]

The whole suite at three sizes (``perf.run all --sizes 1000,10000,100000``) takes hours at
100,000 records on two cores: its build section makes three kinds of build, its validate
section keeps every graph of the catalog for updates (about 8 GB), its incremental section
makes a full build a round. This runs only the sections that carry one of issue 12's
targets, in one work folder, one after another:

1. ``incremental`` at N/10 records, ``--rounds`` rounds: the rebuild after one record
   changed (under 2 s), beside the full build and the rebuild with nothing changed;
2. ``startup`` at N/10 records, ``--rounds`` rounds: ``serve --store`` ready (under 3 s),
   beside Oxigraph's own server on the same folder;
3. ``scale`` at N records, one round: ``build --store`` and ``serve --store`` as process
   trees (under 2 GB), beside pyoxigraph bulk-loading the same dumps and Oxigraph's own
   server (``--scale-no-floor`` leaves those out); the store it builds is the one the pages
   section then serves (``perf.served_store.adopt``);
4. ``pages`` at N records, of the store folder (``--stores oxigraph``): a benchmark page
   (under 30 ms at p50);
5. ``validate --full-only`` at N/10 and N records, one round, N/10 validated ``--rounds``
   times around N (``--small-rounds``): the full validation's growth (linear, within 1.2
   times) and its peak (under 2 GB, the build included).

Then one table: each target, its figure, its baseline, met or missed (and by how much).
"""

import argparse
import statistics
from collections.abc import Callable
from typing import Any

from perf import incremental_perf, pages_perf, scale_perf, startup_perf, validate_perf
from perf.common import PerfError, Step, phase_figures, table

NAME = "targets"
HELP = "issue 12's targets, each at its size beside its baseline (N and N/10 records)"
DEFAULT_RECORDS = 100_000


def steps(args: argparse.Namespace) -> list[Step]:
    """The sections to run, each with its options: ``args`` with the size and rounds set."""
    small = args.small or max(1, args.records // 10)

    def options(records: int, rounds: int, **more: Any) -> argparse.Namespace:
        return argparse.Namespace(**{**vars(args), "records": records, "rounds": rounds,
                                     "small": small, **more})

    return [
        (incremental_perf, options(small, args.rounds, no_validation=True)),
        (startup_perf, options(small, args.rounds)),
        (scale_perf, options(args.records, 1, scale_store=None)),
        (pages_perf, options(args.records, args.rounds, stores=("oxigraph",))),
        (validate_perf, options(args.records, 1, full_only=True, plain=False,
                                small_rounds=args.rounds)),
    ]


# -- the verdicts ----------------------------------------------------------------------------

Row = list[str]


def summary(sections: dict[str, dict[str, Any]]) -> tuple[str, list[dict[str, str]]]:
    """The table of targets from the sections' figures (``SectionReport.data`` by title), and
    the same rows for ``--json``."""
    rows = [row for name, read in READERS
            for row in (read(sections) if name in sections else
                        [[f"the targets of the {name} section", "", "not measured", "",
                          "MISSED: the section failed"]])]
    headers = ["target", "records", "ours", "baseline", "verdict"]
    text = table(headers, rows)
    return text, [dict(zip(headers, row, strict=True)) for row in rows]


def _phase(section: dict[str, Any], name: str) -> dict[str, Any]:
    """A phase a target is read from: a PerfError when the section left it out."""
    found = phase_figures(section, name)
    if found is None:
        raise PerfError(f"the {name} phase was not measured")
    return found


def _met(ok: bool, by: str) -> str:
    """The verdict: met, or missed by ``by``."""
    return "met" if ok else f"MISSED by {by}"


def _rebuild(sections: dict[str, dict[str, Any]]) -> list[Row]:
    section = sections["incremental"]
    one, full = _phase(section, "one"), _phase(section, "full")
    nothing = _phase(section, "nothing")
    seconds = one["median_seconds"]
    limit = incremental_perf.TARGET_REBUILD_SECONDS
    return [[f"rebuild after one record changed, under {limit:g} s", f"{section['records']:,}",
             f"{seconds:.2f} s", f"full build {full['median_seconds']:.1f} s; nothing changed "
             f"{nothing['median_seconds']:.2f} s", _met(seconds < limit,
                                                        f"{seconds - limit:.2f} s")]]


def _startup(sections: dict[str, dict[str, Any]]) -> list[Row]:
    serve = sections["startup"]["serve"]
    ours = statistics.median(serve["benchgraph serve --store"]["ready"])
    floor = statistics.median(serve["oxigraph serve-read-only"]["ready"])
    limit = startup_perf.SERVE_TARGET
    rows = [[f"serve --store ready, under {limit:g} s (median of rounds)",
             f"{sections['startup']['records']:,}", f"{ours:.2f} s",
             f"oxigraph serve-read-only {floor:.2f} s",
             _met(ours < limit, f"{ours - limit:.2f} s")]]
    for name, row in sections["scale"]["rows"].items():
        if name.startswith("ours: benchgraph serve"):
            ready = row["ready_seconds"]
            rows.append([f"serve --store ready, under {limit:g} s (one start)",
                         f"{sections['scale']['records']:,}", f"{ready:.2f} s", "",
                         _met(ready < limit, f"{ready - limit:.2f} s")])
    return rows


def _scale(sections: dict[str, dict[str, Any]]) -> list[Row]:
    section = sections["scale"]
    rows: dict[str, dict[str, Any]] = section["rows"]
    floors = {"build": "floor: pyoxigraph bulk load, same dumps",
              "serve": "floor: oxigraph serve-read-only"}
    out = []
    for name, row in rows.items():
        if not name.startswith("ours"):
            continue
        kind = "build" if "build" in name else "serve"
        floor = next((r for n, r in rows.items() if n.startswith(floors[kind])), None)
        out.append([f"{kind} --store, whole tree under {scale_perf.TARGET_MB:,.0f} MB",
                    f"{section['records']:,}", _memory(row),
                    "not run" if floor is None else f"{floors[kind][7:]}: {_memory(floor)}",
                    scale_perf.verdict(row)])
    return out


def _memory(row: dict[str, Any]) -> str:
    return f"{row['peak_rss_mb']:,.0f} MB RSS, {row['peak_pss_mb']:,.0f} MB PSS"


def _pages(sections: dict[str, dict[str, Any]]) -> list[Row]:
    section = sections["pages"]
    page = pages_perf.pages_by_store(section)["oxigraph"]["benchmark page"]
    limit = pages_perf.P50_TARGET_MS
    return [[f"benchmark page, under {limit:g} ms at p50", f"{section['records']:,}",
             f"{page['p50_ms']:.1f} ms (p99 {page['p99_ms']:.1f})", "",
             _met(page["p50_ms"] < limit, f"{page['p50_ms'] - limit:.1f} ms")]]


def _validation(sections: dict[str, dict[str, Any]]) -> list[Row]:
    section = sections["validate"]
    sizes = section["sizes"]
    scale = sizes["large"] / sizes["small"]
    limit = validate_perf.TARGET_GROWTH_SLACK * scale
    growth = section["growth_cpu"]
    small, large = _phase(section, "full-small"), _phase(section, "full-large")
    peak = large["max_peak_rss_mb"]
    memory_limit = validate_perf.TARGET_LARGE_PEAK_MB
    return [
        [f"full validation grows linearly (x{limit:g} at most, CPU)",
         f"{sizes['small']:,} -> {sizes['large']:,}", f"x{growth:.2f}",
         f"CPU {small['median_cpu_seconds']:.1f} s -> {large['median_cpu_seconds']:.1f} s",
         _met(growth <= limit, f"x{growth - limit:.2f}")],
        [f"full validation within {memory_limit:,.0f} MB (the build included)",
         f"{sizes['large']:,}", f"{peak:,.0f} MB", "", _met(peak <= memory_limit,
                                                           f"{peak - memory_limit:,.0f} MB")],
    ]


READERS: tuple[tuple[str, Callable[[dict[str, dict[str, Any]]], list[Row]]], ...] = (
    ("incremental", _rebuild), ("startup", _startup), ("scale", _scale), ("pages", _pages),
    ("validate", _validation))
"""Each section that carries targets, and what reads them from its figures."""
