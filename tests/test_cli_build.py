"""``benchgraph build`` and ``benchgraph stats`` as a user runs them."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest
from pyld import jsonld
from rdflib import Dataset, Graph

from graph.cli import main
from graph.search.facets import FACETS
from tests.seeds import SEEDS
from tests.system_tools import RAPPER, require

FORMATS = {"turtle": "ttl", "ntriples": "nt", "trig": "trig", "nquads": "nq", "jsonld": "jsonld",
           "rdfxml": "rdf"}
RAPPER_SYNTAX = {"turtle": "turtle", "ntriples": "ntriples", "trig": "trig", "nquads": "nquads",
                 "rdfxml": "rdfxml"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_parses_with_an_independent_parser(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"graph.{FORMATS[fmt]}"
    assert main(["build", *map(str, SEEDS), "-o", str(out)]) == 0
    if fmt == "jsonld":
        expanded = json.loads(out.read_text())
        nquads = jsonld.to_rdf(expanded, {"format": "application/n-quads"})
        assert nquads.count("\n") == len(Dataset().parse(out, format="json-ld"))
        return
    [rapper] = require(RAPPER)
    checked = subprocess.run(
        [rapper, "-i", RAPPER_SYNTAX[fmt], "-c", str(out)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    assert "returned 0 " not in checked.stderr


def test_stdout_is_turtle_and_the_report_goes_to_stderr_and_the_same_input_the_same_bytes(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert main(["build"]) == 0
    out, err = capsysbinary.readouterr()
    triples = set(ox.parse(out, format=ox.RdfFormat.TURTLE))  # a set: Turtle may repeat one
    assert len(triples) > 1000
    # the bundled catalog: the two seeds and the harness snapshots' thousand entries
    assert re.search(rb"\b\d,\d{3} records loaded, 0 files rejected", err), err[:200]
    assert f"wrote {len(triples):,} triples: ".encode() in err
    assert main(["build", "-o", str(tmp_path / "again.ttl")]) == 0
    assert (tmp_path / "again.ttl").read_bytes() == out


@pytest.mark.parametrize("fmt", ["ttl", "trig"])
def test_the_same_input_gives_the_same_bytes_in_every_process(tmp_path: Path, fmt: str) -> None:
    """Python orders a set by hashes that change from one process to the next: nothing a
    build writes may follow such an order."""
    written = []
    for seed in ("1", "2"):
        out = tmp_path / f"{seed}.{fmt}"
        subprocess.run([sys.executable, "-m", "graph.cli", "build", *map(str, SEEDS), "-o",
                        str(out)], env={**os.environ, "PYTHONHASHSEED": seed}, check=True,
                       capture_output=True)
        written.append(out.read_bytes())
    assert written[0] == written[1]


def test_a_dataset_format_counts_quads_by_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "g.nq"
    assert main(["build", *map(str, SEEDS), "-o", str(out)]) == 0
    (wrote,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("wrote")]
    assert wrote.startswith(f"wrote {len(out.read_text().splitlines()):,} quads: ")
    assert " in 2 record graphs, " in wrote, wrote


def test_a_bad_file_is_named_and_the_good_ones_are_still_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in SEEDS:
        shutil.copy(seed, tmp_path / seed.name)
    (tmp_path / "broken.json").write_text('{"page": {"id": "Bad Id", "name": "x"}}')
    out = tmp_path / "out" / "graph.ttl"
    out.parent.mkdir()
    assert main(["build", str(tmp_path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "2 records loaded" in err
    (rejected,) = [line for line in err.splitlines() if line.startswith("rejected:")]
    assert "broken.json" in rejected and "page.id" in rejected
    assert "Traceback" not in err
    graph = Graph().parse(out, format="turtle")
    assert len(graph) > 1000


@pytest.mark.parametrize(
    "argv",
    [
        ["build", "--format", "yaml"],
        ["build", "--format", "csv"],
        ["build", "-o", "graph.srj"],
        ["build", "no/such/folder"],
        ["build", "--base", "not an iri"],
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("benchgraph build: ")


@pytest.mark.parametrize(("argv", "env", "message"), [
    (["build", "--base", "not an iri"], None,
     "benchgraph build: bad setting: --base 'not an iri': must be an http(s) IRI ending in / or #"),
    (["stats"], "ftp://x/",
     "benchgraph stats: bad setting: BENCHGRAPH_BASE 'ftp://x/': must be an http(s) IRI ending "
     "in / or #"),
    (["query", "gated-medhelm", "--base", "https://x.org/no-end"], None,
     "benchgraph query: bad setting: --base 'https://x.org/no-end': must be an http(s) IRI "
     "ending in / or #"),
])
def test_a_bad_setting_says_in_words_what_it_must_be(
    argv: list[str], env: str | None, message: str,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    if env is not None:
        monkeypatch.setenv("BENCHGRAPH_BASE", env)
    assert main(argv) == 2
    assert capsys.readouterr().err == message + "\n"


def test_build_and_stats_count_the_same_statements_and_say_what_each_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.ttl"
    assert main(["build", *map(str, SEEDS), "-o", str(out)]) == 0
    (wrote,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("wrote")]
    assert main(["stats", *map(str, SEEDS)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert wrote == f"wrote {first}"
    total, parts = first.split(" triples: ")
    assert int(total.replace(",", "")) == len(Graph().parse(out, format="turtle"))
    numbers = [int(part.split()[0].replace(",", "")) for part in parts.split(", ")]
    assert [part.split(" ", 1)[1] for part in parts.split(", ")] == [
        "from records", "from the build graph", "from the ontology"]
    assert sum(numbers) == int(total.replace(",", "")) and all(numbers)
    assert main(["stats", *map(str, SEEDS), "--format", "json"]) == 0
    triples = json.loads(capsys.readouterr().out)["triples"]
    assert [triples[k] for k in ("total", "records", "build graph", "ontology")] == [
        sum(numbers), *numbers]


def test_paths_go_anywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = SEEDS
    out = tmp_path / "g.nt"
    assert main(["build", str(first), "-o", str(out), "--format", "ntriples", str(second)]) == 0
    assert "2 records loaded" in capsys.readouterr().err
    assert main(["stats", str(first), "--format", "json", str(second)]) == 0
    assert json.loads(capsys.readouterr().out)["per class"]["bench:Record"] == 2
    assert main(["validate", str(first), "--severity", "violation", str(second)]) == 0
    assert "2 records checked" in capsys.readouterr().out


def test_base_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "g.nt"
    assert main(["build", *map(str, SEEDS), "--base", "http://example.org/kg/", "-o",
                 str(out)]) == 0
    assert "<http://example.org/kg/benchmark/mimic_rrs>" in out.read_text()
    monkeypatch.setenv("BENCHGRAPH_BASE", "http://example.com/env/")
    assert main(["build", *map(str, SEEDS), "-o", str(out)]) == 0
    assert "<http://example.com/env/benchmark/mimic_rrs>" in out.read_text()


def test_stats_counts_classes_and_benchmarks_per_facet_value_with_those_not_stated(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["stats", *map(str, SEEDS), "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["per class"]["bench:Benchmark"] == 11
    assert stats["per class"]["bench:Record"] == 2
    assert "owl:Class" not in stats["per class"]
    assert stats["benchmarks"] == 11
    facets = stats["benchmarks per facet"]
    assert list(facets) == [facet.name for facet in FACETS]
    assert facets["suite"] == {"title": "Suite", "values": [
        {"key": "bench:MedHELM", "label": "MedHELM", "benchmarks": 1}], "not stated": 10}
    assert facets["access"]["values"] == [
        {"key": "bench:Gated", "label": "gated", "benchmarks": 2}]
    assert facets["access"]["not stated"] == 9
    assert facets["local_data"] == {"title": "Needs local data", "values": [],
                                    "not stated": 11}
    assert main(["stats", *map(str, SEEDS)]) == 0
    table = capsys.readouterr().out
    assert "\nbenchmarks per facet value, of 11\n  Suite\n    MedHELM           1\n" \
        "    not stated       10\n" in table


def test_stats_of_the_bundled_catalog_show_every_harness_and_no_guessed_access(
    capsys: pytest.CaptureFixture[str], bundled_folder: Path,
) -> None:
    assert main(["stats", "--store", f"oxigraph:{bundled_folder}", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["per class"]["bench:Benchmark"] > 600
    facets = stats["benchmarks per facet"]

    def counts(facet: str) -> dict[str, int]:
        return {value["key"]: value["benchmarks"] for value in facets[facet]["values"]}

    assert set(counts("harness")) == {
        "bench:HELM", "bench:LMEvalHarness", "bench:InspectEvals", "bench:OpenCompass",
        "bench:EvalScope", "bench:Lighteval", "bench:LmmsEval", "bench:AlpacaEval"}
    assert all(count > 100 for harness, count in counts("harness").items()
               if harness != "bench:AlpacaEval")  # two benchmarks: AlpacaEval 1.0 and 2.0
    assert counts("suite")["bench:MedHELM"] == 37
    # only what HELM's run-entry files state: MedHELM's 16 public, 7 gated and 14 private
    # benchmarks (and the seed directory page's gated MIMIC-CXR); nothing made from
    # needsLocalData or a hub's gate, which are facets of their own
    assert counts("access") == {"bench:Public": 16, "bench:Gated": 8, "bench:Private": 14}
    assert facets["access"]["not stated"] == stats["benchmarks"] - 38
    for fact in ("local_data", "hub_access", "year", "arxiv", "venue", "harnesses"):
        assert facets[fact]["values"] and 0 < facets[fact]["not stated"] < stats["benchmarks"]
