"""Field-level defects keep the record (DESIGN.md, "Defects: reject the file, or keep the
record"), on the fixtures of tests/data/defects/ (see its README).

For each defect: the record is catalogued, its value as written comes back from a SPARQL
query as a plain string, the load warning names the file and the field, and the
recommended shape named in the README flags it; the folder validates with no violation.
"""

import json
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from graph.build.graphs import GraphInMemory, build
from graph.dataset.oxigraph import to_rdflib
from graph.settings import Settings
from graph.sparql.named import ad_hoc_query
from graph.sparql.parameters import bind_parameters
from graph.store.base import Store
from graph.store.kinds import StoreSpec, open_store
from graph.validation.shapes import BSH
from graph.validation.validate import Severity, ValidationReport, validate

from .conftest import DATA

DEFECTS = DATA / "defects"
CATALOG = [DEFECTS]
BASE = Settings().base


@dataclass(frozen=True)
class Defect:
    file: str
    benchmark: str
    field: str
    value: str
    where: str
    """A SPARQL pattern binding ``?value`` from ``?benchmark``."""
    shape: str


CASES = [
    Defect("released-circa.json", "defect_released_circa", "page.released", "c. 2018",
           "?benchmark bench:released ?value", "CataloguedBenchmarkRecommendations-releaseDate"),
    Defect("released-sometime.json", "defect_released_sometime", "page.released",
           "sometime in 2019", "?benchmark bench:released ?value",
           "CataloguedBenchmarkRecommendations-releaseDate"),
    Defect("accessed-in-words.json", "defect_accessed", "page.sources[0].accessed", "last week",
           "?benchmark bench:source/bench:accessed ?value", "SourceRecommendations-accessedDate"),
    Defect("built-at-in-words.json", "defect_built_at", "build.built_at", "yesterday",
           "?record bench:describes ?benchmark ; prov:generatedAtTime ?value",
           "RecordRecommendations-builtAt"),
    Defect("arxiv-malformed.json", "defect_arxiv", "page.paper.arxiv", "12.34567x",
           "?benchmark bench:paper/bench:arxiv ?value", "PaperRecommendations-arxiv"),
    Defect("doi-malformed.json", "defect_doi", "page.paper.doi", "10/abc",
           "?benchmark bench:paper/bench:doi ?value", "PaperRecommendations-doi"),
    Defect("url-javascript.json", "defect_url_javascript", "page.repo_url", "javascript:alert(1)",
           "?benchmark schema:codeRepository ?value",
           "CataloguedBenchmarkRecommendations-codeRepository"),
    Defect("url-ftp.json", "defect_url_ftp", "page.sources[0].url", "ftp://x",
           "?benchmark bench:source/schema:url ?value", "WebAddressRecommendations"),
    Defect("name-blank.json", "defect_name_blank", "page.name", "   ",
           "?benchmark rdfs:label ?value", "NameRecommendations"),
    Defect("own-variant.json", "defect_own_variant", "page.lineage.variants[1]",
           "defect_own_variant", "?benchmark bench:ownVariant ?value",
           "CataloguedBenchmarkRecommendations-ownVariant"),
]
NO_DEFECT = ["paper-url-only.json", "paper-doi-only.json"]


@pytest.fixture(scope="module")
def report(built: GraphInMemory) -> ValidationReport:
    return validate(built.quads, Settings())


def select(store: Store, text: str, benchmark: str) -> list[tuple[object, ...]]:
    """The rows of a query whose ``$benchmark`` is bound to the benchmark with that id, its
    terms as rdflib's (the expectations below are written with them)."""
    query = ad_hoc_query(f"#+ title: defect\n#+ param: benchmark id — the benchmark\n{text}")
    answer = store.query(query.text, bindings=bind_parameters(query, {"benchmark": benchmark},
                                                              BASE))
    if answer.form == "ASK":
        return [(answer.boolean,)]
    return [tuple(None if term is None else to_rdflib(term) for term in row)
            for row in answer.rows]


def test_every_fixture_is_listed_here_and_in_the_readme() -> None:
    names = {path.name for path in DEFECTS.iterdir() if path.name != "README.md"}
    assert names == {case.file for case in CASES} | set(NO_DEFECT)
    readme = (DEFECTS / "README.md").read_text("utf-8")
    assert all(f"`{name}`" in readme for name in names)
    assert all(f"`{case.shape}`" in readme and f"`{case.field}`" in readme for case in CASES)


def test_no_file_is_rejected_and_each_defect_is_one_warning(built: GraphInMemory) -> None:
    assert built.report.rejected == []
    assert len(built.report.records) == len(CASES) + len(NO_DEFECT)
    assert sorted(w.path.name for w in built.report.warnings) == sorted(c.file for c in CASES)


def test_the_folder_validates_with_no_violation(report: ValidationReport) -> None:
    assert report.conforms, [str(r) for r in report.results if r.severity is Severity.VIOLATION]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.file)
def test_the_record_is_catalogued(store: Store, case: Defect) -> None:
    assert select(store, "ASK { $benchmark bench:catalogued true }", case.benchmark) == [(True,)]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.file)
def test_the_value_comes_back_verbatim_as_plain_text(store: Store, case: Defect) -> None:
    rows = select(store, f"SELECT ?value WHERE {{ {case.where} }}", case.benchmark)
    assert rows == [(Literal(case.value),)]
    (value,) = rows[0]
    assert isinstance(value, Literal) and value.datatype in (None, XSD.string)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.file)
