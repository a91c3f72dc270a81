"""The performance suite's own HTTP client (``perf.serving.Client``) against a real engine."""

from __future__ import annotations

import time
from pathlib import Path

from perf.serving import Client
from tests.engines import oxigraph_server


def test_a_connection_the_engine_gave_up_on_is_not_used_again(tmp_path: Path) -> None:
    """Three all runs at 100,000 records read for ``top-results``'s answer the 500 "os error
    11" that ``oxigraph serve`` writes on a connection idle past its socket timeout (60 s;
    1 s here)."""
    with oxigraph_server(tmp_path / "engine", "--timeout-s", "1") as engine:
        client = Client(engine.origin, timeout=30)
        try:
            answers = []
            for _ in range(2):
                answers.append(client.sparql("/query", "ASK {}"))
                time.sleep(2)
        finally:
            client.close()
    assert [status for status, _ in answers] == [200, 200]
    assert all(b'"boolean":true' in body.replace(b" ", b"") for _, body in answers)
