"""Property: any record the models accept maps to a graph that survives Turtle and N-Triples."""

import json
from decimal import Decimal
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from rdflib import Graph
from rdflib.term import Node

from graph.dataset.quads import Quad
from graph.export import serialize
from graph.export.formats import NTRIPLES, TURTLE, Format
from graph.ingest.importers.base import SourceFile
from graph.ingest.loader import LoadedRecord
from graph.ingest.records import CatalogPage, DirectoryPage
from graph.ingest.records.directory_page import Fact, RelatedEntry, Score, ScoresSection
from graph.resources import data_dir
from tests.mapped import mapped_quads

pytestmark = pytest.mark.slow

SEED = json.loads(
    (data_dir("catalog") / "000_501ccd0cd0e2608f.txt").read_text(), parse_float=Decimal
)
# Any text but surrogates (which no UTF-8 file can hold) — quotes, braces, '#', markup,
# control characters, newlines and emoji included.
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
IDS = st.from_regex(r"[a-z0-9_]{1,12}", fullmatch=True)
SCORES = st.decimals(min_value=-1000, max_value=1000, places=3, allow_nan=False)


def triples_after(quads: list[Quad], fmt: Format) -> set[tuple[Node, Node, Node]]:
    data = serialize(quads, fmt).data
    parsed = Graph().parse(data=data, format="turtle" if fmt is TURTLE else "nt")
    return set(parsed)


def assert_round_trips(record: CatalogPage | DirectoryPage) -> None:
    loaded = LoadedRecord(SourceFile(Path("r.json"), PurePosixPath("r.json"), ""), record)
    quads = mapped_quads([loaded])
    expected = {(s, p, o) for s, p, o, _ in quads}
    for fmt in (TURTLE, NTRIPLES):
        assert triples_after(quads, fmt) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    benchmark_id=IDS,
    name=TEXT.filter(str.strip),
    summary=TEXT,
    tags=st.lists(TEXT, max_size=4),
    aliases=st.lists(TEXT, max_size=3),
    org=TEXT,
    authors=st.lists(TEXT, max_size=3),
    variants=st.lists(IDS, max_size=3),
    body=TEXT,
    max_score=st.none() | SCORES,
    risk=TEXT,
    released=st.sampled_from(["", "2023", "2023-05", "2023-05-17"]),
)
def test_catalog_pages_round_trip(
    benchmark_id: str,
    name: str,
    summary: str,
    tags: list[str],
    aliases: list[str],
    org: str,
    authors: list[str],
    variants: list[str],
    body: str,
    max_score: Decimal | None,
    risk: str,
    released: str,
) -> None:
    data = json.loads(json.dumps(SEED, default=str), parse_float=Decimal)
    page = data["page"]
    page.update(
        id=benchmark_id, name=name, summary=summary, tags=tags, aliases=aliases, released=released
    )
    page["publisher"].update(org=org, authors=authors)
    page["lineage"]["variants"] = variants
    page["metric"]["max_score"] = max_score
    page["contamination"]["risk"] = risk
    data["body"] = body + " [x](other_one.md)"
    try:
        record = CatalogPage.model_validate(data)
    except ValidationError:
        assume(False)
        return
    assert_round_trips(record)


SCORE = st.builds(
    Score, model=TEXT.filter(str.strip), value=SCORES, unit=st.none() | st.just("percent")
)


@settings(max_examples=60, deadline=None)
@given(
    page=st.builds(
        DirectoryPage,
        title=TEXT.filter(lambda t: any(c.isalnum() for c in t)),
        summary=st.none() | TEXT,
        access=st.none() | TEXT.map(lambda t: "Access needs " + t),
        facts=st.lists(st.builds(Fact, key=TEXT, value=TEXT), max_size=5),
        scores=st.none()
        | st.builds(ScoresSection, heading=TEXT, scores=st.lists(SCORE, max_size=3)),
        category=st.none() | TEXT,
        related=st.lists(
            st.builds(
                RelatedEntry,
                title=TEXT.filter(str.strip),
                status=st.none() | TEXT,
                top_score=st.none() | SCORE,
            ),
            max_size=3,
        ),
    )
)
def test_directory_pages_round_trip(page: DirectoryPage) -> None:
    assert_round_trips(page)
