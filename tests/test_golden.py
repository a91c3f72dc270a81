"""Each seed's record graph equals the expected graph kept in tests/data/golden/ (as graphs),
each literal in the form a store keeps it (both are read through one: ``5.0`` as ``5``).

To accept a deliberate change of the mapping, regenerate the files and review the diff:
``python -m tests.test_golden`` rewrites them.
"""

from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Graph
from rdflib.compare import graph_diff, to_isomorphic

from graph.build.graphs import build
from graph.dataset.oxigraph import to_rdflib
from graph.mapping.iris import Iris
from graph.resources import data_dir
from graph.settings import Settings
from tests.seeds import SEEDS

GOLDEN = Path(__file__).parent / "data" / "golden"
SEED_NAMES = sorted(path.name for path in SEEDS)


def record_graph(seed: str) -> Graph:
    """The named graph of ``seed`` built on its own (no other record resolves its titles)."""
    settings = Settings()
    result = build([data_dir("catalog") / seed], settings)
    (loaded,) = result.report.records
    name = Iris(settings.base).record(loaded.key)
    graph = Graph()
    for s, p, o, g in result.quads:
        if g == name:
            graph.add((s, p, o))
    return graph


def readable_diff(expected: Graph, actual: Graph) -> str:
    _, only_expected, only_actual = graph_diff(to_isomorphic(expected), to_isomorphic(actual))
    lines = [f"- {' '.join(t.n3() for t in triple)}" for triple in sorted(only_expected)]
    lines += [f"+ {' '.join(t.n3() for t in triple)}" for triple in sorted(only_actual)]
    return "\n".join(lines)


def golden_graph(seed: str) -> Graph:
    """The golden file of ``seed``, read through a store as the build's graph is."""
    store = ox.Store()
    store.load(path=GOLDEN / f"{Path(seed).stem}.ttl", format=ox.RdfFormat.TURTLE)
    graph = Graph()
    for quad in store:
        graph.add((to_rdflib(quad.subject), to_rdflib(quad.predicate), to_rdflib(quad.object)))
    return graph


@pytest.mark.parametrize("seed", SEED_NAMES)
def test_seed_graph_matches_golden(seed: str) -> None:
    expected = golden_graph(seed)
    actual = record_graph(seed)
    assert to_isomorphic(expected) == to_isomorphic(actual), "\n" + readable_diff(expected, actual)


def test_golden_files_cover_every_seed() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.ttl")) == sorted(Path(s).stem for s in SEED_NAMES)


if __name__ == "__main__":
    for seed in SEED_NAMES:
        graph = record_graph(seed)
        from graph.namespace import PREFIXES

        for prefix, iri in PREFIXES.items():
            graph.bind(prefix, iri)
        graph.serialize(GOLDEN / f"{Path(seed).stem}.ttl", format="turtle")
