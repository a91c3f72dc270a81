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
  named by its id (``entries[gsm8k].metrics[0].name``), and the others load;
- each of the ``models`` likewise becomes one ``HarnessModel`` record, named in the file
  ``model/{id}`` (``models[openai/gpt-4o]`` in a problem).

Nothing here decides which benchmark an entry describes (``graph.mapping.identity`` does,
after every record is read) and nothing makes a triple.
"""

import re
from typing import Any

from pydantic import ValidationError

from graph.ingest.importers.base import Imported, Part, Problem, RecordRejected, SourceFile
from graph.ingest.importers.catalog_page import rejection
from graph.ingest.importers.strict_json import parse_json
from graph.ingest.records import HarnessEntry, HarnessModel, HarnessPackage
from graph.ingest.records.harness_snapshot import Entry, Snapshot
from graph.ingest.records.stated_model import StatedModel
from graph.settings import Settings

_ENTRIES = '"entries"'
_LISTS = ("entries", "models")
"""The snapshot's lists whose items are records of their own."""
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
        lists = {key: value.get(key, []) for key in _LISTS}
        for key, items in lists.items():
            if not isinstance(items, list):
                raise RecordRejected("must be a list", field=key)
        package = _package({key: item for key, item in value.items() if key not in _LISTS})
        parts: list[Part] = []
        rejected: list[Problem] = []
        for key, items in lists.items():
            seen: set[str] = set()
            for index, data in enumerate(items):
                where = _where(key, data, index)
                try:
                    part = _part(key, data, seen, package, where)
                except RecordRejected as error:
                    field = where if error.field is None else f"{where}.{error.field}"
                    rejected.append(Problem(source.path, field, error.reason))
                else:
                    parts.append(part)
        return Imported(parts, rejected=rejected)


def _package(header: dict[str, Any]) -> HarnessPackage:
    """The package the snapshot names, checked as the snapshot model checks a header."""
    try:
        snapshot = Snapshot.model_validate({**header, "entries": []})
    except ValidationError as error:
        raise rejection(error) from None
    return HarnessPackage(snapshot.harness, snapshot.package, snapshot.version,
                          snapshot.licence, snapshot.copyright, snapshot.repository)


def _part(key: str, data: Any, seen: set[str], package: HarnessPackage, where: str) -> Part:
    """One entry or model of the file as its record, checked alone; its id joins ``seen``."""
    kind = "entry" if key == "entries" else "model"
    if not isinstance(data, dict):
        raise RecordRejected(f"{'an' if kind == 'entry' else 'a'} {kind} must be a JSON object")
    try:
        if key == "entries":
            entry = Entry.model_validate(data)
            item_id, part = entry.id, Part(HarnessEntry(package, entry), entry.id, where)
        else:
            model = StatedModel.model_validate(data)
            item_id = model.id
            part = Part(HarnessModel(package, model), f"model/{model.id}", where)
    except ValidationError as error:
        raise rejection(error) from None
    if item_id in seen:
        raise RecordRejected(f"an earlier {kind} of the file has this id", field="id")
    seen.add(item_id)
    return part


def _where(key: str, data: Any, index: int) -> str:
    """How a problem names an entry or a model: by its id when it has a usable one, else by
    position."""
    item_id = data.get("id") if isinstance(data, dict) else None
    if isinstance(item_id, str) and item_id and "]" not in item_id:
        return f"{key}[{item_id}]"
    return f"{key}[{index}]"
