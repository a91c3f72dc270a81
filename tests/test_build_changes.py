"""What changed since the last build: ``build --store`` and ``push`` name the records they
added, changed and removed (the first five of each, all with ``--verbose`` and in
``--report``), the store keeps that list with its build, and every kind of store shows it on
the home page and at ``/changes.json``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from graph.build.graphs import build
from graph.cli import main
from graph.settings import Settings
from graph.store.base import BuildFacts, RecordGraph, Store
from graph.store.changes import BuildChanges, RecordChange
from graph.store.kinds import StoreSpec, build_into, open_store
from tests.engines import ENGINES, oxigraph_server
from tests.store_kinds import STORE_KINDS, prepared, push_into
from tests.system_tools import OXIGRAPH, needs
from tests.test_push import graph_of, write_catalog
from web import create_app

BASE = Settings().base
BEFORE = {f"bench_{n}": f"Bench {n}\nA summary of bench {n}.\n- Made by\n- Lab {n % 3}\n"
          for n in range(8)}
AFTER = {**{name: text for name, text in BEFORE.items() if name != "bench_7"},
         "bench_1": "Bench 1\nAnother summary of bench 1.\n- Made by\n- Lab 1\n",
         "bench_8": "Bench 8\nA summary of bench 8.\n- Made by\n- Lab 2\n"}
"""One record changed (bench_1), one added (bench_8), one removed (bench_7)."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().err.splitlines()


# -- the comparison ---------------------------------------------------------------------------

def test_a_record_of_a_file_of_many_is_named_by_its_file_and_its_entry() -> None:
    assert RecordChange(graph_of("b_1"), "b 1.txt").label == "b 1.txt"
    assert RecordChange(graph_of("harnesses_helm_mimic_rrs"),
                        "harnesses/helm.json").label == "harnesses/helm.json (mimic_rrs)"


def test_records_compare_by_graph_where_the_build_knows_which_differ_else_by_file() -> None:
    before = BuildFacts(BASE, "2026-01-01T00:00:00+00:00", (
        RecordGraph(graph_of("a"), "a.txt", "1"), RecordGraph(graph_of("b"), "b.txt", "2"),
        RecordGraph(graph_of("gone"), "gone.txt", "3")))
    after = (RecordGraph(graph_of("a"), "a.txt", "1"), RecordGraph(graph_of("b"), "b.txt", "9"),
             RecordGraph(graph_of("new"), "new.txt", "4"))
    by_file = BuildChanges.between(before, after)
    assert (by_file.compared, by_file.previous) == ("previous", before.built_at)
    assert [[change.file for change in found] for _, found in by_file.kinds()] == [
        ["new.txt"], ["b.txt"], ["gone.txt"]]
    by_graph = BuildChanges.between(before, after, {graph_of("a"), graph_of("new")})
    assert [change.file for change in by_graph.changed] == ["a.txt"]
    assert BuildChanges.from_json(json.loads(json.dumps(by_file.to_json()))) == by_file


# -- build --store ----------------------------------------------------------------------------

def test_a_build_into_a_store_names_what_it_added_changed_and_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog, store = tmp_path / "catalog", f"oxigraph:{tmp_path / 'store'}"
    code, lines = run(capsys, "build", str(write_catalog(catalog, BEFORE)), "--store", store,
                      "--no-validate")
    assert code == 0 and "no earlier build to compare with: 8 records" in lines
    report = tmp_path / "report.json"
    code, lines = run(capsys, "build", str(write_catalog(catalog, AFTER)), "--store", store,
                      "--no-validate", "--report", str(report))
    assert code == 0
    start = next(n for n, line in enumerate(lines) if line.startswith("since the build of "))
    assert lines[start].endswith(": 1 record added, 1 changed, 1 removed")
    assert lines[start + 1:start + 4] == [
        "added: bench_8.txt", "changed: bench_1.txt", "removed: bench_7.txt"]
    changes = json.loads(report.read_text(encoding="utf-8"))["changes"]
    assert changes["compared"] == "previous" and changes["previous_built_at"]
    assert [changes[kind] for kind in ("added", "changed", "removed")] == [
        [{"graph": graph_of(name), "file": f"{name}.txt"}] for name in
        ("bench_8", "bench_1", "bench_7")]


def test_a_file_read_again_whose_graph_is_the_same_is_no_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog, store = tmp_path / "catalog", f"oxigraph:{tmp_path / 'store'}"
    assert main(["build", str(write_catalog(catalog, BEFORE)), "--store", store,
                 "--no-validate"]) == 0
    (catalog / "bench_3.txt").write_text(BEFORE["bench_3"] + "\n\n", encoding="utf-8")
    code, lines = run(capsys, "build", str(catalog), "--store", store, "--no-validate")
    assert code == 0
    assert any(line.endswith(": no record added, changed or removed") for line in lines), lines


