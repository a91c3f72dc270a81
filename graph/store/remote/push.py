"""``benchgraph push``: a build into a remote engine, by the Graph Store HTTP Protocol.

Each graph (``graph.store.remote.layout``) is replaced whole with PUT, and only when its
content hash (SHA-256 of its canonical N-Triples) differs from the one the engine's manifest
records for it; the graph of a record that is gone is removed with DELETE. So pushing the
same build again sends nothing, and a build with one record changed sends that record's
graph, the merge (which holds its statements too) and the manifest.

An interrupted push is made whole by the next one. The manifest, finished or not, lists
every graph the engine may hold (``PushManifest.graphs``): a graph it leaves out is one no push
would ever delete. So before the first graph is sent, the manifest is replaced by one marked
unfinished in which every graph about to be sent or removed is listed as ``UNKNOWN`` (it may
be the old graph, the new one or, once removed, none); each sent graph is listed with its
new hash once the engine has taken it, at a checkpoint every ``CHECKPOINT_GRAPHS`` graphs,
or every twentieth of the graphs to send when that is more (``checkpoint_every``); a removed
graph is forgotten only by a manifest written after its DELETE succeeded: the finished one,
which the last step writes. A push that stops anywhere (the engine killed, the network down,
Ctrl-C, the push itself killed) leaves a manifest in which each graph is listed with the hash
of what the engine holds or as unknown, so the next push sends again each unknown graph it
wants and deletes each one it does not, whatever version it pushes.

Each PUT replaces one graph, never half of one, on the engines measured: each takes it in
one transaction, and Oxigraph's server keeps the old graph when a PUT is cut short halfway
through its body (tests/test_push_interrupted.py). The manifest relies on that for itself:
a manifest lost to a PUT cut short would make the engine look as if it held no push. A
graph that the engine refused is reported with its record's file (and stays unknown), and
the push goes on with the others; once the engine cannot be reached at all, the push stops,
and every graph not sent is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox

from graph.errors import BenchgraphError, ErrorKind
from graph.store.base import BuildFacts
from graph.store.changes import BuildChanges
from graph.store.files import read_validation
from graph.store.remote.client import RemoteError
from graph.store.remote.engine import Dataset, Engine
from graph.store.remote.layout import (
    DEFAULT,
    MANIFEST_PREDICATE,
    REPORT_PREDICATE,
    UNKNOWN,
    DataGraphs,
    Document,
    Names,
    PushManifest,
    json_document,
)
from graph.store.remote.manifest import find_manifest

if TYPE_CHECKING:  # a push builds, but `benchgraph` imports this module for every command
    from graph.store.manifest import Manifest

CHECKPOINT_GRAPHS = 200
"""The fewest graphs sent between two writes of the unfinished manifest."""
CHECKPOINTS = 20
"""The most checkpoints a push makes. Each writes the whole manifest, which lists every graph,
so a checkpoint every 200 graphs made a push quadratic in the records
(perf/decisions/push-checkpoints.md)."""
Progress = Callable[[int, int], None]


class PushError(BenchgraphError):
    """A push that did not send every graph: which records did not go, and why."""

    kind = ErrorKind.STORE


@dataclass
class PushOutcome:
    """What a push sent, removed and left as it was."""

    sent: list[str] = field(default_factory=list)
    """The graphs sent (None, the default graph, as ``"default"``), in order."""
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    """Graph -> why it did not go."""
    merge: str = DEFAULT
    changes: BuildChanges = field(default_factory=lambda: BuildChanges("first"))
    """The records this build added, changed and removed against the last push's."""


@dataclass(frozen=True)
class _Item:
    """A graph the engine should hold: its key in the manifest, its hash, and how to make
    its document (again: a record's is made when it is hashed and when it is sent)."""

    key: str
    sha256: str
    make: Callable[[], Document]


def push(engine: Engine, generation: Path, built: Manifest,
         progress: Progress | None = None) -> PushOutcome:
    """Bring the engine to hold the build of the local store ``generation``, whose manifest
    is ``built`` (and its validation report, when it was validated); the engine's manifest
    keeps what the build changed against the last push's (a record's graph changed when its
    hash did). PushError when some graph did not go."""
    facts = built.facts
    names = Names(facts.base)
    old = find_manifest(engine, names.base)
    merge = old.merge if old is not None else choose_merge(engine, names)
    items, new = _wanted(generation, built, names, merge)
    held = dict(old.graphs) if old is not None else {}
    to_send = [item for item in items if held.get(item.key) != item.sha256]
    gone = sorted(set(held) - set(new.graphs))
    changes = BuildChanges("first") if old is None else BuildChanges.between(
        old.facts, facts.records, {item.key for item in to_send})
    new = replace(new, facts=replace(new.facts, changes=changes))
    if old is not None and not to_send:  # the same graphs: the same build, as far as it shows
        new = replace(new, facts=replace(new.facts, built_at=old.facts.built_at,
                                         changes=old.facts.changes))
    outcome = PushOutcome(merge=merge, unchanged=len(items) - len(to_send), changes=changes)
    if old == new:
        return outcome
    listed = _unfinished(held, new, [item.key for item in to_send] + gone)
    _write_manifest(engine, names, new.holding(listed, complete=False))
    since_checkpoint, every = 0, checkpoint_every(len(to_send))
    for number, item in enumerate(to_send, 1):
        try:
            engine.put(item.make())
        except RemoteError as error:
            outcome.failed[item.key] = error.message
            if error.status is None:  # the engine cannot be reached: the rest cannot go
                outcome.failed.update((later.key, "not sent: the push stopped")
                                      for later in to_send[number:])
                break
        else:
            outcome.sent.append(item.key)
            listed[item.key] = item.sha256
        if progress is not None:
            progress(number, len(to_send))
        since_checkpoint += 1
        if since_checkpoint >= every and number < len(to_send):
            try:
                _write_manifest(engine, names, new.holding(listed, complete=False))
            except RemoteError as error:  # the engine went away between two graphs
                outcome.failed.update((later.key, f"not sent: {error.message}")
                                      for later in to_send[number:])
                break
            since_checkpoint = 0
    if not outcome.failed:
        for graph in gone:
            try:
                engine.delete(graph)
            except RemoteError as error:
                outcome.failed[graph] = error.message
            else:
                outcome.deleted.append(graph)
                del listed[graph]
    if outcome.failed:
        _write_manifest_if_possible(engine, names, new.holding(listed, complete=False))
        raise PushError(_failure_message(outcome, facts))
    _write_manifest(engine, names, new)
    return outcome


