"""What DESIGN.md says the graph must say about the two seed records, asked as SPARQL."""

from decimal import Decimal

import pytest
from rdflib import Dataset, Literal, URIRef
from rdflib.namespace import XSD

from graph.build.graphs import GraphInMemory
from graph.namespace import PREFIXES

D = "https://w3id.org/benchgraph/"
RRS = URIRef(D + "benchmark/mimic_rrs")
CXR = URIRef(D + "benchmark/mimic_cxr_classification")
PROLOGUE = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items()) + f"PREFIX d: <{D}>\n"


def ask(ds: Dataset, query: str) -> list[tuple[object, ...]]:
    return [tuple(row) for row in ds.query(PROLOGUE + query)]  # type: ignore[arg-type]


def values(ds: Dataset, subject: str, path: str) -> set[object]:
    return {row[0] for row in ask(ds, f"SELECT DISTINCT ?v {{ {subject} {path} ?v }}")}


def test_seeds_load_without_warnings(seed_build: GraphInMemory) -> None:
    assert [loaded.key for loaded in seed_build.report.records] == [
        "000_501ccd0cd0e2608f",
        "002_e36a0be437d5fce5",
    ]
    assert seed_build.report.warnings == []
    assert seed_build.report.rejected == []


def test_all_gated_medhelm_is_mimic_rrs(seed_dataset: Dataset) -> None:
    rows = ask(
        seed_dataset,
        """SELECT ?id { ?b a bench:Benchmark ; bench:inSuite bench:MedHELM ;
        bench:accessLevel bench:Gated ; dcterms:identifier ?id }""",
    )
    assert rows == [(Literal("mimic_rrs"),)]


def test_all_gated_is_mimic_rrs_and_mimic_cxr(seed_dataset: Dataset) -> None:
    rows = ask(seed_dataset, "SELECT DISTINCT ?b { ?b bench:accessLevel bench:Gated }")
    assert {row[0] for row in rows} == {RRS, CXR}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("dcterms:identifier", {Literal("mimic_rrs")}),
        ("rdfs:label", {Literal("MIMIC-RRS (MedHELM)")}),
        ("skos:altLabel", {Literal("MIMIC RRS"), Literal("Radiology Report Summarization")}),
        ("bench:released", {Literal("2023", datatype=XSD.gYear)}),
        ("bench:status", {Literal("active")}),
        ("bench:category/rdfs:label", {Literal("domain")}),
        (
            "bench:subcategory/rdfs:label",
            {Literal("radiology findings-to-impression summarization")},
        ),
        (
            "bench:tag/skos:notation",
            {
                Literal(t)
                for t in (
                    "biomedical",
                    "radiology",
                    "summarization",
                    "medhelm",
                    "gated",
                    "llm-jury",
                )
            },
        ),
        ("bench:inSuite", {URIRef(PREFIXES["bench"] + "MedHELM")}),
        ("bench:accessLevel", {URIRef(PREFIXES["bench"] + "Gated")}),
        ("bench:harnessTask/bench:taskName", {Literal("mimic_rrs")}),
        ("bench:harnessTask/bench:harness", {URIRef(PREFIXES["bench"] + "HELM")}),
        ("bench:paper/bench:arxiv", {Literal("2211.08584")}),
        ("bench:paper/dcterms:issued", {Literal("2023", datatype=XSD.gYear)}),
        (
            "bench:paper/schema:url",
            {Literal("https://aclanthology.org/2023.acl-short.41/", datatype=XSD.anyURI)},
        ),
        (
            "bench:publisher/rdfs:label",
            {
                Literal("Stanford University"),
                Literal("The Chinese University of Hong Kong, Shenzhen"),
            },
        ),
        (
            "bench:publisherCredit/bench:note",
            {Literal("AIMI / CRFM MedHELM packaging"), Literal("Chen, Wan")},
        ),
        (
            "bench:publisherUrl",
            {Literal("https://crfm.stanford.edu/helm/medhelm/latest", datatype=XSD.anyURI)},
        ),
        ("bench:dataset/dcterms:language", {Literal("en")}),
        ("bench:dataset/bench:modality", {Literal("text")}),
        ("bench:dataset/bench:publicTestSet", {Literal(False)}),
        ("bench:dataset/bench:size", set()),
        ("bench:metric/bench:direction", {URIRef(PREFIXES["bench"] + "HigherIsBetter")}),
        # the store keeps a decimal in its canonical form: 5.0 as 5 (the same value)
        ("bench:metric/bench:maxScore", {Literal(Decimal(5))}),
        ("bench:metric/bench:unit", {Literal("points")}),
        ("bench:metric/bench:humanBaseline", set()),
        ("bench:metric/bench:randomBaseline", set()),
        ("bench:contaminationRisk/skos:notation", {Literal("low")}),
        ("bench:saturationStatus/skos:notation", {Literal("unknown")}),
        (
            "bench:leaderboard",
            {Literal("https://crfm.stanford.edu/helm/medhelm/latest", datatype=XSD.anyURI)},
        ),
        ("bench:variant/dcterms:identifier", {Literal("mimic_bhc"), Literal("mimic_repsum")}),
        (
            "bench:mentions/dcterms:identifier",
            {Literal("mimic_repsum"), Literal("mimic_bhc"), Literal("aci_bench")},
        ),
        (
            "bench:harnessNote",
            {
                Literal(
                    "MedHELM gated; helm-run needs data_path to a directory "
                    "with test.findings.tok and test.impression.tok"
                )
            },
        ),
    ],
)
def test_mimic_rrs_fact(seed_dataset: Dataset, path: str, expected: set[object]) -> None:
    assert (
        values(seed_dataset, "<https://w3id.org/benchgraph/benchmark/mimic_rrs>", path) == expected
    )


