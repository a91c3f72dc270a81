"""Finding record files, reading them, and loading a catalog: order, clashes, progress."""

import json
import os
import shutil
from pathlib import Path, PurePosixPath

import pytest

import graph.ingest.importers
from graph.ingest.importers.base import Imported, RecordRejected, SourceFile
from graph.ingest.importers.catalog_page import CatalogPageImporter
from graph.ingest.importers.reading import InputPathError, find_record_files, read_source
from graph.ingest.loader import LoadReport, load_records, record_key
from graph.resources import data_dir
from graph.settings import Settings

CATALOG = data_dir("catalog")
SEED_PAGE = CATALOG / "000_501ccd0cd0e2608f.txt"
SEED_DIRECTORY = CATALOG / "002_e36a0be437d5fce5.txt"
DEFAULTS = Settings()


def record_text(benchmark_id: str) -> str:
    data = json.loads(SEED_PAGE.read_text("utf-8"))
    data["page"]["id"] = benchmark_id
    return json.dumps(data)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def ids(report: LoadReport) -> list[str]:
    return [loaded.record.benchmark_id for loaded in report.records]


# -- finding files ---------------------------------------------------------------------


def test_folders_are_searched_recursively_and_sorted(tmp_path: Path) -> None:
    for name in ["b.json", "a/z.txt", "a/b/c.json", "A.json", "a.json"]:
        write(tmp_path / name, "{}")
    found = find_record_files([tmp_path])
    assert [str(relative) for _, relative in found] == [
        "A.json", "a/b/c.json", "a/z.txt", "a.json", "b.json"
    ]
    assert all(path == tmp_path / relative for path, relative in found)


def test_order_does_not_depend_on_the_order_of_paths(tmp_path: Path) -> None:
    first, second = write(tmp_path / "x/1.json", "{}"), write(tmp_path / "y/2.json", "{}")
    assert find_record_files([second, first]) == find_record_files([first, second])
    assert find_record_files([tmp_path / "y", tmp_path / "x"]) == [
        (first, PurePosixPath("1.json")), (second, PurePosixPath("2.json"))
    ]


def test_a_file_given_directly_is_relative_to_its_own_folder(tmp_path: Path) -> None:
    path = write(tmp_path / "deep/down/x.json", "{}")
    assert find_record_files([path]) == [(path, PurePosixPath("x.json"))]


def test_hidden_names_and_readmes_are_skipped_below_a_folder(tmp_path: Path) -> None:
    write(tmp_path / ".git/config.json", "{}")
    write(tmp_path / "sub/.hidden.json", "{}")
    write(tmp_path / ".DS_Store", "x")
    write(tmp_path / "README.md", "# notes")
    write(tmp_path / "sub/readme.txt", "notes")
    kept = write(tmp_path / "sub/kept.json", "{}")
    readme_record = write(tmp_path / "readmes.json", "{}")
    assert [path for path, _ in find_record_files([tmp_path])] == [readme_record, kept]


def test_a_hidden_file_given_directly_is_read(tmp_path: Path) -> None:
    hidden = write(tmp_path / ".x.json", "{}")
    assert find_record_files([hidden]) == [(hidden, PurePosixPath(".x.json"))]


def test_a_file_reached_twice_is_listed_once(tmp_path: Path) -> None:
    path = write(tmp_path / "x.json", "{}")
    assert find_record_files([tmp_path, path, tmp_path]) == [(path, PurePosixPath("x.json"))]


def test_a_missing_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputPathError) as caught:
        find_record_files([tmp_path, tmp_path / "nope"])
    assert str(caught.value) == f"{tmp_path / 'nope'}: no such file or folder"
    with pytest.raises(InputPathError):
        load_records([tmp_path / "nope"], DEFAULTS)


def test_links_to_folders_are_not_followed(tmp_path: Path) -> None:
    write(tmp_path / "real/x.json", "{}")
    (tmp_path / "real/loop").symlink_to(tmp_path / "real", target_is_directory=True)
    assert [str(r) for _, r in find_record_files([tmp_path / "real"])] == ["x.json"]


# -- reading one file --------------------------------------------------------------------


