"""BibTeX citations as the harnesses write them, and the check against the paper they state."""

from graph.ingest.harvest.bibtex import check, citations
from graph.ingest.records.harness_snapshot import Paper
from graph.titles import same_title

ODD = r"""
Some README text with an e-mail, someone@example.org, and a stray @ sign.

```bibtex
@string{iclr = "ICLR"}
@comment{this is no entry}
@inproceedings{muller2021,
  title     = {{ThreeD}: {\"U}ber {M}odels and {L}a{T}e{X}},
  author    = {M{\"u}ller, J{\"o}rg and van der Berg, Anna and Li, Jr., Wei and others},
  booktitle = {Proceedings of {EMNLP}},
  year      = {2021},
  doi       = {https://doi.org/10.18653/v1/2021.emnlp-main.1},
  note      = {nested {braces {deep}} here},
}
@article{preprint2023,
  title={A Preprint},
  author={Ada Lovelace},
  journal={arXiv preprint arXiv:2305.01234},
  year={c. 2023},
}
@misc{eprinted, title={Eprinted}, eprint={2401.00001v3}, archivePrefix={arXiv},
  url={https://github.com/x/y}}
@article{commas, title={Commas}, author={One, Two, Three, Four}}
@misc{unbalanced, title={Never closed
"""


def test_odd_fields_read_as_plain_unicode() -> None:
    found, _unread = citations(ODD)
    assert [c.key for c in found] == ["muller2021", "preprint2023", "eprinted"]
    first = found[0]
    assert first.title == "ThreeD: Über Models and LaTeX"
    assert first.authors == ("Jörg Müller", "Anna van der Berg", "Wei Li Jr.")
    assert (first.year, first.venue, first.doi) == (2021, "Proceedings of EMNLP",
                                                    "10.18653/v1/2021.emnlp-main.1")


def test_an_arxiv_journal_is_no_venue_but_an_id_and_a_year_in_words_is_none() -> None:
    preprint = citations(ODD)[0][1]
    assert (preprint.venue, preprint.arxiv, preprint.year) == (None, "2305.01234", None)


def test_an_eprint_gives_the_id_without_version_and_a_code_link_stays_a_link() -> None:
    eprinted = citations(ODD)[0][2]
    assert (eprinted.arxiv, eprinted.url) == ("2401.00001", "https://github.com/x/y")


def test_an_entry_pybtex_cannot_read_is_named_with_its_reason() -> None:
    unread = citations(ODD)[1]
    assert [u.text for u in unread] == ["@article{commas, title={Commas}, "
                                        "author={One, Two, Three, Four}}",
                                        "@misc{unbalanced, title={Never closed"]
    assert all(u.reason for u in unread)


def test_a_citation_agreeing_by_id_or_title_adds_its_facts() -> None:
    citation = citations(ODD)[0][1]
    stated = Paper(arxiv="2305.01234", title="Something the README calls it")
    merged = check(stated, citation)
    assert merged is not None
    assert (merged.arxiv, merged.authors, merged.cite_key) == (
        "2305.01234", ["Ada Lovelace"], "preprint2023")
    assert merged.title == "Something the README calls it"


def test_a_title_cut_at_a_line_break_agrees_and_takes_the_whole() -> None:
    (citation,), _ = citations("@article{k, title={Measuring Massive Multitask Language "
                               "Understanding}, year={2021}}")
    merged = check(Paper(title="Measuring Massive Multitask"), citation)
    assert merged is not None and merged.title == (
        "Measuring Massive Multitask Language Understanding")
    assert merged.year == 2021


def test_a_citation_of_another_paper_is_refused() -> None:
    (citation,), _ = citations("@article{hendrycks2021ethics\n title={Aligning AI With Shared "
                               "Human Values},\n year={2021}\n}")
    assert check(Paper(title="Pointer Sentinel Mixture Models", arxiv="1609.07843"),
                 citation) is None
    assert check(Paper(arxiv="1609.07843"), citations(
        "@misc{x, eprint={2008.02275}, title={Aligning AI}}")[0][0]) is None


def test_with_nothing_stated_the_citation_is_the_statement() -> None:
    (citation,), _ = citations("@misc{k, title={Alone}, author={A. Person}}")
    paper = check(None, citation)
    assert paper is not None and (paper.title, paper.authors) == ("Alone", ["A. Person"])
    (bare,), _ = citations("@misc{k, author={A. Person}}")
    assert check(None, bare) is None


def test_titles_compare_as_words() -> None:
    assert same_title("BoolQ: Exploring the Surprising Difficulty",
                      "{BoolQ}: exploring the surprising difficulty of natural yes/no questions")
    assert not same_title("Big Bench", "Big Bench Hard")
    assert same_title("Crème brûlée", "creme BRULEE!")


def test_arxivs_own_doi_is_the_arxiv_id() -> None:
    (citation,), _ = citations("@misc{k, title={T}, doi={10.48550/arXiv.2305.01234}}")
    assert (citation.arxiv, citation.doi) == ("2305.01234", None)


def test_a_paper_known_by_a_link_agrees_only_with_that_link() -> None:
    (same, other), _ = citations("@misc{a, title={A}, url={https://aclanthology.org/x/}}"
                                 "@misc{b, title={B}, url={https://example.org/y}}")
    stated = Paper(url="https://aclanthology.org/x")
    assert check(stated, same) is not None
    assert check(stated, other) is None