def test_the_warning_names_the_file_and_the_field(built: GraphInMemory, case: Defect) -> None:
    (warning,) = [w for w in built.report.warnings if w.path.name == case.file]
    assert (warning.path, warning.field, warning.value) == (DEFECTS / case.file, case.field,
                                                            case.value)
    assert not case.value.strip() or case.value not in warning.reason  # the same for any value
    assert str(warning).startswith(f"{DEFECTS / case.file}: {case.field}: ")


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.file)
def test_a_recommended_shape_flags_it(report: ValidationReport, case: Defect) -> None:
    results = [r for r in report.results if r.source_file == case.file]
    assert {(r.shape, r.severity) for r in results if r.shape == BSH[case.shape]} == {
        (BSH[case.shape], Severity.WARNING)
    }
    flagged = [r.value for r in results if r.shape == BSH[case.shape]]
    assert flagged in ([Literal(case.value)], [None])  # maxCount 0 results carry no value


def test_the_other_variants_stay_links(store: Store) -> None:
    rows = select(store, "SELECT ?id WHERE { $benchmark bench:variant/dcterms:identifier ?id }"
                           " ORDER BY ?id", "defect_own_variant")
    assert rows == [(Literal("toy_other_variant"),), (Literal("toy_variant"),)]


# -- papers known only by URL or DOI -------------------------------------------------------


@pytest.mark.parametrize(("benchmark", "key", "label", "identifier"), [
    ("paper_url_only", "https_aclanthology_org_2023_acl_short_41",
     "https://aclanthology.org/2023.acl-short.41/", None),
    ("paper_doi_only", "10_18653_v1_2023_acl_short_41", "10.18653/v1/2023.acl-short.41",
     "10.18653/v1/2023.acl-short.41"),
])
def test_a_paper_known_by_url_or_doi_is_labelled_by_it(
    store: Store, benchmark: str, key: str, label: str, identifier: str | None
) -> None:
    rows = select(store, "SELECT ?paper ?label ?doi WHERE { $benchmark bench:paper ?paper . "
                           "?paper rdfs:label ?label OPTIONAL { ?paper bench:doi ?doi } }",
                  benchmark)
    doi = None if identifier is None else Literal(identifier)
    assert rows == [(URIRef(f"{BASE}paper/{key}"), Literal(label), doi)]


def test_a_missing_title_is_a_warning_not_a_violation(report: ValidationReport) -> None:
    for name in NO_DEFECT:
        results = [r for r in report.results if r.source_file == name]
        assert BSH["PaperRecommendations-title"] in {r.shape for r in results}
        assert all(r.severity is Severity.WARNING for r in results), name


def test_the_same_paper_in_any_form_is_one_node(tmp_path: Path) -> None:
    forms = {
        "a": {"arxiv": "2409.01545"},
        "b": {"arxiv": "arXiv:2409.01545v2"},
        "c": {"url": "https://arxiv.org/pdf/2409.01545v3.pdf"},
        "d": {"doi": "https://doi.org/10.48550/arXiv.2409.01545"},
        "e": {"arxiv": "https://arxiv.org/abs/2409.01545"},
    }
    for name, paper in forms.items():
        record = {"page": {"id": name, "name": name.upper(), "paper": paper}}
        (tmp_path / f"{name}.json").write_text(json.dumps(record), "utf-8")
    result = build([tmp_path], Settings())
    assert result.report.warnings == [] and result.report.rejected == []
    papers = {(s, o) for s, p, o, _ in result.quads if str(p).endswith("#paper")}
    assert {o for _, o in papers} == {URIRef(f"{BASE}paper/2409.01545")}
    arxiv = {o for _, p, o, _ in result.quads if str(p).endswith("#arxiv")}
    versions = {o.toPython() for _, p, o, _ in result.quads if str(p).endswith("#arxivVersion")}
    assert arxiv == {Literal("2409.01545")} and versions == {2, 3}


# -- the directory page path ------------------------------------------------------------------


def test_a_directory_page_release_date_in_words_is_kept_and_warned(tmp_path: Path) -> None:
    page = "Toy Directory Benchmark\nA toy page.\n- Made by\n- Toy Lab\n- Released\n- c. 2018\n"
    (tmp_path / "page.txt").write_text(page, "utf-8")
    result = build([tmp_path], Settings())
    assert result.report.rejected == []
    (warning,) = result.report.warnings
    assert (warning.path.name, warning.field, warning.value) == ("page.txt", "facts.released",
                                                                 "c. 2018")
    with closing(open_store(StoreSpec.parse("memory"), Settings(), built=result.records)) as store:
        rows = select(store, "SELECT ?value WHERE { $benchmark bench:released ?value }",
                      "toy_directory_benchmark")
    assert rows == [(Literal("c. 2018"),)]
    shapes = {r.shape for r in validate(result.quads, Settings()).results}
    assert BSH["CataloguedBenchmarkRecommendations-releaseDate"] in shapes


def test_a_directory_page_release_date_people_write_is_no_warning(tmp_path: Path) -> None:
    page = "Toy Directory Benchmark\nA toy page.\n- Released\n- 12 Jan 2019\n"
    (tmp_path / "page.txt").write_text(page, "utf-8")
    assert build([tmp_path], Settings()).report.warnings == []
