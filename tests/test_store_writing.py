"""The process that writes a store's Oxigraph data (``graph.store.writing``): a load gives
pyoxigraph its input a block of lines at a time, so that its bulk loader never holds more
than a block, and the store holds every statement once, as a load of the whole does; a store
that is not kept is held in memory until it grows too big for it, then moved to disk."""

from pathlib import Path

import pyoxigraph as ox
import pytest

from graph.search import INDEX_FILE
from graph.store import writing
from graph.store.disk import load_generation

QUADS = [ox.Quad(ox.NamedNode(f"https://example.org/s{i}"), ox.NamedNode("https://example.org/p"),
                 ox.Literal(f"value {i}\nwith a line break"),
                 ox.NamedNode(f"https://example.org/g{i % 3}")) for i in range(10)]


class _Recording:
    """Stands in for a store: keeps what each ``bulk_load`` was given."""

    def __init__(self) -> None:
        self.blocks: list[bytes] = []

    def bulk_load(self, block: bytes, format: ox.RdfFormat) -> None:
        assert format == ox.RdfFormat.N_QUADS
        self.blocks.append(block)


@pytest.fixture
def dumps(tmp_path: Path) -> tuple[Path, Path]:
    quads, merge = tmp_path / "dump.nq", tmp_path / "dump.nt"
    ox.serialize(QUADS, quads, format=ox.RdfFormat.N_QUADS)
    # The merge as a read-back writes it: a triple once for each graph that states it.
    ox.serialize([quad.triple for quad in QUADS * 2], merge, format=ox.RdfFormat.N_TRIPLES)
    return quads, merge


def test_a_dump_is_loaded_a_block_of_whole_lines_at_a_time(
    dumps: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writing, "LOAD_BLOCK", 300)  # a line is 105 bytes
    store = _Recording()
    with dumps[0].open("rb") as lines:
        writing._loaded(store, False, "unused", lines)  # type: ignore[arg-type]
    assert [block.count(b"\n") for block in store.blocks] == [3, 3, 3, 1]
    assert b"".join(store.blocks) == dumps[0].read_bytes()


def test_a_store_loaded_by_blocks_holds_every_statement_once(
    dumps: tuple[Path, Path], tmp_path: Path
) -> None:
    """Given a store's data graphs and their merge (as a remote store reads them back), the
    writing process loads each statement once, and counts and indexes what it holds."""
    folder = tmp_path / "store"
    outcome = load_generation(folder, *dumps, "https://example.org/")
    assert (outcome.quads, outcome.triples) == (len(QUADS), len(QUADS))
    assert (folder / INDEX_FILE).is_file()  # the index, written from the store beside it
    store = ox.Store.read_only(str(folder))
    named = {quad for quad in store if quad.graph_name != ox.DefaultGraph()}
    merged = {quad.triple for quad in store if quad.graph_name == ox.DefaultGraph()}
    assert named == set(QUADS) and len(store) == 2 * len(QUADS)
    assert merged == {quad.triple for quad in QUADS}


def test_a_store_not_kept_goes_on_disk_once_it_would_hold_too_many_statements(
    dumps: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writing, "LOAD_BLOCK", 300)
    with dumps[0].open("rb") as lines:
        small, in_memory = writing._loaded(ox.Store(), True, str(tmp_path / "small"), lines)
    assert in_memory and not (tmp_path / "small").exists() and set(small) == set(QUADS)
    monkeypatch.setattr(writing, "MEMORY_STATEMENTS", 5)
    with dumps[0].open("rb") as lines:
        big, in_memory = writing._loaded(ox.Store(), True, str(tmp_path / "big"), lines)
    assert not in_memory and set(big) == set(QUADS)
    del big
    assert set(ox.Store.read_only(str(tmp_path / "big"))) == set(QUADS)
