"""Incremental builds of an ``oxigraph:DIR`` store: after each change to the record files, the
store an incremental build makes is the store a full build of the same files makes (the
manifest's facts and counts, every dump byte for byte, the Oxigraph store's quads, the search
index, the load report), and it read and mapped only what it had to."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

import pyoxigraph as ox
import pytest

from graph.build import derived
from graph.build.graphs import BuildResult, build, read
from graph.cli import main
from graph.errors import BenchgraphError
from graph.ingest import loader
from graph.ingest.importers.reading import find_record_files
from graph.ingest.kept import FileStat, ImportedFile, Spool
from graph.ingest.records import Record
from graph.mapping.iris import Iris
from graph.namespace import BENCH
from graph.resources import data_dir
from graph.search import INDEX_FILE
from graph.settings import Settings
from graph.store import disk, files, state
from graph.store.base import ValidationSuffix
from graph.store.disk import read_manifest
from graph.store.files import (
    DUMP_FORMATS,
    VALIDATION_JSON,
    VALIDATION_TURTLE,
)
from graph.store.kinds import StoreSpec, build_into, open_store
from graph.store.rebuild import Rebuilt, kept_build, rebuild_store
from tests.conftest import CRAWL_CATALOG

pytestmark = pytest.mark.slow

SEED_PAGE = "000_501ccd0cd0e2608f.txt"
SEED_DIRECTORY = "002_e36a0be437d5fce5.txt"


INCREMENTAL_HARNESSES = ("inspect_evals.json", "opencompass.json")
"""The bundled harness snapshots the incremental tests change (the two smallest, which share
benchmarks with each other and the seeds: every kind of record, at a quarter of the catalog's
build time), each cut to its first ``KEPT_WITH_RESULTS`` entries with results and first
``KEPT_MODELS`` models (``_trimmed``)."""
KEPT_WITH_RESULTS = 3
KEPT_MODELS = 10
"""OpenCompass's README tables hold 11,000 results: every change's full build and its
comparison with the incremental one then held 20 GB, and proved nothing a few results do."""


def _trimmed(source: Path, target: Path) -> None:
    """``source``'s snapshot with the results of all but its first entries with results, and
    all but its first models, left out."""
    data = json.loads(source.read_text(encoding="utf-8"))
    with_results = [entry for entry in data["entries"] if entry.get("results")]
    for entry in with_results[KEPT_WITH_RESULTS:]:
        del entry["results"]
    data["models"] = data.get("models", [])[:KEPT_MODELS]
    target.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


@pytest.fixture()
def records(tmp_path: Path) -> Path:
    """The seeds, two bundled harness snapshots and the crawl catalog, copied to be changed."""
    folder = tmp_path / "records"
    catalog = data_dir("catalog")
    (folder / "harnesses").mkdir(parents=True)
    for seed in catalog.glob("*.txt"):
        shutil.copy(seed, folder / seed.name)
    for name in INCREMENTAL_HARNESSES:
        _trimmed(catalog / "harnesses" / name, folder / "harnesses" / name)
    shutil.copytree(CRAWL_CATALOG / "generated", folder / "generated")
    shutil.copytree(CRAWL_CATALOG / "hostile", folder / "hostile")
    return folder


def full_build(folder: Path, records: Path, settings: Settings, *,
               validate: bool = False) -> BuildResult:
    read_now = read([records], settings, keep=Spool())
    return build_into(folder, read_now, settings, validate=validate,
                      state=partial(kept_build, settings=settings))[0]


def incremental(folder: Path, records: Path, settings: Settings, *,
                validate: bool = False) -> Rebuilt:
    rebuilt = rebuild_store(folder, [records], settings, validate=validate)
    assert rebuilt is not None, "the build was not incremental"
    return rebuilt


def table_rows(db: sqlite3.Connection, table: str) -> list[tuple[object, ...]]:
    return sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)


def assert_same_store(one: Path, other: Path) -> None:
    """The two store folders hold the same build, whatever its history."""
    first, second = read_manifest(one), read_manifest(other)
    assert first.facts.records == second.facts.records
    assert first.facts.rejected == second.facts.rejected
    assert first.counts.to_json() == second.counts.to_json()
    assert (first.quads, first.triples) == (second.quads, second.triples)
    generations = one / first.generation, other / second.generation
    quads = []
    for generation in generations:
        store = ox.Store.read_only(str(generation))
        quads.append(sorted(map(str, store)))
        del store
    assert quads[0] == quads[1]
    indexes = [closing(sqlite3.connect(generation / INDEX_FILE)) for generation in generations]
    with indexes[0] as a, indexes[1] as b:
        tables = [name for (name,) in a.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'text_%' "
            "AND name NOT LIKE 'sqlite_%'")]
        for table in tables:
            assert table_rows(a, table) == table_rows(b, table), table


def assert_same_report(rebuilt: Rebuilt, result: BuildResult) -> None:
    mine, theirs = rebuilt.result.report, result.report
    assert len(mine.records) == len(theirs.records)
    assert list(map(str, mine.warnings)) == list(map(str, theirs.warnings))
    assert list(map(str, mine.rejected)) == list(map(str, theirs.rejected))


def rewrite_page(path: Path, change: Callable[[dict[str, object]], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["page"])
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def check(tmp_path: Path, store: Path, records: Path, settings: Settings, step: str, *,
          validate: bool = False) -> Rebuilt:
    """An incremental build of ``store``, held to a full build of the same records; with
    ``validate``, both validated, to the same validation report."""
    rebuilt = incremental(store, records, settings, validate=validate)
    reference = tmp_path / f"full-{step}"
    result = full_build(reference, records, settings, validate=validate)
    assert_same_store(store, reference)
    assert_same_report(rebuilt, result)
    if validate:
        assert_same_validation(store, reference)
    return rebuilt


def assert_same_validation(one: Path, other: Path) -> None:
    """The two store folders keep the same validation report, in JSON and in Turtle."""
    generations = [folder / read_manifest(folder).generation for folder in (one, other)]
    reports = [json.loads((g / VALIDATION_JSON).read_text(encoding="utf-8")) for g in generations]
    assert reports[0] == reports[1]
    turtles = [ox.Dataset(ox.parse(path=str(g / VALIDATION_TURTLE), format=ox.RdfFormat.TURTLE))
               for g in generations]
    for turtle in turtles:  # rdflib's isomorphic takes minutes on the bundled catalog's report
        turtle.canonicalize(ox.CanonicalizationAlgorithm.UNSTABLE)
    assert turtles[0] == turtles[1]




def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The record files read from now on (``graph.ingest.loader``'s reads)."""
    read: list[Path] = []
    original = loader.read_record_bytes

    def counted(path: Path, settings: Settings) -> bytes:
        read.append(path)
        return original(path, settings)

    monkeypatch.setattr(loader, "read_record_bytes", counted)
    return read


