"""The scale section: the memory of ``benchgraph build --store`` and ``benchgraph serve --store``
as whole process trees, against pyoxigraph and Oxigraph's own server on the same data.

    python -m perf.run scale [--records 100000] [--scale-clients 4] [--scale-seconds 30]

One round (a build of 100,000 records takes minutes), each side sampled every 0.1 s from
``/proc`` (``perf.tree_memory``): the sum over the process and everything under it of RSS
(shared pages counted in each process that maps them) and of PSS (shared pages divided among
their sharers: what the tree really holds), and the largest single process.

- ours, build: ``benchgraph build CATALOG --store oxigraph:DIR`` as a user runs it (it
  validates: its report is kept in the store), with its bulk-load child;
- floor, build: a fresh interpreter that has pyoxigraph bulk-load the N-Quads and N-Triples
  our build wrote (the named graphs and their merge) into a new store folder, as our load
  child does, and nothing else;
- ours, serve: ``benchgraph serve --store oxigraph:DIR`` (the server, its query processes
  and their zygote) under ``--scale-clients`` clients for ``--scale-seconds`` sending the load
  section's mix (every named query, ad-hoc SPARQL) and pages (a benchmark page, search);
- floor, serve: ``oxigraph serve-read-only`` on the same generation, the same SPARQL mix.

The target (issue 12): under 2 GB at 100,000 records, build and serve. The store built here
is then the one the run's later serving sections use, unless one was built before it
(``perf.served_store.adopt``: ``perf.run targets`` runs the pages section after this one).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from perf.common import (
    Headline,
    PerfError,
    Run,
    SectionReport,
    interrupted_with,
    run_phase_command,
    table,
)
from perf.common import progress as say
from perf.served_store import adopt, folder_mb
from perf.serving import Client, Served, serving_benchgraph, serving_oxigraph
from perf.tree_memory import TreePeak, TreeSampler

NAME = "scale"
HELP = "peak memory of build --store and serve --store (whole process trees) beside pyoxigraph"
MODULE = "perf.scale_perf"
TARGET_MB = 2048.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scale-clients", type=int, default=4, metavar="N",
                        help="clients of each server in the scale section (default 4)")
    parser.add_argument("--scale-seconds", type=float, default=30.0, metavar="S",
                        help="how long each server is asked in the scale section (default 30)")
    parser.add_argument("--scale-no-floor", action="store_true",
                        help="ours only: skip the floors (Oxigraph's server, pyoxigraph's bulk "
                             "load: 25 min at 100,000 records)")
    parser.add_argument("--scale-store", type=Path, metavar="DIR",
                        help="serve (and floor-load) this store folder, already built from the "
                             "same catalog, instead of building one: no build row")


# -- the section (parent process) ------------------------------------------------------------

def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    store = args.scale_store or workdir / "scale-store"
    rows: dict[str, dict[str, Any]] = {}
    if args.scale_store is None:
        say(f"scale: benchgraph build --store, {catalog.name}")
        built = rows["ours: benchgraph build --store (CLI)"] = _sampled(
            [sys.executable, "-m", "graph.cli", "build", str(catalog), "--store",
             f"oxigraph:{store}"],
            workdir / "scale-build.log", accept=(0, 2))  # 2: some files rejected, the rest built
    from graph.store.disk import read_manifest

    manifest = read_manifest(store)  # 100,000 records' facts: read once
    generation = store / manifest.generation
    if args.scale_store is None:
        adopt(catalog, workdir, store, Run(built["seconds"], int(built["peak_rss_mb"] * 2**20), {
            "records": len(manifest.facts.records), "folder_mb": folder_mb(store),
            "how": "benchgraph build --store in the scale section, its whole tree"}))
    from graph.settings import Settings
    from perf.load_perf import request_mix

    mix = request_mix(generation, Settings().base)
    label = f"{args.scale_clients} clients, {args.scale_seconds:g} s"
    say(f"scale: benchgraph serve --store, {label}")
    with serving_benchgraph(["--store", f"oxigraph:{store}"], workdir) as served:
        rows[f"ours: benchgraph serve --store, {label}"] = _asked(served, mix, args, pages=True)
    if args.scale_no_floor:
        return _report(rows, args.records + args.directory_pages)
    say(f"scale: oxigraph serve-read-only, {label}")
    with serving_oxigraph(generation, workdir) as served:
        rows[f"floor: oxigraph serve-read-only, {label}"] = _asked(served, mix, args, pages=False)
    say("scale: pyoxigraph bulk-loads the same N-Quads and N-Triples into a folder")
    ours_mb = folder_mb(store)  # before any dump is written into it
    loaded = []
    for name, fmt in (("scale-floor.nq", "nquads"), ("scale-floor.nt", "ntriples")):
        loaded.append(workdir / name)
        subprocess.run([sys.executable, "-m", "graph.store.dumping", str(generation), fmt,
                        manifest.facts.base, str(loaded[-1])], check=True)
    floor = workdir / "scale-floor"
    rows["floor: pyoxigraph bulk load, same dumps"] = _sampled(
        [sys.executable, "-m", MODULE, "floor-load", *map(str, loaded), str(floor)],
        workdir / "scale-floor.log")
    rows["floor: pyoxigraph bulk load, same dumps"]["folder_mb"] = folder_mb(floor)
    rows.setdefault("ours: benchgraph build --store (CLI)", {})["folder_mb"] = ours_mb
    for path in loaded:
        path.unlink()
    return _report(rows, args.records + args.directory_pages)


def headline(data: dict[str, Any]) -> Headline:
    """Each whole tree's peak memory (``perf.run compare``)."""
    return {f"{name} (peak RSS / PSS MB)":
            f"{row['peak_rss_mb']:,.0f} / {row['peak_pss_mb']:,.0f}"
            for name, row in data["rows"].items()}


