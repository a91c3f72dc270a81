"""One error base class: every error a user can cause is a ``BenchgraphError`` with its kind, the
CLI catches it once, and anything else (a bug) stays a traceback."""

import json
import shutil
from pathlib import Path

import pytest

from graph.cli import main
from graph.errors import BenchgraphError, ErrorKind
from graph.export.formats import FormatError
from graph.ingest.importers.base import RecordRejected
from graph.ingest.importers.reading import InputPathError
from graph.resources import data_dir
from graph.settings import SettingsError
from graph.sparql.errors import ParameterError, QueryError, QuerySyntaxError, ReadOnlyError
from graph.sparql.named import QueryFileError
from graph.store.base import Store
from graph.store.local import _failure
from graph.store.process.executor import Failure
from graph.store.process.pool import QueryProcessError
from graph.validation.shapes import ShapesError

SEED = data_dir("catalog") / "000_501ccd0cd0e2608f.txt"


@pytest.mark.parametrize(("error", "kind"), [
    (RecordRejected, ErrorKind.INPUT),
    (InputPathError, ErrorKind.INPUT),
    (QueryFileError, ErrorKind.INPUT),
    (ShapesError, ErrorKind.INPUT),
    (QueryError, ErrorKind.QUERY),
    (QuerySyntaxError, ErrorKind.QUERY),
    (ReadOnlyError, ErrorKind.QUERY),
    (ParameterError, ErrorKind.USAGE),
    (FormatError, ErrorKind.QUERY),
    (SettingsError, ErrorKind.USAGE),
])
def test_every_library_error_is_a_benchgraph_error_of_its_kind(
    error: type[BenchgraphError], kind: ErrorKind
) -> None:
    assert issubclass(error, BenchgraphError)
    assert error.kind is kind


def test_main_prints_the_command_and_the_message_and_exits_with_the_kinds_code(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["queries", "nope"]) == ErrorKind.NOT_FOUND.exit_code
    assert capsys.readouterr().err == (
        "benchgraph queries: unknown query 'nope' (`benchgraph queries` lists them)\n")


# -- what the engine raises ------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    'SELECT (REGEX("a", "(") AS ?x) WHERE {}',
    "SELECT ?s WHERE { ?s ?p ?o } ORDER BY (?o + 1)",
    "SELECT (SUM(xsd:decimal(?o)) AS ?x) WHERE { ?s ?p ?o }",
    "SELECT (MAX(xsd:date(?o)) AS ?x) WHERE { ?s ?p ?o }",
])
def test_an_expression_that_fails_leaves_its_value_unbound(seed_store: Store, text: str) -> None:
    """SPARQL's rule (an expression error is no value), which pyoxigraph keeps: queries rdflib
    could not evaluate are answered."""
    assert seed_store.query(text).form == "SELECT"


def test_a_failure_in_the_query_process_is_a_bug_not_a_user_error() -> None:
    error = _failure(Failure("bug", "Traceback ...\nTypeError: a bug of ours"))
    assert isinstance(error, QueryProcessError) and not isinstance(error, BenchgraphError)
    assert isinstance(_failure(Failure("syntax", "error at 1:2: expected [_]")), QueryError)


# -- validate's exit code -------------------------------------------------------------------------

def a_catalog(folder: Path, *, violation: bool, rejected: bool) -> Path:
    folder.mkdir(parents=True)
    record = json.loads(SEED.read_text(encoding="utf-8"))
    if violation:
        record["page"]["lineage"]["predecessor"] = record["page"]["id"]  # its own predecessor
    (folder / "page.json").write_text(json.dumps(record), encoding="utf-8")
    if rejected:
        (folder / "bad.json").write_text("{ not json", encoding="utf-8")
    return folder


@pytest.mark.parametrize(("violation", "rejected", "code"), [
    (True, True, 1),  # a violation outranks a rejected file
    (True, False, 1),
    (False, True, 2),
    (False, False, 0),
])
def test_validate_exits_1_on_a_violation_else_2_on_a_rejection_else_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
    violation: bool, rejected: bool, code: int,
) -> None:
    catalog = a_catalog(tmp_path / "catalog", violation=violation, rejected=rejected)
    assert main(["validate", str(catalog)]) == code
    out, err = capsys.readouterr()
    assert ("violation: lineage" in out) is violation
    assert ("rejected: " in err) is rejected


def test_shapes_that_cannot_be_read_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shapes = tmp_path / "shapes"
    shutil.copytree(data_dir("shapes"), shapes)
    (shapes / "core.ttl").write_text("this is not turtle", encoding="utf-8")
    import graph.validation.shapes

    monkeypatch.setattr(graph.validation.shapes, "data_dir", lambda name: shapes)
    graph.validation.shapes.bundled_shapes.cache_clear()
    try:
        assert main(["validate"]) == 2
    finally:
        graph.validation.shapes.bundled_shapes.cache_clear()
    (line,) = capsys.readouterr().err.splitlines()  # rdflib's multi-line message on one line
    assert line.startswith("benchgraph validate: ") and "cannot read the shapes" in line
