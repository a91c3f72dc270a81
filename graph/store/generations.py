"""The generations of a store folder: who may remove one, and how a reader keeps the one it
reads.

A build writes each new generation beside the current one and switches the manifest to it
(``graph.store.disk``); the generations before it are then of no use to the folder, but a
running server (``benchgraph serve --store oxigraph:DIR``), or a command that opened the store
(``benchgraph query --store``), may still be reading one: a query process has its RocksDB
files open and opens more as it reads, and a dump being sent opens its pages one after another.
A generation removed under such a reader breaks it.

So a reader holds a *lease* on the generation it reads: a shared ``flock`` on the generation
folder itself (a folder, not a file in it, so that a generation written by any version, on a
read-only mount or of another user, can be leased all the same). A build removes a generation
only when it can take the same lock exclusively, without waiting: one that a reader still
holds stays, and the next build that finds it unleased removes it. The lock goes with the
reader's descriptor: a reader that stops, or dies, lets go of it without a word.

A reader takes a lease on the generation the manifest names, then reads the manifest again:
only if it still names that generation is the lease good (``lease_current``). A build removes
only generations the manifest no longer names, and only under the exclusive lock, so a
generation that was current while its lease was held is never removed under it.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import secrets
import shutil
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from graph.store.errors import StoreError
from graph.store.manifest import (
    Manifest,
    ManifestVersion,
    incomplete,
    manifest_version,
    read_versioned,
)

log = logging.getLogger(__name__)

GENERATION_PREFIX = "generation-"
LOADING_SUFFIX = ".loading"
"""What a generation's folder is named with (after a dot and its name) while it is written."""
CHECKPOINTING = ".tmp"
"""What RocksDB adds to a checkpoint's folder name while it makes it (``Store.backup``)."""
_ATTEMPTS = 20
"""Times a reader reads the manifest again when builds switch under it while it takes a lease."""
_UNSUPPORTED = {errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EINVAL,
                errno.EBADF}
"""What ``flock`` answers on a file system that has no such locks (NFS emulates them with
record locks, and refuses an exclusive one on a folder, which cannot be opened for writing,
with ``EBADF``): a reader reads without a lease there, and a build removes old generations
as it did before leases."""


def new_generation_name() -> str:
    """A new generation's folder name: when it was begun, and eight random hex digits (two
    builds never name theirs alike, even within one second)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    return f"{GENERATION_PREFIX}{stamp}-{secrets.token_hex(4)}"


def loading_name(generation: str) -> str:
    """The folder ``generation`` is written in, until it is complete."""
    return f".{generation}{LOADING_SUFFIX}"


class Lease:
    """A reader's hold on one generation folder (a shared ``flock`` on it), until ``close``."""

    def __init__(self, path: Path, descriptor: int | None) -> None:
        self.path = path
        self._descriptor = descriptor

    @classmethod
    def take(cls, path: Path) -> Lease | None:
        """A lease on ``path``; None when it is gone, or a build is removing it."""
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        except (FileNotFoundError, NotADirectoryError):
            return None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            return None
        except OSError as error:
            os.close(descriptor)
            if error.errno not in _UNSUPPORTED:
                raise
            return cls(path, None)
        return cls(path, descriptor)

    def close(self) -> None:
        """Let go of the generation (a build may remove it from now on, once no other reader
        holds it). Closing, not unlocking: a process forked while the lease was held shares
        the lock, and an unlock would take it from that process too."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is not None:
            os.close(descriptor)


@dataclass(frozen=True)
class Leased:
    """The current generation of a store folder as a reader found it: the manifest that
    named it, which file that was, and the reader's lease on the generation."""

    manifest: Manifest
    version: ManifestVersion
    lease: Lease

    @property
    def generation(self) -> Path:
        return self.lease.path


def lease_current(folder: Path, base: str | None = None) -> Leased:
    """The current generation of the store in ``folder``, leased (``read_manifest``'s
    StoreError when the folder holds no store it can serve, or one built with another base
    than ``base``). Whenever a build switches between the reading and the lease, the manifest
    is read again."""
    for attempt in range(_ATTEMPTS):
        manifest, version = read_versioned(folder, base)
        lease = Lease.take(folder / manifest.generation)
        switched = manifest_version(folder) != version
        if lease is not None:
            if not switched:
                return Leased(manifest, version, lease)
            lease.close()  # switched meanwhile: the new one, rather
        elif not switched and not (folder / manifest.generation).is_dir():
            raise incomplete(folder, manifest)
        time.sleep(0.001 * attempt)
    raise StoreError(f"the store in {folder} switched to a new generation {_ATTEMPTS} times "
                     "while it was being opened: try again when its builds are done")


def remove_old_generations(folder: Path, keep: str) -> None:
    """Remove what builds left in ``folder`` besides the generation ``keep``: the generations
    before it that no reader holds (``remove_unread``), and the folders of builds that were
    stopped while they wrote (only a build writes them, and the caller holds the folder's
    build lock: ``graph.store.lock``)."""
    for entry in folder.iterdir():
        name = entry.name
        if not entry.is_dir() or entry.is_symlink():
            continue
        if name.startswith(GENERATION_PREFIX) and name != keep:
            remove_unread(entry)
        elif name.startswith(f".{GENERATION_PREFIX}") and name.endswith(
                (LOADING_SUFFIX, f"{LOADING_SUFFIX}{CHECKPOINTING}")):
            shutil.rmtree(entry, ignore_errors=True)


def remove_unread(generation: Path) -> bool:
    """Remove the generation folder ``generation`` if no reader holds a lease on it: whether
    it was removed. One that a reader holds is left for a later build."""
    try:
        descriptor = os.open(generation, os.O_RDONLY | os.O_DIRECTORY)
    except FileNotFoundError:
        return True
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log.info("%s is still read: left for a later build to remove", generation)
            return False
        except OSError as error:
            if error.errno not in _UNSUPPORTED:
                raise
        shutil.rmtree(generation, ignore_errors=True)
        return True
    finally:
        os.close(descriptor)


__all__ = ["CHECKPOINTING", "GENERATION_PREFIX", "LOADING_SUFFIX", "Lease", "Leased",
           "lease_current", "loading_name", "new_generation_name", "remove_old_generations",
           "remove_unread"]