def test_the_state_keeps_each_files_identities_not_its_records(
    tmp_path: Path, records: Path, settings: Settings
) -> None:
    """What a generation keeps of each file is what a full load of the same files makes of
    it: the records' identities, names and warnings; no record."""
    store = tmp_path / "store"
    full_build(store, records, settings)
    rewrite_page(records / SEED_PAGE, lambda page: page.update(summary="changed"))
    incremental(store, records, settings)
    generation = store / read_manifest(store).generation
    kept = state.KeptBuild.load(generation, state.fingerprint(settings))
    assert kept is not None
    reference = read([records], settings).report.imported
    assert kept.imported == {str(relative): made for relative, made in reference.items()}
    assert not any(isinstance(value, Record) for made in kept.imported.values()
                   for part in made.parts for value in vars(part).values())


class _Remembering:
    """``Known`` of every file an earlier load imported (no stat trusted: each is read)."""

    def __init__(self, imported: dict[PurePosixPath, ImportedFile]) -> None:
        self._imported = imported

    def digest(self, relative: PurePosixPath, stat: FileStat) -> str | None:
        return None

    def imported_as(self, relative: PurePosixPath, digest: str) -> ImportedFile | None:
        found = self._imported.get(relative)
        return found if found is not None and found.digest == digest else None


def test_a_remembered_record_is_imported_again_from_its_file_when_asked_for(
    records: Path, settings: Settings
) -> None:
    """A file an earlier load imported is not imported again, unless one of its records is
    asked for: then it is, once, and gives the very record; a file changed since the load
    read it stops the build, naming it."""
    first = read([records], settings).report
    remembered = loader.load_records([records], settings, known=_Remembering(first.imported))
    by_key = {loaded.key: loaded for loaded in first.records}
    assert all(isinstance(loaded.made, loader.Reimported) for loaded in remembered.records)
    directory = next(loaded for loaded in remembered.records
                     if loaded.source.relative.name == SEED_DIRECTORY)
    assert directory.record == by_key[directory.key].record
    seed = next(loaded for loaded in remembered.records
                if loaded.source.relative.name == SEED_PAGE)
    rewrite_page(records / SEED_PAGE, lambda page: page.update(summary="changed meanwhile"))
    with pytest.raises(BenchgraphError, match=f"{SEED_PAGE} changed while the build read it"):
        assert seed.record is None  # never: reading it raises


