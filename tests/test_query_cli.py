"""``benchgraph queries`` and ``benchgraph query``, run through ``graph.cli.main``."""

import csv
import io
import json
from pathlib import Path

import pytest
from rdflib import Graph, URIRef

from graph.cli import main
from graph.sparql.named import load_named_queries

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "data" / "query_catalog"
LATENCY_BENCH = "https://w3id.org/benchgraph/benchmark/latency_bench"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def bundled(bundled_folder: Path) -> list[str]:
    """``--store oxigraph:DIR`` of the bundled catalog: the queries that read the bundled
    catalog without being about its loading (that is the default path's own test) read it
    from a store instead of building the catalog again for each."""
    return ["--store", f"oxigraph:{bundled_folder}"]


def data_lines(table: str) -> list[str]:
    """The rows of a printed table: not the header, its rule, or the row count."""
    return table.splitlines()[2:-1]


@pytest.fixture
def no_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the graph is built: errors must come before any query runs."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the graph was built, so the query would have run")

    import graph.build.graphs

    monkeypatch.setattr(graph.build.graphs, "build", refuse)  # every command builds through it


# -- benchgraph queries ---------------------------------------------------------------------------

def test_queries_lists_every_query_with_its_title_and_parameters(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "queries")
    assert code == 0 and err == ""
    for name, query in load_named_queries().items():
        assert f"{name}  " in out and query.title in out
    assert "level (iri, default bench:Gated) — the access level" in out
    assert "benchmark (id, required) — the benchmark's catalog id" in out


def test_queries_name_shows_one_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "queries", "lineage")
    assert code == 0
    assert out.startswith("lineage: Lineage of a benchmark\n")
    assert "SELECT ?relation ?id" in out
    code, _, err = run(capsys, "queries", "linage")
    assert code == 2 and "did you mean 'lineage'?" in err


# -- benchgraph query -----------------------------------------------------------------------------

GATED_MEDHELM = ["dischargeme", "ehrshot", "medalign", "mimic_bhc", "mimic_rrs",
                 "mimiciv_billing_code", "n2c2_ct_matching"]
"""The MedHELM benchmarks HELM's run_entries_medhelm_gated.conf lists."""


def test_gated_medhelm_on_the_bundled_catalog_prints_helms_gated_list(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "query", "gated-medhelm")
    # every MedHELM benchmark states a level, so nothing is "not judged"; the load's one kind
    # of warning is the entries the overrides leave out
    assert code == 0 and "not judged" not in err and "left out" in err
    assert [line.split()[0] for line in data_lines(out)] == GATED_MEDHELM
    assert out.splitlines()[-1] == "(7 rows)"


def test_paths_and_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "by-access-level", str(FIXTURES),
                       "--param", "level=bench:Private", "--format", "csv")
    assert code == 0
    assert list(csv.reader(io.StringIO(out))) == [
        ["id", "name", "access_statement", "benchmark"],
        ["latency_bench", "Latency Bench", "", LATENCY_BENCH]]


@pytest.mark.parametrize("fmt", ["json", "xml", "tsv", "csv", "table"])
def test_every_result_format(capsys: pytest.CaptureFixture[str], fmt: str,
                             bundled: list[str]) -> None:
    code, out, _ = run(capsys, "query", "gated-medhelm", "--format", fmt, *bundled)
    assert code == 0 and "mimic_rrs" in out
    if fmt == "json":
        assert json.loads(out)["head"]["vars"] == ["id", "name", "benchmark"]
    if fmt == "tsv":
        assert out.splitlines()[0] == "?id\t?name\t?benchmark"


def test_construct_prints_turtle_and_ask_prints_true(capsys: pytest.CaptureFixture[str],
                                                     bundled: list[str]) -> None:
    code, out, _ = run(capsys, "query", "benchmark-card", "-p", "benchmark=mimic_rrs", *bundled)
    assert code == 0
    card = Graph().parse(data=out, format="turtle")
    assert (URIRef("https://w3id.org/benchgraph/benchmark/mimic_rrs"), None, None) in card
    code, out, _ = run(capsys, "query", "benchmark-card", "-p", "benchmark=mimic_rrs",
                       "--format", "nt", *bundled)
    assert code == 0 and len(Graph().parse(data=out, format="nt")) == len(card)
    # named by the directory page only (mimic_bhc, a variant of the seed, is a HELM entry)
    code, out, _ = run(capsys, "query", "is-catalogued", "-p", "benchmark=finsearchcomp",
                       *bundled)
    assert (code, out) == (0, "false\n")