def test_many_changes_show_five_and_count_the_rest_unless_verbose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog, store = tmp_path / "catalog", f"oxigraph:{tmp_path / 'store'}"
    assert main(["build", str(write_catalog(catalog, BEFORE)), "--store", store,
                 "--no-validate"]) == 0
    edited = {name: text.replace("A summary", "Now a summary") for name, text in BEFORE.items()}
    code, lines = run(capsys, "build", str(write_catalog(catalog, edited)), "--store", store,
                      "--no-validate")
    assert code == 0
    (changed,) = [line for line in lines if line.startswith("changed: ")]
    assert changed == ("changed: bench_0.txt, bench_1.txt, bench_2.txt, bench_3.txt, "
                       "bench_4.txt … and 3 more (--verbose lists them)")
    code, lines = run(capsys, "build", str(write_catalog(catalog, BEFORE)), "--store", store,
                      "--no-validate", "--verbose")
    assert [line for line in lines if line.startswith("changed: ")] == [
        f"changed: bench_{n}.txt" for n in range(8)]


def test_a_full_build_compares_the_files(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    catalog, store = tmp_path / "catalog", f"oxigraph:{tmp_path / 'store'}"
    assert main(["build", str(write_catalog(catalog, BEFORE)), "--store", store,
                 "--no-validate"]) == 0
    code, lines = run(capsys, "build", str(write_catalog(catalog, AFTER)), "--store", store,
                      "--no-validate", "--full")
    assert code == 0
    assert ["added: bench_8.txt", "changed: bench_1.txt", "removed: bench_7.txt"] == [
        line for line in lines if line.split(":")[0] in ("added", "changed", "removed")]


# -- push -------------------------------------------------------------------------------------

@pytest.mark.engine
@needs(OXIGRAPH)
def test_a_push_names_what_it_added_changed_and_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "catalog"
    with oxigraph_server(tmp_path / "engine") as engine:
        words = ["push", "--store", engine.spec, "--graph-store", engine.store, str(catalog)]
        write_catalog(catalog, BEFORE)
        code, lines = run(capsys, *words)
        assert code == 0 and "no earlier push to compare with: 8 records" in lines
        write_catalog(catalog, AFTER)
        code, lines = run(capsys, *words, "--verbose")
        assert code == 0
        (since,) = [line for line in lines if line.startswith("since the push of ")]
        assert since.endswith(": 1 record added, 1 changed, 1 removed")
        assert ["added: bench_8.txt", "changed: bench_1.txt", "removed: bench_7.txt"] == [
            line for line in lines if line.split(":")[0] in ("added", "changed", "removed")]
        code, lines = run(capsys, *words)  # the same again: the engine holds this build
        assert code == 0
        assert any(line.endswith("no record added, changed or removed") for line in lines)


# -- what every kind of store serves ----------------------------------------------------------

@contextmanager
def two_builds(kind: str, folder: Path, settings: Settings) -> Iterator[Store]:
    """A store of ``kind`` holding the build of ``AFTER``, made after one of ``BEFORE`` (a
    memory store is built at start: of ``AFTER`` alone)."""
    catalog = folder / "catalog"
    before = build([write_catalog(catalog, BEFORE)], settings)
    after = build([write_catalog(catalog, AFTER)], settings)
    with ExitStack() as stack:
        store: Store
        if kind == "memory":
            store = open_store(StoreSpec("memory"), settings, built=after.records)
        elif kind == "oxigraph":
            for made in (before, after):
                build_into(folder / "store", made.records, settings)
            store = open_store(StoreSpec("oxigraph", str(folder / "store")), settings)
        else:
            engine = stack.enter_context(ENGINES[kind](folder / "engine"))
            for made in (before, after):
                push_into(engine, made, settings)
            store = open_store(StoreSpec.parse(engine.spec), settings)
        stack.callback(store.close)
        prepared(store)
        yield store


@pytest.mark.parametrize("kind", STORE_KINDS)
def test_the_home_page_and_changes_json_show_the_last_build(
    kind: str, tmp_path: Path, settings: Settings
) -> None:
    with two_builds(kind, tmp_path, settings) as store:
        client = create_app(settings, store).test_client()
        page = client.get("/")
        data = client.get("/changes.json")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and data.status_code == 200
    assert '<link rel="alternate" type="application/json" href="/changes.json"' in html
    assert '</changes.json>; rel="alternate"; type="application/json"' in page.headers["Link"]
    body = data.get_json()
    assert body["records"] == len(AFTER) and body["built_at"]
    assert f'<time datetime="{body["built_at"]}">' in html
    if kind == "memory":
        assert body["compared"] == "start"
        assert f"Built at start from {len(AFTER)} records" in html
        return
    assert (body["compared"], bool(body["previous_built_at"])) == ("previous", True)
    expected = {"added": "bench_8", "changed": "bench_1", "removed": "bench_7"}
    for change, name in expected.items():
        assert [(item["file"], item["href"]) for item in body[change]] == [
            (f"{name}.txt", None if change == "removed" else f"/record/{name}")]
    assert "1 added, 1 changed, 1 removed" in html
    assert '<a href="/record/bench_8">bench_8.txt</a>' in html
    assert "<li>bench_7.txt</li>" in html  # gone: no page to link to