def test_read_source_decodes_and_strips_the_bom(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"\xef\xbb\xbf{\"a\": \"\xc3\xa9\"}")
    source = read_source(path, PurePosixPath("x.json"), DEFAULTS)
    assert source == SourceFile(path, PurePosixPath("x.json"), '{"a": "é"}')


def test_a_fifo_is_rejected_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(RecordRejected, match="not a regular file"):
        read_source(fifo, PurePosixPath("pipe.json"), DEFAULTS)


def test_a_broken_link_is_rejected(tmp_path: Path) -> None:
    link = tmp_path / "gone.json"
    link.symlink_to(tmp_path / "missing.json")
    report = load_records([tmp_path], DEFAULTS)
    assert [p.reason for p in report.rejected] == [
        "cannot read the file: No such file or directory"
    ]


# -- loading -----------------------------------------------------------------------------


def test_the_bundled_catalog_loads_cleanly() -> None:
    """The two seeds, then the eight harness snapshots of ``catalog/harnesses/`` (their NOTICE
    is no record), each entry and each model a record with a key of its own. (The report is
    compared by its parts: a failing assertion on it whole would print every record.)"""
    report = load_records([CATALOG], DEFAULTS)
    warnings, rejected, files_read = report.warnings, report.rejected, report.files_read
    assert warnings == [] and rejected == []
    assert files_read == 10
    keys = [loaded.key for loaded in report.records]
    assert keys[:2] == ["000_501ccd0cd0e2608f", "002_e36a0be437d5fce5"]
    assert "harnesses_helm_mimic_rrs" in keys and len(set(keys)) == len(keys) > 1000


def test_the_seeds_load_cleanly() -> None:
    report = load_records([SEED_PAGE, SEED_DIRECTORY], DEFAULTS)
    assert ids(report) == ["mimic_rrs", "mimic_cxr_classification"]
    assert report.warnings == [] and report.rejected == []


@pytest.mark.parametrize(
    ("relative", "key"),
    [("sub/x.json", "sub_x"), ("000_501ccd0cd0e2608f.txt", "000_501ccd0cd0e2608f"),
     ("Sub Folder/MIMIC-CXR (v2).txt", "sub_folder_mimic_cxr_v2"), ("x", "x"),
     ("a.b.json", "a_b"), ("日本.json", ""), ("v1.2/tasks", "v1_2_tasks"),
     ("v1.2/.tasks", "v1_2_tasks")],
)
def test_record_key(relative: str, key: str) -> None:
    assert record_key(PurePosixPath(relative)) == key


def test_duplicate_id_rejects_the_later_in_sorted_order(tmp_path: Path) -> None:
    later = write(tmp_path / "b/x.json", record_text("same"))
    first = write(tmp_path / "a/x.json", record_text("same"))
    report = load_records([later, tmp_path / "a"], DEFAULTS)  # given later-first on purpose
    assert ids(report) == ["same"]
    assert report.records[0].source.path == first
    assert [str(p) for p in report.rejected] == [
        f"{later}: page.id: duplicate id 'same': already defined by {first}"
    ]


def test_two_kinds_of_record_about_one_id_are_both_loaded(tmp_path: Path) -> None:
    """A catalog page and a directory page about one benchmark: the normal case."""
    write(tmp_path / "a.json", record_text("mimic_cxr_classification"))
    shutil.copy(SEED_DIRECTORY, tmp_path / "b.txt")
    report = load_records([tmp_path], DEFAULTS)
    assert report.rejected == []
    assert [loaded.source.path.name for loaded in report.records] == ["a.json", "b.txt"]


DUPLICATES = Path(__file__).parent / "data" / "duplicates"


def test_only_records_of_one_kind_and_id_are_duplicates() -> None:
    report = load_records([DUPLICATES], DEFAULTS)
    assert [loaded.source.path.name for loaded in report.records] == ["a_first.json", "c_page.txt"]
    assert [str(p) for p in report.rejected] == [
        f"{DUPLICATES / 'b_same_id.json'}: page.id: duplicate id 'dup_bench': already defined "
        f"by {DUPLICATES / 'a_first.json'}",
        f"{DUPLICATES / 'd_same_title.txt'}: title: duplicate id 'dup_bench': already defined "
        f"by {DUPLICATES / 'c_page.txt'}",
    ]


