"""A full disk during a store build: one line naming the folder, exit 2, the store as it was,
and nothing of the new generation left behind.

On a real full disk: a small tmpfs (made with mount(8), so only when the tests run as root),
its size set a little above what the first build used, so that the next build runs out of
room at one step or another (the files the store is loaded from, the search index, the
Oxigraph store in its own process, the kept state); and with the full disk made by hand
where the build writes, which runs anywhere.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.cli import main
from graph.settings import Settings
from graph.store import disk, writing
from graph.store.disk import MANIFEST
from graph.store.kinds import StoreSpec, open_store
from graph.store.state import KeptBuild
from tests.seeds import SEEDS
from tests.serving import _command

pytestmark = pytest.mark.slow

SEARCH = Path(__file__).parent / "data" / "search"
MORE = [*SEEDS, SEARCH / "clinic_chat.json"]
BUILD_SECONDS = 300.0


def _listing(folder: Path) -> dict[str, bytes | None]:
    """The folder's entries, with the manifest's bytes."""
    return {entry.name: entry.read_bytes() if entry.name == MANIFEST else None
            for entry in folder.iterdir()}


def _queries(folder: Path) -> int:
    """How many statements a query on the store finds in its named graphs."""
    store = open_store(StoreSpec.parse(f"oxigraph:{folder}"), Settings())
    try:
        rows = store.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }").rows
        return int(rows[0][0].value)  # type: ignore[union-attr]
    finally:
        store.close()


def _build(folder: Path, paths: list[Path], *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_command(), "build", *map(str, paths), "--store", f"oxigraph:{folder}", *options],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=BUILD_SECONDS)


def _used_kib(mount: Path) -> int:
    info = os.statvfs(mount)
    return (info.f_blocks - info.f_bfree) * info.f_frsize // 1024


@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of 64 MiB at a new folder, unmounted after the test."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root and mount(8) to make a small tmpfs")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"mount(8) could not make a tmpfs here: {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _resize(mount: Path, kib: int) -> None:
    subprocess.run(["mount", "-o", f"remount,size={kib}k", str(mount)], check=True)


@pytest.mark.parametrize("options, margins", [
    (("--full",), (0.01, 0.1, 0.3, 0.5, 0.7, 0.85)),
    ((), (0.005, 0.02, 0.05, 0.1)),
], ids=["full", "incremental"])
def test_a_build_that_fills_the_disk_says_so_and_leaves_the_store_as_it_was(
        small_disk: Path, options: tuple[str, ...], margins: tuple[float, ...]) -> None:
    folder = small_disk / "store"
    first = _build(folder, list(SEEDS))
    assert first.returncode == 0, first.stderr
    quads = _queries(folder)
    used = _used_kib(small_disk)
    failed = 0
    for margin in margins:
        before = _listing(folder)
        _resize(small_disk, used + max(4, int(used * margin)))
        try:
            done = _build(folder, MORE, *options)
        finally:
            _resize(small_disk, 64 * 1024)
        if done.returncode == 0:  # it fitted: the next margin starts from it
            used = _used_kib(small_disk)
            quads = _queries(folder)
            continue
        failed += 1
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines() == [
            f"benchgraph build: no space left on the device holding {folder}: the store is "
            "as it was; free some space and build again"], done.stderr
        assert _listing(folder) == before, margin
        assert _queries(folder) == quads
    assert failed, "no build ran out of room: the margins are too wide"


@pytest.mark.parametrize("where", ["state", "manifest"])
def test_a_full_disk_where_the_build_writes_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        where: str) -> None:
    folder = tmp_path / "store"
    assert main(["build", *map(str, SEEDS), "--store", f"oxigraph:{folder}"]) == 0
    before = _listing(folder)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    if where == "state":
        monkeypatch.setattr(KeptBuild, "save", full)
    else:
        monkeypatch.setattr(disk, "_write_manifest", full)
    capsys.readouterr()
    assert main(["build", *map(str, MORE), "--store", f"oxigraph:{folder}", "--full"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"benchgraph build: no space left on the device holding {folder}: the store is as it "
        "was; free some space and build again"], err
    assert _listing(folder) == before
    monkeypatch.undo()
    assert _queries(folder) > 0


def test_the_writing_process_says_a_full_disk_where_sqlite_or_the_system_finds_it() -> None:
    """The process that writes a generation writes its search index too (SQLite): a full
    disk there ends it with ``NO_SPACE``, as one the store's own files meet does, so that the
    build says so in one line. (It is a process of its own: a real full disk reaches it,
    ``test_a_build_that_fills_the_disk_says_so_and_leaves_the_store_as_it_was``; no patch.)"""
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    assert writing.exit_code(full) == writing.NO_SPACE
    assert writing.exit_code(sqlite3.OperationalError("no such table: x")) == 1
    assert writing.exit_code(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))) == writing.NO_SPACE
    assert writing.exit_code(OSError(errno.EACCES, os.strerror(errno.EACCES))) == 1
