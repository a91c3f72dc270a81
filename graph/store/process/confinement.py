"""What a query process may not do: open a network connection, or take more memory than its
limit.

**No network.** pyoxigraph fetches a ``SERVICE`` endpoint over HTTP while it evaluates the
pattern, and has no switch to turn that off. The first wall is the query's parse tree
(``graph.sparql.admission`` refuses any SERVICE); this is the second, for whatever a parser
could miss. ``forbid_network`` installs a seccomp filter in the zygote
(``graph.store.process.zygote``) before it forks any query process: a filter holds for the process
that loads it and for every process and thread it starts, and cannot be removed. Under it
``socket()`` of every address family but ``AF_UNIX`` fails with ``EACCES`` (pyoxigraph then
raises ``PermissionError``), and so does ``io_uring_setup``, since an io_uring can open and
connect sockets without those system calls. ``AF_UNIX`` stays open because a query process
talks to its pool over a Unix socket pair, and the zygote makes one for each; pyoxigraph's
HTTP client speaks only TCP. A query process inherits no other socket (the zygote closes
every file but its own socket and the standard streams). The zygote is single-threaded, so
the filter needs no thread synchronisation; like libseccomp's default, loading it sets
``PR_SET_NO_NEW_PRIVS``, which asks nothing of a process that never runs another program.

Why seccomp, called through libseccomp with ``ctypes``: Landlock's network rules (Linux 6.7
and later) cover TCP ``bind`` and ``connect`` only, not UDP (a DNS query) or other families;
a network namespace of its own (``unshare(CLONE_NEWNET)``) needs ``CAP_SYS_ADMIN`` or
unprivileged user namespaces, which many systems turn off. A seccomp filter needs neither
(Linux 3.5 and later) and refuses the one call every connection starts with. libseccomp
(``libseccomp.so.2``, on Debian and most Linux systems) writes the BPF program for the
machine's architecture; five of its functions are all this needs, so no binding is
installed: of those on PyPI, ``pyseccomp`` has had no release since January 2021, and
libseccomp's own binding is built with the library, not published there.

Where no filter can be loaded (not Linux, no libseccomp, a kernel without seccomp)
``forbid_network`` says why, and the pool logs one warning and goes on: the parser stays
the only wall.

**Memory.** The pool watches each query process's memory (``private_memory``) and kills it
past its limit; ``cap_data`` is the kernel's backstop, in the query process itself, for a
burst faster than the watch. The kernel counts mappings, not what is in them: a process
forked from one whose heap holds much free memory (a server that built its catalog in
memory) reuses those free chunks without a new mapping. So the cap is counted from the
heap's free bytes (glibc's ``mallinfo2``) as well as from its mappings: a query may take
the limit, or what the heap already had free where that is more, never both.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import socket
import sys
from typing import cast

from graph.system.libc import libc_function

_LIBRARY = "libseccomp.so.2"
"""libseccomp's soname (stable since its 2.0): loaded by name, since ``find_library`` runs
``ldconfig`` in a child process, which the zygote's SIGCHLD handler would reap."""
_ALLOW = 0x7FFF0000
"""``SCMP_ACT_ALLOW``: what the filter does with every other system call."""
_REFUSE = 0x00050000 | errno.EACCES
"""``SCMP_ACT_ERRNO(EACCES)``: the call fails, as a call the process has no right to."""
_NOT_EQUAL = 1
"""``SCMP_CMP_NE``: compares the whole 64-bit argument, so no high bits slip past it."""
_UNKNOWN_CALL = -1
"""``__NR_SCMP_ERROR``: what libseccomp gives for a system call it does not know."""

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
BACKSTOP = 2
"""The kernel's cap is this many times the memory limit beyond the process's start. It caps
the address space the process has made writable (``RLIMIT_DATA``), which is more than it
has touched (what the pool watches): at the limit itself it would stop queries the watch
lets run. At twice it only stops a burst that the watch, a look every few tens of
milliseconds, did not see."""


class _ArgumentTest(ctypes.Structure):
    """libseccomp's ``struct scmp_arg_cmp``: argument ``arg`` compared by ``op`` to ``datum_a``."""

    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


