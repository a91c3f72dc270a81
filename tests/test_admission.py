"""What a query may do is decided on its parse tree (``graph.sparql.admission``): SERVICE in
any spelling and any place, and every update, are refused before any engine sees the text;
a text too large or nested too deep is refused before any parser recurses into it."""

import time
import uuid
from collections.abc import Callable

import pyoxigraph as ox
import pytest
from rdflib.plugins.sparql.parser import parseQuery

from graph.sparql import admission
from graph.sparql.admission import MAX_NESTING, admit
from graph.sparql.errors import QueryError, QuerySyntaxError, ReadOnlyError
from graph.store.base import Store

LIMIT = 65_536
TRAP = "http://127.0.0.1:9/sparql"


def long_to_read() -> str:
    """14 KB that rdflib takes most of a second or more to parse, a text of its own at each
    call (a process keeps the outcome of each text it judged)."""
    return f"ASK {{ VALUES ?v{uuid.uuid4().hex} {{ {' '.join(map(str, range(3_000)))} }} }}"

_FORMS = {
    "after a dot glued to a variable": "?s ?p ?o.SERVICE <{trap}> {{ ?a ?b ?c }}",
    "after a dot glued to a number": "?s ?p 1.SERVICE <{trap}> {{ ?a ?b ?c }}",
    "after a dot glued to a decimal": "?s ?p 1.5.SERVICE <{trap}> {{ ?a ?b ?c }}",
    "after a dot glued to an IRI": "?s ?p <urn:x>.SERVICE <{trap}> {{ ?a ?b ?c }}",
    "after a string": '?s ?p "x".SERVICE <{trap}> {{ ?a ?b ?c }}',
    "after a prefixed name": "?s ?p rdfs:x .SERVICE <{trap}> {{ ?a ?b ?c }}",
    "after an escaped local name": "?s ?p rdfs:x\\- .SERVICE <{trap}> {{ ?a ?b ?c }}",
    "after a comment": "?s ?p ?o #x\nSERVICE<{trap}>{{?a ?b ?c}}",
    "lower case, no spaces": "?s ?p ?o service<{trap}>{{?a ?b ?c}}",
    "as a codepoint escape": "?s ?p ?o \\u0053ERVICE <{trap}> {{ ?a ?b ?c }}",
    "silent": "SERVICE SILENT <{trap}> {{ ?a ?b ?c }}",
    "in a sub-select": "{{ SELECT * WHERE {{ SERVICE <{trap}> {{ ?a ?b ?c }} }} }}",
    "in EXISTS": "FILTER EXISTS {{ SERVICE <{trap}> {{ ?a ?b ?c }} }}",
    "in NOT EXISTS": "FILTER (NOT EXISTS {{ SERVICE <{trap}> {{ ?a ?b ?c }} }})",
    "in OPTIONAL": "?s ?p ?o OPTIONAL {{ SERVICE <{trap}> {{ ?a ?b ?c }} }}",
    "in a UNION": "{{ ?s ?p ?o }} UNION {{ SERVICE <{trap}> {{ ?a ?b ?c }} }}",
    "in MINUS": "?s ?p ?o MINUS {{ SERVICE <{trap}> {{ ?s ?b ?c }} }}",
    "in GRAPH": "GRAPH ?g {{ SERVICE <{trap}> {{ ?a ?b ?c }} }}",
    "with a variable endpoint": "VALUES ?e {{ <{trap}> }} SERVICE ?e {{ ?a ?b ?c }}",
}
SERVICE_FORMS = {
    **{name: "SELECT * WHERE { " + pattern.format(trap=TRAP) + " }"
       for name, pattern in _FORMS.items()},
    "with a prefixed endpoint":
        f"PREFIX t: <{TRAP[:-6]}> SELECT * WHERE {{ SERVICE t:sparql {{ ?a ?b ?c }} }}",
    "with a relative endpoint":
        f"BASE <{TRAP[:-6]}> SELECT * WHERE {{ SERVICE <sparql> {{ ?a ?b ?c }} }}",
    "in an ASK": f"ASK {{ SERVICE <{TRAP}> {{ ?a ?b ?c }} }}",
    "in a CONSTRUCT": f"CONSTRUCT {{ ?a ?b ?c }} WHERE {{ SERVICE <{TRAP}> {{ ?a ?b ?c }} }}",
    "in a DESCRIBE": f"DESCRIBE ?a WHERE {{ SERVICE <{TRAP}> {{ ?a ?b ?c }} }}",
}
"""A SERVICE to the trap in every spelling and place we could think of."""


