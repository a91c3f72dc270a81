"""A dump kept as its pages: an incremental build joins no dump file, and a server streams
the pages as the one dump a full build writes (``graph.store.concat``), with the same length,
ETag and ranges."""

import io
import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from graph.build import build
from graph.export import serialize
from graph.export.formats import NQUADS
from graph.resources import data_dir
from graph.settings import Settings
from graph.store import pages
from graph.store.base import StoredFile
from graph.store.concat import Joined, Piece
from graph.store.disk import read_manifest
from graph.store.files import DUMP_FORMATS, dump_name, stored_dump
from graph.store.kinds import StoreSpec, build_into, open_store
from graph.store.local import LocalStore
from graph.store.rebuild import kept_build, rebuild_store
from web import create_app

SUFFIXES = {fmt.extension.removeprefix("."): fmt for fmt in DUMP_FORMATS}

# -- the joined file --------------------------------------------------------------------------


@pytest.fixture()
def pieces(tmp_path: Path) -> tuple[list[Piece], bytes]:
    """Pieces of every kind (bytes, files, empty ones of both) and the bytes they make."""
    chance = random.Random(12)
    parts: list[Piece] = []
    whole = b""
    for number in range(12):
        data = bytes(chance.randrange(256) for _ in range(chance.choice([0, 1, 3, 17, 40])))
        if number % 3:
            path = tmp_path / f"piece-{number}"
            path.write_bytes(data)
            parts.append(Piece.of_file(path))
        else:
            parts.append(Piece.of_bytes(data))
        whole += data
    return parts, whole


def test_joined_reads_as_the_bytes_of_its_pieces(pieces: tuple[list[Piece], bytes]) -> None:
    parts, whole = pieces
    with io.BufferedReader(Joined(parts)) as joined:
        assert joined.read() == whole
    for size in (1, 2, 5, 64, 1 << 20):
        with Joined(parts) as raw:
            got = b""
            while chunk := raw.read(size):
                got += chunk
            assert got == whole, size


def test_joined_seeks_to_every_byte(pieces: tuple[list[Piece], bytes]) -> None:
    """Every (start, length) read after a seek, from any position before: what a range
    request reads."""
    parts, whole = pieces
    with io.BufferedReader(Joined(parts), buffer_size=7) as joined:
        for start in range(len(whole) + 2):
            for length in (0, 1, 4, 33, len(whole)):
                assert joined.seek(start) == start
                assert joined.read(length) == whole[start:start + length], (start, length)
                assert joined.tell() == min(start + length, max(len(whole), start))
        assert joined.seek(-5, io.SEEK_END) == len(whole) - 5
        assert joined.read() == whole[-5:]
        joined.seek(3)
        assert joined.seek(4, io.SEEK_CUR) == 7
        assert joined.read(2) == whole[7:9]
        with pytest.raises(ValueError):
            joined.seek(-1)


def test_a_piece_shorter_than_it_was_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "page"
    path.write_bytes(b"0123456789")
    parts = [Piece.of_bytes(b"head"), Piece.of_file(path)]
    path.write_bytes(b"01234")
    with Joined(parts) as joined, pytest.raises(OSError, match="shorter"):
        joined.read()


# -- an incremental build's dumps -------------------------------------------------------------


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory, settings: Settings
            ) -> Iterator[tuple[Path, dict[str, bytes]]]:
    """A store built in full from the bundled catalog, one record changed, built again
    incrementally (pages of a few statements, so that each dump has many); and what a full
    build writes of each format for the changed records."""
    folder = tmp_path_factory.mktemp("paged")
    records = folder / "records"
    shutil.copytree(data_dir("catalog"), records)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pages, "ROWS_PER_PAGE", 64)
        result = build([records], settings)
        build_into(folder / "store", result, settings, kept=kept_build(result, settings))
        changed = min(records.rglob("*.txt"))
        data = json.loads(changed.read_text(encoding="utf-8"))
        data["page"]["summary"] = "Changed, so that one page of each dump is written again."
        changed.write_text(json.dumps(data, indent=1), encoding="utf-8")
        assert rebuild_store(folder / "store", [records], settings) is not None
    expected = build([records], settings)
    yield folder / "store", {fmt.name: serialize(expected.table, fmt, base=settings.base).data
                             for fmt in DUMP_FORMATS}


