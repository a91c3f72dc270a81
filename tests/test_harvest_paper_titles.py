"""Titles the harvest reads where a source states them beside its link to the paper: a HELM
docstring's one citation with its one ``Paper:`` line, an inspect_evals README's link text."""

import ast
from typing import cast

from graph.ingest.harvest.bibtex import citations
from graph.ingest.harvest.helm import _cited_papers
from graph.ingest.harvest.helm_code import Scenario, _paper_links
from graph.ingest.harvest.inspect_evals import _titled
from graph.ingest.harvest.link_titles import LinkTitle, link_titles
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.records.harness_snapshot import Paper

_TOY = """
    A toy scenario.

    Paper: https://arxiv.org/abs/2401.00001

    @inproceedings{toy2024,
      title={Toys All the Way Down: A Benchmark},
      author={Poe, Paula},
      year={2024}
    }
"""
_OTHER = """
    @misc{other2023, title={Another Toy Paper}, author={Roe, Richard}, year={2023}}
"""


class _Warnings:
    """A reader that keeps its warnings: the refused pairings warn as before."""

    def __init__(self) -> None:
        self.warned: list[str] = []

    def warn(self, name: str, reason: str, field: str | None = None,
             value: str | None = None) -> None:
        self.warned.append(reason)


def _scenario(docstring: str) -> Scenario:
    module = ast.parse(f'class ToyScenario:\n    """{docstring}"""\n')
    node = module.body[0]
    assert isinstance(node, ast.ClassDef)
    found, _ = citations(docstring)
    return Scenario("toy.py", "ToyScenario", (), (), tuple(found), _paper_links(node))


def _papers(docstring: str) -> list[Paper]:
    reader = cast(MemberReader, _Warnings())
    return _cited_papers("toy", [Paper(arxiv="2401.00001")], [_scenario(docstring)], reader)


def test_one_citation_without_ids_is_the_paper_of_the_one_paper_line() -> None:
    (paper,) = _papers(_TOY)
    assert (paper.arxiv, paper.title, paper.cite_key) == (
        "2401.00001", "Toys All the Way Down: A Benchmark", "toy2024")


def test_two_citations_beside_one_paper_line_are_not_paired() -> None:
    (paper,) = _papers(_TOY + _OTHER)
    assert paper.title is None and paper.cite_key is None


def test_a_paper_line_to_another_arxiv_paper_pairs_nothing() -> None:
    (paper,) = _papers(_TOY.replace("2401.00001", "2401.00002"))
    assert paper.title is None


def test_a_citation_with_a_doi_names_its_own_paper() -> None:
    (paper,) = _papers(_TOY.replace("year={2024}", "year={2024},\n      doi={10.9999/toy}"))
    assert paper.title is None


def test_a_link_stated_as_the_paper_gives_its_text_as_the_title() -> None:
    readme = ("# Toy Bench\n\n- Paper: [Toy Bench: Measuring Toys at Scale]"
              "(https://arxiv.org/abs/2401.00001v2)\n")
    assert link_titles(readme) == [LinkTitle("2401.00001", "Toy Bench: Measuring Toys at Scale")]
    (paper,) = _titled([Paper(arxiv="2401.00001")], readme)
    assert paper.title == "Toy Bench: Measuring Toys at Scale"


def test_a_short_name_or_an_unannounced_link_is_no_title() -> None:
    readme = ("# Toy Bench\n\n[Toy Bench](https://arxiv.org/abs/2401.00001) is introduced in "
              "[GSM8K](https://arxiv.org/abs/2110.14168). See "
              "[Measuring Toys at Scale for Real](https://arxiv.org/abs/2401.00003).\n")
    assert link_titles(readme) == []
    (paper,) = _titled([Paper(arxiv="2401.00001")], readme)
    assert paper.title is None


def test_the_readmes_own_heading_as_link_text_is_a_name() -> None:
    readme = ("# Bias in Toy Language Dataset (BTLD)\n\nSee the original paper: "
              "[Bias in Toy Language Dataset](https://arxiv.org/abs/2401.00001).\n")
    assert link_titles(readme) == []


def test_a_titled_paper_keeps_its_title() -> None:
    readme = "Paper: [A Title the README Gives](https://arxiv.org/abs/2401.00001)\n"
    (paper,) = _titled([Paper(arxiv="2401.00001", title="Its Citation's Title")], readme)
    assert paper.title == "Its Citation's Title"
