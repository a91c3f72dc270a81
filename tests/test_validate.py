"""Validation: the seeds conform, each invalid fixture trips the shape it names, reports say
where the problem is, and the fast paths (batches, pyoxigraph, cross-record indexes,
updates) give what plain pyshacl gives."""

import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import pyshacl
import pytest
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS, SH

from graph.build.graphs import GraphInMemory, build
from graph.cli import main
from graph.dataset.oxigraph import to_oxigraph
from graph.dataset.quads import Quad
from graph.namespace import BENCH, ONTOLOGY_IRI
from graph.ontology import ontology_graph
from graph.resources import data_dir
from graph.settings import Settings
from graph.validation.shapes import BSH
from graph.validation.validate import (
    Severity,
    ValidationReport,
    ValidationSession,
    bundled_shapes,
    validate,
)
from tests.quad_store import store_of
from tests.seeds import SEEDS

from .conftest import DATA

FIXTURES = DATA / "shapes"
INVALID = sorted((FIXTURES / "invalid").glob("*.trig"))
VALID = sorted((FIXTURES / "valid").glob("*.trig"))
BASE = "https://w3id.org/benchgraph/"
SEED = data_dir("catalog") / "000_501ccd0cd0e2608f.txt"
PER_RECORD_ONLY = {"two_records.trig"}
"""Fixtures whose union breaks a shape that each record keeps: two records give one paper
two URLs, each giving one (shapes are checked record by record)."""


def load(path: Path) -> list[Quad]:
    dataset = Dataset()
    dataset.parse(path, format="trig")
    return [(s, p, o, g) for s, p, o, g in dataset.quads((None, None, None, None))]  # type: ignore[misc]


def expected_shapes(path: Path) -> set[URIRef]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect:"), f"{path.name}: first line must be '# expect: SHAPE'"
    return {BSH[name.removeprefix("bsh:")] for name in first.removeprefix("# expect:").split()}


def shapes_tripped(report: ValidationReport) -> set[URIRef]:
    return {URIRef(str(r.shape)) for r in report.results}


def plain_pyshacl(quads: Sequence[Quad]) -> set[tuple[str, str, str]]:
    """(shape, focus node, value) of every result of pyshacl run the plain way: the union of
    every graph, the ontology, the shapes as written."""
    data = Graph()
    for s, p, o, _ in quads:
        data.add((s, p, o))
    if not any(str(g).endswith("benchgraph/ontology") for *_, g in quads):
        for triple in ontology_graph():
            data.add(triple)
    shapes = Graph()  # a copy: pyshacl adds OWL's class axioms to the shapes graph it is given,
    for triple in bundled_shapes().graph:  # which is cached and served as /shapes.ttl
        shapes.add(triple)
    _, report, _ = pyshacl.validate(data, shacl_graph=shapes)
    assert isinstance(report, Graph)
    results = report.subjects(RDF.type, SH.ValidationResult)
    return {(str(report.value(r, SH.sourceShape)), str(report.value(r, SH.focusNode)),
             str(report.value(r, SH.value))) for r in results}


def ours(report: ValidationReport) -> set[tuple[str, str, str]]:
    return {(str(r.shape), str(r.focus_node), str(r.value)) for r in report.results}


# -- the seeds and the fixtures ---------------------------------------------------------------

def test_the_seeds_have_no_violations(seed_build: GraphInMemory, settings: Settings) -> None:
    report = validate(seed_build.quads, settings)
    assert report.conforms and report.count(Severity.VIOLATION) == 0
    assert report.records_checked == 2
    assert {r.source_file for r in report.results} <= {"000_501ccd0cd0e2608f.txt",
                                                       "002_e36a0be437d5fce5.txt"}


