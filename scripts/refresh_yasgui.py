"""Refresh the vendored YASGUI editor in web/static/vendor/yasgui/ from the npm registry.

    python scripts/refresh_yasgui.py              # the pinned version below
    python scripts/refresh_yasgui.py --version 4.6.3

The `/sparql` page serves every asset itself (no CDN), so the editor's prebuilt bundle is
committed. This script is the one way it gets there: `npm pack` the release into a temporary
folder, check the tarball against the integrity the registry publishes, and copy out the
bundle, its stylesheet and its licence, with a VERSION file that records where they came from.

It refuses a bundle that contains a package THIRD-PARTY-NOTICES.md does not list, so a refresh
never ships code whose licence nobody has read. Running it twice writes the same bytes: VERSION
holds the registry's publication time, not the time of the run, and a file whose content has
not changed is not rewritten.

Standard library only, plus `npm` on PATH.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "@zazuko/yasgui"
VERSION = "4.6.2"
ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "web" / "static" / "vendor" / "yasgui"

# tarball member -> vendored file name
BUNDLE = {
    "package/build/yasgui.min.js": "yasgui.min.js",
    "package/build/yasgui.min.css": "yasgui.min.css",
}
SOURCE_MAP = "package/build/yasgui.min.js.map"
LICENCE_NAMES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "LICENCE.md")
NOTICES = "THIRD-PARTY-NOTICES.md"
# a row of the notices table: | `name` | ...
NOTICE_ROW = re.compile(r"^\| `([^`]+)` \|", re.MULTILINE)
NODE_MODULE = re.compile(r"node_modules/((?:@[^/]+/)?[^/]+)/")


class RefreshError(Exception):
    """A refresh that cannot go on: the message says what to look at."""


@dataclass(frozen=True)
class Release:
    """What the registry says of one published version."""

    version: str
    integrity: str  # Subresource Integrity string, "sha512-<base64>"
    published: str  # the registry's publication time of this version


@dataclass(frozen=True)
class Vendored:
    """The files taken out of one verified tarball, by the name they are vendored under."""

    release: Release
    tarball: str
    files: dict[str, bytes]
    bundled: frozenset[str]  # npm packages whose sources the bundle's source map names


def sri_sha512(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def check_integrity(data: bytes, integrity: str) -> None:
    """Hold the tarball's bytes to the registry's sha512; an SRI string may list several hashes."""
    wanted = [part for part in integrity.split() if part.startswith("sha512-")]
    if not wanted:
        raise RefreshError(f"the registry gives no sha512 integrity: {integrity!r}")
    if sri_sha512(data) not in wanted:
        raise RefreshError(
            f"tarball integrity {sri_sha512(data)} is not the registry's {integrity}"
        )


def bundled_packages(source_map: bytes) -> frozenset[str]:
    """The npm packages the bundle was built from, read off its source map's file list."""
    sources = json.loads(source_map)["sources"]
    return frozenset(m.group(1) for s in sources if (m := NODE_MODULE.search(s)))


def listed_packages(notices: str) -> frozenset[str]:
    return frozenset(NOTICE_ROW.findall(notices))


def read_member(tar: tarfile.TarFile, name: str) -> bytes | None:
    try:
        info = tar.getmember(name)
    except KeyError:
        return None
    if not info.isfile():
        raise RefreshError(f"{name} in the tarball is not a regular file")
    stream = tar.extractfile(info)
    assert stream is not None  # a regular file always has a stream
    return stream.read()


def extract(tarball: Path, release: Release) -> Vendored:
    """Verify the tarball and take the bundle, stylesheet and licence out of it (in memory)."""
    data = tarball.read_bytes()
    check_integrity(data, release.integrity)
    with tarfile.open(tarball, mode="r:gz") as tar:
        manifest = read_member(tar, "package/package.json")
        if manifest is None:
            raise RefreshError("the tarball has no package/package.json")
        meta = json.loads(manifest)
        if (meta.get("name"), meta.get("version")) != (PACKAGE, release.version):
            raise RefreshError(
                f"the tarball is {meta.get('name')}@{meta.get('version')}, "
                f"not {PACKAGE}@{release.version}"
            )
        if meta.get("license") != "MIT":
            raise RefreshError(f"the package's licence is now {meta.get('license')!r}, not MIT")
        files: dict[str, bytes] = {}
        for member, name in BUNDLE.items():
            content = read_member(tar, member)
            if content is None:
                raise RefreshError(f"the tarball has no {member}")
            files[name] = content
        for name in LICENCE_NAMES:
            licence = read_member(tar, f"package/{name}")
            if licence is not None:
                files["LICENSE"] = licence
                break
        source_map = read_member(tar, SOURCE_MAP)
        if source_map is None:
            raise RefreshError(f"the tarball has no {SOURCE_MAP} to tell what it bundles")
    return Vendored(release, tarball.name, files, bundled_packages(source_map))


