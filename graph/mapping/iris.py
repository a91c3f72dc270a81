"""Minting IRIs under the data base IRI: the identifier rules of DESIGN.md in one place."""

from dataclasses import dataclass

from rdflib import URIRef

from graph.slug import node_key


@dataclass(frozen=True)
class Iris:
    """IRIs of the data, under ``base`` (``https://w3id.org/benchgraph/`` by default)."""

    base: str

    def benchmark(self, benchmark_id: str) -> URIRef:
        return URIRef(f"{self.base}benchmark/{benchmark_id}")

    def part(self, owner: URIRef, *path: str) -> URIRef:
        """A node with no identity of its own: its owner's IRI plus a path."""
        return URIRef("/".join((owner, *path)))

    def org(self, name: str) -> URIRef:
        return URIRef(f"{self.base}org/{node_key(name)}")

    def person(self, name: str) -> URIRef:
        return URIRef(f"{self.base}person/{node_key(name)}")

    def paper(self, key: str) -> URIRef:
        return URIRef(f"{self.base}paper/{key}")

    def model(self, name: str) -> URIRef:
        return URIRef(f"{self.base}model/{node_key(name)}")

    def tag(self, name: str) -> URIRef:
        return URIRef(f"{self.base}tag/{node_key(name)}")

    def category(self, name: str) -> URIRef:
        return URIRef(f"{self.base}category/{node_key(name)}")

    def record(self, key: str) -> URIRef:
        return URIRef(f"{self.base}record/{key}")

    def record_key(self, record: URIRef) -> str:
        """The key a record IRI was minted from."""
        return record.removeprefix(f"{self.base}record/")

    def build(self) -> URIRef:
        return URIRef(f"{self.base}build")


def arxiv_key(arxiv_id: str) -> str:
    """A paper's key from its arXiv id: old-style ``hep-th/9901001`` becomes ``hep-th_9901001``."""
    return arxiv_id.replace("/", "_")
