"""A zygote: a forked process that starts query processes by forking itself.

A query process must be a process of its own, so that the time limit can kill it
(``graph.store.process.pool``: pyoxigraph cannot stop a running query), and it must start at once,
with the interpreter and every module already loaded: a forked child shares them with its
parent. Forking the process
that serves requests is not safe once it runs threads (a server does), because a
child inherits every lock another thread held. So the pool forks a zygote once, while its
process is still single-threaded (when the app starts, or a command runs), and the zygote,
which never runs a thread, forks each query process on request and hands its socket back
(``SCM_RIGHTS``). A query process is ready many times sooner this way than a new
interpreter (``python -c``), which imports everything again
(perf/decisions/query-processes-from-a-zygote.md).

One zygote serves every generation of a store folder: a pool spawns each query process
with the generation to open (``spawn``'s argument), so a store that moves to a new generation
while its server's threads run (``graph.store.following``) starts new query processes from
the zygote it forked before any thread, never by forking the server again
(``graph.store.process.pool.Zygotes``).

On Linux every process of the family dies with its parent (``PR_SET_PDEATHSIG``): a killed
server leaves no query process behind. The zygote reaps the processes the pool kills, and
tells the pool how one ended when it asks (``ended``): a process that died under a query
was stopped by its memory cap (SIGABRT), or by a bug.

Before it forks any, the zygote forbids itself, and so every query process, to open a
network connection (``graph.store.process.confinement``), and tells the pool whether it could
(``unconfined``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from graph.store.process.confinement import forbid_network
from graph.system.libc import libc_function

Serve = Callable[[Connection, bytes], None]
"""What a query process runs, on its end of the socket the pool talks to it by, with the
argument its pool spawned it with (which generation of a store folder to open, say)."""

_PR_SET_PDEATHSIG = 1
_STOPS = {signal.SIGINT, signal.SIGTERM, signal.SIGQUIT}
"""The signals a server is stopped by (a quit, a terminal's Ctrl-C, a manager's SIGTERM)."""
_CLOSE_SECONDS = 5.0
_SPAWN = b"+"
"""The pool's request for a new query process (the argument for it follows: its length in
four bytes, then itself)."""
_ENDED = b"?"
"""The pool's question how a query process ended (its pid follows, in four bytes)."""
_UNKNOWN = -(2**31)
"""The answer to it when the zygote cannot tell."""
_ENDING_SECONDS = 2.0
"""How long the zygote waits for a process asked about to end (its socket closes first)."""
_KEPT = 64
"""How many ended processes the zygote remembers, for the pool to ask about."""
_MAX_FD = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 65536


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies (Linux; elsewhere, nothing)."""
    if not sys.platform.startswith("linux"):
        return
    prctl = libc_function("prctl", (ctypes.c_int, ctypes.c_ulong))
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


@dataclass
class Zygote:
    """The zygote of one pool: ``spawn()`` gives a new query process running ``serve``."""

    serve: Serve
    pid: int = field(init=False)
    unconfined: str | None = field(init=False)
    """Why the query processes may open network connections; None: they may not."""
    _control: socket.socket = field(init=False, repr=False)
    _lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        ours, theirs = socket.socketpair()
        # The stop signals wait until the fork is done, in both processes: a server's
        # handler that ran inside the fork's own hooks (logging's lock release) raised its
        # SystemExit where nothing can take it ("Exception ignored in: _releaseLock").
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        pid = os.fork()
        if pid == 0:  # the zygote; it never returns
            ours.close()
            _live(theirs, self.serve, mask)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        theirs.close()
        self.pid, self._control = pid, ours
        try:
            size = int.from_bytes(_exactly(ours, 2), "little")
            self.unconfined = _exactly(ours, size).decode() or None
        except BaseException:
            self.close()
            raise

    def spawn(self, argument: bytes = b"") -> tuple[int, Connection]:
        """A new query process running ``serve`` with ``argument``: its pid, and the
        connection to it (one at a time: the threads of a server may ask at once)."""
        with self._lock:
            self._control.sendall(_SPAWN + len(argument).to_bytes(4, "little") + argument)
            message, descriptors, _flags, _address = socket.recv_fds(self._control, 32, 1)
        if not message or not descriptors:
            raise OSError("the zygote stopped")
        return int(message), Connection(descriptors[0])

    def ended(self, pid: int) -> int | None:
        """How the query process ``pid`` ended, as ``os.waitstatus_to_exitcode`` gives it (a
        signal's number, negated, if one killed it); None when the zygote cannot tell."""
        try:
            with self._lock:
                self._control.sendall(_ENDED + pid.to_bytes(4, "little"))
                answer = _exactly(self._control, 4)
        except OSError:
            return None
        code = int.from_bytes(answer, "little", signed=True)
        return None if code == _UNKNOWN else code

    def close(self) -> None:
        """Stop the zygote (the query processes it started die with it): it ends when its
        socket closes, and is killed if it has not within a few seconds."""
        self._control.close()
        deadline = time.monotonic() + _CLOSE_SECONDS
        try:
            while os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                if time.monotonic() > deadline:
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
                    return
                time.sleep(0.005)
        except ChildProcessError:
            pass


def _live(control: socket.socket, serve: Serve, mask: set[int | signal.Signals]) -> None:
    """The zygote's life: fork a query process for each request, or say how one ended,
    until the socket closes.

    It first closes every file it inherited but its socket and the standard streams: the
    sockets of other pools and of their query processes (a process that holds a copy of the
    other end keeps a socket from ever closing), a server's listening socket. Then it puts
    up the network wall and tells the pool whether it stands."""
    code = 0
    ended = _Ended()
    try:
        # Not the parent's handlers, first: a server's would run here on SIGTERM and write to
        # its wakeup fd, closed below ("Exception ignored ... Bad file descriptor"). A stop
        # sent to the whole group (Ctrl-C, a manager's SIGTERM) is the pool's to handle: its
        # server answers the queries under way, then closes it (or dies, and takes us along).
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGCHLD, ended.reap)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # blocked across the fork
        os.closerange(3, control.fileno())
        os.closerange(control.fileno() + 1, _MAX_FD)
        die_with_parent()
        unconfined = (forbid_network() or "").encode()[:4096]
        control.sendall(len(unconfined).to_bytes(2, "little") + unconfined)
        while command := _asked(control):
            if command == _ENDED:
                asked = int.from_bytes(_exactly(control, 4), "little")
                control.sendall(ended.code_of(asked).to_bytes(4, "little", signed=True))
                continue
            argument = _exactly(control, int.from_bytes(_exactly(control, 4), "little"))
            ours, theirs = socket.socketpair()
            pid = os.fork()
            if pid == 0:  # a query process
                control.close()
                ours.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                die_with_parent()
                serve(Connection(theirs.detach()), argument)
                os._exit(0)
            theirs.close()
            try:
                socket.send_fds(control, [str(pid).encode()], [ours.fileno()])
            except (BrokenPipeError, ConnectionResetError):
                break  # the pool went while asking: nothing more to start
            finally:
                ours.close()
    except Exception:  # a bug: said on stderr; the pool sees the socket close
        traceback.print_exc()
        code = 1
    finally:
        os._exit(code)