def test_the_seeds_warnings_are_what_the_directory_page_lacks(seed_build: GraphInMemory) -> None:
    report = validate(seed_build.quads)
    assert {(r.source_file, r.shape_name) for r in report.results} == {
        ("002_e36a0be437d5fce5.txt", "paper"),
        ("002_e36a0be437d5fce5.txt", "licence"),
        ("002_e36a0be437d5fce5.txt", "metric direction"),
    }


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_each_invalid_fixture_trips_exactly_the_shape_it_names(path: Path) -> None:
    report = validate(load(path))
    assert shapes_tripped(report) == expected_shapes(path)
    assert all(r.message and r.shape_name for r in report.results)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_each_valid_fixture_has_no_result_at_all(path: Path) -> None:
    report = validate(load(path))
    assert report.conforms
    assert report.results == ()


@pytest.mark.parametrize("path", INVALID + VALID, ids=lambda p: p.stem)
def test_the_same_results_as_plain_pyshacl_over_the_union(path: Path) -> None:
    quads = load(path)
    if path.name in PER_RECORD_ONLY:
        assert plain_pyshacl(quads) - ours(validate(quads)) != set()
        return
    assert ours(validate(quads)) == plain_pyshacl(quads)


def test_the_seeds_give_the_same_results_as_plain_pyshacl(seed_build: GraphInMemory) -> None:
    assert ours(validate(seed_build.quads)) == plain_pyshacl(seed_build.quads)


# -- what a result says -----------------------------------------------------------------------

def test_a_result_names_its_record_file_shape_message_value_and_path() -> None:
    report = validate(load(FIXTURES / "invalid" / "RecordShape-datesBeforeBuild.trig"))
    (result,) = report.results
    assert result.severity is Severity.VIOLATION
    assert result.source_file == "toy.json"
    assert result.record == URIRef(f"{BASE}record/toy")
    assert result.focus_node == URIRef(f"{BASE}record/toy")
    assert result.shape_name == "date after build"
    assert result.path == "bench:researched"
    assert result.value == Literal("2026-10-01", datatype=URIRef(
        "http://www.w3.org/2001/XMLSchema#date"))
    assert result.message.startswith("bench:researched is 2026-10-01, later than the record's "
                                     "build time 2026-09-09T12:00:00+00:00")


def test_a_cross_record_result_names_the_record_holding_the_link() -> None:
    report = validate(load(FIXTURES / "invalid" / "LinkedBenchmarkShape.trig"))
    (result,) = report.results
    assert (result.source_file, result.focus_node) == ("toy.json",
                                                      URIRef(f"{BASE}benchmark/ghost"))


def test_results_grouped_by_record_and_by_shape(seed_build: GraphInMemory) -> None:
    quads = list(seed_build.quads) + load(FIXTURES / "invalid" / "ResultShape-score.trig")
    report = validate(quads)
    by_record = report.by_record()
    assert set(by_record) == {URIRef(f"{BASE}record/toy"),
                              URIRef(f"{BASE}record/002_e36a0be437d5fce5")}
    assert [r.shape_name for r in by_record[URIRef(f"{BASE}record/toy")]] == ["score"]
    by_shape = report.by_shape()
    assert [r.source_file for r in by_shape[BSH["ResultShape-score"]]] == ["toy.json"]
    assert sum(len(v) for v in by_shape.values()) == len(report.results)


def test_the_report_graph_is_a_w3c_validation_report() -> None:
    fixture = FIXTURES / "invalid" / "CataloguedBenchmarkRecommendations-license.trig"
    report = validate(load(fixture))
    graph = Graph().parse(data=report.to_graph().serialize(format="turtle"), format="turtle")
    (node,) = graph.subjects(RDF.type, SH.ValidationReport)
    assert graph.value(node, SH.conforms) == Literal(True)  # a warning does not fail the data
    (result,) = graph.objects(node, SH.result)
    assert graph.value(result, SH.resultSeverity) == SH.Warning
    assert graph.value(result, SH.sourceShape) == BSH["CataloguedBenchmarkRecommendations-license"]
    path = graph.value(result, SH.resultPath)  # a sequence path, copied as an RDF list
    assert path is not None
    assert list(graph.items(path)) == [BENCH.dataset, BENCH.licenseText]


