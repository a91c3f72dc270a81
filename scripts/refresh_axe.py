"""Refresh the vendored axe-core in tests/vendor/axe-core/ from the npm registry.

    python scripts/refresh_axe.py                 # the pinned version below
    python scripts/refresh_axe.py --version 4.15.0

axe-core is the accessibility engine that tests/test_accessibility.py runs in a real browser
on every kind of page. The browser tests reach nothing off the machine, so the engine is
committed, and this script is the one way it gets there, as scripts/refresh_yasgui.py is for
the editor (whose npm helpers it uses): `npm pack` the release into a temporary folder, check
the tarball against the integrity the registry publishes and its manifest against the
package, version and licence expected, and copy out the engine and its two licence files
(axe-core's own, MPL-2.0, and the notices of what it bundles), with a VERSION file that
records where they came from. Running it twice writes the same bytes.

Standard library only, plus `npm` on PATH.
"""

from __future__ import annotations

import json
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

import refresh_yasgui as npm_release
from refresh_yasgui import RefreshError, Release

PACKAGE = "axe-core"
VERSION = "4.14.1"
LICENCE = "MPL-2.0"
ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "tests" / "vendor" / "axe-core"

ENGINE = "axe.min.js"
# tarball member -> vendored file name; each must be there (MPL-2.0 travels with the code)
FILES = {
    f"package/{ENGINE}": ENGINE,
    "package/LICENSE": "LICENSE",
    "package/LICENSE-3RD-PARTY.txt": "LICENSE-3RD-PARTY.txt",
}


@dataclass(frozen=True)
class Vendored:
    """The files taken out of one verified tarball, by the name they are vendored under."""

    release: Release
    tarball: str
    files: dict[str, bytes]


def check_manifest(manifest: bytes | None, version: str) -> None:
    """The tarball is ``axe-core`` at ``version``, still under MPL-2.0."""
    if manifest is None:
        raise RefreshError("the tarball has no package/package.json")
    meta = json.loads(manifest)
    if (meta.get("name"), meta.get("version")) != (PACKAGE, version):
        raise RefreshError(
            f"the tarball is {meta.get('name')}@{meta.get('version')}, not {PACKAGE}@{version}"
        )
    if meta.get("license") != LICENCE:
        raise RefreshError(f"the package's licence is now {meta.get('license')!r}, not {LICENCE}")


def extract(tarball: Path, release: Release) -> Vendored:
    """Verify the tarball and take the engine and its licences out of it (in memory)."""
    npm_release.check_integrity(tarball.read_bytes(), release.integrity)
    with tarfile.open(tarball, mode="r:gz") as tar:
        check_manifest(npm_release.read_member(tar, "package/package.json"), release.version)
        files: dict[str, bytes] = {}
        for member, name in FILES.items():
            content = npm_release.read_member(tar, member)
            if content is None:
                raise RefreshError(f"the tarball has no {member}")
            files[name] = content
    return Vendored(release, tarball.name, files)


def version_file(vendored: Vendored) -> bytes:
    lines = npm_release.version_lines(PACKAGE, vendored.release, vendored.tarball,
                                      {ENGINE: vendored.files[ENGINE]})
    return ("\n".join(lines) + "\n").encode("utf-8")


def install(vendored: Vendored, dest: Path) -> list[str]:
    """Write the vendored files into dest; return the names of those that changed."""
    dest.mkdir(parents=True, exist_ok=True)
    outputs = {**vendored.files, "VERSION": version_file(vendored)}
    return [name for name, content in sorted(outputs.items())
            if npm_release.write_if_changed(dest / name, content)]


def refresh(version: str, dest: Path) -> list[str]:
    release = npm_release.registry_release(version, PACKAGE)
    with tempfile.TemporaryDirectory() as folder:
        vendored = extract(npm_release.npm_pack(version, Path(folder), PACKAGE), release)
    return install(vendored, dest)


def main(argv: list[str] | None = None) -> int:
    return npm_release.command_line(
        argv, script="refresh_axe", about=__doc__.split("\n\n")[0], package=PACKAGE,
        version=VERSION, dest=DEST, refresh=refresh)


if __name__ == "__main__":
    sys.exit(main())
