"""The controlled vocabularies, read from ``ontology/vocabularies.ttl`` (via ``graph.ontology``).

Code never names an individual such as ``bench:Gated``: it asks for the member of a
class whose ``skos:notation`` matches a record's value (compared as slugs, so
``MedHELM``, ``medhelm`` and ``med-helm`` all match), so a new suite or level is a
Turtle edit.
"""

from dataclasses import dataclass, field
from functools import cache

from rdflib import Graph, URIRef

from graph.namespace import BENCH, RDF, SKOS
from graph.ontology import ontology_graph
from graph.slug import slugify


@dataclass(frozen=True)
class Vocabulary:
    """Members of each controlled vocabulary, by class and slugged notation."""

    members: dict[URIRef, dict[str, URIRef]] = field(default_factory=dict)
    access_phrases: tuple[tuple[str, URIRef], ...] = ()
    """(phrase, access level): a page's access sentence starting with the phrase sets the level."""
    suite_harness: dict[URIRef, URIRef] = field(default_factory=dict)
    """Suite -> the harness it belongs to (``bench:harness``)."""

    _found: dict[tuple[URIRef, str], URIRef | None] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Answers of ``find`` so far: a build asks the same few questions many times."""

    def find(self, vocabulary_class: URIRef, value: str) -> URIRef | None:
        """The member of ``vocabulary_class`` whose notation matches ``value``, if any."""
        key = (vocabulary_class, value)
        try:
            return self._found[key]
        except KeyError:
            found = self._found[key] = self.members.get(vocabulary_class, {}).get(slugify(value))
            return found

    def harness_suite(self, harness: str, suite: str) -> URIRef | None:
        """The suite a harness calls ``suite`` (its catalog key ``harness``: ``helm``): the
        member with the notation ``{harness}_{suite}`` (``helm_lite``), else the suite whose
        own notation is ``suite`` if it belongs to that harness (``medhelm``). So a catalog
        tag ``lite`` puts nothing in HELM's suite: only its notation ``helm_lite`` does."""
        owner = self.find(BENCH.Harness, harness)
        for notation in (f"{harness}_{suite}", suite):
            found = self.find(BENCH.Suite, notation)
            if found is not None and self.suite_harness.get(found) == owner:
                return found
        return None

    def access_level_for(self, sentence: str) -> URIRef | None:
        """The access level a page's access sentence names, by its leading phrase."""
        folded = sentence.casefold()
        for phrase, level in self.access_phrases:
            if folded.startswith(phrase.casefold()):
                return level
        return None


def vocabulary_from(graph: Graph) -> Vocabulary:
    """The lookup tables of the vocabularies stated in ``graph``."""
    members: dict[URIRef, dict[str, URIRef]] = {}
    for member, notation in sorted(graph.subject_objects(SKOS.notation)):
        for vocabulary_class in graph.objects(member, RDF.type):
            assert isinstance(member, URIRef) and isinstance(vocabulary_class, URIRef)
            members.setdefault(vocabulary_class, {})[slugify(str(notation))] = member
    phrases = tuple(
        sorted(
            (
                (str(phrase), level)
                for level, phrase in graph.subject_objects(BENCH.accessPhrase)
                if isinstance(level, URIRef)
            ),
            key=lambda pair: (-len(pair[0]), pair[0]),
        )
    )
    suites = {suite: harness for suite, harness in graph.subject_objects(BENCH.harness)
              if isinstance(suite, URIRef) and isinstance(harness, URIRef)
              and suite in members.get(BENCH.Suite, {}).values()}
    return Vocabulary(members=members, access_phrases=phrases, suite_harness=suites)


@cache
def bundled_vocabulary() -> Vocabulary:
    """The vocabularies shipped in ``ontology/``, read once per process."""
    return vocabulary_from(ontology_graph())