def test_json_and_severity_filter() -> None:
    quads = load(FIXTURES / "invalid" / "CataloguedBenchmarkRecommendations-paper.trig")
    graph = URIRef(f"{BASE}record/toy")
    result = URIRef(f"{BASE}benchmark/toy/result/gpt/toy")
    quads += [(URIRef(f"{BASE}benchmark/toy"), BENCH.result, result, graph),
              (result, RDF.type, BENCH.Result, graph),
              (result, BENCH.model, URIRef(f"{BASE}model/gpt"), graph),
              (URIRef(f"{BASE}model/gpt"), RDF.type, BENCH.Model, graph),
              (URIRef(f"{BASE}model/gpt"), RDFS.label, Literal("GPT"), graph),
              (result, BENCH.statedIn, Literal("toy.json"), graph),
              (result, BENCH.score, Literal("81.7%"), graph)]
    report = validate(quads)
    data = report.to_json()
    assert (data["conforms"], data["violations"], data["warnings"]) == (False, 1, 1)
    assert data["results"][0]["value"] == {"type": "literal", "value": "81.7%"}  # SPARQL JSON
    only = report.at_least(Severity.VIOLATION)
    assert [r.severity for r in only.results] == [Severity.VIOLATION]


# -- batches, sessions and updates ------------------------------------------------------------

def synthetic(tmp_path: Path, count: int) -> GraphInMemory:
    from perf.generate_catalog import write_catalog

    write_catalog(count, tmp_path / "catalog", seed=7)
    return build([tmp_path / "catalog"], Settings())


def test_batch_size_does_not_change_the_results(tmp_path: Path) -> None:
    built = synthetic(tmp_path, 40)
    reports = [ValidationSession(batch_size=size).validate(built.quads) for size in (1, 7, 100)]
    assert reports[0].results == reports[1].results == reports[2].results
    assert reports[0].records_checked == 40


def revalidated(before: list[Quad], after: list[Quad]) -> tuple[ValidationReport, int]:
    """``update_store``'s report of a store of ``after``, from the report of a store of
    ``before``, told what changed as an incremental build tells it; held to the report a full
    validation of ``after`` gives. The report, and how many graphs it checked again."""
    session = ValidationSession()
    previous = session.validate_store(store_of(before))
    store = store_of(after)
    differ = set(before) ^ set(after)
    changed = {graph for *_, graph in differ} - {URIRef(f"{BASE}build")}
    mentioned = {to_oxigraph(term) for s, _, o, _ in differ for term in (s, o)
                 if not isinstance(term, Literal)}
    records = len({graph for *_, graph in after} - {URIRef(f"{BASE}build"), ONTOLOGY_IRI})
    report, checked = ValidationSession().update_store(
        store, previous, changed, mentioned, records)  # type: ignore[arg-type]
    assert report == ValidationSession().validate_store(store)
    return report, checked


def test_an_update_rechecks_one_record_and_matches_a_full_run(tmp_path: Path) -> None:
    built = synthetic(tmp_path, 30)
    graph = next(g for *_, g in built.quads if "/record/" in str(g))
    benchmark = next(o for s, p, o, g in built.quads if g == graph and p == BENCH.describes)
    assert isinstance(benchmark, URIRef)
    bad: Quad = (benchmark, BENCH.variant, benchmark, graph)
    report, checked = revalidated(built.quads, [*built.quads, bad])
    # the record, and the others typing its benchmark (a variant's record): not the 30
    assert checked == len({g for s, p, o, g in built.quads
                           if s == benchmark and p == RDF.type and o == BENCH.Benchmark}) < 30
    assert BSH["CataloguedBenchmarkShape-ownLineage"] in shapes_tripped(report)


def test_a_removed_record_makes_links_to_its_benchmark_dangle() -> None:
    quads = load(FIXTURES / "valid" / "two_records.trig")
    other_record = URIRef(f"{BASE}record/other")
    toy_record = URIRef(f"{BASE}record/toy")
    # the toy record no longer types its variant: only the other record says it is a benchmark
    other = URIRef(f"{BASE}benchmark/other")
    quads = [q for q in quads if not (q[0] == other and q[3] == toy_record)]
    assert validate(quads).results == ()
    report, checked = revalidated(quads, [q for q in quads if q[3] != other_record])
    assert checked == 0  # the toy record types no benchmark the change mentions
    assert shapes_tripped(report) == {BSH.LinkedBenchmarkShape, BSH.CataloguedFlagShape}
    assert {r.source_file for r in report.results} == {"toy.json", None}