def test_a_file_whose_stat_is_kept_is_not_read_again(
    tmp_path: Path, records: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As git's index: a file whose stat is the one kept is not read; a write that keeps the
    size and puts the modification time back still moves the change time."""
    monkeypatch.setattr(loader, "RACY_NS", 0)  # the files were all written before the build
    store = tmp_path / "store"
    full_build(store, records, settings)
    read = reads(monkeypatch)
    nothing = incremental(store, records, settings)
    assert read == [] and nothing.figures.records_read == 0

    page = records / "generated" / "00003_f106c292e922328e.txt"
    before = page.stat()
    text = page.read_text(encoding="utf-8")
    summary = json.loads(text)["page"]["summary"]
    assert summary in text and summary != summary[::-1]
    page.write_text(text.replace(summary, summary[::-1]), encoding="utf-8")  # the same size
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (page.stat().st_size, page.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    one = incremental(store, records, settings)
    assert one.figures.records_read == 1 and read == [page]
    result = full_build(tmp_path / "full", records, settings)
    assert_same_store(store, tmp_path / "full")
    assert_same_report(one, result)


def test_a_file_written_just_before_the_build_is_read_again(
    tmp_path: Path, records: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The racy case: the records were copied moments ago, so no stat of them is trusted."""
    store = tmp_path / "store"
    full_build(store, records, settings)
    read = reads(monkeypatch)
    incremental(store, records, settings)
    assert len(read) == len(find_record_files([records]))


@pytest.mark.parametrize("failing", ["read", "build_facts", "KeptBuild.save"])
def test_an_incremental_build_switches_atomically(
    tmp_path: Path, records: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch,
    failing: str,
) -> None:
    """A build that fails leaves the store as it was, and the process writing the next
    generation's Oxigraph store (started as the rebuild starts) stopped: while it reads the
    files, before the store's process is given the changes, and while writing the rest."""
    store = tmp_path / "store"
    full_build(store, records, settings)
    before = read_manifest(store)
    rewrite_page(records / SEED_PAGE, lambda p: p.update(summary="changed"))
    writers: list[disk._Writing] = []

    class Watched(disk._Writing):
        def __init__(self, *arguments: Any, **options: Any) -> None:
            super().__init__(*arguments, **options)
            writers.append(self)

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(disk, "_Writing", Watched)
    monkeypatch.setattr(f"graph.store.rebuild.{failing}", fail)
    with pytest.raises(OSError, match="disk full"):
        rebuild_store(store, [records], settings)
    assert read_manifest(store) == before
    assert sorted(p.name for p in store.iterdir()) == sorted(
        [".benchgraph-build.lock", "benchgraph-store.json", before.generation])
    assert [writer._child.returncode is not None for writer in writers  # type: ignore[union-attr]
            ] == [True]
    monkeypatch.undo()
    check(tmp_path, store, records, settings, "after the failure")


def test_a_rebuild_removes_what_an_interrupted_one_left(
    tmp_path: Path, records: Path, settings: Settings
) -> None:
    """A build stopped while its store's process wrote leaves its loading folder, or the
    one RocksDB makes its checkpoint in (``.tmp`` added); the next switch removes both."""
    store = tmp_path / "store"
    full_build(store, records, settings)
    left = [store / ".generation-20260101T000000-00000000.loading",
            store / ".generation-20260101T000000-00000000.loading.tmp"]
    for folder in left:
        folder.mkdir()
    rewrite_page(records / SEED_PAGE, lambda p: p.update(summary="after an interruption"))
    incremental(store, records, settings)
    assert sorted(p.name for p in store.iterdir()) == [
        ".benchgraph-build.lock", "benchgraph-store.json", read_manifest(store).generation]


def test_another_base_or_fingerprint_builds_in_full(tmp_path: Path, records: Path,
                                                     settings: Settings) -> None:
    store = tmp_path / "store"
    full_build(store, records, settings)
    assert rebuild_store(store, [records], Settings(base="https://example.org/")) is None
    assert rebuild_store(store, [records], Settings(max_file_bytes=1000)) is None
    assert rebuild_store(tmp_path / "nothing", [records], settings) is None


def test_the_cli_builds_incrementally_unless_told_full(
    tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str], no_env: None
) -> None:
    store = f"oxigraph:{tmp_path / 'store'}"
    assert main(["build", str(records), "--store", store]) == 0
    full_err = capsys.readouterr().err
    assert "incremental" not in full_err
    assert main(["build", str(records), "--store", store, "-v"]) == 0
    err = capsys.readouterr().err
    assert "incremental build: 0 of" in err
    assert main(["build", str(records), "--store", store, "--full", "-v"]) == 0
    assert "incremental build" not in capsys.readouterr().err
    assert main(["build", str(records), "--full"]) == 2  # a usage error
    assert "--full goes with --store" in capsys.readouterr().err


