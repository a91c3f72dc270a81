"""The harness registry importer: a snapshot file of ``benchgraph harvest``, one record per entry.

Chosen by content: a JSON object with the snapshot's own top-level keys (``format``,
``harness``, ``entries``); the file's name does not matter. The JSON is parsed strictly
(``strict_json``: no duplicate key, bounded depth and strings), then read in two steps, so
that one broken entry costs only itself (DESIGN.md, "Defects"):

- the header (format, harness, package, version, licence, copyright line) is the snapshot
  model's, strictly: a header that breaks it rejects the file, naming the field;
- each entry is validated alone as the model's ``Entry`` and becomes one ``HarnessEntry``
  record, named in the file by its id (``Part.name``, from which the loader makes its record
  key). An entry that breaks the model, or repeats an earlier entry's id, is rejected alone,
  named by its id (``entries[gsm8k].metrics[0].name``), and the others load.

Nothing here decides which benchmark an entry describes (``graph.mapping.identity`` does,
after every record is read) and nothing makes a triple.
"""

import re
from typing import Any

from pydantic import ValidationError

from graph.importers.base import Imported, Part, Problem, RecordRejected, SourceFile
from graph.importers.catalog_page import rejection
from graph.importers.strict_json import parse_json
from graph.records import HarnessEntry, HarnessPackage
from graph.records.harness_snapshot import Entry, Snapshot
from graph.settings import Settings

_ENTRIES = '"entries"'
_SNAPSHOT_KEY = re.compile(r'"(?:format|harness)"\s*:')


class HarnessSnapshotImporter:
    """Reads harness snapshot files (``{harness}.json``)."""

    name = "harness-registry"

    def can_read(self, source: SourceFile) -> bool:
        """A JSON object that names its ``entries`` and its ``format`` or ``harness``: the
        snapshot's keys (a catalog page has none of them; inside a JSON string their quotes
        would be escaped). Cheap: a substring test first, the pattern only after it."""
        text = source.text
        return (text.lstrip()[:1] == "{" and _ENTRIES in text
                and _SNAPSHOT_KEY.search(text) is not None)

    def load(self, source: SourceFile, settings: Settings) -> Imported:
        value = parse_json(source.text, settings)
        if not isinstance(value, dict):
            raise RecordRejected("a harness snapshot must be a JSON object")
        entries = value.get("entries", [])
        if not isinstance(entries, list):
            raise RecordRejected("must be a list", field="entries")
        package = _package({key: item for key, item in value.items() if key != "entries"})
        parts: list[Part] = []
        rejected: list[Problem] = []
        seen: set[str] = set()
        for index, data in enumerate(entries):
            where = _where(data, index)
            try:
                entry = _entry(data, seen)
            except RecordRejected as error:
                field = where if error.field is None else f"{where}.{error.field}"
                rejected.append(Problem(source.path, field, error.reason))
            else:
                seen.add(entry.id)
                parts.append(Part(HarnessEntry(package, entry), entry.id, where))
        return Imported(parts, rejected=rejected)


def _package(header: dict[str, Any]) -> HarnessPackage:
    """The package the snapshot names, checked as the snapshot model checks a header."""
    try:
        snapshot = Snapshot.model_validate({**header, "entries": []})
    except ValidationError as error:
        raise rejection(error) from None
    return HarnessPackage(snapshot.harness, snapshot.package, snapshot.version,
                          snapshot.licence, snapshot.copyright, snapshot.repository)


def _entry(data: Any, seen: set[str]) -> Entry:
    if not isinstance(data, dict):
        raise RecordRejected("an entry must be a JSON object")
    try:
        entry = Entry.model_validate(data)
    except ValidationError as error:
        raise rejection(error) from None
    if entry.id in seen:
        raise RecordRejected("an earlier entry of the file has this id", field="id")
    return entry


def _where(data: Any, index: int) -> str:
    """How a problem names an entry: by its id when it has a usable one, else by position."""
    entry_id = data.get("id") if isinstance(data, dict) else None
    if isinstance(entry_id, str) and entry_id and "]" not in entry_id:
        return f"entries[{entry_id}]"
    return f"entries[{index}]"
