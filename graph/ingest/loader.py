"""Loading a catalog: every record file under the PATHs given, read, imported and checked.

No file can stop a load. Each file that cannot become a record is one ``Problem`` in
``LoadReport.rejected`` (file, field, reason) and the others load all the same. Two
rules span files, and both keep the first file in sorted path order:

- one kind of record, one id, one record: a later record of the same kind that states an
  id already loaded is rejected, naming the file that holds it. Records of two kinds about
  one benchmark (a catalog page and a directory page) are the normal case, not a duplicate;
  which benchmark each describes is decided after the load (``graph.mapping.identity``);
- one record, one named graph: ``record_key`` of a later file may not equal that of a
  loaded one (``sub/x.json`` and ``sub/x.txt`` would share ``{base}record/sub_x``).

Most files are one record. A file of many (a harness snapshot: one record per entry) gives
each its own key, the file's key and the entry's name slugged together
(``harnesses/helm.json``, entry ``mimic_rrs``: ``harnesses_helm_mimic_rrs``), so each entry
has a named graph of its own; both rules then hold record by record. A part of such a file
that cannot be a record (a broken entry) is rejected alone, named by the file, the entry and
the field, and the file's other records still load.

An incremental build (``graph.store.rebuild``) passes ``known``: what an earlier load's
importer made of a file with the same bytes. Such a file is read and hashed but not imported
again (importing is most of a load: parsing and the record models' checks), unless one of
its records must be mapped again; both rules above are applied again to every record, so the
report is the one a full load makes. A file whose
stat (size, modification and change times, inode, device) is the one ``known`` kept with its
digest is not even read (``Known.digest``), as git's index does: ``RACY_NS`` says why that is
safe. What a load keeps of each file and record is in ``graph.ingest.kept``.

Only ``RecordRejected`` is caught: anything else raised here is a bug, and shows as one.
"""

import dataclasses
import hashlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath

