"""scripts/refresh_axe.py vendors what it says, refuses what it must, and writes the same bytes
twice; all on a small fake npm tarball built here, with npm itself stood in for (no network).
The committed engine is the one its VERSION file names."""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.tarballs import write_tarball

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "tests" / "vendor" / "axe-core"


def load_script() -> ModuleType:
    """The script as ``python scripts/refresh_axe.py`` runs it: its folder on the path, so that
    it finds the npm helpers of ``refresh_yasgui.py`` beside it."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        return importlib.import_module("refresh_axe")
    finally:
        sys.path.remove(str(ROOT / "scripts"))


refresh = load_script()

MEMBERS = {
    "package/axe.min.js": b"/*! axe v9.9.9 */ window.axe = {};\n",
    "package/LICENSE": b"Mozilla Public License, version 2.0\n",
    "package/LICENSE-3RD-PARTY.txt": b"MIT License applies to: ...\n",
}
META = {"name": "axe-core", "version": "9.9.9", "license": "MPL-2.0"}


def make_tarball(path: Path, *, meta: dict[str, str] | None = None,
                 leave_out: str | None = None) -> Path:
    members = {"package/package.json": json.dumps(meta or META).encode(), **MEMBERS}
    return write_tarball(path, members, leave_out)


def release_of(tarball: Path, version: str = "9.9.9") -> object:
    integrity = refresh.npm_release.sri_sha512(tarball.read_bytes())
    return refresh.Release(version, integrity, "2030-01-02T03:04:05Z")


def test_install_writes_the_engine_its_licences_and_a_version_file(tmp_path: Path) -> None:
    tarball = make_tarball(tmp_path / "axe-core-9.9.9.tgz")
    dest = tmp_path / "vendor"
    written = refresh.install(refresh.extract(tarball, release_of(tarball)), dest)
    assert written == ["LICENSE", "LICENSE-3RD-PARTY.txt", "VERSION", "axe.min.js"]
    for member, content in MEMBERS.items():
        assert (dest / member.removeprefix("package/")).read_bytes() == content
    version = (dest / "VERSION").read_text()
    assert "package: axe-core\nversion: 9.9.9\ntarball: axe-core-9.9.9.tgz\n" in version
    assert "published: 2030-01-02T03:04:05Z\n" in version
    engine_hash = hashlib.sha256(MEMBERS["package/axe.min.js"]).hexdigest()
    assert f"sha256 axe.min.js: {engine_hash}\n" in version
    assert refresh.install(refresh.extract(tarball, release_of(tarball)), dest) == []


def test_a_tarball_that_is_not_the_registrys_is_refused(tmp_path: Path) -> None:
    tarball = make_tarball(tmp_path / "a.tgz")
    other = make_tarball(tmp_path / "b.tgz", leave_out="package/LICENSE-3RD-PARTY.txt")
    with pytest.raises(refresh.RefreshError, match="integrity"):
        refresh.extract(tarball, release_of(other))


@pytest.mark.parametrize(("meta", "reason"), [
    ({**META, "version": "1.0.0"}, "not axe-core@9.9.9"),
    ({**META, "name": "axe-lite"}, "not axe-core@9.9.9"),
    ({**META, "license": "GPL-3.0"}, "not MPL-2.0"),
])
def test_the_wrong_package_is_refused(tmp_path: Path, meta: dict[str, str], reason: str) -> None:
    tarball = make_tarball(tmp_path / "a.tgz", meta=meta)
    with pytest.raises(refresh.RefreshError, match=reason):
        refresh.extract(tarball, release_of(tarball))


@pytest.mark.parametrize("member", [*MEMBERS, "package/package.json"])
def test_a_missing_file_is_refused(tmp_path: Path, member: str) -> None:
    tarball = make_tarball(tmp_path / "a.tgz", leave_out=member)
    with pytest.raises(refresh.RefreshError, match="has no package/"):
        refresh.extract(tarball, release_of(tarball))


def fake_npm(tarball: Path, integrity: str) -> Callable[..., str]:
    """npm as the script calls it for axe-core: view dist, view time, pack."""

    def npm(*args: str) -> str:
        assert args[1].startswith("axe-core@"), args
        if args[0] == "view" and args[2] == "dist":
            return json.dumps({"integrity": integrity})
        if args[0] == "view" and args[2] == "time":
            return json.dumps({"created": "2020", "9.9.9": "2030-01-02T03:04:05Z"})
        if args[0] == "pack":
            into = Path(args[args.index("--pack-destination") + 1])
            (into / tarball.name).write_bytes(tarball.read_bytes())
            return json.dumps([{"filename": tarball.name}])
        raise AssertionError(args)

    return npm


def test_main_refreshes_through_npm_and_says_what_failed_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    tarball = make_tarball(tmp_path / "axe-core-9.9.9.tgz")
    dest = tmp_path / "vendor"
    integrity = refresh.npm_release.sri_sha512(tarball.read_bytes())
    monkeypatch.setattr(refresh.npm_release, "npm", fake_npm(tarball, integrity))
    assert refresh.main(["--version", "9.9.9", "--dest", str(dest)]) == 0
    assert "axe.min.js written" in capsys.readouterr().out
    assert refresh.main(["--version", "9.9.9", "--dest", str(dest)]) == 0
    assert "unchanged" in capsys.readouterr().out
    monkeypatch.setattr(refresh.npm_release, "npm", fake_npm(tarball, "sha512-bm90IHRoaXM="))
    assert refresh.main(["--version", "9.9.9", "--dest", str(dest)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("refresh_axe: tarball integrity") and err.count("\n") == 1


def test_the_committed_engine_is_the_one_version_names() -> None:
    fields = dict(line.split(": ", 1) for line in (VENDOR / "VERSION").read_text().splitlines())
    assert (fields["package"], fields["version"]) == ("axe-core", refresh.VERSION)
    engine = (VENDOR / "axe.min.js").read_bytes()
    assert hashlib.sha256(engine).hexdigest() == fields["sha256 axe.min.js"]
    assert engine.startswith(f"/*! axe v{refresh.VERSION}".encode())
    assert (VENDOR / "LICENSE").read_text().startswith("Mozilla Public License, version 2.0")
    assert (VENDOR / "LICENSE-3RD-PARTY.txt").is_file()
