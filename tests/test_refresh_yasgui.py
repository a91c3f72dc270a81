"""scripts/refresh_yasgui.py vendors what it says, refuses what it must, and writes the same bytes
twice; all on a small fake npm tarball built here, with npm itself stood in for (no network)."""

import hashlib
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.tarballs import write_tarball

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "web" / "static" / "vendor" / "yasgui"


def load_script() -> ModuleType:
    script = ROOT / "scripts" / "refresh_yasgui.py"
    spec = importlib.util.spec_from_file_location("refresh_yasgui", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


refresh = load_script()

SOURCE_MAP = {"sources": ["../../../node_modules/jquery/dist/jquery.js", "../src/index.ts"]}


def make_tarball(
    path: Path,
    *,
    meta: dict[str, str] | None = None,
    source_map: dict[str, list[str]] | None = None,
    licence: bytes | None = None,
    leave_out: str | None = None,
) -> Path:
    members = {
        "package/package.json": json.dumps(
            meta or {"name": "@zazuko/yasgui", "version": "9.9.9", "license": "MIT"}
        ).encode(),
        "package/build/yasgui.min.js": b"window.Yasgui = 1;\n",
        "package/build/yasgui.min.css": b".yasgui{}\n",
        "package/build/yasgui.min.js.map": json.dumps(source_map or SOURCE_MAP).encode(),
    }
    if licence is not None:
        members["package/LICENSE"] = licence
    return write_tarball(path, members, leave_out)


def release_of(tarball: Path, version: str = "9.9.9") -> object:
    integrity = refresh.sri_sha512(tarball.read_bytes())
    return refresh.Release(version, integrity, "2030-01-02T03:04:05Z")


@pytest.fixture
def dest(tmp_path: Path) -> Path:
    folder = tmp_path / "vendor"
    folder.mkdir()
    (folder / "THIRD-PARTY-NOTICES.md").write_text(
        "| package | version |\n|---|---|\n| `jquery` | 3.7.1 |\n", encoding="utf-8"
    )
    (folder / "LICENSE").write_text("upstream licence\n", encoding="utf-8")
    return folder


def test_install_writes_the_bundle_and_a_version_file(tmp_path: Path, dest: Path) -> None:
    tarball = make_tarball(tmp_path / "zazuko-yasgui-9.9.9.tgz")
    written = refresh.install(refresh.extract(tarball, release_of(tarball)), dest)
    assert written == ["VERSION", "yasgui.min.css", "yasgui.min.js"]
    assert (dest / "yasgui.min.js").read_bytes() == b"window.Yasgui = 1;\n"
    assert (dest / "yasgui.min.css").read_bytes() == b".yasgui{}\n"
    assert (dest / "LICENSE").read_text() == "upstream licence\n"  # the package ships none: kept
    version = (dest / "VERSION").read_text()
    assert "version: 9.9.9\n" in version
    assert f"integrity: {refresh.sri_sha512(tarball.read_bytes())}\n" in version
    assert "published: 2030-01-02T03:04:05Z\n" in version
    assert "tarball: zazuko-yasgui-9.9.9.tgz\n" in version
    bundle_hash = hashlib.sha256(b"window.Yasgui = 1;\n").hexdigest()
    assert f"sha256 yasgui.min.js: {bundle_hash}\n" in version
    assert "bundles: jquery\n" in version
    assert not list(dest.glob("*.partial"))


def test_a_second_run_writes_nothing(tmp_path: Path, dest: Path) -> None:
    tarball = make_tarball(tmp_path / "a.tgz")
    refresh.install(refresh.extract(tarball, release_of(tarball)), dest)
    before = snapshot(dest)
    # npm pack hands back the published tarball itself, so a rerun reads the same bytes
    assert refresh.install(refresh.extract(tarball, release_of(tarball)), dest) == []
    assert snapshot(dest) == before


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {path.name: (path.read_bytes(), path.stat().st_mtime_ns) for path in folder.iterdir()}


def test_a_licence_in_the_package_is_vendored(tmp_path: Path, dest: Path) -> None:
    tarball = make_tarball(tmp_path / "a.tgz", licence=b"MIT, from the package\n")
    refresh.install(refresh.extract(tarball, release_of(tarball)), dest)
    assert (dest / "LICENSE").read_bytes() == b"MIT, from the package\n"


def test_a_tarball_that_is_not_the_registrys_is_refused(tmp_path: Path) -> None:
    tarball = make_tarball(tmp_path / "a.tgz")
    other = make_tarball(tmp_path / "b.tgz", licence=b"x")
    with pytest.raises(refresh.RefreshError, match="integrity"):
        refresh.extract(tarball, release_of(other))


def test_an_integrity_without_sha512_is_refused(tmp_path: Path) -> None:
    tarball = make_tarball(tmp_path / "a.tgz")
    with pytest.raises(refresh.RefreshError, match="no sha512"):
        refresh.extract(tarball, refresh.Release("9.9.9", "sha1-AAAA", "t"))


@pytest.mark.parametrize(
    ("meta", "reason"),
    [
        ({"name": "@zazuko/yasgui", "version": "1.0.0", "license": "MIT"}, "not @zazuko/yasgui@9"),
        ({"name": "@triply/yasgui", "version": "9.9.9", "license": "MIT"}, "not @zazuko/yasgui@9"),
        ({"name": "@zazuko/yasgui", "version": "9.9.9", "license": "GPL-3.0"}, "not MIT"),
    ],
)
def test_the_wrong_package_is_refused(tmp_path: Path, meta: dict[str, str], reason: str) -> None:
    tarball = make_tarball(tmp_path / "a.tgz", meta=meta)
    with pytest.raises(refresh.RefreshError, match=reason):
        refresh.extract(tarball, release_of(tarball))


@pytest.mark.parametrize(
    "member",
    [f"package/build/yasgui.min.{suffix}" for suffix in ("js", "css", "js.map")],
)
def test_a_tarball_missing_a_file_is_refused(tmp_path: Path, member: str) -> None:
    tarball = make_tarball(tmp_path / "a.tgz", leave_out=member)
    with pytest.raises(refresh.RefreshError, match=member):
        refresh.extract(tarball, release_of(tarball))


def test_a_bundled_package_the_notices_do_not_list_is_refused(tmp_path: Path, dest: Path) -> None:
    source_map = {"sources": [*SOURCE_MAP["sources"], "../../../node_modules/@scope/new-lib/x.js"]}
    tarball = make_tarball(tmp_path / "a.tgz", source_map=source_map)
    with pytest.raises(refresh.RefreshError, match="@scope/new-lib"):
        refresh.install(refresh.extract(tarball, release_of(tarball)), dest)
    assert not (dest / "yasgui.min.js").exists()


def test_no_licence_anywhere_is_refused(tmp_path: Path, dest: Path) -> None:
    (dest / "LICENSE").unlink()
    tarball = make_tarball(tmp_path / "a.tgz")
    with pytest.raises(refresh.RefreshError, match="LICENSE"):
        refresh.install(refresh.extract(tarball, release_of(tarball)), dest)


def fake_npm(tarball: Path, integrity: str) -> Callable[..., str]:
    """npm as the script calls it: view dist, view time, pack (copying the fake tarball)."""

    def npm(*args: str) -> str:
        if args[0] == "view" and args[2] == "dist":
            return json.dumps({"integrity": integrity, "tarball": "https://registry.invalid/x.tgz"})
        if args[0] == "view" and args[2] == "time":
            return json.dumps({"created": "2020", "9.9.9": "2030-01-02T03:04:05Z"})
        if args[0] == "pack":
            into = Path(args[args.index("--pack-destination") + 1])
            (into / tarball.name).write_bytes(tarball.read_bytes())
            return json.dumps([{"filename": tarball.name, "integrity": integrity}])
        raise AssertionError(args)

    return npm


def test_main_runs_the_whole_refresh_through_npm(
    tmp_path: Path, dest: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tarball = make_tarball(tmp_path / "zazuko-yasgui-9.9.9.tgz")
    monkeypatch.setattr(refresh, "npm", fake_npm(tarball, refresh.sri_sha512(tarball.read_bytes())))
    assert refresh.main(["--version", "9.9.9", "--dest", str(dest)]) == 0
    assert "VERSION, yasgui.min.css, yasgui.min.js written" in capsys.readouterr().out
    assert refresh.main(["--version", "9.9.9", "--dest", str(dest)]) == 0
    assert "unchanged" in capsys.readouterr().out


def test_main_says_what_failed_in_one_line(
    tmp_path: Path, dest: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tarball = make_tarball(tmp_path / "zazuko-yasgui-9.9.9.tgz")
    monkeypatch.setattr(refresh, "npm", fake_npm(tarball, "sha512-bm90IHRoaXM="))
    assert refresh.main(["--version", "9.9.9", "--dest", str(dest)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("refresh_yasgui: tarball integrity") and err.count("\n") == 1


def test_the_committed_bundle_is_the_one_version_names() -> None:
    """The vendored files are the bytes VERSION records, and the notices list all it bundles."""
    fields = dict(
        line.split(": ", 1) for line in (VENDOR / "VERSION").read_text().splitlines()
    )
    assert fields["package"] == "@zazuko/yasgui"
    assert fields["version"] == refresh.VERSION
    for name in ("yasgui.min.js", "yasgui.min.css"):
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == fields[f"sha256 {name}"]
    notices = (VENDOR / "THIRD-PARTY-NOTICES.md").read_text(encoding="utf-8")
    assert set(fields["bundles"].split()) <= refresh.listed_packages(notices)
    assert (VENDOR / "LICENSE").read_text().startswith("The MIT License")
