"""Reading harness packages: wheels and folders alike, safely, and YAML as data only."""

import zipfile
from collections.abc import Mapping
from pathlib import Path

import pytest

from graph.ingest.harvest import HarvestError, harvest
from graph.ingest.harvest import archive as archive_module
from graph.ingest.harvest.archive import MemberError, open_archive, resolve_member
from graph.ingest.harvest.reader import HarnessReader, Reading
from graph.ingest.harvest.yaml_loader import Tagged, YamlError, load_mapping
from graph.ingest.records.harness_snapshot import Entry

FIXTURES = Path(__file__).parent / "data" / "harvest"


def build_wheel(
    package: str,
    out: Path,
    extra: Mapping[str, bytes] = {},
    reverse: bool = False,
    date_time: tuple[int, int, int, int, int, int] = (2026, 1, 1, 0, 0, 0),
) -> Path:
    """The fixture package ``package`` zipped into a wheel in folder ``out``, with ``extra``
    members added; ``reverse`` and ``date_time`` vary what must not change a snapshot."""
    folder = FIXTURES / package
    members = {p.relative_to(folder).as_posix(): p.read_bytes()
               for p in folder.rglob("*") if p.is_file()}
    members.update(extra)
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"{package}-fixture-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name in sorted(members, reverse=reverse):
            zipped.writestr(zipfile.ZipInfo(name, date_time), members[name])
    return wheel


def read_package(reader: HarnessReader, path: Path) -> Reading:
    """What ``reader`` makes of the package at ``path`` (a wheel or a folder)."""
    with open_archive(path) as archive:
        return reader.read(archive)


def entry_of(reading: Reading, entry_id: str) -> Entry:
    """The one entry of ``reading`` with that id."""
    (found,) = [e for e in reading.entries if e.id == entry_id]
    return found


def test_a_wheel_and_its_folder_are_read_alike(tmp_path: Path) -> None:
    wheel = build_wheel("lm_eval", tmp_path)
    with open_archive(wheel) as zipped, open_archive(FIXTURES / "lm_eval") as folder:
        assert zipped.names == folder.names
        assert zipped.package() == folder.package()
        name = "lm_eval/tasks/toy/toy_a.yaml"
        assert zipped.read_text(name) == folder.read_text(name)


def test_the_package_is_named_by_its_metadata(tmp_path: Path) -> None:
    with open_archive(build_wheel("inspect_evals", tmp_path)) as archive:
        package = archive.package()
    assert (package.name, package.version, package.licence) == ("inspect_evals", "9.9.3", "MIT")
    assert package.normalized_name == "inspect-evals"
    # the first licence file's copyright line, verbatim
    assert package.copyright == "Copyright (c) 2099 Fixture Institute"


def test_a_template_copyright_line_is_not_taken() -> None:
    with open_archive(FIXTURES / "helm") as archive:
        assert archive.package().copyright == "Copyright 2099 Fixture University"


def test_unsafe_member_names_are_skipped_with_a_warning(tmp_path: Path) -> None:
    wheel = build_wheel("opencompass", tmp_path, extra={
        "../evil.py": b"x = 1", "/abs/evil.py": b"x = 1", "ok/../../evil.py": b"x = 1",
    })
    with open_archive(wheel) as archive:
        assert not [n for n in archive.names if "evil" in n]
        assert len(archive.problems) == 3
        assert all("unsafe member name" in p.reason for p in archive.problems)
        assert str(archive.problems[0].path).startswith(str(wheel))


def test_includes_never_climb_out_of_the_package() -> None:
    up = resolve_member("lm_eval/tasks/toy", "../default/_t_yaml")
    assert up == "lm_eval/tasks/default/_t_yaml"
    assert resolve_member("lm_eval/tasks/toy", "./a.yaml") == "lm_eval/tasks/toy/a.yaml"
    assert resolve_member("lm_eval/tasks/toy", "../../../../etc/passwd") is None
    assert resolve_member("lm_eval/tasks/toy", "/etc/passwd") is None


def test_a_member_over_the_limit_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive_module, "MAX_MEMBER_BYTES", 64)
    wheel = build_wheel("lm_eval", tmp_path, extra={"lm_eval/tasks/toy/big.yaml": b"a" * 65})
    with open_archive(wheel) as archive:
        with pytest.raises(MemberError, match="larger than"):
            archive.read_bytes("lm_eval/tasks/toy/big.yaml")
        assert archive.read_bytes("lm_eval/tasks/toy/cycle_b.yaml")