def version_lines(package: str, release: Release, tarball: str,
                  files: dict[str, bytes]) -> list[str]:
    """The lines of a vendor folder's VERSION file that every refresh script writes: what was
    taken, from where, checked how, and the SHA-256 of each of ``files``."""
    return [
        f"package: {package}",
        f"version: {release.version}",
        f"tarball: {tarball}",
        f"integrity: {release.integrity}",
        f"published: {release.published}",
        *(f"sha256 {name}: {hashlib.sha256(files[name]).hexdigest()}" for name in sorted(files)),
    ]


def version_file(vendored: Vendored) -> bytes:
    bundle = {name: vendored.files[name] for name in BUNDLE.values()}
    lines = [*version_lines(PACKAGE, vendored.release, vendored.tarball, bundle),
             f"bundles: {' '.join(sorted(vendored.bundled))}"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_if_changed(path: Path, content: bytes) -> bool:
    """Write only when the bytes differ, through a temporary file, so a rerun touches nothing."""
    if path.is_file() and path.read_bytes() == content:
        return False
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(content)
    partial.replace(path)
    return True


def install(vendored: Vendored, dest: Path) -> list[str]:
    """Write the vendored files into dest; return the names of those that changed."""
    notices = dest / NOTICES
    if not notices.is_file():
        raise RefreshError(f"{notices} is missing: it must list every bundled package")
    unlisted = sorted(vendored.bundled - listed_packages(notices.read_text(encoding="utf-8")))
    if unlisted:
        raise RefreshError(
            f"the bundle contains packages {NOTICES} does not list: {', '.join(unlisted)}; "
            "add each with its version, licence and copyright, then run again"
        )
    if "LICENSE" not in vendored.files and not (dest / "LICENSE").is_file():
        raise RefreshError(
            "the package ships no LICENSE and none is vendored: add the upstream one by hand"
        )
    outputs = {**vendored.files, "VERSION": version_file(vendored)}
    return [
        name for name, content in sorted(outputs.items()) if write_if_changed(dest / name, content)
    ]


def npm(*args: str) -> str:
    try:
        done = subprocess.run(["npm", *args], capture_output=True, text=True, check=False)
    except FileNotFoundError as missing:
        raise RefreshError("npm is not on PATH") from missing
    if done.returncode != 0:
        raise RefreshError(f"npm {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def registry_release(version: str, package: str = PACKAGE) -> Release:
    spec = f"{package}@{version}"
    dist = json.loads(npm("view", spec, "dist", "--json"))
    times = json.loads(npm("view", spec, "time", "--json"))
    if version not in times:
        raise RefreshError(f"the registry gives no publication time for {spec}")
    return Release(version, dist["integrity"], times[version])


def npm_pack(version: str, into: Path, package: str = PACKAGE) -> Path:
    (packed,) = json.loads(
        npm("pack", f"{package}@{version}", "--pack-destination", str(into), "--json")
    )
    return into / str(packed["filename"])


def refresh(version: str, dest: Path) -> list[str]:
    release = registry_release(version)
    with tempfile.TemporaryDirectory() as folder:
        vendored = extract(npm_pack(version, Path(folder)), release)
    return install(vendored, dest)


def command_line(argv: list[str] | None, *, script: str, about: str, package: str,
                 version: str, dest: Path, refresh: Callable[[str, Path], list[str]]) -> int:
    """A refresh script's command line (``--version``, ``--dest``): ``refresh`` the package
    into its vendor folder, and say what changed, or why nothing could."""
    parser = argparse.ArgumentParser(prog=script, description=about)
    parser.add_argument(
        "--version", default=version, help=f"the {package} version (default {version})"
    )
    parser.add_argument("--dest", type=Path, default=dest, help="the vendor folder")
    args = parser.parse_args(argv)
    try:
        changed = refresh(args.version, args.dest)
    except RefreshError as error:
        print(f"{script}: {error}", file=sys.stderr)
        return 1
    done = ", ".join(changed) + " written" if changed else "unchanged"
    print(f"{package}@{args.version}: {done}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return command_line(argv, script="refresh_yasgui", about=__doc__.split("\n\n")[0],
                        package=PACKAGE, version=VERSION, dest=DEST, refresh=refresh)


if __name__ == "__main__":
    sys.exit(main())
