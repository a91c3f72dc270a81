"""A job run in a forked child (``graph.system.child``): the parent gets its return value, its
``BenchgraphError`` as it is, any other error with the child's traceback as a note, and a
child that died as a ``ChildDied`` saying how; it may ask whether the child is done without
waiting, and kill it; Ctrl-C while it waits kills the child; no thread runs beside it."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from graph.errors import BenchgraphError, ErrorKind
from graph.system.child import Child, ChildDied, run_in_child


class _Refused(BenchgraphError):
    kind = ErrorKind.QUERY

    def __init__(self, reason: str, detail: int) -> None:
        super().__init__(f"refused: {reason} ({detail})")


class _TwoWords(Exception):
    def __init__(self, first: str, second: str) -> None:  # no pickle brings it back
        super().__init__(f"{first} {second}")


def _waiting_for(flag: Path) -> int:
    while not flag.exists():
        time.sleep(0.01)
    return os.getpid()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_parent_gets_the_jobs_return_value() -> None:
    held = {"forms": ["<a>", "<b>"]}  # the child starts from the parent's memory, unpickled
    pid, forms = run_in_child(lambda: (os.getpid(), held["forms"] + ["<c>"]), "the test's child")
    assert pid != os.getpid()
    assert forms == ["<a>", "<b>", "<c>"]


def test_a_benchgraph_error_is_raised_as_it_is() -> None:
    def refuse() -> None:
        raise _Refused("too long", 3)

    with pytest.raises(_Refused) as raised:
        run_in_child(refuse, "the test's child")
    assert raised.value.message == "refused: too long (3)"
    assert raised.value.kind is ErrorKind.QUERY
    assert not getattr(raised.value, "__notes__", [])


def test_another_error_carries_the_childs_traceback() -> None:
    def broken_mapping() -> None:
        raise ValueError("broken mapping")

    with pytest.raises(ValueError, match="broken mapping") as raised:
        run_in_child(broken_mapping, "the test's child")
    notes = "".join(raised.value.__notes__)
    assert notes.startswith("in the test's child:\n")
    assert "broken_mapping" in notes and "Traceback" in notes


def test_what_does_not_come_back_from_a_pickle_comes_as_its_text() -> None:
    def odd() -> None:
        raise _TwoWords("odd", "error")

    with pytest.raises(RuntimeError, match="_TwoWords: odd error") as raised:
        run_in_child(odd, "the test's child")
    assert "in the test's child" in "".join(raised.value.__notes__)
    with pytest.raises(Exception, match="lambda") as unsent:  # a result that does not pickle
        run_in_child(lambda: lambda: None, "the test's child")
    assert "in the test's child" in "".join(unsent.value.__notes__)


@pytest.mark.parametrize(("end", "said"), [
    (lambda: os.kill(os.getpid(), signal.SIGKILL),  # as the kernel does when memory runs out
     r"^the test's child ended without giving back its outcome: it was killed by signal 9 "
     r"\(SIGKILL\), as when memory runs out$"),
    (lambda: os._exit(3), r"it exited with code 3$"),
])
def test_a_child_that_dies_is_an_error_that_says_how(end: object, said: str) -> None:
    with pytest.raises(ChildDied, match=said) as raised:
        run_in_child(end, "the test's child")  # type: ignore[arg-type]
    assert raised.value.kind is ErrorKind.STORE


def test_the_parent_asks_without_waiting_and_no_thread_runs_beside(tmp_path: Path) -> None:
    threads = set(threading.enumerate())
    child = Child.start(lambda: _waiting_for(tmp_path / "go"), "the test's child")
    assert set(threading.enumerate()) == threads
    assert not child.done()
    (tmp_path / "go").touch()
    deadline = time.monotonic() + 30
    while not child.done():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert child.result() == child.pid
    assert child.result() == child.pid  # as often as asked


def test_the_parent_kills_it(tmp_path: Path) -> None:
    child = Child.start(lambda: _waiting_for(tmp_path / "never"), "the test's child")
    child.kill()
    assert child.done() and _gone(child.pid)
    with pytest.raises(ChildDied, match=r"killed by signal 9 \(SIGKILL\)"):
        child.result()
    child.kill()  # once it has ended, nothing


def test_ctrl_c_while_the_parent_waits_kills_the_child(tmp_path: Path) -> None:
    child = Child.start(lambda: _waiting_for(tmp_path / "never"), "the test's child")
    waiting = threading.get_ident()
    ctrl_c = threading.Timer(0.3, signal.pthread_kill, (waiting, signal.SIGINT))
    ctrl_c.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            child.result()
    finally:
        ctrl_c.join()
    assert _gone(child.pid)