def test_a_zip_header_that_understates_a_member_does_not_fool_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive_module, "MAX_MEMBER_BYTES", 64)
    wheel = build_wheel("lm_eval", tmp_path, extra={"lm_eval/tasks/toy/big.yaml": b"a" * 65})
    with open_archive(wheel) as archive:
        info = archive._infos["lm_eval/tasks/toy/big.yaml"]  # type: ignore[attr-defined]
        info.file_size = 10  # a lying header: the read still stops at the limit
        with pytest.raises(MemberError):
            archive.read_bytes("lm_eval/tasks/toy/big.yaml")


def test_a_symbolic_link_in_a_folder_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    (tmp_path / "pkg" / "link.yaml").symlink_to(outside)
    with open_archive(tmp_path / "pkg") as archive:
        assert "link.yaml" not in archive
        assert [p.reason for p in archive.problems] == ["a symbolic link: not followed"]


@pytest.mark.parametrize(("kind", "message"), [
    ("missing", "no such file or folder"),
    ("not a zip", "not a wheel"),
    ("empty folder", "no \\*.dist-info/METADATA"),
])
def test_an_input_that_is_no_package_is_one_error(
    tmp_path: Path, kind: str, message: str
) -> None:
    path = tmp_path / "input.whl"
    if kind == "not a zip":
        path.write_bytes(b"not a zip")
    elif kind == "empty folder":
        path.mkdir()
    with pytest.raises(HarvestError, match=message) as raised:
        harvest([path])
    assert str(path) in raised.value.message


def test_a_package_of_no_harness_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "other"
    (folder / "other-1.0.dist-info").mkdir(parents=True)
    (folder / "other-1.0.dist-info" / "METADATA").write_text("Name: other\nVersion: 1.0\n")
    with pytest.raises(HarvestError, match="a package of other, not of a harness"):
        harvest([folder])


def test_two_packages_of_one_harness_are_refused(tmp_path: Path) -> None:
    with pytest.raises(HarvestError, match="a second package of lm-eval"):
        harvest([FIXTURES / "lm_eval", build_wheel("lm_eval", tmp_path)])


def test_unknown_tags_are_kept_as_data_and_never_run(tmp_path: Path) -> None:
    planted = tmp_path / "ran"
    text = (
        "process: !function utils.process_docs\n"
        f"boom: !!python/object/apply:os.system ['touch {planted}']\n"
        "other: !custom {a: 1}\n"
    )
    data = load_mapping(text)
    assert data["process"] == Tagged("!function", "utils.process_docs")
    assert data["other"] == Tagged("!custom", {"a": 1})
    assert isinstance(data["boom"], Tagged)
    assert not planted.exists()


def test_only_the_keys_asked_for_are_built() -> None:
    text = "task: a\ndoc_to_text: !function x.y\nbase: &b {dataset_path: d}\n<<: *b\n"
    assert load_mapping(text, frozenset({"task", "dataset_path"})) == {
        "task": "a", "dataset_path": "d"
    }


@pytest.mark.parametrize(("text", "reason", "detail"), [
    ("a: [1,\nb: 2\n", "not valid YAML", "line 3, column 1"),
    ("- 1\n- 2\n", "not a YAML mapping of keys to values", "a list"),
    ("", "not a YAML mapping of keys to values", "an empty document"),
])
def test_what_is_no_yaml_mapping_says_why(text: str, reason: str, detail: str) -> None:
    with pytest.raises(YamlError) as raised:
        load_mapping(text)
    assert raised.value.reason == reason
    assert detail in raised.value.detail


def test_an_older_wheel_without_license_file_headers_still_gives_its_copyright(
    tmp_path: Path,
) -> None:
    info = tmp_path / "pkg" / "opencompass-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Name: opencompass\nVersion: 1.0\n")
    (info / "LICENSE.txt").write_text("Copyright 2001 Someone Old\n")
    with open_archive(tmp_path / "pkg") as archive:
        package = archive.package()
    assert (package.licence, package.copyright) == (None, "Copyright 2001 Someone Old")
