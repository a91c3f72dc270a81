"""A term table restored from its snapshot (``TermTable.restored``) looks its terms up by
their N-Triples form: every way of stating a kept term gives its kept id, and only a term it
does not hold gets a new one."""

from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from graph.dataset.table import TermSnapshot, TermTable

EX = "https://example.org/"
A, B = URIRef(EX + "a"), URIRef(EX + "b")


def _kept() -> tuple[TermTable, dict[str, int]]:
    terms = TermTable()
    ids = {
        "iri": terms.iri(A),
        "plain": terms.plain('say "hi"\n'),
        "typed": terms.typed("2", XSD.integer),
        "tagged": terms.object(Literal("colour", lang="en-GB")),
        "iri text": terms.plain(str(A)),
    }
    return terms, ids


def _restored(terms: TermTable) -> TermTable:
    half = len(terms) // 2
    return TermTable.restored(TermSnapshot.joined([terms.snapshot()]
                                                  if half == 0 else
                                                  [_part(terms, 0, half), terms.snapshot(half)]))


def _part(terms: TermTable, start: int, end: int) -> TermSnapshot:
    whole = terms.snapshot(start)
    count = end - start
    extras = sum(kind in b"TL" for kind in whole.kinds[:count])
    return TermSnapshot(whole.kinds[:count], whole.ntriples[:count], whole.extras[:extras])


def test_every_way_of_stating_a_kept_term_gives_its_id() -> None:
    terms, ids = _kept()
    restored = _restored(terms)
    assert restored.iri(URIRef(str(A))) == ids["iri"]
    assert restored.object(A) == ids["iri"]
    assert restored.find_iri(A) == ids["iri"]
    assert restored.plain('say "hi"\n') == ids["plain"]
    assert restored.object(Literal('say "hi"\n', datatype=XSD.string)) == ids["plain"]
    assert restored.typed("2", XSD.integer) == ids["typed"]
    assert restored.object(Literal("2", datatype=XSD.integer)) == ids["typed"]
    assert restored.object(Literal("colour", lang="en-gb")) == ids["tagged"]
    assert restored.plain(str(A)) == ids["iri text"]
    assert len(restored) == len(terms)
    assert restored.ntriples == terms.ntriples


def test_the_kept_terms_read_as_they_were_stated() -> None:
    terms, ids = _kept()
    restored = _restored(terms)
    tagged = restored.terms[ids["tagged"]]
    assert isinstance(tagged, Literal) and tagged.language == "en-GB"
    assert restored.terms[ids["typed"]] == Literal("2", datatype=XSD.integer)
    assert restored.terms[ids["iri"]] == A


def test_only_a_new_term_gets_a_new_id_and_it_is_kept_once() -> None:
    terms, _ = _kept()
    restored = _restored(terms)
    count = len(restored)
    new = [restored.iri(B), restored.plain("new"), restored.typed("3", XSD.integer),
           restored.object(Literal("colour", lang="fr"))]
    assert new == list(range(count, count + 4))
    assert restored.iri(B) == new[0] and restored.plain("new") == new[1]
    assert restored.find_iri(URIRef(EX + "c")) is None
    assert len(restored) == count + 4
    again = TermTable.restored(restored.snapshot())
    assert again.ntriples == restored.ntriples
    assert again.object(Literal("colour", lang="FR")) == new[3]


def test_a_frozen_restored_table_still_finds_its_iris() -> None:
    terms, ids = _kept()
    restored = _restored(terms)
    restored.freeze()
    assert restored.find_iri(A) == ids["iri"]
    assert restored.find_iri(B) is None