def test_a_rebuild_writes_no_dump_file_and_its_pages_are_the_dump(
        rebuilt: tuple[Path, dict[str, bytes]]) -> None:
    store, expected = rebuilt
    generation = store / read_manifest(store).generation
    assert not list(generation.glob("dump.*"))
    for fmt in DUMP_FORMATS:
        kept = stored_dump(generation, fmt)
        assert kept.pieces is not None and len(kept.pieces) > 3, fmt.name
        assert kept.path == generation / dump_name(fmt)
        assert kept.size == len(expected[fmt.name]), fmt.name
        with kept.open() as handle:
            assert handle.read() == expected[fmt.name], fmt.name


@pytest.fixture(scope="module")
def served(rebuilt: tuple[Path, dict[str, bytes]], settings: Settings
           ) -> Iterator[tuple[FlaskClient, LocalStore]]:
    store = open_store(StoreSpec.parse(f"oxigraph:{rebuilt[0]}"), settings)
    assert isinstance(store, LocalStore)
    try:
        yield create_app(settings, store).test_client(), store
    finally:
        store.close()


@pytest.mark.parametrize("suffix", sorted(SUFFIXES))
def test_a_paged_dump_is_served_whole_with_its_headers(
        rebuilt: tuple[Path, dict[str, bytes]], served: tuple[FlaskClient, LocalStore],
        suffix: str) -> None:
    client, store = served
    expected = rebuilt[1][SUFFIXES[suffix].name]
    response = client.get(f"/dump.{suffix}")
    assert response.status_code == 200
    assert response.data == expected
    assert response.headers["Content-Length"] == str(len(expected))
    assert response.headers["ETag"] == f'"{store.loaded()[0].name}"'
    assert response.headers["Content-Disposition"] == f"attachment; filename=benchgraph.{suffix}"
    again = client.get(f"/dump.{suffix}", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    head = client.head(f"/dump.{suffix}")
    assert head.status_code == 200 and head.headers["Content-Length"] == str(len(expected))


def test_ranges_of_a_paged_dump(rebuilt: tuple[Path, dict[str, bytes]],
                                served: tuple[FlaskClient, LocalStore]) -> None:
    """Ranges from the start, across the pages, to the end, and beyond it."""
    client, store = served
    fmt = NQUADS
    expected = rebuilt[1][fmt.name]
    kept: StoredFile = store.dump(fmt)
    assert kept.pieces is not None
    size = len(expected)
    ends = [sum(piece.size for piece in kept.pieces[:n]) for n in range(len(kept.pieces))]
    url = f"/{dump_name(fmt)}"
    for first, last in [(0, 0), (0, 99), (ends[2] - 3, ends[2] + 3), (ends[-1] - 1, size - 1),
                        (size // 3, 2 * size // 3), (size - 10, size + 50)]:
        part = client.get(url, headers={"Range": f"bytes={first}-{last}"})
        assert part.status_code == 206, (first, last)
        assert part.data == expected[first:last + 1], (first, last)
        assert part.headers["Content-Range"] == f"bytes {first}-{min(last, size - 1)}/{size}"
    tail = client.get(url, headers={"Range": "bytes=-25"})
    assert tail.status_code == 206 and tail.data == expected[-25:]
    beyond = client.get(url, headers={"Range": f"bytes={size + 5}-"})
    assert beyond.status_code == 416


def test_the_dumps_page_gives_a_paged_dumps_size(rebuilt: tuple[Path, dict[str, bytes]],
                                                 served: tuple[FlaskClient, LocalStore]) -> None:
    client, store = served
    assert client.get("/dumps").status_code == 200
    for fmt in DUMP_FORMATS:
        assert store.dump(fmt).size == len(rebuilt[1][fmt.name])