def _asked(control: socket.socket) -> bytes:
    """What the pool asks next (``_SPAWN``, ``_ENDED``); empty once it has gone, whether it
    closed its end (a stopping server) or its process ended without closing it."""
    try:
        return control.recv(1)
    except ConnectionResetError:
        return b""


def _exactly(control: socket.socket, size: int) -> bytes:
    """The next ``size`` bytes from ``control``; OSError if it closes first."""
    data = control.recv(size, socket.MSG_WAITALL) if size else b""
    if len(data) < size:
        raise OSError("the zygote's socket closed")
    return data


@dataclass
class _Ended:
    """The query processes of a zygote that have ended, and how: the last ``_KEPT`` of them."""

    codes: dict[int, int] = field(default_factory=dict)

    def reap(self, signum: int, frame: object) -> None:
        """Collect every query process that has ended (killed by the pool, or done)."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            self._keep(pid, status)

    def code_of(self, pid: int) -> int:
        """How ``pid`` ended (``os.waitstatus_to_exitcode``), waiting a moment for it to end
        (the pool asks once its socket has closed, which comes just before); ``_UNKNOWN``
        if it has not, or is no process of ours. SIGCHLD waits meanwhile, so that ``reap``
        does not take the status from under the question."""
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
        try:
            deadline = time.monotonic() + _ENDING_SECONDS
            while pid not in self.codes:
                try:
                    found, status = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:  # reaped by a handler already under way
                    break
                if found:
                    self._keep(pid, status)
                elif time.monotonic() > deadline:
                    break
                else:
                    time.sleep(0.005)
            return self.codes.pop(pid, _UNKNOWN)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def _keep(self, pid: int, status: int) -> None:
        self.codes[pid] = os.waitstatus_to_exitcode(status)
        if len(self.codes) > _KEPT:
            del self.codes[next(iter(self.codes))]


__all__ = ["Serve", "Zygote", "die_with_parent"]