def _sampled(command: Sequence[str], log: Path, accept: Sequence[int] = (0,)) -> dict[str, Any]:
    """Runs ``command`` to its end, sampling its tree: its figures."""
    with log.open("wb") as output:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        with interrupted_with(process), TreeSampler(process.pid) as sampler:
            code = process.wait()
        seconds = time.perf_counter() - started
    if code not in accept:
        tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise PerfError(f"{' '.join(command)} exited {code}:\n{tail}")
    return _figures(sampler.peak, seconds)


def _asked(served: Served, mix: Sequence[Any], args: argparse.Namespace, *, pages: bool
           ) -> dict[str, Any]:
    """The server's tree sampled while ``args.scale_clients`` clients send ``mix`` (and, with
    ``pages``, a benchmark page and a search each round) for ``args.scale_seconds``."""
    from perf.load_perf import send_mix

    with TreeSampler(served.pid) as sampler:
        page_thread = None
        if pages:
            page_thread = threading.Thread(target=_pages, args=(served, args.scale_seconds))
            page_thread.start()
        tally, elapsed = send_mix(served, mix, args.scale_clients, args.scale_seconds)
        if page_thread is not None:
            page_thread.join()
    figures = _figures(sampler.peak, elapsed)
    figures.update(requests=len(tally.latencies), errors=dict(tally.errors),
                   first_errors=dict(tally.first_errors),
                   ready_seconds=round(served.ready_seconds, 2))
    return figures


def _pages(served: Served, seconds: float) -> None:
    """A benchmark page and a search, again and again, for ``seconds``."""
    client = Client(served.url)
    try:
        rows = client.select(served.sparql_path,
                             "PREFIX bench: <https://w3id.org/benchgraph/ontology#> "
                             "PREFIX dcterms: <http://purl.org/dc/terms/> SELECT ?id WHERE { "
                             "?b bench:catalogued true ; dcterms:identifier ?id } LIMIT 20")
        addresses = [f"/benchmark/{row['id']}" for row in rows] + ["/search?q=bench"]
        deadline = time.perf_counter() + seconds
        index = 0
        while time.perf_counter() < deadline:
            status, _ = client.get(addresses[index % len(addresses)])
            if status != 200:
                raise PerfError(f"{addresses[index % len(addresses)]} answered {status}")
            index += 1
    finally:
        client.close()


