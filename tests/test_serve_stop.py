"""``benchgraph serve`` stops cleanly however it is stopped: Ctrl-C in a terminal signals every
process of the foreground group (the server, the zygote of its query processes and those
processes), a service manager stopping a unit sends SIGTERM to each of them, and ``kill``
signals the server alone. Each way the server exits 0 and prints no traceback
(``tests.serving.serve`` checks both), also with a request under way."""

import re
import signal
import threading

import pytest

from tests.seeds import SEEDS
from tests.serving import serve

RUNAWAY = ("SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY ?a ?d ?g")
"""A query that runs until its time limit stops it, even on the two seeds."""


@pytest.mark.parametrize(("stop", "group"), [
    (signal.SIGINT, True), (signal.SIGTERM, True), (signal.SIGINT, False),
    (signal.SIGTERM, False)],
    ids=["ctrl-c to the group", "sigterm to the group", "ctrl-c to the server",
         "sigterm to the server"])
def test_every_way_of_stopping_stops_cleanly(stop: signal.Signals, group: bool) -> None:
    with serve([str(path) for path in SEEDS], stop_group=stop if group else None,
               stop=stop) as server:
        assert server.ask("SELECT * WHERE { ?s ?p ?o } LIMIT 1") == 200  # processes running


@pytest.mark.parametrize("group", [False, True], ids=["to the server", "to the group"])
def test_a_server_stopped_with_a_query_under_way_stops_cleanly(group: bool) -> None:
    def runaway() -> None:
        try:
            server.ask(RUNAWAY)
        except OSError:  # the server went with the query under way: no answer is right
            pass

    with serve([str(path) for path in SEEDS], stop_group=signal.SIGTERM if group else None,
               stop=signal.SIGTERM) as server:
        asking = threading.Thread(target=runaway, daemon=True)
        asking.start()
        asking.join(1.0)  # the query has reached its query process
    asking.join(30)


def test_the_access_log_has_a_line_for_each_request() -> None:
    """One line a request, as gunicorn's access log had; a control character a client sent
    (here C1's CSI, which a terminal obeys) is written escaped."""
    with serve([*(str(path) for path in SEEDS), "--access-log"], files=False) as server:
        assert server.ask("ASK {}") == 200
        connection = server.connection()
        connection.request("GET", "/static/benchgraph.css", headers={"User-Agent": "probe\x9b1"})
        size = len(connection.getresponse().read())
        connection.close()
    lines = "".join(server.stderr)
    assert re.search(r'127\.0\.0\.1 "GET /sparql\?query=ASK%20%7B%7D HTTP/1\.1" 200 \d+ ', lines)
    assert re.search(rf'"GET /static/benchgraph\.css HTTP/1\.1" 200 {size} "-" "probe\\x9b1"',
                     lines), lines
