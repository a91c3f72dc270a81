"""Splitting a makers text (a catalog page's ``publisher.org``, a directory page's "Made by")
into organisations, each with its notes, and notes about the group."""

from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from graph.build.graphs import build
from graph.mapping.organizations import OrganizationMention as Org
from graph.mapping.organizations import split_makers
from graph.namespace import BENCH, RDFS
from graph.settings import Settings

CASES: list[tuple[str, list[Org], list[str]]] = [
    # The seeds.
    ("Stanford University (AIMI / CRFM MedHELM packaging); "
     "The Chinese University of Hong Kong, Shenzhen (Chen, Wan)",
     [Org("Stanford University", ("AIMI / CRFM MedHELM packaging",)),
      Org("The Chinese University of Hong Kong, Shenzhen", ("Chen, Wan",))], []),
    ("MIT Laboratory for Computational Physiology and Beth Israel Deaconess Medical Center "
     "(Johnson et al.)",
     [Org("MIT Laboratory for Computational Physiology"),
      Org("Beth Israel Deaconess Medical Center")], ["Johnson et al."]),
    # The shapes issue 8 found split badly.
    ("New York University, Cohere and Anthropic",
     [Org("New York University"), Org("Cohere"), Org("Anthropic")], []),
    ("the Allen Institute for AI", [Org("Allen Institute for AI")], []),
    ("Stanford University (Guha et al.) with contributions from 40 legal professionals, "
     "law firms and NYU",
     [Org("Stanford University", ("Guha et al.", "with contributions from 40 legal "
                                  "professionals, law firms and NYU"))], []),
    # Commas and "and".
    ("Google, Meta, and OpenAI", [Org("Google"), Org("Meta"), Org("OpenAI")], []),  # Oxford comma
    ("University of Washington and the Allen Institute for AI",
     [Org("University of Washington"), Org("Allen Institute for AI")], []),
    ("University of California, Berkeley, Stanford University, and the University of Washington",
     [Org("University of California, Berkeley"), Org("Stanford University"),
      Org("University of Washington")], []),
    ("Nanyang Technological University, Singapore",
     [Org("Nanyang Technological University, Singapore")], []),
    ("Harvard University, Stanford and MIT",  # a city that is also a university: three makers
     [Org("Harvard University"), Org("Stanford"), Org("MIT")], []),
    ("Google, Shenzhen", [Org("Google"), Org("Shenzhen")], []),  # a place after a company
    ("Acme, Inc. and Foo, LLC", [Org("Acme, Inc."), Org("Foo, LLC")], []),
    ("Hong Kong University of Science and Technology",
     [Org("Hong Kong University of Science and Technology")], []),
    ("University of Science and Technology of China and Microsoft Research",
     [Org("University of Science and Technology of China"), Org("Microsoft Research")], []),
    ("Meta in collaboration with New York University",
     [Org("Meta"), Org("New York University")], []),
    ("The Alan Turing Institute", [Org("The Alan Turing Institute")], []),  # a capital The stays
    # Notes.
    ("A (x) and B (y)", [Org("A", ("x",)), Org("B", ("y",))], []),
    ("A, B and C (Smith et al.)", [Org("A"), Org("B"), Org("C")], ["Smith et al."]),
    ("Lab (team (inner)); Other", [Org("Lab", ("team (inner)",)), Org("Other")], []),
    ("Lab (data) (hosting)", [Org("Lab", ("data", "hosting"))], []),
    ("Google DeepMind et al.", [Org("Google DeepMind", ("et al.",))], []),
    ("Johnson et al., MIT", [Org("MIT")], ["Johnson et al."]),
    ("OpenAI and Anthropic, with support from the UK AI Security Institute",
     [Org("OpenAI"), Org("Anthropic")], ["with support from the UK AI Security Institute"]),
    ("EleutherAI (funded by a grant, and more)",
     [Org("EleutherAI", ("funded by a grant, and more",))], []),
    ("Lab (unclosed", [Org("Lab (unclosed")], []),
    # Nothing to split.
    ("OpenAI", [Org("OpenAI")], []),
    ("A; ; B", [Org("A"), Org("B")], []),
    ('O\'Reilly "Labs" {#}', [Org('O\'Reilly "Labs" {#}')], []),
]


@pytest.mark.parametrize(("text", "organizations", "group_notes"), CASES,
                         ids=[text[:40] for text, _, _ in CASES])
def test_split_makers(text: str, organizations: list[Org], group_notes: list[str]) -> None:
    makers = split_makers(text)
    assert (list(makers.organizations), list(makers.group_notes)) == (organizations, group_notes)


def test_every_note_of_a_credit_reaches_the_graph(tmp_path: Path) -> None:
    (tmp_path / "page.txt").write_text(
        "LegalBench\nLegal reasoning tasks.\n- Made by\n"
        "- Stanford University (Guha et al.) with contributions from 40 legal professionals\n",
        encoding="utf-8")
    built = build([tmp_path], Settings())
    credit = URIRef(f"{Settings().base}benchmark/legalbench/publisher/1")
    assert {str(o) for s, p, o, _ in built.quads if s == credit and p == BENCH.note} == \
        {"Guha et al.", "with contributions from 40 legal professionals"}
    orgs = {o for s, p, o, _ in built.quads if p == BENCH.publisher}
    assert [str(o) for s, p, o, _ in built.quads if s in orgs and p == RDFS.label] == \
        ["Stanford University"]
    assert (credit, BENCH.position, Literal(1)) in {(s, p, o) for s, p, o, _ in built.quads}
