"""Minting IRIs under the data base IRI: the identifier rules of DESIGN.md in one place.

Every IRI is the validated base (``Settings.base``) plus slugs, ids, keys and numbers,
none of which can hold a character an IRI forbids, so they are built without re-checking.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from rdflib import URIRef

from graph.dataset.terms import iri
from graph.slug import node_key


@dataclass(frozen=True)
class Iris:
    """IRIs of the data, under ``base`` (``https://w3id.org/benchgraph/`` by default)."""

    base: str
    _minted: dict[str, URIRef] = field(default_factory=dict, compare=False, repr=False)
    """Each IRI made once: a node named again is the very same object, which every dictionary
    and set downstream then finds by identity (rdflib's term ``__eq__`` is Python code)."""

    _named: dict[tuple[str, str], URIRef] = field(default_factory=dict, compare=False, repr=False)
    """The node of each (kind, name) met so far: a name met again costs one lookup, no slug."""

    def _iri(self, text: str) -> URIRef:
        node = self._minted.get(text)
        if node is None:
            node = self._minted[text] = iri(text)
        return node

    def _node(self, kind: str, name: str) -> URIRef:
        """``{base}{kind}/{node_key(name)}``."""
        node = self._named.get((kind, name))
        if node is None:
            node = self._named[kind, name] = self._iri(f"{self.base}{kind}/{node_key(name)}")
        return node

    def benchmark(self, benchmark_id: str) -> URIRef:
        return self._iri(f"{self.base}benchmark/{benchmark_id}")

    def part(self, owner: URIRef, *path: str) -> URIRef:
        """A node with no identity of its own: its owner's IRI plus a path."""
        return self._iri("/".join((owner, *path)))

    def org(self, name: str) -> URIRef:
        return self._node("org", name)

    def person(self, name: str) -> URIRef:
        return self._node("person", name)

    def paper(self, key: str) -> URIRef:
        return self._iri(f"{self.base}paper/{key}")

    def model(self, name: str) -> URIRef:
        return self._node("model", name)

    def tag(self, name: str) -> URIRef:
        return self._node("tag", name)

    def category(self, name: str) -> URIRef:
        return self._node("category", name)

    def package(self, name: str, version: str) -> URIRef:
        """A harness package at one version: ``{base}package/crfm_helm_0_5_16``."""
        return self._node("package", f"{name} {version}")

    def suite(self, suite_id: str) -> URIRef:
        """A harness's grouping of other benchmarks (``{base}suite/lm_eval_leaderboard``); the
        vocabularies' suites (``bench:MedHELM``) are the ontology's."""
        return self._iri(f"{self.base}suite/{suite_id}")

    def repository(self, url: str, commit: str) -> URIRef:
        """A source repository at one commit:
        ``{base}repository/github_com_stanford_crfm_helm_ef439fc94e58``."""
        return self._node("repository", f"{url.split('://', 1)[-1]} {commit[:12]}")

    def record(self, key: str) -> URIRef:
        return self._iri(f"{self.base}record/{key}")

    def record_key(self, record: URIRef) -> str:
        """The key a record IRI was minted from."""
        return record.removeprefix(f"{self.base}record/")

    def build(self) -> URIRef:
        return self._iri(f"{self.base}build")


def arxiv_key(arxiv_id: str) -> str:
    """A paper's key from its arXiv id (without a version): old-style ``hep-th/9901001``
    becomes ``hep-th_9901001``."""
    return arxiv_id.replace("/", "_")


def paper_key(arxiv_id: str | None, doi: str | None, names: Iterable[str | None]) -> str | None:
    """The key of a paper's IRI, ``{base}paper/{key}``: its arXiv id (without a version,
    so that every version of a paper is one node), else its DOI slugged (``10.1145/3442188``
    -> ``10_1145_3442188``: a DOI is the same in any case), else the first of ``names``
    (title, URL...) that it has, slugged; None for a paper with none of them."""
    if arxiv_id is not None:
        return arxiv_key(arxiv_id)
    if doi is not None:
        return node_key(doi)
    name = next((name for name in names if name is not None), None)
    return None if name is None else node_key(name)
