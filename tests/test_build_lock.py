"""Two builds into one store folder: the second stops at once, and the folder always ends with
one complete generation that serves queries.

Each build here is the real command (``benchgraph build --store oxigraph:DIR`` in a process of
its own), as two people or two scheduled jobs would start them.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from graph.resources import data_dir
from graph.store.disk import MANIFEST, read_manifest
from graph.store.errors import StoreError
from graph.store.lock import BuildLock
from tests.seeds import SEEDS
from tests.serving import _command

LOCK_FILE = ".benchgraph-build.lock"
BUILD_SECONDS = 300.0
"""How long one build may take on a busy machine (a few seconds on a quiet one)."""
REFUSED_SECONDS = 60.0
"""How long the second build may take to stop: its start, and no reading at all."""


def _start(folder: Path, *paths: Path, full: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*_command(), "build", *map(str, paths), "--store", f"oxigraph:{folder}",
         *(["--full"] if full else [])],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _finish(build: subprocess.Popen[str], seconds: float = BUILD_SECONDS) -> tuple[int, str]:
    _out, err = build.communicate(timeout=seconds)
    return build.returncode, err


def _holder(folder: Path) -> str:
    """What the lock file says of the build that holds the folder (its process id), once it
    says anything."""
    try:
        return (folder / LOCK_FILE).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return ""


def _serves(folder: Path) -> None:
    """The folder holds one complete generation, and a query on it answers."""
    manifest = read_manifest(folder)
    generations = [entry.name for entry in folder.iterdir() if entry.name.startswith(
        ("generation-", ".generation-"))]
    assert generations == [manifest.generation], generations
    asked = subprocess.run(
        [*_command(), "query", "-e", "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }",
         "--store", f"oxigraph:{folder}", "--format", "json"],
        capture_output=True, text=True, timeout=BUILD_SECONDS)
    assert asked.returncode == 0, asked.stderr
    count = json.loads(asked.stdout)["results"]["bindings"][0]["n"]["value"]
    assert int(count) == manifest.quads


def test_a_second_build_stops_at_once_naming_the_build_that_holds_the_folder(
        tmp_path: Path) -> None:
    folder = tmp_path / "store"
    # OpenCompass's snapshot: thousands of records, several seconds of building
    first = _start(folder, data_dir("catalog") / "harnesses" / "opencompass.json")
    try:
        deadline = time.monotonic() + BUILD_SECONDS
        while _holder(folder) != str(first.pid):
            assert first.poll() is None, "the first build ended before it was seen holding " \
                f"the folder: {first.communicate()[1]}"
            assert time.monotonic() < deadline, "the first build never held the folder"
            time.sleep(0.02)
        second = _start(folder, *SEEDS)
        code, err = _finish(second, REFUSED_SECONDS)
        assert first.poll() is None, "the first build ended before the second was refused"
        lines = err.strip().splitlines()
        assert code == 2, err
        assert len(lines) == 1 and lines[0].startswith("benchgraph build: "), err
        assert f"another build (process {first.pid}) holds {folder}" in lines[0], err
    finally:
        code, err = _finish(first)
    assert code == 0, err
    assert f"stored in {folder}" in err
    _serves(folder)
    assert read_manifest(folder).quads > 10_000  # the snapshot's, not the seeds'


def test_builds_started_together_leave_a_store_that_serves(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    code, err = _finish(_start(folder, *SEEDS))
    assert code == 0, err
    for pair in range(3):
        builds = [_start(folder, *SEEDS, full=True), _start(folder, SEEDS[0], full=True)]
        outcomes = [_finish(build) for build in builds]
        for (code, err), build in zip(outcomes, builds, strict=True):
            assert "Traceback" not in err, err
            if code != 0:  # it found the other holding the folder
                other = builds[1 - builds.index(build)]
                assert code == 2, err
                assert f"another build (process {other.pid}) holds {folder}" in err, err
        assert any(code == 0 for code, _err in outcomes), outcomes
        _serves(folder)
        assert (folder / MANIFEST).is_file(), pair


def test_a_refused_build_names_the_holder_that_is_still_writing_its_id(tmp_path: Path) -> None:
    """A build that has just taken the lock writes its id a moment later: until then the file
    is empty or names the build before it. The refused build names the holder, not that one."""
    folder = tmp_path / "store"
    folder.mkdir()
    gone = subprocess.Popen(["true"])
    gone.wait()
    (folder / LOCK_FILE).write_text(f"{gone.pid}\n", encoding="utf-8")  # the last build's
    with (folder / LOCK_FILE).open("r+", encoding="utf-8") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        writes = threading.Timer(0.2, lambda: os.pwrite(
            held.fileno(), f"{os.getpid()}\n".encode().ljust(len(f"{gone.pid}\n")), 0))
        writes.start()
        with pytest.raises(StoreError, match=rf"another build \(process {os.getpid()}\) holds"):
            BuildLock.take(folder)
        writes.join()
