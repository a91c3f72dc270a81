"""The data folders reach an installed wheel, and are found there the same way."""

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA_FOLDERS = {"ontology": ".ttl", "shapes": ".ttl", "queries": ".rq", "catalog": ""}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("benchgraph-*.whl")
    return built


def test_wheel_carries_every_data_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, suffix in DATA_FOLDERS.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.name.endswith(suffix) and path.name != "README.md":
                inside = path.relative_to(ROOT / folder).as_posix()
                assert f"graph/_data/{folder}/{inside}" in names, path
    assert "graph/mapping/harness_overrides.toml" in names


def test_wheel_carries_every_module(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in ("graph", "web"):
        for module in (ROOT / package).rglob("*.py"):
            assert module.relative_to(ROOT).as_posix() in names, module


def test_installed_wheel_finds_its_data_and_builds(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = (
        "from graph.resources import data_dir; from graph.cli import main; "
        "import sys; assert str(data_dir('catalog')).startswith(sys.argv[1]); "
        "sys.exit(main(['build', '-o', sys.argv[2]]))"
    )
    out = tmp_path / "g.ttl"
    done = subprocess.run(
        [sys.executable, "-c", script, str(site), str(out)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"\b\d{1,3}(,\d{3})+ records loaded", done.stderr), done.stderr
    graph = out.read_text()
    assert "mimic_rrs" in graph
    # the harness snapshots, matched with the overrides the wheel carries (HELM's HumanEval)
    assert "benchmark/humaneval/task/helm" in graph
