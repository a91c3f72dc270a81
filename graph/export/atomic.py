"""Writing a file whole or not at all, and never replacing what is not a file.

``write_atomically(path, write)`` first looks at what ``path`` names, and only a regular
file, or a name not taken yet, is ever replaced:

- a regular file, or nothing yet: the data goes to a new hidden file beside it, is flushed to
  disk, then renamed onto it. A reader sees the old file or the whole new one, never a part;
  on any error the old one stays as it was;
- a symbolic link (at any depth of a chain): written through. The file at its end is
  replaced (or made) as above and the link stays a link. A link is how a user points a name
  at a file kept elsewhere, and the shell's ``>`` follows it too: renaming onto the link
  would silently cut it, and refusing it would refuse that use;
- one of this process's open descriptors, named as a file (``/dev/stdout``, ``/dev/stderr``,
  ``/dev/fd/N``, ``/proc/self/fd/N``, or a link to one of them): written to through a copy
  of the descriptor, as the shell writes ``> /dev/stdout``: the data goes where the stream
  goes (a terminal, a pipe, a file opened to append, after what it already holds);
- a character device or a FIFO (``/dev/null``, ``/dev/full``, a named pipe): opened and
  written in place, as ``>`` does, never created, truncated or replaced: a rename onto
  ``/dev/full`` run as root would put a file where the machine's device was;
- a folder, a block device or a socket: refused before anything is written.

A stream or a device written in place has no "whole or not at all": a failure part way
leaves what was written. Every failure, refusals included, is an ``OSError`` naming the path
as given, which the command line words in one line (``graph.cli.common.output_to``).
"""

import errno
import os
import re
import secrets
import stat
import sys
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO, TypeVar

from graph.regular_file import kind_of

Done = TypeVar("Done")

_MAX_LINKS = 40
"""Links followed, at most, looking for a descriptor (Linux's own limit on a path's links)."""
_DESCRIPTORS = re.compile(r"/proc/(\d+)(?:/task/\d+)?/fd")
"""A folder of a process's open descriptors, as ``realpath`` gives it (``/proc/self/fd``,
``/proc/thread-self/fd`` and ``/dev/fd`` all lead there)."""
_IN_PLACE = os.O_WRONLY | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
"""How a device or a FIFO is opened: for writing, never created or truncated, and never made
the process's controlling terminal."""


def write_atomically(path: Path, write: Callable[[BinaryIO], Done]) -> Done:
    """Run ``write`` on a binary stream that ends up at ``path``; its answer. What that means
    for each kind of thing at ``path`` is in this module's docstring: a regular file (also
    through a link) is replaced only once the new one is whole, and keeps its permission bits
    (a new one gets the umask's); a stream, a character device or a FIFO is written in place;
    anything else is refused with an ``OSError``."""
    descriptor = _own_descriptor(path)
    if descriptor is not None:
        for standard in (sys.stdout, sys.stderr):  # what was printed comes first
            if standard is not None:
                standard.flush()
        return _write_in_place(os.dup(descriptor), write)
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:  # nothing there yet, or a link to nothing yet: made
        info = None
    if info is None or stat.S_ISREG(info.st_mode):
        mode = None if info is None else stat.S_IMODE(info.st_mode)
        return _replace(Path(os.path.realpath(path)), write, mode)
    if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
        return _write_in_place(os.open(path, _IN_PLACE), write)
    raise OSError(errno.EINVAL, f"it is {kind_of(info.st_mode)}", str(path))


def _own_descriptor(path: Path) -> int | None:
    """The number of this process's open descriptor that ``path`` names, through the links
    that lead to ``/proc/PID/fd/N`` (``/dev/stdout`` is a link to ``/proc/self/fd/1``); None
    when it names none. Each link is read as it is, so the descriptor is found whatever it
    is open on (a pipe's descriptor links to no file at all)."""
    current = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        folder, name = os.path.split(current)
        if name.isascii() and name.isdigit():
            found = _DESCRIPTORS.fullmatch(os.path.realpath(folder))
            if found is not None and int(found.group(1)) == os.getpid():
                return int(name)
        try:
            target = os.readlink(current)
        except OSError:  # not a link (or nothing there): it names no descriptor
            return None
        current = os.path.normpath(os.path.join(os.path.realpath(folder), target))
    return None


def _write_in_place(descriptor: int, write: Callable[[BinaryIO], Done]) -> Done:
    """``write`` on the open ``descriptor``, closed after (a copy: the stream itself stays)."""
    with os.fdopen(descriptor, "wb") as handle:
        done = write(handle)
        handle.flush()
    return done


def _replace(path: Path, write: Callable[[BinaryIO], Done], mode: int | None) -> Done:
    """``write`` on a new file beside ``path`` (a real path: no link in it), renamed onto it
    once whole and on disk; ``mode``, the permission bits of the file it replaces."""
    temporary, descriptor = _create_temporary(path)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            done = write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _sync_folder(path.parent)
    return done


def _create_temporary(path: Path) -> tuple[Path, int]:
    """A new file beside ``path``, created with mode 0o666 less the umask (as ``open`` does)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return temporary, os.open(temporary, flags, 0o666)
        except FileExistsError:
            continue


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to disk, where the system allows opening a folder."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


__all__ = ["write_atomically"]
