"""The validated store folder that the query section and the serving ones (pages, startup,
load) measure.

    python -m perf.served_store build CATALOG STORE      # the phase, in a fresh process

Built once per catalog in a run, in a child process, the way ``benchgraph build CATALOG
--store oxigraph:DIR`` builds it: the records read, then streamed into the writing process
(``graph.store.kinds.build_into``), which loads them, derives the build graph, validates the
graph from the store and writes the search index; the state kept for an incremental build.
The four sections then share it: at 100,000 records one build takes many minutes.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from perf.common import Phase, Run, run_phase, run_phase_command
from perf.common import progress as say

MODULE = "perf.served_store"


def served_store(catalog: Path, workdir: Path) -> tuple[Path, Run, bool]:
    """The store folder of ``catalog`` in this run's ``workdir``, built unless an earlier
    section of the run built it; its build's figures; and whether it was reused."""
    kept = _kept(catalog, workdir)
    if kept.exists():
        figures = json.loads(kept.read_text(encoding="utf-8"))
        store = Path(figures.pop("folder"))
        say(f"store: reusing {store}, built earlier in this run")
        return store, Run(**figures), True
    store = workdir / f"served-{catalog.name}"
    say(f"store: building {catalog.name} into a validated store at {store}")
    built = run_phase("build", [str(catalog), str(store)], workdir, module=MODULE)
    adopt(catalog, workdir, store, built)
    return store, built, False


def adopt(catalog: Path, workdir: Path, store: Path, built: Run) -> None:
    """Makes ``store``, a validated store folder of ``catalog`` built in this run (by
    ``benchgraph build --store`` in the scale section, say), the one later sections serve,
    unless one already is: a build of 100,000 records takes many minutes."""
    kept = _kept(catalog, workdir)
    if not kept.exists():
        kept.write_text(json.dumps({"folder": str(store), "seconds": built.seconds,
                                    "peak_rss_bytes": built.peak_rss_bytes,
                                    "detail": built.detail}), encoding="utf-8")


def release(workdir: Path) -> None:
    """Deletes the store folders kept in ``workdir`` for later sections (``perf.run`` does,
    once no section left to run serves one)."""
    for kept in workdir.glob("served-*.json"):
        folder = json.loads(kept.read_text(encoding="utf-8"))["folder"]
        shutil.rmtree(folder, ignore_errors=True)
        kept.unlink()


def _kept(catalog: Path, workdir: Path) -> Path:
    return workdir / f"served-{catalog.name}.json"


def describe(built: Run, reused: bool) -> str:
    """One line on how the store was built, for a section's report."""
    detail = built.detail
    return (f"store built from {detail['records']:,} records in {built.seconds:.1f} s "
            f"({detail['how']}; peak {built.peak_rss_bytes / 2**20:,.0f} MB), folder "
            f"{detail['folder_mb']:,.0f} MB" + (" (built earlier in this run)" if reused else ""))


# -- the build phase (child process) ---------------------------------------------------------

def _build(argv: Sequence[str]) -> dict[str, Any]:
    import resource
    from functools import partial

    from graph.build.graphs import read
    from graph.ingest.kept import Spool
    from graph.settings import Settings
    from graph.store.kinds import build_into
    from graph.store.rebuild import kept_build

    def cpu() -> float:
        usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                     resource.RUSAGE_CHILDREN)]
        return sum(u.ru_utime + u.ru_stime for u in usage)

    catalog, folder = Path(argv[0]), Path(argv[1])
    settings = Settings()
    started = time.perf_counter()
    records = read([catalog], settings, keep=Spool())
    built = time.perf_counter()
    result = build_into(folder, records, settings, validate=True,
                        state=partial(kept_build, settings=settings))[0]
    stored = time.perf_counter()
    return {"seconds": stored - started, "build_seconds": built - started,
            "store_seconds": stored - built, "cpu_seconds": cpu(),
            "how": f"read {built - started:.1f} s, mapped into the store, validated and "
                   f"indexed {stored - built:.1f} s; CPU {cpu():.1f} s",
            "records": len(result.report.records), "folder_mb": folder_mb(folder)}


def folder_mb(folder: Path) -> float:
    """What the files under ``folder`` take, in MB."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) / 2**20


PHASES: dict[str, Phase] = {"build": _build}

if __name__ == "__main__":
    sys.exit(run_phase_command(MODULE, PHASES, sys.argv[1:]))