def test_an_expression_and_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                  bundled: list[str]) -> None:
    code, out, _ = run(capsys, "query", "-e",
                       "SELECT ?n WHERE { <benchmark/mimic_rrs> rdfs:label ?n }", "--format", "csv",
                       *bundled)
    assert (code, out) == (0, "n\r\nMIMIC-RRS (MedHELM)\r\n")
    path = tmp_path / "mine.rq"
    path.write_text("#+ title: Mine\n#+ param: bench_id id — a benchmark\n"
                    "SELECT ?label WHERE { ?bench_id rdfs:label ?label }\n", encoding="utf-8")
    code, out, _ = run(capsys, "query", str(path), "-p", "bench_id=mimic_rrs", "--format", "tsv",
                       *bundled)
    assert (code, out) == (0, '?label\n"MIMIC-RRS (MedHELM)"\n')


def test_a_rejected_record_is_reported_and_the_rest_still_answers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "good.json").write_text(
        (FIXTURES / "helm_qa_v2.json").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bad.json").write_text("{ not json", encoding="utf-8")
    code, out, err = run(capsys, "query", "gated-medhelm", str(tmp_path))
    assert code == 2
    assert [line.split()[0] for line in data_lines(out)] == ["helm_qa_v2"]
    assert "rejected" in err and "bad.json" in err


# -- errors: one line, exit 2, before the graph is built ------------------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["query"], "give a query"),
    (["query", "no-such-query"], "unknown query 'no-such-query'"),
    (["query", "gated-medhelmm"], "did you mean 'gated-medhelm'?"),
    (["query", "lineage"], "missing parameter 'benchmark'"),
    (["query", "lineage", "-p", "benchmark=mimic_rrs", "-p", "depth=2"],
     "unknown parameter 'depth'"),
    (["query", "lineage", "-p", "benchmark"], "write NAME=VALUE"),
    (["query", "lineage", "-p", "benchmark=a", "-p", "benchmark=b"], "given twice"),
    (["query", "by-access-level", "-p", "level=gated"], "neither a known CURIE"),
    (["query", "stale-records", "-p", "before=yesterday"], "is not a date"),
    (["query", "models-most-results", "-p", "min_results=many"], "not a whole number"),
    (["query", "gated-medhelm", "--format", "ttl"], "does not fit a SELECT query"),
    (["query", "is-catalogued", "-p", "benchmark=x", "--format", "nt"],
     "does not fit an ASK query"),
    (["query", "gated-medhelm", "--format", "yaml"], "unknown format 'yaml'"),
    (["query", "-e", "ASK {}", "lineage"], "'lineage' is a named query: give either"),
    (["query", "-e", "ASK {}", "lineag"], "'lineag' is no file or folder"),
    (["query", "-e", "ASK {}", "mine.rq"], "give either -e SPARQL or a FILE.rq, not both"),
    (["query", "benchmark-card", "-p", "benchmark=x", "--format", "csv"],
     "does not fit a CONSTRUCT query"),
    (["query", "-e", "SELECT ?x WHERE {\n ?x ?p }"], "syntax error at line 2, column 2"),
    (["query", "-e", "INSERT DATA { <urn:a> <urn:b> <urn:c> }"], "SPARQL Update is not allowed"),
    (["query", "-e", "DELETE WHERE { ?s ?p ?o }"], "read-only"),
    (["query", "-e", "SELECT * WHERE { SERVICE <http://example.org/> { ?s ?p ?o } }"],
     "SERVICE is not allowed"),
    (["query", "missing.rq"], "missing.rq: cannot read"),
    (["queries", "nope"], "unknown query 'nope'"),
])
def test_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], no_build: None, argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("value", [
    '"} ; DROP ALL ; #', "mimic_rrs> } #", "mimic_rrs\" .", "x{y}", "MIMIC_RRS", "a b",
])
def test_an_injection_through_an_id_is_refused_before_any_query_runs(
    capsys: pytest.CaptureFixture[str], no_build: None, value: str) -> None:
    code, out, err = run(capsys, "query", "lineage", "--param", f"benchmark={value}")
    assert (code, out) == (2, "")
    assert "is not a benchmark id" in err


def test_an_injection_through_a_string_finds_nothing(capsys: pytest.CaptureFixture[str],
                                                     bundled: list[str]) -> None:
    code, out, _ = run(capsys, "query", "made-by", "-p", 'maker="} ; DROP ALL ; #',
                       "--format", "csv", *bundled)
    assert (code, out) == (0, "maker_name,role,id,name,maker_node,benchmark\r\n")
    code, out, _ = run(capsys, "query", "gated-medhelm", *bundled)  # and nothing changed
    assert [line.split()[0] for line in data_lines(out)] == GATED_MEDHELM


