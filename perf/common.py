"""What every section of the performance suite shares: the cached synthetic catalog, running a
measured phase in a fresh subprocess, medians, and the table and JSON it reports in.

Each phase runs in its own process (``python -m perf.phases NAME ...``), so its peak resident
memory is its own: the parent stays small and reads the child's peak from ``os.wait4``.
"""

import argparse
import hashlib
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

PERF_DIR = Path(__file__).resolve().parent
GENERATOR_FILES = ("generate_catalog.py", "pools.py", "vocabulary.py", "directory_pages.py",
                   "defects.py", "defect_values.py")


class PerfError(Exception):
    """A phase failed: its command and the end of what it printed."""


@dataclass(frozen=True)
class Run:
    """One run of one phase: wall time of what it measures, and its process's peak memory."""

    seconds: float
    peak_rss_bytes: int
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Measurement:
    """Every round of one phase, and how to report it."""

    name: str
    label: str
    runs: list[Run] = field(default_factory=list)
    items: int | None = None
    """What it processed, for the rate column (triples; records for a build)."""

    @property
    def seconds(self) -> float:
        return statistics.median(run.seconds for run in self.runs)

    @property
    def timed_out(self) -> bool:
        """Whether a round was stopped at the timeout: the times are then lower bounds."""
        return any(run.detail.get("timed_out") for run in self.runs)

    @property
    def cpu_seconds(self) -> float | None:
        """Median CPU seconds (all threads): less moved than wall time by a busy machine."""
        return self.detail_median("cpu_seconds")

    @property
    def peak_mb(self) -> float:
        return max(run.peak_rss_bytes for run in self.runs) / 2**20

    def detail_median(self, key: str) -> float | None:
        values = [float(run.detail[key]) for run in self.runs
                  if run.detail.get(key) is not None]
        return statistics.median(values) if values else None

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "items": self.items,
            "seconds": [round(run.seconds, 4) for run in self.runs],
            "median_seconds": round(self.seconds, 4),
            "timed_out": self.timed_out,
            "median_cpu_seconds": None if self.cpu_seconds is None else round(self.cpu_seconds, 4),
            "peak_rss_mb": [round(run.peak_rss_bytes / 2**20, 1) for run in self.runs],
            "max_peak_rss_mb": round(self.peak_mb, 1),
            "detail": [run.detail for run in self.runs],
        }


@dataclass(frozen=True)
class SectionReport:
    """What a section of the suite hands back: text for people, data for ``--json``."""

    title: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


STORE_KINDS = ("memory", "oxigraph", "sparql")
"""The kinds of store ``--stores`` names, as ``benchgraph --store`` spells them (``memory``,
``oxigraph:DIR``, ``sparql:URL``)."""

Headline = dict[str, str]
"""A section's figures for the table across catalog sizes (``perf.run all --sizes``,
``perf.run compare``): each figure's name and its value as printed."""


