"""The named queries' pages (``/queries/NAME``): a list column's items are links of their own,
escaped as every other value; the data formats keep the one string."""

import re
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
from flask.testing import FlaskClient

from graph.settings import Settings
from graph.sparql.named import (
    HEADER_KEYS,
    QueryFileError,
    load_named_queries,
    parse_named_query,
)
from graph.store.kinds import StoreSpec, open_store
from tests.seeds import SEEDS
from web import create_app
from web.links import listed

FIXTURES = Path(__file__).parent / "data" / "query_catalog"
RESULTS = Path(__file__).parent / "data" / "query_results"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskClient]:
    settings = Settings()
    store = open_store(StoreSpec.parse("memory"), settings, [*SEEDS, FIXTURES, RESULTS])
    yield create_app(settings, store, {"TESTING": True}).test_client()
    store.close()


def test_top_results_links_each_record_and_source(client: FlaskClient) -> None:
    page = client.get("/queries/top-results", headers={"Accept": "text/html"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    # the best ranked results on GSM8K: each with the records that state it, pages here (the
    # curated pages state no settings, so none of theirs is a top result)
    assert 'href="/record/lm_eval_gsm8k"' in html
    assert 'href="/record/opencompass_gsm8k"' in html


def test_list_columns_stay_one_string_as_data(client: FlaskClient) -> None:
    header, *lines = client.get("/queries/top-results.tsv").get_data(as_text=True).splitlines()
    at = [header.split("\t").index(name) for name in ("?sources", "?records")]
    for line in lines:  # the lists are literals, as written
        assert all(line.split("\t")[column].startswith('"') for column in at), line


def test_a_list_item_that_is_no_iri_stays_text(client: FlaskClient) -> None:
    with client.application.test_request_context():
        cells = listed(ox.Literal("https://a.org/x not<an>iri javascript:alert(1)"),
                       Settings().base)
    assert [(c.text, c.href) for c in cells] == [
        ("<https://a.org/x>", "https://a.org/x"), ("not<an>iri", None),
        ("<javascript:alert(1)>", None)]


def test_every_links_column_is_a_column_of_its_query() -> None:
    for query in load_named_queries().values():
        for name in query.links:
            assert f"?{name}" in query.text, (query.name, name)
    assert load_named_queries()["top-results"].links == ("sources", "records")


def test_a_links_line_naming_no_column_is_refused() -> None:
    with pytest.raises(QueryFileError, match=r"q\.rq, line 2: 'links' names 'nope'"):
        parse_named_query("#+ title: a\n#+ links: nope\nSELECT (1 AS ?one) WHERE {}", "q", "q.rq")


def test_every_header_key_is_documented() -> None:
    """queries/README.md names each key a header may use, as the parser knows them."""
    text = (Path(__file__).parent.parent / "queries" / "README.md").read_text(encoding="utf-8")
    assert [key for key in HEADER_KEYS if f"`{key}`" not in text] == []


def test_each_cell_names_its_column_for_a_phone(client: FlaskClient) -> None:
    """On a narrow screen a query's table is a card per row (``table.cards``): each cell says
    its column's name, so a value off to the right of a wide table is read beside its name."""
    html = client.get("/queries/top-results", headers={"Accept": "text/html"}).get_data(
        as_text=True)
    table = html.split('<table class="rows cards">', 1)[1].split("</table>", 1)[0]
    names = re.findall(r"<th>([^<]*)</th>", table)
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], re.DOTALL)
    assert names and rows
    for row in rows:
        assert re.findall(r'<td class="[^"]*" data-label="([^"]*)"', row) == names