from graph.errors import BenchgraphError, ErrorKind
from graph.ingest.importers import choose_importer
from graph.ingest.importers.base import Imported, Problem, RecordRejected, SourceFile
from graph.ingest.importers.reading import (
    UTF8_BOM,
    decode_record_bytes,
    list_record_files,
    read_record_bytes,
)
from graph.ingest.kept import RACY_NS, FileStat, ImportedFile, Known, Spool, Spooled
from graph.ingest.records import Record
from graph.mapping.identity import RecordIdentity, identity
from graph.settings import Settings
from graph.slug import slugify

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each file."""


class Reimported:
    """A record of a file whose bytes an earlier load imported (``Known``): what the index
    reads of it, and the record, imported again from its file when it must be mapped again
    (``record``)."""

    __slots__ = ("_file", "_part", "identity")

    def __init__(self, known: RecordIdentity, file: "_ImportedAgain", part: str | None) -> None:
        self.identity, self._file, self._part = known, file, part

    def record(self) -> Record:
        return self._file.records()[self._part]


class _ImportedAgain:
    """A file an earlier load imported, imported again when a record of it is asked for: once
    (a file of many may have several records mapped again), its records then kept while any
    of them is. A file whose bytes are no longer those the load read stops the build."""

    def __init__(self, path: Path, relative: PurePosixPath, digest: str,
                 settings: Settings) -> None:
        self._path, self._relative, self._digest = path, relative, digest
        self._settings = settings
        self._records: dict[str | None, Record] | None = None

    def records(self) -> dict[str | None, Record]:
        if self._records is None:
            try:
                _, imported, made, _, _ = _import(self._path, self._relative, None,
                                                  self._settings, None)
            except RecordRejected:  # changed into a file that cannot be a record
                imported = None
            if imported is None or made.digest != self._digest:
                raise BenchgraphError(f"{self._path} changed while the build read it: build "
                                      "again", ErrorKind.INPUT)
            self._records = {part.name: part.record for part in imported.parts}
        return self._records


@dataclass(frozen=True)
class LoadedRecord:
    """A record and the file it came from (and, in a file of many, its name there)."""

    source: SourceFile
    made: Record | Spooled | Reimported
    """The record; or, kept in a spool or imported before, what the index reads of it and a
    way back to it (``record`` and ``identity`` read any)."""
    part: str | None = None
    """The record's name among its file's records (a snapshot entry's id); ``None`` for a file
    that is one record."""
    remembered: bool = False
    """Whether the record comes from ``Known`` (its file's bytes did not change), not from
    importing the file now."""

    @property
    def record(self) -> Record:
        """The record: read back from its spool or imported again from its file at each use
        when it is not held (the caller lets go of it)."""
        made = self.made
        return made.record() if isinstance(made, (Spooled, Reimported)) else made

    @cached_property
    def identity(self) -> RecordIdentity:
        """What the rules across files and the benchmark index read of the record."""
        made = self.made
        return made.identity if isinstance(made, (Spooled, Reimported)) else identity(made)

    @cached_property
    def key(self) -> str:
        """The record's key: the last segment of its named graph, ``{base}record/{key}``
        (asked for several times a record: once made, kept)."""
        return record_key(self.source.relative, self.part)


@dataclass(repr=False)
class LoadReport:
    """What a load made of the files: records in sorted path order, warnings, rejections.
    Its repr names sizes, as ``BuildResult``'s does."""

    records: list[LoadedRecord] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    rejected: list[Problem] = field(default_factory=list)
    files: int | None = None
    """Every record file found, loaded or rejected; ``None`` for a report put together by
    hand, which counts one file per record and rejection."""
    imported: dict[PurePosixPath, ImportedFile] = field(default_factory=dict)
    """What the importer made of each file it did not reject whole, by relative path: what
    the next load may be told it knows (``Known``)."""
    stats: dict[PurePosixPath, tuple[FileStat, str]] = field(default_factory=dict)
    """The stat and SHA-256 of each file of ``imported`` that the next load may trust
    unread while its stat stays the same (``RACY_NS``)."""
    text_digests: dict[Path, str] = field(default_factory=dict)
    """The SHA-256 of each imported file's text (UTF-8, without a byte-order mark), by path:
    a file not read again has no text in its ``SourceFile``, but the store keeps this."""

    def __repr__(self) -> str:
        return (f"LoadReport({len(self.records)} records, {len(self.warnings)} warnings, "
                f"{len(self.rejected)} rejected)")

    @property
    def files_read(self) -> int:
        """Every record file found, loaded or rejected."""
        return len(self.records) + len(self.rejected) if self.files is None else self.files


def record_key(relative: PurePosixPath, part: str | None = None) -> str:
    """The key of a record's named graph: its path below the folder, suffix dropped, and the
    record's name in a file of many, slugged together.

    ``sub/x.json`` -> ``sub_x``; entry ``B-1`` of ``h/lm_eval.json`` -> ``h_lm_eval_b_1``;
    empty when the path has no letter or digit. A ``+`` in a name is spelled out, as
    harnesses name a benchmark's extension so beside it: ``refcoco+`` -> ``…_refcoco_plus``,
    not ``refcoco``'s key.
    """
    text = str(relative)
    stem = text[:len(text) - len(relative.suffix)]  # ``with_suffix("")``, without a new path
    return slugify(stem if part is None else f"{stem}/{part.replace('+', ' plus ')}")


def load_records(
    paths: Sequence[Path], settings: Settings, progress: Progress | None = None,
    known: Known | None = None, spool: Spool | None = None,
) -> LoadReport:
    """Load every record file under ``paths`` (files or folders, searched recursively); a
    file that ``known`` remembers by its bytes is not imported again (its records are
    imported again one file at a time if they must be mapped again: ``Reimported``). With
    ``spool`` (a build into a store), each record is pickled into that temporary file as it
    is imported and its model let go (``graph.ingest.kept.Spool``), and each file's text too:
    what the rest of the load reads is the records' identities, and 100,000 records' models
    do not fit the build's memory.

    Raises ``InputPathError`` (from ``graph.ingest.importers.reading``) for a PATH that does not
    exist; everything wrong with a file is reported in the ``LoadReport`` instead, and so is
    a symbolic link below a folder that leads outside it: skipped, with a warning naming it
    (``graph.ingest.importers.reading``).
    """
    started = time.time_ns()
    listed = list_record_files(paths)
    files = listed.files
    report = LoadReport(files=len(files), warnings=list(listed.outside))
    by_id: dict[tuple[str, str], LoadedRecord] = {}
    by_key: dict[str, LoadedRecord] = {}
    for done, (path, relative, info) in enumerate(files, start=1):
        try:
            source, imported, made, remembered, stat = _import(path, relative, info, settings,
                                                               known)
        except RecordRejected as rejected:
            report.rejected.append(Problem(path, rejected.field, rejected.reason))
        else:
            if spool is not None:
                source = dataclasses.replace(source, text="")
            report.imported[relative] = made
            report.text_digests[path] = made.text_digest
            if stat is not None and max(stat.mtime_ns, stat.ctime_ns) < started - RACY_NS:
                report.stats[relative] = (stat, made.digest)
            placed = made.at(path) if remembered else made
            report.warnings.extend(placed.warnings)
            report.rejected.extend(placed.rejected)
            again = (None if imported is not None
                     else _ImportedAgain(path, relative, made.digest, settings))
            for index, part in enumerate(placed.parts):
                record: Record | Spooled | Reimported
                if again is not None:
                    record = Reimported(part.identity, again, part.name)
                else:
                    assert imported is not None
                    model = imported.parts[index].record
                    record = model if spool is None else spool.keep(model)
                loaded = LoadedRecord(source, record, part.name, remembered)
                try:
                    _claim(loaded, by_id, by_key)
                except RecordRejected as rejected:
                    report.rejected.append(Problem(path, _in_part(part.where, rejected.field),
                                                   rejected.reason))
                else:
                    report.records.append(loaded)
        if progress is not None:
            progress(done, len(files))
    return report


def _import(path: Path, relative: PurePosixPath, info: os.stat_result | None,
            settings: Settings, known: Known | None
            ) -> tuple[SourceFile, Imported | None, ImportedFile, bool, FileStat | None]:
    """The file; what importing it made now (None when ``known`` remembered it) and what the
    load keeps of that; whether ``known`` remembered it; and the file's stat before it was
    read (``info``, the listing's; None when it has none: ``read_record_bytes`` says why). A
    file ``known`` trusts by its stat is not read: its ``SourceFile`` has no text (nothing
    after the import reads it)."""
    stat = None if info is None else FileStat.of(info)
    if known is not None and stat is not None:
        digest = known.digest(relative, stat)
        unread = None if digest is None else known.imported_as(relative, digest)
        if unread is not None:
            return SourceFile(path=path, relative=relative, text=""), None, unread, True, stat
    data = read_record_bytes(path, settings)
    digest = hashlib.sha256(data).hexdigest()
    source = SourceFile(path=path, relative=relative, text=decode_record_bytes(data))
    remembered = None if known is None else known.imported_as(relative, digest)
    if remembered is not None:
        return source, None, remembered, True, stat
    importer = choose_importer(source)
    if importer is None:
        raise RecordRejected("no importer recognises this file's content")
    text_digest = (hashlib.sha256(source.text.encode()).hexdigest()
                   if data.startswith(UTF8_BOM) else digest)
    imported = importer.load(source, settings)
    return source, imported, ImportedFile.of(digest, imported, text_digest), False, stat


def _in_part(where: str | None, field: str | None) -> str | None:
    """A field of one record of a file of many, below the part (``entries[gsm8k].id``)."""
    if where is None or field is None:
        return where or field
    return f"{where}.{field}"


def _claim(
    loaded: LoadedRecord,
    by_id: dict[tuple[str, str], LoadedRecord],
    by_key: dict[str, LoadedRecord],
) -> None:
    """Register ``loaded``'s key and (kind, id); rejects it when a loaded record holds either."""
    claim = loaded.identity.claim
    if not claim.benchmark_id:
        raise RecordRejected("gives no benchmark id", field=claim.field)
    holder = by_id.get((claim.kind, claim.benchmark_id))
    if holder is not None:
        raise RecordRejected(
            f"duplicate id {claim.benchmark_id!r}: already defined by {holder.source.path}",
            field=claim.field,
        )
    key = loaded.key
    if not key:
        raise RecordRejected(
            f"its path {loaded.source.relative} has no letter or digit to name its record "
            "graph; rename the file"
        )
    if key in by_key:
        first = by_key[key]
        also = "" if first.part is None else f", name {first.part!r}"
        if loaded.part is None:
            named, verb = f"its path {loaded.source.relative}", "gives"
        else:
            named = f"its path {loaded.source.relative} and its name {loaded.part!r} there"
            verb = "give"
        raise RecordRejected(
            f"{named} {verb} the record graph name {key!r}, already that of "
            f"{first.source.path} (path {first.source.relative}{also}); rename one of them"
        )
    by_key[key] = by_id[claim.kind, claim.benchmark_id] = loaded
