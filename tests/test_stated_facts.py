"""What snapshot format 2 states, end to end: papers with ordered authors, a cited year beside
the month an arXiv id states, venues, DOIs and BibTeX keys; access levels read from HELM's
repository (with the repository and commit they cite), a private level's holder; homepages,
languages, modalities and run requirements. Then how people use them: a paper's page headed
by its title with links out, a person's papers and benchmarks, BibTeX, facets.
The catalog is the seeds and ``tests/data/stated_facts/`` (its README says what each entry
stands for)."""

from pathlib import Path

import pytest
from flask.testing import FlaskClient
from pybtex.database import parse_string
from rdflib import Literal, URIRef

from graph.build.graphs import GraphInMemory
from graph.mapping.paper_node import arxiv_month
from graph.namespace import BENCH, DCTERMS, FOAF, PROV, RDF, SCHEMA, XSD
from graph.settings import Settings
from graph.store.base import Store
from tests.store_kinds import seeds_and
from web import create_app

FACTS = Path(__file__).parent / "data" / "stated_facts"
SETTINGS = Settings()
BASE = SETTINGS.base
PAPER = URIRef(f"{BASE}paper/2211.08584")
DOI_PAPER = URIRef(f"{BASE}paper/10_18653_v1_2021_emnlp_main_1")


built, triples, store = seeds_and(FACTS, SETTINGS)


@pytest.fixture(scope="module")
def client(store: Store) -> FlaskClient:
    return create_app(SETTINGS, store).test_client()


def benchmark(benchmark_id: str) -> URIRef:
    return URIRef(f"{BASE}benchmark/{benchmark_id}")


def test_the_arxiv_month_is_what_the_id_states() -> None:
    assert arxiv_month("2211.08584") == "2022-11"
    assert arxiv_month("hep-th/9901001") == "1999-01"
    assert arxiv_month("math/0309136") == "2003-09"
    assert arxiv_month("2213.00001") is None  # no 13th month
    assert arxiv_month("not an id") is None


def test_a_cited_year_and_the_arxiv_month_are_two_facts(triples: set) -> None:
    assert (PAPER, DCTERMS.issued, Literal("2023", datatype=XSD.gYear)) in triples
    assert (PAPER, BENCH.arxivSubmitted, Literal("2022-11", datatype=XSD.gYearMonth)) in triples


def test_authors_are_people_in_their_order(triples: set) -> None:
    credits = {(o, p2, o2) for s, p, o in triples if s == PAPER and p == BENCH.authorCredit
               for s2, p2, o2 in triples if s2 == o and p2 in (BENCH.agent, BENCH.position)}
    first, second = (URIRef(f"{PAPER}/author/{n}") for n in (1, 2))
    assert (first, BENCH.agent, URIRef(f"{BASE}person/zhihong_chen")) in credits
    assert (second, BENCH.agent, URIRef(f"{BASE}person/maya_varma")) in credits
    assert (first, BENCH.position, Literal(1)) in credits
    assert (URIRef(f"{BASE}person/maya_varma"), RDF.type, BENCH.Person) in triples


def test_a_paper_known_by_its_doi_keeps_its_citation(triples: set) -> None:
    about = {(p, o) for s, p, o in triples if s == DOI_PAPER}
    assert (BENCH.doi, Literal("10.18653/v1/2021.emnlp-main.1")) in about
    assert (BENCH.venue, Literal("Proceedings of EMNLP")) in about
    assert (BENCH.citeKey, Literal("muller2021")) in about
    assert (DCTERMS.creator, URIRef(f"{BASE}person/jorg_muller")) in about


def test_access_levels_cite_the_repository_they_were_read_at(built: GraphInMemory,
                                                             triples: set) -> None:
    private = benchmark("shc_ptbm_med")
    levels = {o for s, p, o in triples if s == private and p == BENCH.accessLevel}
    assert [level.rsplit("#", 1)[1] for level in levels] == ["Private"]
    assert (private, BENCH.accessHolder, Literal("stanford")) in triples
    graphs = {g for s, p, o, g in built.quads if s == private and p == BENCH.accessLevel}
    (graph,) = graphs
    repositories = {o for s, p, o, g in built.quads if s == graph and p == PROV.wasDerivedFrom
                    and (o, RDF.type, BENCH.SourceRepository) in triples}
    (repository,) = repositories
    assert (repository, BENCH.commit,
            Literal("ef439fc94e58568fd1274d5c07ceb1b711360a55")) in triples
    assert (graph, BENCH.statedIn, Literal(
        "src/helm/benchmark/presentation/run_entries_medhelm_private_stanford.conf")) in triples