def phase_figures(data: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The figures of the phase ``name`` in a section's data (``Measurement.as_json``); None
    when the run left it out."""
    return next((phase for phase in data.get("phases", []) if phase["name"] == name), None)


Step = tuple[ModuleType, argparse.Namespace]
"""A section of the suite and the options it runs with (its catalog's size among them)."""


def generator_fingerprint() -> str:
    """A short hash of the generator's source: a cached catalog from older code is not reused."""
    digest = hashlib.sha256()
    for name in GENERATOR_FILES:
        digest.update((PERF_DIR / name).read_bytes())
    return digest.hexdigest()[:12]


def work_root() -> Path:
    return Path(tempfile.gettempdir()) / "benchgraph-perf"


def cached_catalog(
    records: int, seed: int, directory_pages: int, profile: str, defect_share: float
) -> tuple[Path, float | None]:
    """The synthetic catalog folder for these settings, generated unless already cached.

    Returns the folder and the seconds generation took (None when it was reused).
    """
    fingerprint = generator_fingerprint()
    name = (f"catalog-{profile}-n{records}-s{seed}-d{directory_pages}-x{defect_share:g}-"
            f"{fingerprint}")
    folder = work_root() / name
    if (folder / ".complete").exists():
        (folder / ".complete").touch()  # in use: not stale for another checkout's pruning
        return folder, None
    prune_stale_catalogs(fingerprint)
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    started = time.perf_counter()
    command = [
        sys.executable,
        "-m",
        "perf.generate_catalog",
        str(records),
        str(partial),
        "--seed",
        str(seed),
        "--directory-pages",
        str(directory_pages),
        "--profile",
        profile,
        "--defect-share",
        str(defect_share),
    ]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise PerfError(f"{' '.join(command)} failed:\n{completed.stderr[-2000:]}")
    (partial / ".complete").write_text("", encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return folder, time.perf_counter() - started


STALE_SECONDS = 24 * 3600
"""How long a catalog of another generator version must have gone unused to be removed: a
checkout of another version (a worktree beside this one) may be making or using it now."""
STOP_SECONDS = 60.0
"""How long a process sent SIGINT by an interrupted run is given to stop."""


def prune_stale_catalogs(fingerprint: str, now: float | None = None) -> list[Path]:
    """Remove the cached catalogs (and half-made ones) of any other generator version that
    nothing made or used for ``STALE_SECONDS``: this version can never reuse them. Returns
    the folders removed."""
    now = time.time() if now is None else now
    removed = []
    for folder in sorted(work_root().glob("catalog-*")):
        made_by = folder.name.removesuffix(".partial").rsplit("-", 1)[-1]
        if folder.is_dir() and made_by != fingerprint and now - _last_used(folder) > STALE_SECONDS:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _last_used(folder: Path) -> float:
    """When a catalog folder was last written to or reused (its ``.complete`` is touched)."""
    marker = folder / ".complete"
    return max(folder.stat().st_mtime, marker.stat().st_mtime if marker.exists() else 0.0)


@dataclass(frozen=True)
class Finished:
    """A finished process: exit code, wall and CPU seconds, peak resident memory."""

    code: int
    seconds: float
    cpu_seconds: float
    peak_rss_bytes: int
    timed_out: bool = False


def run_process(
    command: Sequence[str], log: Path, timeout: float | None = None, errors: Path | None = None
) -> Finished:
    """Runs ``command`` with its output to ``log`` and measures it from the outside; its
    stderr goes to ``errors`` when given, else into ``log`` too.

    A process still running after ``timeout`` seconds is killed (``Finished.timed_out``)."""
    with log.open("wb") as output, open(errors or os.devnull, "wb") as error_output:
        started = time.perf_counter()
        stderr = error_output if errors else subprocess.STDOUT
        process = subprocess.Popen(command, stdout=output, stderr=stderr)
        timed_out = False
        with interrupted_with(process):
            while True:
                pid, status, usage = os.wait4(process.pid, 0 if timeout is None else os.WNOHANG)
                if pid:
                    break
                if time.perf_counter() - started > (timeout or 0):
                    timed_out = True
                    process.kill()
                    timeout = None  # now wait for it to go
                else:
                    time.sleep(0.05)
        seconds = time.perf_counter() - started
    process.returncode = code = os.waitstatus_to_exitcode(status)
    # Linux reports ru_maxrss in KiB, macOS in bytes.
    peak = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    return Finished(code, seconds, usage.ru_utime + usage.ru_stime, peak, timed_out)


@contextmanager
def interrupted_with(process: subprocess.Popen[Any]) -> Iterator[None]:
    """While waiting for ``process``: a run interrupted (Ctrl-C, or SIGTERM, which
    ``perf.run`` makes the same) sends it SIGINT, so that it stops the servers it started
    in sessions of their own, and waits for it (a minute, then kills it)."""
    try:
        yield
    except BaseException:
        stop(process)
        raise


def stop(process: subprocess.Popen[Any], *, group: bool = False) -> None:
    """Send ``process`` SIGINT, as Ctrl-C does, and wait for it; after ``STOP_SECONDS``,
    kill it (with ``group``, every process of the session it leads)."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        if group:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        process.wait()


def run_phase(
    phase: str,
    arguments: Sequence[str],
    workdir: Path,
    module: str = "perf.phases",
    timeout: float | None = None,
) -> Run:
    """Runs one phase in a fresh interpreter (``python -m MODULE PHASE ARG...``) and returns
    what it measured: the module prints ``{"seconds": ..., ...}`` as its last line.

    A phase stopped at ``timeout`` counts as taking the timeout, flagged ``timed_out``."""
    log = workdir / f"{phase}.log"
    command = [sys.executable, "-m", module, phase, *arguments]
    finished = run_process(command, log, timeout)
    if finished.timed_out:
        return Run(finished.seconds, finished.peak_rss_bytes, {"timed_out": True})
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    if finished.code != 0 or not lines:
        raise PerfError(f"phase {phase} exited {finished.code}:\n" + "\n".join(lines[-20:]))
    reported = json.loads(lines[-1])
    return Run(float(reported.pop("seconds")), finished.peak_rss_bytes, reported)


def count_ntriples(path: Path) -> int:
    """Statements in an N-Triples file: its lines that are neither blank nor comments."""
    with path.open("rb") as lines:
        return sum(1 for line in lines if line.strip() and not line.lstrip().startswith(b"#"))


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    import pyoxigraph
    import rdflib

    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "pyoxigraph": pyoxigraph.__version__,
        "rdflib": rdflib.__version__,
    }


def rate(items: int | None, seconds: float) -> str:
    if not items or seconds <= 0:
        return ""
    return f"{items / seconds:,.0f}/s"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An aligned plain-text table: text columns left, figures right."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        out = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])


def progress(message: str) -> None:
    """A line about what the suite is doing, on stderr (the figures go to stdout)."""
    print(message, file=sys.stderr, flush=True)


Phase = Callable[[Sequence[str]], dict[str, Any]]


def run_phase_command(module: str, phases: dict[str, Phase], argv: Sequence[str]) -> int:
    """``python -m MODULE PHASE ARG...``: run one phase in this (fresh) process and print its
    figures as JSON for the suite to read; 2 for an unknown phase, 1 when it fails."""
    if not argv or argv[0] not in phases:
        print(f"usage: python -m {module} {{{','.join(phases)}}} ARG...", file=sys.stderr)
        return 2
    try:
        print(json.dumps(phases[argv[0]](argv[1:])))
    except PerfError as error:
        print(f"{module}: {error}", file=sys.stderr)
        return 1
    return 0