def test_record_keys_that_clash_reject_the_later(tmp_path: Path) -> None:
    first = write(tmp_path / "sub/x.json", record_text("one"))
    later = write(tmp_path / "sub/x.txt", record_text("two"))
    also = write(tmp_path / "sub_x.json", record_text("three"))
    report = load_records([tmp_path], DEFAULTS)
    assert ids(report) == ["one"]
    assert [(p.path, p.field) for p in report.rejected] == [(later, None), (also, None)]
    taken = f"gives the record graph name 'sub_x', already that of {first} (path sub/x.json)"
    assert [p.reason for p in report.rejected] == [
        f"its path sub/x.txt {taken}; rename one of them",
        f"its path sub_x.json {taken}; rename one of them",
    ]


def test_files_of_one_name_given_from_two_folders_clash(tmp_path: Path) -> None:
    first = write(tmp_path / "a/x.json", record_text("one"))
    later = write(tmp_path / "b/x.json", record_text("two"))
    report = load_records([later, first], DEFAULTS)
    assert ids(report) == ["one"]
    assert [p.path for p in report.rejected] == [later]
    assert "record graph name 'x', already that of" in report.rejected[0].reason


def test_a_rejected_file_claims_no_id_or_key(tmp_path: Path) -> None:
    write(tmp_path / "a.json", record_text("same")[:-5])  # truncated: rejected
    write(tmp_path / "a.txt", record_text("same"))
    report = load_records([tmp_path], DEFAULTS)
    assert ids(report) == ["same"]
    assert [p.path.name for p in report.rejected] == ["a.json"]


def test_a_name_without_letters_or_digits_cannot_name_a_graph(tmp_path: Path) -> None:
    write(tmp_path / "___.json", record_text("fine"))
    report = load_records([tmp_path], DEFAULTS)
    assert report.records == [] and "no letter or digit" in report.rejected[0].reason


def test_progress_is_called_after_each_file(tmp_path: Path) -> None:
    for index in range(3):
        write(tmp_path / f"{index}.json", record_text(f"r{index}"))
    write(tmp_path / "3.json", "{")
    calls: list[tuple[int, int]] = []
    report = load_records([tmp_path], DEFAULTS, lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert report.files_read == 4 and len(report.records) == 3 and len(report.rejected) == 1


def test_records_keep_sorted_path_order(tmp_path: Path) -> None:
    for name, benchmark_id in [("c.json", "zeta"), ("a.json", "beta"), ("b/a.json", "alpha")]:
        write(tmp_path / name, record_text(benchmark_id))
    assert ids(load_records([tmp_path], DEFAULTS)) == ["beta", "alpha", "zeta"]


def test_warnings_are_gathered_from_every_record(tmp_path: Path) -> None:
    data = json.loads(record_text("warned"))
    data["page"]["paper"]["pmid"] = "36711478"
    path = write(tmp_path / "w.json", json.dumps(data))
    report = load_records([tmp_path, CATALOG], DEFAULTS)
    assert [str(w) for w in report.warnings] == [
        f"{path}: page.paper.pmid: unknown key, kept as data"
    ]


def test_no_importer_for_the_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graph.ingest.importers, "IMPORTERS", (CatalogPageImporter(),))
    write(tmp_path / "page.txt", "Just a title")
    report = load_records([tmp_path], DEFAULTS)
    assert [p.reason for p in report.rejected] == ["no importer recognises this file's content"]


class _BuggyImporter:
    name = "buggy"

    def can_read(self, source: SourceFile) -> bool:
        return True

    def load(self, source: SourceFile, settings: Settings) -> Imported:
        raise KeyError("a bug, not bad input")


def test_a_bug_is_not_turned_into_a_rejection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(graph.ingest.importers, "IMPORTERS", (_BuggyImporter(),))
    write(tmp_path / "x.json", "{}")
    with pytest.raises(KeyError):
        load_records([tmp_path], DEFAULTS)


def test_a_file_over_the_limit_is_never_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "big.json", "{}" + " " * 100)

    def no_open(*args: object, **kwargs: object) -> None:
        raise AssertionError("the file was opened")

    monkeypatch.setattr(Path, "open", no_open)
    with pytest.raises(RecordRejected, match=r"102 bytes, more than max_file_bytes = 10$"):
        read_source(path, PurePosixPath("big.json"), Settings(max_file_bytes=10))