def test_a_missing_path_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "query", "gated-medhelm", str(tmp_path / "nowhere"))
    assert code == 2 and "nowhere" in err and err.count("\n") == 1


# -- PATHs anywhere, -e with PATHs ----------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["query", "by-access-level", "--param", "level=bench:Private", str(FIXTURES),
     "--format", "csv"],
    ["query", "--format", "csv", "by-access-level", str(FIXTURES), "-p", "level=bench:Private"],
    ["query", "by-access-level", str(FIXTURES), "-p", "level=bench:Private", "--format=csv"],
])
def test_the_name_comes_first_and_paths_go_anywhere(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, _ = run(capsys, *argv)
    assert (code, out) == (0, "id,name,access_statement,benchmark\r\n"
                           f"latency_bench,Latency Bench,,{LATENCY_BENCH}\r\n")


def test_with_an_expression_every_word_is_a_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "-e", "SELECT ?id WHERE { ?b dcterms:identifier ?id } "
                       "ORDER BY ?id LIMIT 1", "--format", "csv", str(FIXTURES))
    assert (code, out) == (0, "id\r\nagent_arena\r\n")  # of the fixtures, not the seeds


def test_an_unknown_option_among_the_paths_is_a_usage_error(
    capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["query", "gated-medhelm", str(FIXTURES), "--frmat", "csv"])
    assert stopped.value.code == 2
    assert "unrecognized arguments: --frmat" in capsys.readouterr().err


# -- tables that fit the terminal -----------------------------------------------------------------

PARAMETERLESS = sorted(name for name, query in load_named_queries().items()
                       if not any(parameter.required for parameter in query.parameters))


def test_there_are_parameterless_queries_that_print_tables() -> None:
    assert len(PARAMETERLESS) >= 10


@pytest.mark.parametrize("name", PARAMETERLESS)
def test_every_parameterless_query_fits_120_columns_on_the_bundled_catalog(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str,
    bundled: list[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    code, out, _ = run(capsys, "query", name, *bundled)
    assert code == 0
    too_wide = [line for line in out.splitlines() if len(line) > 120]
    assert not too_wide, too_wide
    assert "https://w3id.org/benchgraph/" not in out  # the base's IRIs are CURIEs: base:...


def test_some_table_is_wider_than_that_uncut(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bundled: list[str]
) -> None:
    """The fit above is the cutting's work: with --wide, values are whole and lines long."""
    monkeypatch.setenv("COLUMNS", "120")
    widest = 0
    for name in PARAMETERLESS:  # until one is
        code, out, _ = run(capsys, "query", name, "--wide", *bundled)
        assert code == 0 and "…" not in out
        widest = max(widest, *(len(line) for line in out.splitlines()))
        if widest > 120:
            break
    assert widest > 120


def test_a_narrow_terminal_cuts_the_table_but_never_csv_or_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bundled: list[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "70")
    records = ("SELECT ?record ?file ?summary WHERE { ?record a bench:Record ; "
               "bench:sourceFile ?file ; bench:describes/dcterms:abstract ?summary }")
    _, table, _ = run(capsys, "query", "-e", records, *bundled)
    assert max(len(line) for line in table.splitlines()) <= 70 and "…" in table
    assert "base:reco" in table  # a CURIE, cut
    _, text, _ = run(capsys, "query", "-e", records, "--format", "csv", *bundled)
    assert "https://w3id.org/benchgraph/record/002_e36a0be437d5fce5" in text and "…" not in text
    _, text, _ = run(capsys, "query", "-e", records, "--format", "json", *bundled)
    assert "…" not in text


def test_a_construct_result_in_rdfxml_is_the_same_graph(capsys: pytest.CaptureFixture[str],
                                                        bundled: list[str]) -> None:
    _, turtle, _ = run(capsys, "query", "benchmark-card", "-p", "benchmark=mimic_rrs", *bundled)
    code, xml, _ = run(capsys, "query", "benchmark-card", "-p", "benchmark=mimic_rrs",
                       "--format", "rdfxml", *bundled)
    assert code == 0 and xml.startswith("<?xml")
    assert set(Graph().parse(data=xml, format="xml")) == set(Graph().parse(data=turtle))


# -- one error base class -------------------------------------------------------------------------

def test_a_bug_stays_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """main catches BenchgraphError only: a TypeError of benchgraph's own is not a user error."""
    import graph.cli.query

    def broken(*args: object, **kwargs: object) -> None:
        raise TypeError("a bug")

    monkeypatch.setattr(graph.cli.query, "serialize_result", broken)
    with pytest.raises(TypeError, match="a bug"):
        main(["query", "gated-medhelm", str(FIXTURES)])
