"""The memory of a whole process tree, sampled from ``/proc`` while it runs.

``os.wait4`` gives the peak of one process; ``benchgraph build --store`` forks a child to
bulk-load the store, and ``benchgraph serve`` is a server process, its query processes and
their zygote. What the machine must hold is their sum, at the same moment. Two sums are
kept: RSS (what ``ps`` shows; pages shared after a fork count once per process, so it
overstates) and PSS (each shared page divided among its sharers: what the tree really
holds). Linux only, as the suite is.
"""

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

_PROC = Path("/proc")


@dataclass
class TreeSample:
    """The tree's memory at one moment, in bytes."""

    rss: int
    pss: int
    processes: int


@dataclass
class TreePeak:
    """The largest sums seen while sampling, and the stage each came in."""

    rss: int = 0
    pss: int = 0
    processes: int = 0
    samples: int = 0
    per_process: dict[str, int] = field(default_factory=dict)
    """Largest RSS seen of each process, by ``pid name``."""
    timeline: list[tuple[float, int, int]] = field(default_factory=list)
    """(seconds since sampling started, RSS, PSS) of every sample."""

    @property
    def rss_mb(self) -> float:
        return self.rss / 2**20

    @property
    def pss_mb(self) -> float:
        return self.pss / 2**20


def descendants(root: int) -> list[int]:
    """``root`` and every process under it now."""
    parents: dict[int, list[int]] = {}
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (name) state ppid ...": the name may hold spaces and brackets.
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(parents.get(pid, ()))
    return found


def _memory(pid: int) -> tuple[int, int, str] | None:
    """(RSS, PSS, name) of a process, None when it has gone."""
    try:
        rollup = (_PROC / str(pid) / "smaps_rollup").read_text()
        name = (_PROC / str(pid) / "comm").read_text().strip()
    except OSError:
        return None
    values = {}
    for line in rollup.splitlines()[1:]:
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss"):
            values[key] = int(rest.split()[0]) * 1024
    return values.get("Rss", 0), values.get("Pss", 0), name


def sample(root: int) -> tuple[TreeSample, dict[str, int]]:
    """The tree's memory now, and each process's RSS."""
    rss = pss = count = 0
    each: dict[str, int] = {}
    for pid in descendants(root):
        memory = _memory(pid)
        if memory is None:
            continue
        rss += memory[0]
        pss += memory[1]
        count += 1
        each[f"{pid} {memory[2]}"] = memory[0]
    return TreeSample(rss, pss, count), each


class TreeSampler:
    """Samples the tree under ``root`` every ``interval`` seconds in a thread until stopped."""

    def __init__(self, root: int, interval: float = 0.1) -> None:
        self.root = root
        self.interval = interval
        self.peak = TreePeak()
        self._started = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "TreeSampler":
        self._thread.start()
        return self

    def __exit__(self, *rest: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.take()
            self._stop.wait(self.interval)

    def take(self) -> TreeSample:
        now, each = sample(self.root)
        peak = self.peak
        peak.samples += 1
        peak.timeline.append((time.perf_counter() - self._started, now.rss, now.pss))
        peak.rss = max(peak.rss, now.rss)
        peak.pss = max(peak.pss, now.pss)
        peak.processes = max(peak.processes, now.processes)
        for name, rss in each.items():
            peak.per_process[name] = max(peak.per_process.get(name, 0), rss)
        return now


def wait_sampled(pid: int, interval: float = 0.1) -> tuple[int, float, TreePeak]:
    """Waits for the child ``pid`` while sampling its tree: its exit code, wall seconds, and
    the tree's peak."""
    started = time.perf_counter()
    with TreeSampler(pid, interval) as sampler:
        _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), time.perf_counter() - started, sampler.peak