_RULES: tuple[tuple[str, tuple[_ArgumentTest, ...]], ...] = (
    ("socket", (_ArgumentTest(0, _NOT_EQUAL, socket.AF_UNIX, 0),)),
    ("io_uring_setup", ()),
)
"""The calls refused, each with the tests its arguments must all pass for it to be."""


def forbid_network() -> str | None:
    """Forbid this process, and every process it starts from now on, to open any socket but
    a Unix one: None once the filter is loaded, else why it could not be (nothing changed).
    The filter is whole or absent: a rule that cannot be written loads none."""
    if not sys.platform.startswith("linux"):
        return f"seccomp is Linux's, and this system is {sys.platform}"
    try:
        library = _libseccomp()
    except (OSError, AttributeError) as error:
        return f"libseccomp ({_LIBRARY}) cannot be used: {error}"
    context = library.seccomp_init(_ALLOW)
    if not context:
        return "libseccomp could not start a filter"
    try:
        for name, tests in _RULES:
            number = library.seccomp_syscall_resolve_name(name.encode())
            if number == _UNKNOWN_CALL:
                return f"libseccomp does not know the system call {name}"
            array = (_ArgumentTest * len(tests))(*tests) if tests else None
            code = library.seccomp_rule_add_array(context, _REFUSE, number, len(tests), array)
            if code < 0:
                return f"libseccomp could not refuse {name}: {os.strerror(-code)}"
        code = library.seccomp_load(context)
        if code < 0:
            return f"the kernel did not load the filter: {os.strerror(-code)}"
        return None
    finally:
        library.seccomp_release(context)


def _libseccomp() -> ctypes.CDLL:
    """libseccomp, its four functions declared; OSError where it is not installed,
    AttributeError where it lacks one."""
    library = ctypes.CDLL(_LIBRARY, use_errno=True)
    library.seccomp_init.argtypes = [ctypes.c_uint32]
    library.seccomp_init.restype = ctypes.c_void_p
    library.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    library.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                               ctypes.c_uint, ctypes.POINTER(_ArgumentTest)]
    library.seccomp_load.argtypes = [ctypes.c_void_p]
    library.seccomp_release.argtypes = [ctypes.c_void_p]
    library.seccomp_release.restype = None
    return library


def private_memory(pid: int) -> int | None:
    """Bytes of memory process ``pid`` holds that no file backs: its resident pages less its
    shared ones (``/proc/PID/statm``, kept by the kernel as counters, so cheap to read
    often). A store folder's files that a query reads are shared pages, and not counted; the
    pages a query process inherited from its zygote (a memory store's data) are counted
    from the start, and so are in the baseline a limit is measured from, never in what a
    query adds. None where the system does not say (not Linux, or the process is gone)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            fields = handle.read().split()
    except OSError:
        return None
    return (int(fields[1]) - int(fields[2])) * _PAGE


def cap_data(extra: int) -> bool:
    """Let this process's writable memory grow by at most ``extra`` bytes beyond what it has
    now (``RLIMIT_DATA``, its soft limit: never above a lower one already set): an
    allocation past it fails, and pyoxigraph, in Rust, aborts the process (SIGABRT) where
    Python would raise MemoryError. False where the system has no such measure (nothing
    is set)."""
    data = _writable_memory()
    if data is None:
        return False
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    wanted = data + max(0, extra - _free_heap())
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY:
        wanted = min(wanted, soft)
    resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))
    return True


class _MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (2.33 and later): ``fordblks`` is the heap's free bytes."""

    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _free_heap() -> int:
    """Bytes free in the C heap's mapped chunks, which an allocation reuses without a new
    mapping; 0 where the C library does not say."""
    mallinfo2 = libc_function("mallinfo2", (), _MallInfo2)
    return 0 if mallinfo2 is None else int(cast(_MallInfo2, mallinfo2()).fordblks)


def _writable_memory() -> int | None:
    """This process's ``VmData`` (private writable mappings, what ``RLIMIT_DATA`` counts), in
    bytes; None where the system does not say."""
    try:
        with open("/proc/self/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmData:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


__all__ = ["BACKSTOP", "cap_data", "forbid_network", "private_memory"]