def test_mimic_rrs_texts_are_kept_verbatim(seed_dataset: Dataset) -> None:
    for path, start in [
        ("dcterms:abstract", "MedHELM's gated wrap of MIMIC-RRS"),
        ("bench:measures", "This id is HELM's mimic_rrs scenario."),
        ("bench:body", "\n## What it measures\n"),
        ("bench:taskFormat", "Zero-shot generation."),
        ("bench:contaminationNote", "MIMIC-III requires PhysioNet credentialing."),
        ("bench:saturationNote", "MedHELM reports the gated task"),
        ("bench:metric/bench:baselineNote", "Schema display name is MIMIC-RRS Jury Score."),
        ("bench:dataset/bench:licenseText", "PhysioNet credentialed access"),
        ("bench:dataset/bench:sizeNote", "Chen et al. Table 2"),
        ("bench:dataset/bench:splitsNote", "Chen et al. put CT abdomen/pelvis"),
    ]:
        (value,) = values(seed_dataset, "<https://w3id.org/benchgraph/benchmark/mimic_rrs>", path)
        assert str(value).startswith(start), path


def test_authors_in_order(seed_dataset: Dataset) -> None:
    rows = ask(
        seed_dataset,
        """SELECT ?name { <https://w3id.org/benchgraph/benchmark/mimic_rrs> bench:authorCredit ?c .
        ?c bench:position ?n ; bench:agent/rdfs:label ?name } ORDER BY ?n""",
    )
    assert [str(r[0]) for r in rows] == [
        "Zhihong Chen",
        "Maya Varma",
        "Xiang Wan",
        "Curtis Langlotz",
        "Jean-Benoit Delbrouck",
    ]


def test_eight_sources_with_titles_urls_dates(seed_dataset: Dataset) -> None:
    rows = ask(
        seed_dataset,
        f"""SELECT ?n ?title ?url ?accessed {{ <{RRS}> bench:source ?s .
        ?s bench:position ?n ; dcterms:title ?title ; schema:url ?url ;
           bench:accessed ?accessed }} ORDER BY ?n""",
    )
    assert len(rows) == 8
    assert str(rows[0][1]).startswith("HELM mimic_rrs_scenario.py")
    assert str(rows[7][2]) == "https://github.com/stanford-crfm/helm/blob/main/docs/medhelm.md"
    assert {r[3] for r in rows} == {Literal("2026-09-08", datatype=XSD.date)}


def test_record_bookkeeping(seed_dataset: Dataset) -> None:
    record = "<https://w3id.org/benchgraph/record/000_501ccd0cd0e2608f>"
    expected = {
        "bench:describes": {RRS},
        "bench:pageKind": {Literal("benchmark")},
        "bench:researched": {Literal("2026-09-08", datatype=XSD.date)},
        "bench:researchedBy": {Literal("Grok Build, batch-006 (Codex coordinated)")},
        "bench:reviewedBy": {Literal("Grok Build independent review, batch-006")},
        "bench:commit": {Literal("0a599558854c0e238c03a0f0d725239cb28f9d11")},
        "prov:generatedAtTime": {Literal("2026-09-09T16:56:50+00:00", datatype=XSD.dateTime)},
        "bench:eligibilityAsOf": {Literal("2026-09-09", datatype=XSD.date)},
        "bench:canonicalId": {Literal("mimic_rrs")},
        "bench:dispositionStatus": {Literal("unassessed")},
        "bench:sourceFile": {Literal("000_501ccd0cd0e2608f.txt")},
    }
    for path, value in expected.items():
        assert values(seed_dataset, record, path) == value, path


