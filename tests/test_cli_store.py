"""The command line over a store folder: build it once, then query, count and validate it
without reading a record."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graph.cli import main
from tests.seeds import SEEDS


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("cli") / "store"
    assert main(["build", *map(str, SEEDS), "--store", f"oxigraph:{target}"]) == 0
    return target


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_query_and_stats_read_the_store(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import graph.build.graphs

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("a record was read")

    monkeypatch.setattr(graph.build.graphs, "build", no_build)
    code, out, _ = run(capsys, "query", "gated-medhelm", "--store", f"oxigraph:{folder}",
                       "--format", "csv")
    assert code == 0 and out.splitlines()[1].startswith("mimic_rrs,")
    code, out, _ = run(capsys, "stats", "--store", f"oxigraph:{folder}", "--format", "json")
    assert code == 0 and json.loads(out)["per class"]["bench:Benchmark"] >= 2


def test_validate_shows_the_report_kept_with_the_store(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "validate", "--store", f"oxigraph:{folder}")
    assert code == 0 and "2 records checked: 0 violations" in out
    code, out, _ = run(capsys, "validate", "--store", f"oxigraph:{folder}", "--format", "json")
    assert code == 0 and json.loads(out)["conforms"] is True


def test_a_store_built_without_validating_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "plain"
    assert main(["build", *map(str, SEEDS), "--store", f"oxigraph:{target}",
                 "--no-validate"]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "validate", "--store", f"oxigraph:{target}")
    assert code == 2 and "built without validating" in err


def test_paths_beside_a_store_folder_are_a_usage_error(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "query", "gated-medhelm", "catalog", "--store", f"oxigraph:{folder}")
    assert code == 2 and "serves the store as it was built" in err


def test_a_query_on_a_store_imports_neither_the_build_nor_pyshacl(folder: Path) -> None:
    """What keeps ``query --store`` a short process (perf startup): the loader, the importers
    and pyshacl are imported only by a command that reads records or validates them."""
    script = ("import sys\nfrom graph.cli import main\n"
              f"code = main(['query', 'gated-medhelm', '--store', 'oxigraph:{folder}'])\n"
              "heavy = [m for m in ('graph.build.graphs', 'graph.ingest.loader', 'pyshacl')\n"
              "         if m in sys.modules]\n"
              "print('imported:', heavy, file=sys.stderr)\nsys.exit(code)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "imported: []" in done.stderr