def test_a_validated_store_keeps_the_report_a_full_build_makes(
    tmp_path: Path, records: Path, settings: Settings
) -> None:
    store, reference = tmp_path / "store", tmp_path / "reference"
    build_into(store, read([records], settings, keep=Spool()), settings, validate=True,
               state=partial(kept_build, settings=settings))
    # A record whose release date is no date: a warning in the report.
    rewrite_page(records / SEED_PAGE, lambda p: p.update(released="sometime"))
    rebuilt = rebuild_store(store, [records], settings, validate=True)
    assert rebuilt is not None and rebuilt.figures.records_read == 1
    assert rebuilt.figures.records_validated == 1
    build_into(reference, read([records], settings), settings, validate=True)
    assert_same_store(store, reference)
    assert_same_validation(store, reference)
    assert rebuild_store(store, [records], settings) is not None
    assert not (store / read_manifest(store).generation / VALIDATION_JSON).exists()


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file below ``folder``: its size and modification time."""
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_a_rebuilt_store_is_served_without_writing_its_folder(
    tmp_path: Path, records: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store folder a server may only read (a read-only mount, another user's folder) is
    served after an incremental build as after a full one: its search index and report are
    in the generation, and the dumps, which a store writes on first use, are written into a
    folder of the server's own, never into the generation."""
    store = tmp_path / "store"
    build_into(store, read([records], settings, keep=Spool()), settings, validate=True,
               state=partial(kept_build, settings=settings))
    rewrite_page(records / SEED_PAGE, lambda p: p.update(summary="changed"))
    assert rebuild_store(store, [records], settings, validate=True) is not None
    generation = store / read_manifest(store).generation
    before = files_of(generation)
    access = os.access
    monkeypatch.setattr(files.os, "access", lambda path, mode: (
        False if Path(path) == generation else access(path, mode)))
    served = open_store(StoreSpec.parse(f"oxigraph:{store}"), settings)
    try:
        for fmt in DUMP_FORMATS:
            made = served.artefacts().dump(fmt)
            assert made.size > 0 and generation not in made.path.parents, fmt.name
        suffixes: tuple[ValidationSuffix, ...] = (".json", ".ttl")
        for suffix in suffixes:
            found = served.artefacts().validation_file(suffix)
            assert found is not None and found.path.stat().st_size > 0, suffix
        assert served.artefacts().search("bench", limit=5).total > 0
    finally:
        served.close()
    assert files_of(generation) == before


def test_a_rebuild_copies_the_files_it_may_not_link(
    tmp_path: Path, records: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generation whose files the building user may not hard-link (another user's, served
    read-only: Linux's protected hard links) is rebuilt all the same, by copying them."""
    store = tmp_path / "store"
    full_build(store, records, settings)
    rewrite_page(records / SEED_PAGE, lambda p: p.update(summary="changed"))

    def refuse(source: object, target: object) -> None:
        raise PermissionError(1, "Operation not permitted", str(source))

    monkeypatch.setattr(os, "link", refuse)
    check(tmp_path, store, records, settings, "copied")
    generation = store / read_manifest(store).generation
    kept = [path for path in (generation / state.STATE).rglob("*") if path.is_file()]
    assert kept and all(path.stat().st_nlink == 1 for path in kept)


@pytest.mark.parametrize("flip", ["uncatalogued", "catalogued", "none"])
def test_the_build_graph_mended_is_the_one_derived_whole(settings: Settings, flip: str) -> None:
    """A rebuild derives the build graph again only for the subjects of the statements removed
    or added and the nodes whose ``bench:catalogued`` turns (``graph.build.derived.mend``):
    here no statement changed, only which benchmarks are catalogued, and the mended build
    graph is the one derived from the whole store."""
    built = build([data_dir("catalog")], settings)
    store, build_graph = built.store, ox.NamedNode(Iris(settings.base).build())
    flags = {quad.subject.value: quad.object.value == "true" for quad in
             store.quads_for_pattern(None, ox.NamedNode(str(BENCH.catalogued)), None, build_graph)}
    catalogued = {node for node, on in flags.items() if on}
    if flip == "uncatalogued":
        catalogued -= {min(catalogued)}
    elif flip == "catalogued":
        catalogued |= {min(node for node, on in flags.items() if not on)}
    changed = derived.Changed()
    derived.mend(store, build_graph, catalogued, derived.flipped(store, build_graph, catalogued),
                 changed)
    assert set(store.quads_for_pattern(None, None, None, build_graph)) == derived.derive(
        store, build_graph, catalogued)
    assert (changed.quads == 0 and not changed.mentioned) == (flip == "none")
