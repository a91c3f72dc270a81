"""``python -m perf.run all --sizes``: every section at each size, one table of their
headline figures across the sizes, and ``compare`` printing that table again from the saved
figures. The smallest catalog that exercises each section, run end to end, so that a section
whose figures change shape breaks here, not hours into a run at 100,000 records (the figures
themselves come from ``python -m perf.run``, never from a test)."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from perf.common import PerfError, SectionReport
from perf.run import SECTIONS, make_parser, run_steps

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
STORES = ("memory", "oxigraph:DIR", "sparql:URL")
QUICK = ["--rounds", "1", "--seconds", "1", "--clients", "2", "--scale-seconds", "1",
         "--scale-clients", "1", "--scale-no-floor", "--page-requests", "3", "--updates", "2",
         "--queries", "publishers,gated-medhelm", "--abuse-seconds", "1", "--abuse-slow", "5",
         "--abuse-runaways", "2"]


def _perf(*argv: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perf.run", *argv], cwd=ROOT,
                          env={**os.environ, "TMPDIR": str(tmp_path)}, capture_output=True,
                          text=True, timeout=900, check=False)


def _table(stdout: str) -> list[str]:
    """The lines of the headline table at the end of ``stdout``."""
    lines = stdout.split("== headline figures by catalog size ==\n", 1)[-1].splitlines()
    return [line for line in lines if line.strip()]


def test_all_prints_and_saves_every_sections_headline(tmp_path: Path) -> None:
    """Every section at the smallest size that exercises it (across sizes: the next test)."""
    figures_file = tmp_path / "all.json"
    done = _perf("all", "--sizes", "5", *QUICK, "--json", str(figures_file), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    saved = json.loads(figures_file.read_text(encoding="utf-8"))
    assert saved["sizes"] == [5]
    names = [section.NAME for section in SECTIONS]
    assert list(saved["runs"]["5"]["sections"]) == names
    # the store folder is built once a size, and the sparql: store's engine pushed into
    # once, by the query section: the pages and load sections serve them again
    assert done.stderr.count("into a validated store at") == 1
    assert done.stderr.count("engine: benchgraph push --validate of") == 1
    assert done.stderr.count("engine: serving again the push of") == 2
    table = _table(done.stdout)
    assert table[0].split() == ["figure", "5"]
    rows = {line.split(":", 1)[0] for line in table[2:]}
    assert rows == set(names)  # every section has a row
    # the figures
    for figure in ("build: records/s", "build: peak MB", "validate: full (CPU s)",
                   "validate: one record changed (median ms)",
                   "query: publishers, x the engine alone (memory / oxigraph / sparql)",
                   *(f"pages: benchmark page (p50 / p99 ms), {store}" for store in STORES),
                   *(f"load: requests/s at 2 clients (ours / its engine), {store}"
                     for store in STORES)):
        line = next(line for line in table if line.startswith(figure))
        cells = [cell for cell in line[len(figure):].split("  ") if cell.strip()]
        assert len(cells) == 1, (figure, cells)
        if figure.startswith("query:"):  # each store against its engine alone
            assert all(len(cell.split(" / ")) == 3 and "-" not in cell for cell in cells)
        if figure.startswith("load:"):  # and its engine beside it, where it has one
            assert all(cell.strip().endswith(" / -") == figure.endswith("memory")
                       for cell in cells), (figure, cells)

    # compare: the same table from the saved figures, a column per run and size
    compared = _perf("compare", str(figures_file), tmp_path=tmp_path)
    assert compared.returncode == 0, compared.stderr
    lines = [line for line in compared.stdout.splitlines() if line.strip()]
    assert lines[0].split() == ["figure", "all", "5"]
    assert [line.split()[0] for line in lines[2:]] == [line.split()[0] for line in table[2:]]
    assert [line.split()[-1] for line in lines[2:]] == [line.split()[-1] for line in table[2:]]


def test_all_at_each_size_leaves_out_the_sections_and_stores_it_is_told_to(
        tmp_path: Path) -> None:
    """``--sizes``: the sections at each size, one table of their headlines across the sizes.
    ``--skip`` leaves sections out of ``all``; ``--stores`` leaves a kind of store out of
    the sections that serve several (at 100,000 records the memory store takes minutes and
    15 GB to start): its pair and its server are not started, the others are measured."""
    sized = tmp_path / "sized.json"
    but_build = [section.NAME for section in SECTIONS if section.NAME != "build"]
    done = _perf("all", "--sizes", "5,10", *QUICK, "--skip", ",".join(but_build),
                 "--json", str(sized), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(sized.read_text(encoding="utf-8"))["sizes"] == [5, 10]
    table = _table(done.stdout)
    assert table[0].split() == ["figure", "5", "10"]
    records = next(line for line in table if line.startswith("build: records/s"))
    assert len(records.split()) == 4, records  # "build:", "records/s", one figure a size
    compared = _perf("compare", str(sized), tmp_path=tmp_path)
    assert compared.stdout.split("\n", 1)[0].split() == ["figure", "sized", "5", "sized", "10"]

    figures_file = tmp_path / "some.json"
    skipped = [section.NAME for section in SECTIONS if section.NAME not in ("query", "startup")]
    done = _perf("all", "--sizes", "5", *QUICK, "--skip", ",".join(skipped),
                 "--stores", "oxigraph,sparql", "--json", str(figures_file), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    every = json.loads(figures_file.read_text(encoding="utf-8"))
    saved = every["runs"]["5"]
    assert list(saved["sections"]) == ["query", "startup"]
    assert saved["stores"] == ["oxigraph", "sparql"]
    query = saved["sections"]["query"]
    assert set(query["ratios"]) == {"disk/disk floor", "remote/engine"}
    assert set(query["load_seconds"]) == {"store", "push", "disk", "remote", "files"}
    assert query["push_peak_mb"] > 50  # the push's own process, or its build's child
    assert f"{query['push_peak_mb']:,.0f} MB (benchgraph push --validate)" in done.stdout
    for times in query["queries"].values():
        assert set(times) == {"rows", "disk floor", "disk", "engine", "remote"}
    assert query["queries"]["publishers"]["rows"] > 0  # counted on the store folder
    # --queries: the named queries both sections time
    assert list(saved["sections"]["startup"]["queries"]) == ["publishers", "gated-medhelm"]
    assert list(saved["sections"]["startup"]["serve"]) == [
        "benchgraph serve --store", "oxigraph serve-read-only"]
    row = next(line for line in done.stdout.splitlines()
               if line.startswith("query: publishers, x the engine alone"))
    assert row.split()[-5:-3] == ["-", "/"]  # memory left out; the other two measured
    assert "x / " in row and row.endswith("x")

    wrong = _perf("all", "--records", "20", "--stores", "memory,postgres", tmp_path=tmp_path)
    assert wrong.returncode == 2
    assert "not kinds of store: 'memory,postgres'" in wrong.stderr


def test_compare_names_a_file_that_holds_no_figures(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"something": "else"}', encoding="utf-8")
    done = _perf("compare", str(wrong), tmp_path=tmp_path)
    assert done.returncode == 1
    assert "wrong.json: not the figures of perf.run --json" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_failed_section_is_named_and_the_next_still_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run of hours keeps going past a section that fails: it is printed and named in the
    figures as failed, and the sections after it are measured."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    options = make_parser().parse_args(["all", "--records", "5", "--rounds", "1"])

    def broken(*_: object) -> SectionReport:
        raise PerfError("phase measure exited 1")

    def fine(*_: object) -> SectionReport:
        return SectionReport("fine", "measured", {"seconds": 1.0})

    steps = [(SimpleNamespace(NAME="broken", run=broken), options),
             (SimpleNamespace(NAME="fine", run=fine), options)]
    figures = run_steps(options, steps)  # type: ignore[arg-type]
    assert figures["failed"] == {"broken": "phase measure exited 1"}
    assert figures["sections"] == {"fine": {"seconds": 1.0}}
    printed = capsys.readouterr().out
    assert "== broken ==\nFAILED: phase measure exited 1" in printed
    assert "== fine ==\nmeasured" in printed


def test_the_shared_store_and_engine_go_once_no_section_left_serves_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 100,000 records they hold 28 GB of disk, and the incremental and scale sections,
    the last two, build stores of their own beside them."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    options = make_parser().parse_args(["all", "--records", "5", "--rounds", "1"])
    held: dict[str, list[str]] = {}

    def section(name: str, make: bool = False) -> SimpleNamespace:
        def run(_options: object, _catalog: Path, workdir: Path) -> SectionReport:
            if make:  # as perf.served_store.served_store and perf.serving.pushed_engine do
                (workdir / "served-c").mkdir()
                (workdir / "served-c.json").write_text(json.dumps(
                    {"folder": str(workdir / "served-c")}), encoding="utf-8")
                (workdir / "engine").mkdir()
                (workdir / "engine-pushed.json").write_text("{}", encoding="utf-8")
            held[name] = sorted(path.name for path in workdir.iterdir()
                                if path.name.startswith(("served-", "engine")))
            return SectionReport(name, "measured", {})
        return SimpleNamespace(NAME=name, run=run)

    steps = [(section(name, make=name == "query"), options)
             for name in ("build", "query", "pages", "load", "incremental", "scale")]
    run_steps(options, steps)  # type: ignore[arg-type]
    made = ["engine", "engine-pushed.json", "served-c", "served-c.json"]
    assert held == {"build": [], "query": made, "pages": made, "load": made,
                    "incremental": [], "scale": []}


def test_the_targets_of_a_failed_section_are_missed_not_lost() -> None:
    from perf import targets

    _, rows = targets.summary({})
    assert [row["target"] for row in rows] == [
        f"the targets of the {name} section" for name, _ in targets.READERS]
    assert all(row["verdict"] == "MISSED: the section failed" for row in rows)



def _processes_naming(text: str) -> list[str]:
    """The command lines of the running processes that hold ``text``."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            line = entry.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in line:
            found.append(line)
    return found


def test_a_run_stopped_by_sigterm_stops_its_servers_and_removes_its_work_folder(
        tmp_path: Path) -> None:
    """``kill`` (SIGTERM) stops a run as Ctrl-C does, even one started ignoring SIGINT (in
    the background of a script): its servers stop and its work folder goes. A run stopped
    so had died at once, leaving them (39 GB at 100,000 records)."""
    import signal
    import time

    run = subprocess.Popen(
        [sys.executable, "-m", "perf.run", "load", "--records", "20", "--rounds", "1",
         "--seconds", "60", "--clients", "1"], cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp_path)}, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    work = tmp_path / "benchgraph-perf"
    try:
        deadline = time.monotonic() + 120
        while not [line for line in _processes_naming(str(work)) if "serve" in line]:
            assert run.poll() is None and time.monotonic() < deadline, "no server started"
            time.sleep(0.2)
        run.send_signal(signal.SIGTERM)
        _, stderr = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 130 and "perf.run: interrupted" in stderr, stderr[-2000:]
    assert list(work.glob("run-*")) == []
    assert _processes_naming(str(work)) == []