def test_mimic_cxr_directory_page(seed_dataset: Dataset) -> None:
    subject = "<https://w3id.org/benchgraph/benchmark/mimic_cxr_classification>"
    expected = {
        "rdfs:label": {Literal("MIMIC-CXR (classification)")},
        "bench:accessLevel": {URIRef(PREFIXES["bench"] + "Gated")},
        "bench:accessStatement": {Literal("Access needs PhysioNet credentials.")},
        "bench:publisher/rdfs:label": {
            Literal("MIT Laboratory for Computational Physiology"),
            Literal("Beth Israel Deaconess Medical Center"),
        },
        "bench:publisherNote": {Literal("Johnson et al.")},
        "bench:released": {Literal("2019-01", datatype=XSD.gYearMonth)},
        "bench:subcategory/rdfs:label": {Literal("Medicine")},
        "bench:level": {Literal("Expert")},
        "bench:scoring": {Literal("Checked automatically")},
        "bench:answerFormat": {Literal("Short answer")},
        "bench:taskAvailability": {Literal("All public")},
        "bench:scoresHeading": {Literal("No scores here yet")},
        "bench:result": set(),
        "bench:modelCardSurvey/bench:reportedInModelCards": {Literal(False)},
        "bench:modelCardSurvey/bench:launchPosts": {Literal(522)},
        "bench:modelCardSurvey/bench:labs": {Literal(52)},
        "bench:category/rdfs:label": {Literal("Law, finance and medicine")},
    }
    for path, value in expected.items():
        assert values(seed_dataset, subject, path) == value, path
    (note,) = values(seed_dataset, subject, "bench:accessNote")
    assert str(note).startswith("Google reports two test sets")
    (words,) = values(seed_dataset, subject, "bench:authorsWords")
    assert str(words).startswith("Chest radiography is an extremely powerful imaging modality")


def test_related_entries_with_top_scores(seed_dataset: Dataset) -> None:
    rows = ask(
        seed_dataset,
        """SELECT ?title ?status ?model ?score ?unit {
        <https://w3id.org/benchgraph/benchmark/mimic_cxr_classification> bench:relatedBenchmark ?b .
        ?b rdfs:label ?title ; bench:status ?status ; dcterms:abstract ?summary ;
           bench:result ?r . ?r bench:model/rdfs:label ?model ;
           bench:score ?score ; bench:unit ?unit }""",
    )
    assert {(str(t), str(s), str(m), str(v), str(u)) for t, s, m, v, u in rows} == {
        ("MedXpertQA-MM", "In use", "Qwen 3.8 Max", "80.4", "percent"),
        ("HealthBench Professional", "In use", "Claude Sonnet 5.5", "69.2", "percent"),
        ("HealthBench", "In use", "GPT-5", "67.2", "percent"),
        ("FinSearchComp", "In use", "Ling-3.1-flash", "81.7", "percent"),
        ("KBL", "In use", "Solar Pro 4", "77.5", "percent"),
        ("KorMedMCQA", "In use", "Solar Pro 4", "93.2", "percent"),
    }


def test_catalogued_lives_in_the_build_graph(seed_dataset: Dataset) -> None:
    rows = ask(
        seed_dataset,
        """SELECT ?id ?c { GRAPH d:build { ?b bench:catalogued ?c }
        ?b dcterms:identifier ?id }""",
    )
    catalogued = {str(i): c.toPython() for i, c in rows}
    assert catalogued["mimic_rrs"] is True
    assert catalogued["mimic_cxr_classification"] is True
    for stub in ("mimic_bhc", "mimic_repsum", "aci_bench", "healthbench", "kbl"):
        assert catalogued[stub] is False
    in_records = ask(
        seed_dataset, "SELECT ?g { GRAPH ?g { ?b bench:catalogued ?c } FILTER(?g != d:build) }"
    )
    assert in_records == []


def test_solar_pro_4_is_one_shared_model_node(seed_dataset: Dataset) -> None:
    rows = ask(
        seed_dataset,
        """SELECT (COUNT(DISTINCT ?r) AS ?n) {
        ?r bench:model <https://w3id.org/benchgraph/model/solar_pro_4> }""",
    )
    assert rows == [(Literal(2),)]