def test_a_part_is_linked_to_its_family(triples: set) -> None:
    """HELM runs MMLU's subjects as entries of their own: each is linked to MMLU, not merged."""
    assert (benchmark("anatomy"), BENCH.inFamily, benchmark("mmlu")) in triples


def test_homepage_languages_modalities_and_requirements(triples: set) -> None:
    toy = benchmark("toy_eval")
    assert (toy, FOAF.homepage, Literal("https://example.org/toy", datatype=XSD.anyURI)) \
        in triples
    assert {o for s, p, o in triples if s == toy and p == BENCH.language} == {
        Literal("en"), Literal("French")}
    assert (toy, BENCH.modality, Literal("image")) in triples
    task = URIRef(f"{toy}/task/inspect_evals")
    assert (task, BENCH.needsSandbox, Literal("solver")) in triples
    assert (task, BENCH.needsInternet, Literal(True)) in triples
    assert (task, BENCH.implementationVersion, Literal("2-A")) in triples


def test_the_graph_validates(store: Store) -> None:
    result = store.query("ASK { ?s a bench:Paper ; bench:arxivSubmitted ?m }")
    assert result.boolean


def test_a_papers_page_is_headed_by_its_title_and_links_out(client: FlaskClient) -> None:
    page = client.get("/paper/2211.08584").get_data(as_text=True)
    assert "<h1>Toward Expanding the Scope of Radiology Report Summarization</h1>" in page
    assert 'href="https://arxiv.org/abs/2211.08584"' in page
    doi_page = client.get("/paper/10_18653_v1_2021_emnlp_main_1").get_data(as_text=True)
    assert 'href="https://doi.org/10.18653/v1/2021.emnlp-main.1"' in doi_page
    assert "Jörg Müller" in doi_page


def test_a_persons_page_lists_their_papers_and_benchmarks(client: FlaskClient) -> None:
    page = client.get("/person/zhihong_chen").get_data(as_text=True)
    assert 'href="/paper/2211.08584"' in page
    assert 'href="/benchmark/mimic_rrs"' in page and 'href="/benchmark/toy_eval"' in page
    assert 'href="/person/maya_varma"' in page  # a co-author
    benchmarks = page[page.index('id="benchmarks"'):page.index('id="papers"')]
    assert "/paper/" not in benchmarks  # the papers they wrote are no benchmarks


def test_bibtex_of_a_paper_and_of_a_benchmarks_papers(client: FlaskClient) -> None:
    response = client.get("/paper/10_18653_v1_2021_emnlp_main_1.bib")
    assert response.status_code == 200 and response.mimetype == "application/x-bibtex"
    (entry,) = parse_string(response.get_data(as_text=True), "bibtex").entries.values()
    assert [str(p) for p in entry.persons["author"]] == ["Müller, Jörg",
                                                          "van der Berg, Anna"]
    assert (entry.fields["year"], entry.fields["doi"]) == ("2021",
                                                           "10.18653/v1/2021.emnlp-main.1")
    both = client.get("/benchmark/toy_eval", headers={"Accept": "application/x-bibtex"})
    assert both.mimetype == "application/x-bibtex"
    entries = parse_string(both.get_data(as_text=True), "bibtex").entries
    assert sorted(entries) == ["2211.08584", "muller2021"]
    assert entries["2211.08584"].fields["eprint"] == "2211.08584"


def test_bibtex_is_only_for_papers_and_benchmarks(client: FlaskClient) -> None:
    assert client.get("/person/zhihong_chen.bib").status_code == 404
    refused = client.get("/person/zhihong_chen", headers={"Accept": "application/x-bibtex"})
    assert refused.status_code == 406


def test_stated_access_and_its_neighbours_are_facets_apart(client: FlaskClient) -> None:
    view = client.get("/benchmarks.json?access=bench:Private").get_json()
    assert [row["identifier"] for row in view["rows"]] == ["shc_ptbm_med"]
    local = client.get("/benchmarks.json?local_data=data_path").get_json()
    assert "shc_ptbm_med" in [row["identifier"] for row in local["rows"]]
    gated = client.get("/benchmarks.json?hub_access=auto").get_json()
    assert [row["identifier"] for row in gated["rows"]] == ["toy_eval"]
    years = client.get("/benchmarks.json").get_json()["facets"]["year"]
    assert "2023" in str(years)


def test_the_paper_tells_its_homepage_apart(triples: set) -> None:
    assert (DOI_PAPER, SCHEMA.url, None) not in {(s, p, None) for s, p, o in triples}
