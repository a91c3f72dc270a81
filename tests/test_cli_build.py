"""``benchgraph build`` and ``benchgraph stats`` as a user runs them."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from pyld import jsonld
from rdflib import Dataset, Graph

from graph.cli import main
from graph.resources import data_dir

FORMATS = {"turtle": "ttl", "ntriples": "nt", "trig": "trig", "nquads": "nq", "jsonld": "jsonld"}
RAPPER_SYNTAX = {"turtle": "turtle", "ntriples": "ntriples", "trig": "trig", "nquads": "nquads"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_parses_with_an_independent_parser(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"graph.{FORMATS[fmt]}"
    assert main(["build", "-o", str(out)]) == 0
    if fmt == "jsonld":
        expanded = json.loads(out.read_text())
        nquads = jsonld.to_rdf(expanded, {"format": "application/n-quads"})
        assert nquads.count("\n") == len(Dataset().parse(out, format="json-ld"))
        return
    checked = subprocess.run(
        ["rapper", "-i", RAPPER_SYNTAX[fmt], "-c", str(out)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    assert "returned 0 " not in checked.stderr


def test_stdout_is_turtle_and_the_report_goes_to_stderr(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert main(["build"]) == 0
    out, err = capsysbinary.readouterr()
    graph = Graph().parse(data=out, format="turtle")
    assert len(graph) > 1000
    assert b"2 records loaded" in err and b"0 files rejected" in err


def test_same_input_same_bytes(tmp_path: Path) -> None:
    outputs = []
    for name in ("one.nq", "two.nq"):
        assert main(["build", "-o", str(tmp_path / name)]) == 0
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]


def test_a_bad_file_is_named_and_the_good_ones_are_still_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in data_dir("catalog").iterdir():
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


def test_base_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "g.nt"
    assert main(["build", "--base", "http://example.org/kg/", "-o", str(out)]) == 0
    assert "<http://example.org/kg/benchmark/mimic_rrs>" in out.read_text()
    monkeypatch.setenv("BENCHGRAPH_BASE", "http://example.com/env/")
    assert main(["build", "-o", str(out)]) == 0
    assert "<http://example.com/env/benchmark/mimic_rrs>" in out.read_text()


def test_stats_counts_classes_suites_access_levels_and_harnesses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["stats", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["per class"]["bench:Benchmark"] == 11
    assert stats["per class"]["bench:Record"] == 2
    assert "owl:Class" not in stats["per class"]
    assert stats["benchmarks per suite"] == {"bench:MedHELM": 1}
    assert stats["benchmarks per access level"] == {"bench:Gated": 2}
    assert stats["tasks per harness"] == {"bench:HELM": 1}
