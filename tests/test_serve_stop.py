"""``benchgraph serve`` stops cleanly however it is stopped: Ctrl-C in a terminal signals every
process of the foreground group (gunicorn's master, its workers, their query processes and
the zygote that forks them), and a service manager stopping a unit sends SIGTERM to each of
them. Either way the server exits 0 and prints no traceback (``tests.serving.serve`` checks
both)."""

import signal
from urllib.parse import quote

import pytest

from tests.seeds import SEEDS
from tests.serving import serve


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM],
                         ids=["ctrl-c to the group", "sigterm to the group"])
def test_every_process_signalled_stops_cleanly(stop: signal.Signals) -> None:
    with serve([str(path) for path in SEEDS], stop_group=stop) as server:
        connection = server.connection()
        connection.request("GET", "/sparql?query=" + quote("SELECT * WHERE { ?s ?p ?o } LIMIT 1"),
                           headers={"Accept": "application/sparql-results+json"})
        assert connection.getresponse().status == 200  # the query processes are running
        connection.close()