@pytest.mark.parametrize("text", SERVICE_FORMS.values(), ids=SERVICE_FORMS.keys())
def test_service_is_refused_in_every_form(text: str) -> None:
    with pytest.raises(ReadOnlyError, match="SERVICE is not allowed"):
        admit(text, "the query", LIMIT)


@pytest.mark.parametrize("text", [
    "INSERT DATA { <urn:a> <urn:b> <urn:c> }", "DELETE WHERE { ?s ?p ?o }", "DROP ALL",
    "CLEAR DEFAULT", "LOAD <http://example.org/x.ttl>",
    "PREFIX x: <urn:x#>\nINSERT { ?s x:p 1 } WHERE { ?s ?p ?o }",
    "WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
])
def test_sparql_update_is_refused(text: str) -> None:
    with pytest.raises(ReadOnlyError, match="read-only"):
        admit(text, "-e", LIMIT)


def test_no_engine_sees_a_query_while_it_is_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyoxigraph evaluates a query as it parses it, SERVICE call included: the judgement
    never asks it."""

    def no_engine(*args: object, **kwargs: object) -> None:
        raise AssertionError("an engine saw the query")

    monkeypatch.setattr(ox.Store, "query", no_engine)
    for text in SERVICE_FORMS.values():
        with pytest.raises(ReadOnlyError):
            admit(text, "-e", LIMIT)
    assert admit("ASK { VALUES ?x { 1 2 3 } }", "-e", LIMIT).form == "ASK"


GLUED_INTO_ONE_NAME = [
    f"SELECT * WHERE {{ ?s ?p rdfs:x.SERVICE <{TRAP}> {{ ?a ?b ?c }} }}",
    f"SELECT * WHERE {{ ?s ?p _:b.SERVICE <{TRAP}> {{ ?a ?b ?c }} }}",
]
"""A local name or blank node label may hold dots: these are one name followed by an IRI,
no SERVICE at all, and no query."""


@pytest.mark.parametrize("text", GLUED_INTO_ONE_NAME)
def test_a_service_glued_into_a_name_is_no_query(text: str) -> None:
    with pytest.raises(QuerySyntaxError):
        admit(text, "the query", LIMIT)


@pytest.mark.parametrize(("text", "line", "column"), [
    ("SELECT ?x WHERE { ?x ?p }", 1, 19),
    ('SELECT ?x WHERE {\n  ?x ?p ?o .\n  FILTER (?x = "a) }', 3, 3),
    ("SELEC ?x WHERE { ?x ?p ?o }", 1, 1),
])
def test_syntax_errors_say_where(text: str, line: int, column: int) -> None:
    with pytest.raises(QuerySyntaxError) as caught:
        admit(text, "-e", LIMIT)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert str(caught.value).startswith(f"-e: syntax error at line {line}, column {column}: ")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("shape", ["{", "(", "[", "{ FILTER EXISTS "])
def test_a_text_nested_too_deep_is_refused_before_it_is_parsed(shape: str) -> None:
    closing = {"{": "}", "(": ")", "[": "]", "{ FILTER EXISTS ": "}"}[shape]
    text = "SELECT * WHERE { ?s ?p " + shape * 10_000 + "1" + closing * 10_000 + " }"
    with pytest.raises(QueryError, match=f"deeper than the limit of {MAX_NESTING}"):
        admit(text, "the query", 1 << 20)


def test_the_deepest_nesting_allowed_is_read() -> None:
    depth = MAX_NESTING - 2  # the WHERE group and the FILTER's own brackets
    text = "SELECT * WHERE { FILTER(" + "STR(" * depth + "1" + ")" * depth + ") }"
    assert admit(text, "the query", LIMIT).form == "SELECT"


def test_brackets_in_strings_iris_and_comments_do_not_count() -> None:
    hidden = '"' + "{" * 100 + '" ' + "# " + "(" * 100 + "\n"
    assert admit(f"SELECT * WHERE {{ ?s ?p {hidden} }}", "q", LIMIT).form == "SELECT"


def test_a_text_over_the_size_limit_is_refused() -> None:
    text = "SELECT * WHERE { ?s ?p ?o } # " + "x" * 2_000
    with pytest.raises(QueryError, match="over the limit of 1,024"):
        admit(text, "the query", 1_024)
    assert admit(text, "the query", 4_096).form == "SELECT"


def test_forms_and_named_graphs() -> None:
    assert admit("ASK { ?s ?p ?o }", "-e", LIMIT).form == "ASK"
    assert admit("DESCRIBE <urn:x>", "-e", LIMIT).form == "DESCRIBE"
    assert admit("CONSTRUCT WHERE { ?s ?p ?o }", "-e", LIMIT).form == "CONSTRUCT"
    assert not admit("SELECT * WHERE { ?s ?p ?o }", "-e", LIMIT).names_graphs
    assert admit("SELECT * FROM <urn:g> WHERE { ?s ?p ?o }", "-e", LIMIT).names_graphs
    assert admit("SELECT * WHERE { { GRAPH ?g { ?s ?p ?o } } }", "-e", LIMIT).names_graphs


def test_the_text_that_runs_has_its_escapes_expanded() -> None:
    """SPARQL 1.1, 19.2: codepoint escapes are processed before parsing; the engine gets the
    text that was judged."""
    admitted = admit('SELECT ?x WHERE { BIND("caf\\u00e9" AS ?x) }', "-e", LIMIT)
    assert admitted.text == 'SELECT ?x WHERE { BIND("café" AS ?x) }'


def test_queries_judged_in_many_threads_at_once_are_judged_alike() -> None:
    """A server judges queries in its threads at once, from the first request on; rdflib's
    parser once failed when two parses raced in a fresh process (a 500 for most of them)."""
    import subprocess
    import sys

    script = (
        "import threading\n"
        "from graph.sparql.admission import admit\n"
        "failures = []\n"
        "def judge(n):\n"
        "    for i in range(25):\n"
        "        try:\n"
        "            admit(f'SELECT ?x WHERE {{ ?x ?p {n * 100 + i} }}', 'q', 65536)\n"
        "        except Exception as error:\n"
        "            failures.append(repr(error))\n"
        "threads = [threading.Thread(target=judge, args=(n,)) for n in range(8)]\n"
        "[t.start() for t in threads]; [t.join() for t in threads]\n"
        "print(len(failures), failures[:1])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=300)
    assert done.stdout.startswith("0 "), done.stdout


@pytest.mark.parametrize("text, star", [
    ("SELECT * WHERE { ?s ?p ?o }", ("s", "p", "o")),
    ("SELECT * { ?b <x:y> ?z OPTIONAL { ?z <x:q> ?a } GRAPH ?g { ?a ?c ?b } }",
     ("b", "z", "a", "g", "c")),
    ("SELECT * { BIND(1 AS ?z) ?a ?b ?c }", ("z", "a", "b", "c")),
    ("SELECT * { ?x <x:p> 'a ?string' } # ?comment", ("x",)),
    ("SELECT ?o ?s { ?s ?p ?o }", ()),
    ("ASK { ?x ?y ?z }", ()),
])
def test_a_select_star_keeps_the_order_the_query_names_its_variables(
        text: str, star: tuple[str, ...]) -> None:
    assert admit(text, "t", 10_000).star == star


def test_every_store_answers_a_select_star_in_the_querys_order(seed_store: Store) -> None:
    """Oxigraph sorts the names of ``*``; the store puts them back in the query's order."""
    result = seed_store.query("SELECT * WHERE { ?s ?p ?o } LIMIT 2")
    assert result.variables == ("s", "p", "o")
    assert all(len(row) == 3 and row[1] is not None for row in result.rows)
    named = seed_store.query("SELECT ?o ?s WHERE { ?s ?p ?o } LIMIT 1")
    assert named.variables == ("o", "s")


