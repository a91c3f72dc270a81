"""Figures of the search index and the benchmark list at catalog scale.

    python -m perf.search_perf CATALOG_DIR [--store DIR] [--rounds N]

Builds a store folder of the catalog unless ``--store`` names one already built, writes its
search index again alone from the store, in a process of its own as the build's writing
process does (wall and CPU seconds: what it adds to ``benchgraph build --store``), then times
``Artefacts.search`` and ``Artefacts.browse`` and the pages ``/search`` and ``/benchmarks``
through the app (Flask's test client: the app's own time, no network), printing p50 and p99
of each. Figures, not tests: nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pyoxigraph as ox

from graph.build.graphs import read
from graph.search import BrowseRequest, write_index
from graph.settings import Settings
from graph.store.disk import read_manifest
from graph.store.kinds import StoreSpec, build_into, open_store
from web import create_app

QUERIES = ("mimic", "stanford university", "healthbnch", "radiolgy summarisation", "the",
           "a", "private", "zzzz", "models benchmark")


def timed(label: str, call: Callable[[], object], rounds: int) -> None:
    """Print p50 and p99 of ``rounds`` calls (after one to warm up)."""
    call()
    seconds = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - start)
    seconds.sort()
    p99 = seconds[min(len(seconds) - 1, round(0.99 * (len(seconds) - 1)))]
    print(f"{label:58s} p50 {statistics.median(seconds) * 1000:7.1f} ms"
          f"   p99 {p99 * 1000:7.1f} ms")


def time_index(generation: str, path: str, base: str) -> None:
    """Print how long the index of the store at ``generation`` takes to write to ``path``."""
    wall, cpu = time.perf_counter(), time.process_time()
    figures = write_index(Path(path), ox.Store.read_only(generation), base)
    print(f"index: {time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s "
          f"CPU ({figures})")


def main() -> None:
    if sys.argv[1:2] == ["--index-of"]:
        time_index(*sys.argv[2:5])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", type=Path)
    parser.add_argument("--store", type=Path, help="a store folder already built from it")
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    settings = Settings()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.store or Path(scratch) / "store"
        if args.store is None:
            wall = time.perf_counter()
            build_into(folder, read([args.catalog], settings), settings)
            print(f"build into the store folder (graph and index): "
                  f"{time.perf_counter() - wall:.1f} s wall")
        generation = folder / read_manifest(folder).generation
        # A process of its own: this one forks the store's zygote below, after which no
        # process of the family may have opened RocksDB (graph.store.writing).
        subprocess.run([sys.executable, "-m", "perf.search_perf", "--index-of", str(generation),
                        str(Path(scratch) / "index.sqlite"), settings.base], check=True)
        store = open_store(StoreSpec.parse(f"oxigraph:{folder}"), settings)
        try:
            measure(store, settings, args.rounds)
        finally:
            store.close()


def measure(store: object, settings: Settings, rounds: int) -> None:
    from graph.store.local import LocalStore

    assert isinstance(store, LocalStore)
    artefacts = store.artefacts()
    whole = artefacts.browse(BrowseRequest())
    top = {facet.name: [count.value.key for count in facet.values] for facet in whole.facets}
    views = {
        "nothing chosen": {},
        "one access level": {"access": top["access"][:1]},
        "two tags (OR) and an access level, newest first": {
            "tag": top["tag"][:2], "access": top["access"][:1]},
        "three facets": {"tag": top["tag"][:2], "access": top["access"][:1],
                         "publisher": top["publisher"][:2]},
    }
    for name, chosen in views.items():
        selection = {facet: tuple(keys) for facet, keys in chosen.items()}
        sort = "-released" if "newest" in name else "name"
        timed(f"Artefacts.browse: {name}",
              partial(artefacts.browse, BrowseRequest(selection, sort)),
              rounds)
    timed("Artefacts.browse: every row (the CSV)",
          lambda: artefacts.browse(BrowseRequest(limit=None, facet_size=0)),
          max(5, rounds // 10))
    for text in QUERIES:
        timed(f"Artefacts.search {text!r}", partial(artefacts.search, text), rounds)
    client = create_app(settings, store).test_client()
    html = {"Accept": "text/html"}
    pages = {
        "/benchmarks": "/benchmarks",
        "/benchmarks, two facets": f"/benchmarks?access={top['access'][0]}&tag={top['tag'][0]}"
                                   f"&tag={top['tag'][1]}&sort=-released",
        "/benchmarks.json, three facets, page 3":
            f"/benchmarks.json?access={top['access'][0]}&tag={top['tag'][0]}"
            f"&publisher={top['publisher'][0]}&publisher={top['publisher'][1]}&page=3&size=20",
        "/search?q=mimic": "/search?q=mimic",
        "/search?q=the": "/search?q=the",
        "/": "/",
    }
    for name, url in pages.items():
        timed(f"page {name}", partial(client.get, url, headers=html), rounds)


if __name__ == "__main__":
    main()