def _figures(peak: TreePeak, seconds: float) -> dict[str, Any]:
    largest = max(peak.per_process.items(), key=lambda item: item[1], default=("", 0))
    return {"seconds": round(seconds, 2), "peak_rss_mb": round(peak.rss_mb, 1),
            "peak_pss_mb": round(peak.pss_mb, 1), "processes": peak.processes,
            "largest_process": largest[0].split(" ", 1)[-1],
            "largest_process_mb": round(largest[1] / 2**20, 1), "samples": peak.samples,
            "timeline_mb": [(round(t, 1), round(rss / 2**20), round(pss / 2**20))
                            for t, rss, pss in peak.timeline[::max(1, len(peak.timeline) // 200)]]}


def _report(rows: dict[str, dict[str, Any]], records: int) -> SectionReport:
    from perf.load_perf import error_lines

    lines = [table(
        ["what (one round)", "wall s", "peak tree RSS MB", "peak tree PSS MB", "processes",
         "largest process MB", "target"],
        [[name, f"{r['seconds']:.1f}", f"{r['peak_rss_mb']:,.0f}", f"{r['peak_pss_mb']:,.0f}",
          str(r["processes"]), f"{r['largest_process_mb']:,.0f} ({r['largest_process']})",
          verdict(r) if name.startswith("ours") else ""] for name, r in rows.items()
         if "seconds" in r]), ""]
    folders = {name: r["folder_mb"] for name, r in rows.items() if "folder_mb" in r}
    if len(folders) == 2:
        ours, floor = folders.values()
        lines.append(f"store folder: ours {ours:,.0f} MB, pyoxigraph's own of the same quads "
                     f"{floor:,.0f} MB ({ours / floor:.2f}x; target at most 1.5x)")
    lines.append(f"{records:,} records; target: each of ours under {TARGET_MB:,.0f} MB peak "
                 "(RSS summed over the tree; PSS counts a page shared after a fork once)")
    for name, r in rows.items():
        if "errors" in r:
            lines.append(f"{name}: {r['requests']} requests, errors {r['errors'] or 0}, "
                         f"ready in {r['ready_seconds']} s")
            lines += error_lines(name, r)
    return SectionReport(NAME, "\n".join(lines), {"records": records, "target_mb": TARGET_MB,
                                                  "rows": rows})


def verdict(row: dict[str, Any]) -> str:
    """A row of ours against the target: by the summed RSS, else by the PSS, else by how much."""
    if row["peak_rss_mb"] <= TARGET_MB:
        return "met"
    if row["peak_pss_mb"] <= TARGET_MB:
        return "met (PSS)"
    return f"MISSED by {row['peak_pss_mb'] - TARGET_MB:,.0f} MB"


# -- the phases (child processes) ------------------------------------------------------------

def phase_floor_load(args: Sequence[str]) -> dict[str, Any]:
    """pyoxigraph bulk-loads ``QUADS`` (N-Quads) and ``MERGE`` (N-Triples) into a new store
    folder ``DIR``: what our build's load child does, alone."""
    import pyoxigraph as ox

    started = time.perf_counter()
    store = ox.Store(args[2])
    store.bulk_load(path=args[0], format=ox.RdfFormat.N_QUADS)
    store.bulk_load(path=args[1], format=ox.RdfFormat.N_TRIPLES)
    store.flush()
    return {"seconds": time.perf_counter() - started, "quads": len(store)}


PHASES: dict[str, Callable[[Sequence[str]], dict[str, Any]]] = {"floor-load": phase_floor_load}


def main(argv: Sequence[str]) -> int:
    return run_phase_command(MODULE, PHASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
