"""A terms chunk of a store's state read back (``graph.store.state.terms.read_snapshot``): its
kinds and extras in the JSON, no lexical form kept, and the table restored from it the table
the chunk was written from."""

import json
from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from graph.dataset.form_index import FormIndex
from graph.dataset.table import TermTable
from graph.ingest.kept import FileStat
from graph.settings import Settings
from graph.store import state
from graph.store.state import terms as terms_chunks

DATATYPE = URIRef("https://example.org/datatype")
TRICKY = ['", "extras": ["x"]}', '{"kinds": "I"}', "line\nbreak", "back\\slash\\", "\u00e9t\u00e9"]


def _table() -> TermTable:
    terms = TermTable()
    terms.iri(URIRef("https://example.org/a"))
    for text in TRICKY:
        terms.plain(text)
        terms.typed(text, DATATYPE)
        terms.object(Literal(text, lang="en-GB"))
    return terms


def _written(tmp_path: Path) -> tuple[TermTable, Path]:
    terms = _table()
    path = tmp_path / "terms-0.json"
    terms_chunks.write_snapshot(path, terms.snapshot(), 0)
    return terms, path


def _same(restored: TermTable, terms: TermTable) -> None:
    assert restored.ntriples == terms.ntriples
    assert [restored.terms[i] for i in range(len(terms))] == [
        terms.terms[i] for i in range(len(terms))]
    for i in range(len(terms)):
        term = terms.terms[i]
        if isinstance(term, Literal) and term.language:
            assert restored.terms[i].language == term.language  # type: ignore[union-attr]
    for text in TRICKY:
        assert restored.object(Literal(text, datatype=DATATYPE)) == terms.typed(
            text, DATATYPE)
        assert restored.object(Literal(text, lang="en-gb")) == terms.object(
            Literal(text, lang="en-GB"))


@pytest.mark.parametrize("kept_index", [True, False])
def test_a_chunk_read_back_restores_its_table(tmp_path: Path, kept_index: bool) -> None:
    """Its terms are found again by the index written beside it, or by one made anew."""
    terms, path = _written(tmp_path)
    snapshot = terms_chunks.read_snapshot(path)
    assert snapshot.extras == terms.snapshot().extras
    index = FormIndex.load(terms_chunks.index_file(path)) if kept_index else None
    _same(TermTable.restored(snapshot, index), terms)


@pytest.mark.parametrize("run", [1, 5, 64])
def test_the_forms_are_read_back_a_run_at_a_time(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 run: int) -> None:
    """Whatever the run's size, the lines are the file's: a run ends at a line's end, never
    inside a character of several bytes; an empty file holds none."""
    monkeypatch.setattr(terms_chunks, "LINES_AT_A_TIME", run)
    path = tmp_path / "forms.nt"
    lines = ['<https://example.org/a>', '"\u00e9t\u00e9"', '"été 😀"',
             '"x"', '"' + "long " * 40 + '"', '"中文"@zh']
    path.write_text("\n".join(lines), encoding="utf-8")
    assert terms_chunks.lines(path) == lines
    path.write_bytes(b"")
    assert terms_chunks.lines(path) == []


def test_a_chunk_keeps_no_lexical_form(tmp_path: Path) -> None:
    """The JSON holds the kinds and extras alone: each lexical form is in its N-Triples form
    (``TermTable.restored`` reads it from there), and they were most of the chunk."""
    terms, path = _written(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) == {"kinds", "extras"}
    assert data["kinds"] == terms.snapshot().kinds.decode("ascii")
    text = path.read_text(encoding="utf-8")
    assert "back\\\\slash" not in text and "line\\nbreak" not in text


def test_a_stat_is_kept_field_for_field() -> None:
    stat = FileStat(size=1, mtime_ns=2, ctime_ns=3, inode=4, device=5)
    assert FileStat(*state._fields(stat)) == stat


def test_the_state_keeps_its_files_by_path_as_text(tmp_path: Path, settings: Settings) -> None:
    """No ``PurePosixPath`` in a kept state (making them back was 0.2-0.3 s of a rebuild at
    10,000 records), and the load's paths still find their files in it."""
    from graph.build.graphs import build
    from graph.resources import data_dir
    from graph.store.disk import read_manifest
    from graph.store.kinds import build_into
    from graph.store.rebuild import kept_build

    result = build([data_dir("catalog")], settings)
    build_into(tmp_path / "store", result, settings, kept=kept_build(result, settings))
    generation = tmp_path / "store" / read_manifest(tmp_path / "store").generation
    for pickled in (generation / state.STATE).glob("*.pickle"):
        assert b"pathlib" not in pickled.read_bytes(), pickled.name
    kept = state.KeptBuild.load(generation, state.fingerprint(settings))
    assert kept is not None and kept.imported and kept.stats
    assert all(type(relative) is str for relative in [*kept.imported, *kept.stats])
    for relative, made in result.report.imported.items():
        assert kept.imported_as(relative, made.digest) is not None, relative
    for relative, (stat, digest) in result.report.stats.items():
        assert kept.digest(relative, stat) == digest, relative


def test_a_rebuild_reads_and_switches_with_the_collector_paused(
        tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept state is millions of objects at 10,000 records: collections set off while it
    is read, or while the manifest is written after it, walked them all (0.2-0.4 s each)."""
    import gc

    from graph.build.graphs import build
    from graph.resources import data_dir
    from graph.store import disk
    from graph.store.kinds import build_into
    from graph.store.rebuild import kept_build, rebuild_store

    result = build([data_dir("catalog")], settings)
    build_into(tmp_path / "store", result, settings, kept=kept_build(result, settings))
    enabled: list[bool] = []
    load, write_manifest = state.KeptBuild.load, disk._write_manifest

    def loading(generation: Path, fingerprint: str) -> state.KeptBuild | None:
        enabled.append(gc.isenabled())
        return load(generation, fingerprint)

    def writing(folder: Path, manifest: disk.Manifest) -> None:
        enabled.append(gc.isenabled())
        write_manifest(folder, manifest)

    monkeypatch.setattr(state.KeptBuild, "load", loading)
    monkeypatch.setattr(disk, "_write_manifest", writing)
    assert gc.isenabled()
    assert rebuild_store(tmp_path / "store", [data_dir("catalog")], settings) is not None
    assert enabled == [False, False]
    assert gc.isenabled()
