"""What the commands say is what they did: a format that the output file's name contradicts is
refused, a build into a store alone says it wrote no file, an incremental build counts the
files it read, a push without a Graph Store URL stops before any work, and a server whose
port is taken says so in one line."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from graph.cli import main
from tests.seeds import SEEDS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().err.splitlines()


@pytest.mark.parametrize(("fmt", "name", "extension_names"), [
    ("jsonld", "graph.ttl", "turtle"), ("turtle", "graph.nt", "ntriples"),
    ("ntriples", "graph.JSONLD", "jsonld")])
def test_a_format_the_file_name_contradicts_is_an_input_error_naming_both(
    fmt: str, name: str, extension_names: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / name
    code, lines = run(capsys, "build", *map(str, SEEDS), "--format", fmt, "-o", str(out))
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith(f"benchgraph build: --format {fmt} and -o {out} disagree: ")
    assert f"the extension of {extension_names}" in lines[0]
    assert not out.exists()


@pytest.mark.parametrize(("fmt", "name"), [("jsonld", "graph.json"), ("rdfxml", "g.owl"),
                                           ("turtle", "graph.data"), ("turtle", "graph.txt")])
def test_a_format_the_file_name_agrees_with_or_does_not_name_is_written(
    fmt: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / name
    code, _ = run(capsys, "build", *map(str, SEEDS), "--format", fmt, "-o", str(out))
    assert code == 0 and out.stat().st_size > 0


def test_a_build_into_a_store_alone_says_it_wrote_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = run(capsys, "build", *map(str, SEEDS), "--store",
                      f"oxigraph:{tmp_path / 'store'}", "--no-validate")
    assert code == 0
    assert not [line for line in lines if line.startswith("wrote ")]
    (built,) = [line for line in lines if line.startswith("built ")]
    assert built.endswith("; no RDF file written (-o FILE writes one)")
    code, lines = run(capsys, "build", *map(str, SEEDS), "--store",
                      f"oxigraph:{tmp_path / 'store'}", "--no-validate", "-o",
                      str(tmp_path / "g.nt"))
    assert code == 0 and [line for line in lines if line.startswith("wrote ")]


def test_an_incremental_build_counts_the_files_it_read_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    for n in range(6):
        (catalog / f"b{n}.txt").write_text(f"Bench {n}\nWhat it measures.\n", encoding="utf-8")
    store = f"oxigraph:{tmp_path / 'store'}"
    assert main(["build", str(catalog), "--store", store, "--no-validate"]) == 0
    (catalog / "b2.txt").write_text("Bench 2\nWhat it measures now.\n", encoding="utf-8")
    code, lines = run(capsys, "build", str(catalog), "--store", store, "--no-validate", "-v")
    assert code == 0
    (summary,) = [line for line in lines if line.startswith("incremental build: ")]
    assert summary.startswith("incremental build: 1 of 6 records imported again, from 1 of 6 "
                              "files; ")


def test_a_push_without_a_graph_store_url_stops_before_any_work(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, no_env: None
) -> None:
    import graph.cli.push

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("the push built the graph first")

    monkeypatch.setattr(graph.cli.push, "build_from", no_build)
    code, lines = run(capsys, "push", "--store", "sparql:http://127.0.0.1:9/query",
                      *map(str, SEEDS))
    assert code == 2 and len(lines) == 1
    (line,) = lines
    assert line.startswith("benchgraph push: the engine needs a Graph Store Protocol URL")
    for where in ("--graph-store URL", "BENCHGRAPH_GRAPH_STORE", "Oxigraph: .../store",
                  "Fuseki: .../DATASET/data", "Virtuoso: .../sparql-graph-crud",
                  "GraphDB: .../repositories/ID/rdf-graphs/service"):
        assert where in line


def test_serve_on_a_port_in_use_says_so_in_one_line_and_exits_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "graph.cli", "serve", "--port", str(port), *map(str, SEEDS)],
            capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"benchgraph serve: port {port} is in use; pass --port N\n"