def _unfinished(held: dict[str, str], new: PushManifest, touched: list[str]) -> dict[str, str]:
    """What the unfinished manifest lists before anything is sent: the graphs the engine
    holds as ``new`` wants them, with their hashes, and every graph the push will send or
    remove (``touched``) as ``UNKNOWN``. A graph left out would stay on the engine for good:
    one about to be removed, when the push stops before its DELETE; one about to be sent,
    when the next push no longer wants it."""
    listed = {key: sha for key, sha in held.items() if new.graphs.get(key) == sha}
    listed.update((key, UNKNOWN) for key in touched)
    return listed


def checkpoint_every(graphs: int) -> int:
    """How many graphs a push of ``graphs`` sends between two checkpoints: at most
    ``CHECKPOINTS`` of them, and ``CHECKPOINT_GRAPHS`` graphs apart at least. A push stopped
    anywhere sends again at most that many graphs that the engine had taken."""
    return max(CHECKPOINT_GRAPHS, -(-graphs // CHECKPOINTS))


def _wanted(generation: Path, built: Manifest, names: Names, merge: str
            ) -> tuple[list[_Item], PushManifest]:
    """Every graph the engine should hold, and the finished manifest that lists them."""
    store = ox.Store.read_only(str(generation))
    data = DataGraphs(store)
    items = [_Item(document.graph or DEFAULT, document.sha256,
                   partial(data.document, index)) for index, document in enumerate(data)]
    merged = data.merge(None if merge == DEFAULT else merge)
    items.append(_Item(merge, merged.sha256, lambda: merged))
    report = read_validation(generation)
    if report is not None:
        kept = Document.of(names.validation, json_document(
            names.validation, REPORT_PREDICATE, report.to_json()))
        items.append(_Item(names.validation, kept.sha256, lambda: kept))
    manifest = PushManifest(built.facts, built.counts, merge,
                            {item.key: item.sha256 for item in items}, complete=True,
                            quads=built.quads, triples=merged.lines,
                            validated=report is not None)
    return items, manifest


def choose_merge(engine: Engine, names: Names) -> str:
    """Where the merge goes on an engine that holds no push yet: its default graph when that
    is a graph of its own and empty (a query naming no graph then reads it, and ``GRAPH ?g``
    never meets it); else the named graph ``names.merge``. A probe graph tells: when a
    statement PUT into a named graph shows in the default graph, the default graph is the
    union of all (Virtuoso's is)."""
    probe = f"{names.own}/probe"
    engine.put(Document.of(probe, f"<{probe}> <{probe}> <{probe}> .\n".encode()))
    try:
        union = _ask(engine, f"ASK {{ <{probe}> ?p ?o }}")
        occupied = not union and _ask(engine, "ASK { ?s ?p ?o }")
    finally:
        engine.delete(probe)
    return names.merge if union or occupied else DEFAULT


def _ask(engine: Engine, text: str) -> bool:
    result = engine.query(text, "ASK", Dataset(), rows=None, timeout=engine.client.timeout)
    return bool(result.boolean)


def _write_manifest(engine: Engine, names: Names, manifest: PushManifest) -> None:
    engine.put(Document.of(names.manifest, json_document(
        names.manifest, MANIFEST_PREDICATE, manifest.to_json())))


def _write_manifest_if_possible(engine: Engine, names: Names, manifest: PushManifest) -> None:
    """The unfinished manifest, so that the next push resends what did not go and deletes
    what was not removed; when the engine cannot take even that, the one it has (the last
    checkpoint's) lists every graph sent or removed since as ``UNKNOWN`` already."""
    try:
        _write_manifest(engine, names, manifest)
    except RemoteError:
        pass


def _failure_message(outcome: PushOutcome, facts: BuildFacts) -> str:
    files = {record.graph: record.source_file for record in facts.records}
    failed = [files.get(graph, graph) for graph in outcome.failed]
    first_reason = next(iter(outcome.failed.values()))
    shown = ", ".join(failed[:10]) + (f" and {len(failed) - 10:,} more" if len(failed) > 10
                                      else "")
    return (f"{len(failed):,} graph{'s' if len(failed) != 1 else ''} did not go ({shown}): "
            f"{first_reason}; the engine holds the old or the new graph of each, and the next "
            "push sends them again")


__all__ = ["CHECKPOINTS", "CHECKPOINT_GRAPHS", "PushError", "PushOutcome", "checkpoint_every",
           "choose_merge", "push"]