def test_a_changed_build_fact_rechecks_the_records_naming_that_benchmark() -> None:
    quads = load(FIXTURES / "valid" / "stub_named_by_build.trig")
    assert validate(quads).results == ()
    stub = URIRef(f"{BASE}benchmark/stub")
    build_graph = URIRef(f"{BASE}build")
    after = [q for q in quads if not (q[0] == stub and q[3] == build_graph)]
    after += [(stub, BENCH.catalogued, Literal(True), build_graph),
              (stub, DCTERMS.title, Literal("kept"), build_graph)]
    report, checked = revalidated(quads, after)
    assert checked == 1  # the toy record names the stub
    # the new facts replace the old ones about the stub: its build label is gone
    assert shapes_tripped(report) == {BSH.CataloguedFlagShape, BSH["NamedBenchmarkShape-label"]}


# -- the command line -------------------------------------------------------------------------

def broken_seed(folder: Path) -> Path:
    record = json.loads(SEED.read_text(encoding="utf-8"))
    record["page"]["lineage"]["predecessor"] = record["page"]["id"]
    record["page"]["freshness"]["researched"] = "2027-01-01"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "broken.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_cli_seeds_conform_with_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", *map(str, SEEDS)]) == 0
    out, err = capsys.readouterr()
    assert "2 records checked: 0 violations, 3 warnings; the catalog conforms" in out
    assert "002_e36a0be437d5fce5.txt: 3 warnings" in out
    assert "2 records loaded" in err


def test_cli_the_bundled_catalog_conforms(bundled_folder: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The seeds and the harness snapshots of catalog/harnesses/: no violation. Read from the
    report that the run's store folder of the bundled catalog keeps: its build validated it
    in the writing process, as ``benchgraph validate`` with no PATH does (that command's own
    path is the seeds' test above), so the catalog is not validated once more here."""
    assert main(["validate", "--store", f"oxigraph:{bundled_folder}"]) == 0
    out, _ = capsys.readouterr()
    checked = re.search(r"^(\d+) records checked: 0 violations, \d+ warnings; the catalog "
                        r"conforms$", out, re.MULTILINE)
    assert checked is not None and int(checked.group(1)) > 1000


def test_cli_violations_exit_1_in_the_shapes_words(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    broken_seed(tmp_path / "catalog")
    assert main(["validate", str(tmp_path / "catalog")]) == 1
    out, _ = capsys.readouterr()
    assert "broken.json: 2 violations" in out
    assert "violation: lineage (base:benchmark/mimic_rrs" in out
    assert "A benchmark is not its own variant, predecessor or successor" in out
    assert "violation: date after build (base:record/broken, bench:researched" in out


def test_cli_json_and_ttl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalog = broken_seed(tmp_path / "catalog").parent
    assert main(["validate", str(catalog), "--format", "json", "--severity", "violation"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["conforms"] is False and data["violations"] == 2 and data["warnings"] == 0
    assert {r["source_file"] for r in data["results"]} == {"broken.json"}
    assert main(["validate", str(catalog), "--format", "ttl"]) == 1
    graph = Graph().parse(data=capsys.readouterr().out, format="turtle")
    assert len(set(graph.subjects(RDF.type, SH.ValidationResult))) == 2


def test_cli_rejected_file_exits_2_and_says_why(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    shutil.copy(SEED, catalog / "good.txt")
    (catalog / "bad.json").write_text('{"page": {"id": "Not An Id"', encoding="utf-8")
    assert main(["validate", str(catalog)]) == 2
    out, err = capsys.readouterr()
    assert "rejected:" in err and "bad.json" in err
    assert "1 record checked" in out


def test_cli_missing_path_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().err
