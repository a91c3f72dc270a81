"""``-o FILE`` and ``--report FILE``: only a regular file (or a name not taken yet) is replaced.

A device, a FIFO or a standard stream at FILE is written to in place, as the shell's ``>``
writes to it; a write error there is one line naming FILE (exit 2); a symbolic link is written
through, its target replaced atomically and the link kept.

The paths under ``/dev`` are the real ones for a user who cannot write there. Run as root, a
command that got this wrong would replace the machine's own ``/dev/full`` or ``/dev/stdout``,
so as root each such command runs in a mount namespace of its own (``unshare``) where ``/dev``
is a copy made for the test: the same names, devices and links, none of them the machine's.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from graph.cli import main
from tests.seeds import SEED_PAGE

BUILD = ["build", str(SEED_PAGE), "--format", "turtle"]
"""A device or a stream has no extension to tell the format by."""
FULL = "No space left on device"
_DEVICES = {"null": 3, "zero": 5, "full": 7, "random": 8, "urandom": 9}
_STREAMS = {"stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
            "stderr": "/proc/self/fd/2", "fd": "/proc/self/fd"}


@pytest.fixture
def dev(tmp_path: Path) -> Path:
    """The folder that ``/dev`` is for the commands a test runs through ``run_with_dev``: the
    real one for a user who cannot write there, else a copy made for the test."""
    if not os.access("/dev", os.W_OK):
        return Path("/dev")
    if shutil.which("unshare") is None:
        pytest.skip("unshare: as root, /dev/full and /dev/stdout are tested in a copy of /dev")
    copy = tmp_path / "dev"
    copy.mkdir()
    for name, minor in _DEVICES.items():
        os.mknod(copy / name, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    for name, target in _STREAMS.items():
        (copy / name).symlink_to(target)
    return copy


def run_with_dev(dev: Path, argv: Sequence[str], **kwargs: object
                 ) -> subprocess.CompletedProcess[bytes]:
    """``benchgraph ARGV`` in a process of its own that sees ``dev`` as ``/dev``."""
    command = [sys.executable, "-m", "graph.cli", *argv]
    if dev != Path("/dev"):
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                   'mount --bind "$0" /dev && exec "$@"', str(dev), *command]
    return subprocess.run(command, timeout=120, check=False, **kwargs)  # type: ignore[call-overload, no-any-return]


def one_line(error: bytes) -> str:
    lines = error.decode().strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in error.decode(), error.decode()
    return lines[0]


@contextmanager
def fifo_reader(path: Path) -> Iterator[list[bytes]]:
    """A FIFO at ``path`` and a thread reading it to its end: the list holds what it read once
    the block ends. A hard link to the FIFO lets the block end the read even when the FIFO's
    name was taken away from it (by a rename onto it)."""
    os.mkfifo(path)
    keep = path.with_name(path.name + ".kept")
    os.link(path, keep)
    read: list[bytes] = []

    def reader() -> None:
        with open(keep, "rb") as stream:
            read.append(stream.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    try:
        yield read
    finally:
        if thread.is_alive():
            thread.join(timeout=5)
        if thread.is_alive():  # nothing opened the FIFO for writing: end its reader's wait
            os.close(os.open(keep, os.O_WRONLY | os.O_NONBLOCK))
            thread.join(timeout=5)


@pytest.mark.parametrize("option", ["-o", "--report"])
def test_a_fifo_is_written_to_and_stays_a_fifo(
    tmp_path: Path, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "out.ttl"
    other = ["--report", str(tmp_path / "r.json")] if option == "-o" else ["-o", str(
        tmp_path / "g.ttl")]
    with fifo_reader(fifo) as read:
        code = main([*BUILD, option, str(fifo), *other])
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced"
    assert code == 0, capsys.readouterr().err
    expected = (tmp_path / "r.json") if option == "-o" else (tmp_path / "g.ttl")
    assert read and read[0] and expected.exists()
    assert read[0].startswith(b"{" if option == "--report" else b"@prefix")


@pytest.mark.parametrize("option", ["-o", "--report"])
def test_a_full_device_is_one_line_naming_it_and_stays_a_device(
    dev: Path, tmp_path: Path, option: str
) -> None:
    other = ["--report", str(tmp_path / "r.json")] if option == "-o" else []
    done = run_with_dev(dev, [*BUILD, option, "/dev/full", *other], capture_output=True)
    assert stat.S_ISCHR(os.lstat(dev / "full").st_mode), "the device was replaced"
    assert stat.S_ISCHR(os.lstat("/dev/full").st_mode)
    assert done.returncode == 2
    assert one_line(done.stderr) == f"benchgraph build: cannot write /dev/full: {FULL}"


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1"])
def test_standard_output_is_written_in_place_after_what_it_held(
    dev: Path, tmp_path: Path, name: str
) -> None:
    """As ``{ echo kept; benchgraph build -o /dev/stdout; } > FILE`` does: the graph goes after
    the line already written, into the same file."""
    out = tmp_path / "out.ttl"
    out.write_bytes(b"# kept\n")
    inode = out.stat().st_ino
    with out.open("ab") as stdout:
        done = run_with_dev(dev, [*BUILD, "-o", name], stdout=stdout, stderr=subprocess.PIPE)
    assert done.returncode == 0, done.stderr.decode()
    assert (dev / "stdout").is_symlink() and (dev / "fd").is_symlink()
    assert out.stat().st_ino == inode
    written = out.read_bytes()
    assert written.startswith(b"# kept\n@prefix") and written.rstrip().endswith(b".")


def test_standard_output_to_a_pipe_and_the_report_to_standard_error(
    dev: Path, tmp_path: Path
) -> None:
    done = run_with_dev(dev, [*BUILD, "-o", "/dev/stdout", "--report", "/dev/stderr"],
                        capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.startswith(b"@prefix")
    assert b'"records_loaded": 1' in done.stderr
    assert (dev / "stdout").is_symlink() and (dev / "stderr").is_symlink()


@pytest.mark.parametrize("argv", [
    BUILD, ["query", "-e", "CONSTRUCT WHERE { ?s ?p ?o }", str(SEED_PAGE)],
    ["stats", str(SEED_PAGE)], ["validate", "--format", "json", str(SEED_PAGE)],
], ids=["build", "query", "stats", "validate"])
def test_a_full_standard_output_is_one_line(dev: Path, argv: list[str]) -> None:
    with open(dev / "full", "wb") as full:
        done = run_with_dev(dev, argv, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2
    said = done.stderr.decode()
    assert "Traceback" not in said, said  # validate says how the load went first
    assert said.strip().splitlines()[-1] == f"benchgraph {argv[0]}: cannot write stdout: {FULL}"


def test_a_link_is_written_through_and_stays_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, report = tmp_path / "data" / "graph.ttl", tmp_path / "data" / "report.json"
    target.parent.mkdir()
    target.write_text("old")
    os.chmod(target, 0o640)
    (tmp_path / "graph.ttl").symlink_to(target)
    (tmp_path / "report.json").symlink_to(report)  # to a file not made yet
    code = main([*BUILD, "-o", str(tmp_path / "graph.ttl"),
                 "--report", str(tmp_path / "report.json")])
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "graph.ttl").is_symlink() and (tmp_path / "report.json").is_symlink()
    assert target.read_text().startswith("@prefix")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert report.read_text().startswith("{")
    assert sorted(path.name for path in target.parent.iterdir()) == ["graph.ttl", "report.json"]


def test_a_folder_is_refused_in_one_line(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "out").mkdir()
    assert main([*BUILD, "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err == f"benchgraph build: cannot write {tmp_path / 'out'}: it is a folder\n"
    assert list((tmp_path / "out").iterdir()) == []
