"""The small rules of the mapping: slugs, dates, links, results. (Makers: ``test_makers.py``;
which benchmark a record or title names: ``test_identity.py``.)"""

from decimal import Decimal
from pathlib import Path, PurePosixPath

import pytest
from rdflib import Literal, URIRef

from graph.ingest.importers.base import SourceFile
from graph.ingest.loader import LoadedRecord
from graph.ingest.records import CatalogPage
from graph.mapping.dates import partial_date
from graph.mapping.references import Link, markdown_links
from graph.namespace import BENCH
from graph.settings import DEFAULT_BASE
from graph.slug import node_key, slugify
from tests.mapped import mapped_quads


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("MIMIC-CXR (classification)", "mimic_cxr_classification"),
        ("  Ünïcödé -- name  ", "unicode_name"),
        ("GPT-5 (high)", "gpt_5_high"),
        (
            "The Chinese University of Hong Kong, Shenzhen",
            "the_chinese_university_of_hong_kong_shenzhen",
        ),
        ("***", ""),
    ],
)
def test_slugify(text: str, slug: str) -> None:
    assert slugify(text) == slug


def test_node_key_gives_every_name_an_iri_segment() -> None:
    assert node_key("GPT-5") == "gpt_5"
    assert node_key("中文") == node_key("中文") != node_key("日本語")
    assert node_key("***").startswith("h")


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("January 2019", "2019-01"),
        ("2023", "2023"),
        ("2019-01-31", "2019-01-31"),
        ("12 Jan 2019", "2019-01-12"),
        ("January 12, 2019", "2019-01-12"),
        ("Spring 2019", None),
        ("2019-02-30", None),
    ],
)
def test_partial_dates(text: str, iso: str | None) -> None:
    assert partial_date(text) == iso


def test_markdown_links_in_order_each_once() -> None:
    body = (
        "Not [mimic_repsum](mimic_repsum.md); see [mimic_bhc](mimic_bhc.md), "
        "[ACI-Bench](aci_bench.md) and [again](mimic_repsum.md) or [web](https://x.org/a.md)."
    )
    assert markdown_links(body) == [
        Link("mimic_repsum", "mimic_repsum"),
        Link("mimic_bhc", "mimic_bhc"),
        Link("aci_bench", "ACI-Bench"),
    ]


def test_the_same_model_twice_in_one_record_gives_two_results() -> None:
    """A page that lists a model twice, or a record verifying one model's score from two
    sources: each result keeps its own node and its one score."""
    result = {"model": "Command R+", "unit": "percent"}
    record = CatalogPage.model_validate(
        {
            "page": {"id": "x", "name": "X"},
            "disposition": {
                "verified_results": [
                    {**result, "score": Decimal("77.2")},
                    {**result, "score": Decimal("62.7")},
                    {**result, "score": Decimal("77.2")},
                ]
            },
        }
    )
    loaded = LoadedRecord(SourceFile(Path("r.json"), PurePosixPath("r.json"), ""), record)
    quads = mapped_quads([loaded])
    scores = {s: o for s, p, o, _ in quads if p == BENCH.score}
    first = f"{DEFAULT_BASE}benchmark/x/result/command_r/r"
    assert scores == {
        URIRef(first): Literal(Decimal("77.2")),
        URIRef(first + "/2"): Literal(Decimal("62.7")),
        URIRef(first + "/3"): Literal(Decimal("77.2")),
    }
