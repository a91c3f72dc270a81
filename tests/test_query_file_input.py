"""``benchgraph query FILE``: only a regular file is read as a query, and never past
``max_query_bytes``.

Each command runs in a process of its own, with a time limit and a memory limit: a command
that read ``/dev/zero`` to its end, or waited on a FIFO, would otherwise take the test (and
the machine's memory) with it.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.seeds import SEED_PAGE

MEMORY = 1 << 30
"""The most data memory a command here may take: far more than it needs."""


def query(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``benchgraph query ARGV`` in a process of its own, in at most ``MEMORY`` and 60 s."""
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "graph.cli", "query", *argv, str(SEED_PAGE)],
        capture_output=True, text=True, timeout=60, check=False, preexec_fn=limit_memory,
        env={**os.environ, **(env or {})},
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and done.stdout == "", done.stderr
    return lines[0]


def test_a_device_is_refused_unread() -> None:
    assert one_line(query("/dev/zero")) == (
        "benchgraph query: /dev/zero: a device, not a file: give a query file")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "q.rq"
    os.mkfifo(fifo)
    assert one_line(query(str(fifo))) == (
        f"benchgraph query: {fifo}: a FIFO, not a file: give a query file")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "q.rq").mkdir()
    assert one_line(query(str(tmp_path / "q.rq"))) == (
        f"benchgraph query: {tmp_path / 'q.rq'}: a folder, not a file: give a query file")


@pytest.mark.parametrize(("size", "limit"), [(8 << 30, None), (4097, "4096")])
def test_a_file_over_the_limit_is_refused_read_no_further(
    tmp_path: Path, size: int, limit: str | None
) -> None:
    """8 GiB of a sparse file (no disk taken) under the default limit, and a file one byte
    over a limit set in the environment."""
    path = tmp_path / "big.rq"
    with path.open("wb") as file:
        file.truncate(size)
    env = {} if limit is None else {"BENCHGRAPH_MAX_QUERY_BYTES": limit}
    shown = f"{int(limit or 65536):,}"
    assert one_line(query(str(path), env=env)) == (
        f"benchgraph query: {path}: more than max_query_bytes = {shown} bytes "
        "(read no further)")


def test_a_file_within_the_limit_runs(tmp_path: Path) -> None:
    path = tmp_path / "q.rq"
    path.write_text("ASK { ?s ?p ?o }\r\n", "utf-8")
    link = tmp_path / "link.rq"
    link.symlink_to(path)  # a file named on the command line is read as given
    for given in (path, link):
        done = query(str(given), "--format", "json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["boolean"] is True
