"""The build lock of a store folder: one build at a time writes into it.

Two builds into one folder at once each write a generation and switch to it, and each then
removes the generations it does not keep, the other's among them: the folder could end with
no generation at all, or with one missing a file, while both builds said they had stored it.
So a build holds an exclusive ``flock`` on ``.benchgraph-build.lock`` in the folder from before
it decides what to build until its switch and clean-up are done, and writes its process id
in the file. A second build does not wait for it: it stops at once with one line naming the
process that holds the folder (exit 2). Waiting would start the second build's work only
once the first's is stored, minutes later at scale, and then build over it; stopping says at
once that the folder is busy, and the user (or a scheduler) chooses to build again.

The lock goes with the holder's descriptor: a build that is killed lets go of it, and the
file (which stays: removing a lock file races with the next build opening it) says nothing
until the next build writes its own id in it. Readers (``graph.store.generations``) never
take this lock: a build does not wait for a server, nor a server for a build.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from types import TracebackType

from graph.store.errors import StoreError
from graph.store.generations import GENERATION_PREFIX
from graph.store.manifest import MANIFEST
from graph.store.space import is_no_space, reported_when_full

LOCK_FILE = ".benchgraph-build.lock"


class BuildLock:
    """The build lock of ``folder``, held from ``take`` until ``release`` (or the end of a
    ``with`` block)."""

    def __init__(self, folder: Path, descriptor: int) -> None:
        self.folder = folder
        self._descriptor: int | None = descriptor

    @classmethod
    def take(cls, folder: Path) -> BuildLock:
        """The lock of the store folder ``folder``, made if it is new. StoreError, touching
        nothing, when ``folder`` is neither a store folder nor new or empty; when another
        build holds it (naming its process); when it cannot be made."""
        check_folder(folder)
        path = folder / LOCK_FILE
        with reported_when_full(folder):
            try:
                folder.mkdir(parents=True, exist_ok=True)
                descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:
                if is_no_space(error):
                    raise
                raise StoreError(f"{folder} cannot be written to: "
                                 f"{error.strerror or error}") from None
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(descriptor)
                os.close(descriptor)
                raise StoreError(f"another build{holder} holds {folder}: wait until it is "
                                 "done, then build again") from None
            except BaseException:
                os.close(descriptor)
                raise
            try:
                os.ftruncate(descriptor, 0)
                os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
            except BaseException:
                os.close(descriptor)
                raise
        return cls(folder, descriptor)

    def release(self) -> None:
        """Let the next build in (idempotent)."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is not None:
            os.close(descriptor)

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def __enter__(self) -> BuildLock:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()


def _holder(descriptor: int) -> str:
    """`` (process N)``: who holds the lock, as the holder wrote it. The holder writes its id
    just after taking the lock, so for a moment the file is empty or still names the build
    before it: read again, briefly, until it names a live process; empty if it never does."""
    deadline = time.monotonic() + _HOLDER_WAIT
    while True:
        try:
            text = os.pread(descriptor, 32, 0).decode("ascii", errors="replace").strip()
        except OSError:
            return ""
        if text.isdigit() and _alive(int(text)):
            return f" (process {text})"
        if time.monotonic() >= deadline:
            return ""
        time.sleep(0.01)


_HOLDER_WAIT = 1.0
"""Seconds a refused build waits for the holder to write its id."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal: only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, as another user's
        pass
    return True


def check_folder(folder: Path) -> None:
    """StoreError when ``folder`` exists and is not a folder a build may write a store in: a
    store folder, or an empty one (what builds leave in one counts as empty)."""
    if not folder.exists():
        return
    if not folder.is_dir():
        raise StoreError(f"{folder} is not a folder")
    if (folder / MANIFEST).exists():
        return
    if any(entry.name != LOCK_FILE and not entry.name.startswith(f".{GENERATION_PREFIX}")
           for entry in folder.iterdir()):
        raise StoreError(f"{folder} is not empty and holds no benchgraph store: choose a new "
                         "or empty folder")


__all__ = ["LOCK_FILE", "BuildLock", "check_folder"]