def long_update() -> str:
    """An update that takes rdflib as long, a text of its own at each call."""
    return ("INSERT DATA { " + f"<urn:x:{uuid.uuid4().hex}> <urn:x:p> 0 . "
            + " ".join(f"<urn:x:{n}> <urn:x:p> {n} ." for n in range(600)) + " }")


@pytest.mark.parametrize("make", [long_to_read, long_update], ids=["query", "update"])
def test_a_judgement_past_its_bound_is_given_up_and_kept_for_the_next_caller(
        make: Callable[[], str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller has its TimeoutError at the bound; the parse goes on in its thread, the
    next caller of the text with time to wait has it finish, not another, and its outcome is
    kept. (A text that is no query is parsed as an update to say so: within the same bound.)"""
    parses: list[str] = []

    def counted(text: str) -> object:
        parses.append(text)
        return parseQuery(text)

    monkeypatch.setattr(admission, "parseQuery", counted)
    text = make()
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        admit(text, "q", LIMIT, within=0.05)
    assert time.monotonic() - started < 0.5

    def again(within: float) -> str:
        try:
            return admit(text, "q", LIMIT, within=within).form
        except ReadOnlyError:
            return "refused as an update"

    answer = "ASK" if make is long_to_read else "refused as an update"
    assert again(60) == answer
    assert again(0.001) == answer  # kept
    assert len(parses) == 1
