"""Paper identifiers: the forms of an arXiv id or a DOI that mean one thing are read as it,
any other form is not; a paper's key and label follow one order."""

import pytest

from graph.ingest.records.identifiers import arxiv_id, arxiv_in, doi, doi_in_url, split_version
from graph.mapping.iris import paper_key


@pytest.mark.parametrize(("text", "expected"), [
    ("2409.01545", "2409.01545"),
    ("2409.01545v2", "2409.01545v2"),
    ("0704.0001", "0704.0001"),
    ("hep-th/9901001", "hep-th/9901001"),
    ("math.GT/0309136v1", "math.GT/0309136v1"),
    ("arXiv:2409.01545", "2409.01545"),
    ("ARXIV: 2409.01545v3", "2409.01545v3"),
    (" arXiv:2409.01545 ", "2409.01545"),
    ("https://arxiv.org/abs/2409.01545v2", "2409.01545v2"),
    ("https://arxiv.org/pdf/2409.01545", "2409.01545"),
    ("https://arxiv.org/pdf/2409.01545v1.pdf", "2409.01545v1"),
    ("http://www.arxiv.org/abs/2409.01545/", "2409.01545"),
    ("https://export.arxiv.org/abs/2409.01545?context=cs", "2409.01545"),
    ("arxiv.org/abs/2409.01545", "2409.01545"),
    ("https://arxiv.org/html/2409.01545v1", "2409.01545v1"),
    ("https://arxiv.org/abs/hep-th/9901001v2", "hep-th/9901001v2"),
    ("arxiv.org/pdf/math.GT/0309136", "math.GT/0309136"),
    ("10.48550/arXiv.2409.01545", "2409.01545"),
    ("https://doi.org/10.48550/arXiv.2409.01545", "2409.01545"),
    ("doi:10.48550/ARXIV.2409.01545", "2409.01545"),
    # not an arXiv id, in any form
    ("12.34567x", None), ("2211.085", None), ("22110.8584", None), ("hep-th/99", None),
    ("2211.08584v", None), ("arXiv 2211.08584", None), ("2409.01545.pdf", None),
    ("https://arxiv.org/a/smith_j_1", None), ("https://arxiv.org/list/cs.CL/new", None),
    ("https://example.org/abs/2409.01545", None), ("", None),
])
def test_arxiv_forms(text: str, expected: str | None) -> None:
    assert arxiv_id(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("10.18653/v1/2023.acl-short.41", "10.18653/v1/2023.acl-short.41"),
    ("doi:10.1145/3442188.3445922", "10.1145/3442188.3445922"),
    ("DOI: 10.1145/3442188.3445922", "10.1145/3442188.3445922"),
    ("https://doi.org/10.1145/3442188.3445922", "10.1145/3442188.3445922"),
    ("http://dx.doi.org/10.1145/3442188.3445922", "10.1145/3442188.3445922"),
    ("doi.org/10.1000.10/123", "10.1000.10/123"),
    ("10/abc", None), ("10.12/abc", None), ("10.1145", None), ("10.1145/", None),
    ("https://example.org/10.1145/1", None), ("doi 10.1145/1", None),
])
def test_doi_forms(text: str, expected: str | None) -> None:
    assert doi(text) == expected


def test_identifiers_in_a_paper_url() -> None:
    assert arxiv_in("https://arxiv.org/abs/2409.01545v2") == "2409.01545v2"
    assert arxiv_in("https://aclanthology.org/2023.acl-short.41/") is None
    assert doi_in_url("https://doi.org/10.1145/3442188.3445922") == "10.1145/3442188.3445922"
    assert doi_in_url("https://aclanthology.org/2023.acl-short.41/") is None


@pytest.mark.parametrize(("arxiv", "split"), [
    ("2409.01545v2", ("2409.01545", 2)), ("2409.01545", ("2409.01545", None)),
    ("hep-th/9901001v12", ("hep-th/9901001", 12)), ("solv-int/9901001", ("solv-int/9901001", None)),
])
def test_split_version(arxiv: str, split: tuple[str, int | None]) -> None:
    assert split_version(arxiv) == split


def test_paper_keys_prefer_an_identifier_then_a_name() -> None:
    names = ("A Paper: Its Title", "https://example.org/paper")
    assert paper_key("hep-th/9901001", "10.1145/1", names) == "hep-th_9901001"
    assert paper_key(None, "10.1145/3442188.3445922", names) == "10_1145_3442188_3445922"
    assert paper_key(None, "10.1145/ABC", ()) == paper_key(None, "10.1145/abc", ())  # any case
    assert paper_key(None, None, names) == "a_paper_its_title"
    assert paper_key(None, None, (None, "https://example.org/paper")) == "https_example_org_paper"
    assert paper_key(None, None, (None, None)) is None
