"""One job run in a forked child process: its result given back to the parent, or its error
raised there.

A job gets a process of its own when the parent must not hold what the job leaves behind, or
must not run a thread beside it. The files a ``sparql:`` store makes from the engine
(``graph.store.remote.prepared``) are made in a child, not a thread, because the server
forks later, and a thread running at a fork leaves the locks it held locked in the child. A
fork starts the child from the parent's memory as it is, so the job is any callable, a
closure too, and is never pickled.

A ``Child`` is a ``Process`` of ``multiprocessing``'s fork context. A
``concurrent.futures.ProcessPoolExecutor`` would say less and do more: a worker that died is
a ``BrokenProcessPool`` that does not say how it ended, a running worker cannot be killed,
and the parent runs a thread (the pool's manager) while the job runs. The outcome is sent as
a pickle in an unnamed temporary file opened before the fork and read once the child has
exited: the child's memory is given back before the parent reads, and a child never waits
on its parent to read.

What ``Child.result`` gives back:

- the job's return value;
- a ``BenchgraphError`` the job raised, raised as it is (it pickles as class, message and
  kind);
- any other exception, with the child's traceback as a note: it is a bug, and stays one;
- ``ChildDied`` for a child that ended without an outcome: killed (as the kernel kills a
  process when memory runs out), or unable to write it (a full disk), saying how it ended.

While the parent waits for it, Ctrl-C (or any exception) kills the child before it goes on.
A ``Child`` belongs to the process that started it, and to one thread of it at a time.
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import tempfile
import traceback
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import IO, Any, Generic, TypeVar, cast

from graph.errors import BenchgraphError, ErrorKind

T = TypeVar("T")

_FORK = multiprocessing.get_context("fork")


class ChildDied(BenchgraphError):
    """A child process that ended without giving back its job's outcome."""

    kind = ErrorKind.STORE
    """A child's job makes what a store is made of (its build, its files): without it the
    store cannot be used as asked."""


class Child(Generic[T]):
    """A job running, or run, in a forked child process (``Child.start``)."""

    def __init__(self, process: BaseProcess, outcome: IO[bytes], name: str) -> None:
        self._process = process
        self._outcome: IO[bytes] | None = outcome
        self._sent: tuple[bool, Any] | None = None
        self.name = name
        """What the process is, as a sentence names it: "the build's process"."""

    @classmethod
    def start(cls, job: Callable[[], T], name: str) -> Child[T]:
        """Fork a child that runs ``job()``; ``name`` says what it is in its errors."""
        outcome = tempfile.TemporaryFile(prefix="benchgraph-child-")
        process = _FORK.Process(target=_run, args=(job, outcome, name), name=name, daemon=True)
        try:
            process.start()
        except BaseException:
            outcome.close()
            raise
        return cls(process, outcome, name)

    @property
    def pid(self) -> int:
        return cast(int, self._process.pid)

    def done(self) -> bool:
        """Whether the child has ended, without waiting for it."""
        return not self._process.is_alive()

    def result(self) -> T:
        """The job's return value, once the child has ended; or its error, raised."""
        try:
            self._process.join()
        except BaseException:  # Ctrl-C: the child is not left behind
            self.kill()
            raise
        self._settle()
        if self._sent is None:
            raise ChildDied(f"{self.name} ended without giving back its outcome: it "
                            f"{_how(cast(int, self._process.exitcode))}")
        returned, value = self._sent
        if not returned:
            raise cast(BaseException, value).with_traceback(None)  # each raise anew
        return cast(T, value)

    def kill(self) -> None:
        """Kill the child if it still runs (``result`` then raises ``ChildDied``), and let
        go of it."""
        self._process.kill()  # nothing, once it has ended
        self._process.join()
        self._settle()

    def _settle(self) -> None:
        """Read the outcome of the child, which has ended, and close its file."""
        if self._outcome is None:
            return
        with self._outcome as outcome:
            self._outcome = None
            if self._process.exitcode == 0:
                outcome.seek(0)
                self._sent = pickle.load(outcome)


def run_in_child(job: Callable[[], T], name: str) -> T:
    """``job()``, run in a forked child (``Child``): its return value, or its error raised."""
    return Child.start(job, name).result()


def _run(job: Callable[[], Any], outcome: IO[bytes], name: str) -> None:
    """The child's life: run ``job`` and write its outcome (``(True, value)`` or ``(False,
    error)``) in ``outcome``; a child that cannot write it exits with 1 and one line on its
    standard error."""
    try:
        try:
            _write(outcome, (True, job()))
        except BaseException as error:
            _write(outcome, (False, _sendable(error, name)))
    except Exception as unsent:  # a full disk, say
        raise SystemExit(f"{name} could not give back its outcome: "
                         f"{type(unsent).__name__}: {unsent}") from None


def _write(outcome: IO[bytes], sent: tuple[bool, Any]) -> None:
    outcome.seek(0)
    outcome.truncate()  # what a result that did not pickle began
    pickle.dump(sent, outcome, protocol=pickle.HIGHEST_PROTOCOL)
    outcome.flush()


def _sendable(error: BaseException, name: str) -> BaseException:
    """``error`` (a bug's with the child's traceback as a note), or, where it would not come
    back from a pickle, a ``RuntimeError`` with its text and notes."""
    if isinstance(error, Exception) and not isinstance(error, BenchgraphError):
        error.add_note(f"in {name}:\n" + "".join(traceback.format_exception(error)))
    try:
        pickle.loads(pickle.dumps(error, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:
        stand_in = RuntimeError(f"{type(error).__name__}: {error}")
        for note in getattr(error, "__notes__", ()):
            stand_in.add_note(note)
        return stand_in
    return error


def _how(exitcode: int) -> str:
    """How a process ended, from ``multiprocessing``'s exit code (minus a signal's number)."""
    if exitcode < 0:
        killer = signal.Signals(-exitcode)
        memory = ", as when memory runs out" if killer is signal.SIGKILL else ""
        return f"was killed by signal {-exitcode} ({killer.name}){memory}"
    return f"exited with code {exitcode}"


__all__ = ["Child", "ChildDied", "run_in_child"]
