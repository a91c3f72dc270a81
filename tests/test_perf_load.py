"""The load section names what its errors said: at 100,000 records seven requests through
``sparql:`` answered 503, and a 503 is both our time limit and an engine that failed, so the
count alone could not tell which."""

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from perf.load_perf import _report, error_message, send_mix
from perf.query_perf import Asked
from perf.serving import Served

LIMIT = "the query ran longer than its time limit of 30 s and was stopped"


class _Handler(BaseHTTPRequestHandler):
    """200 to every query but the slow one, which gets our JSON error."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        query = parse_qs(urlsplit(self.path).query)["query"][0]
        if "slow" in query:
            status, body = 503, json.dumps({"error": {"status": 503, "title": "Service "
                                                      "unavailable", "message": LIMIT}})
        else:
            status, body = 200, '{"head": {}, "boolean": true}'
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def served() -> Iterator[Served]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(f"http://127.0.0.1:{server.server_port}/", "/sparql", 0.0, 0.0)
    finally:
        server.shutdown()
        server.server_close()


def test_the_first_error_of_each_kind_is_kept_with_the_request_and_what_it_said(
        served: Served) -> None:
    mix = [Asked("fast", "ASK {}", "application/json", {}),
           Asked("slow one", "ASK { slow }", "application/json", {})]
    tally, _ = send_mix(served, mix, clients=2, seconds=0.3)
    assert tally.latencies and tally.errors["HTTP 503"] > 0
    assert set(tally.errors) == {"HTTP 503"}
    assert tally.first_errors == {"HTTP 503": f"slow one: {LIMIT}"}

    figures = {"clients": 2, "seconds": 0.3, "mix": ["fast", "slow one"], "pairs": {
        "sparql": ["ours", None]}, "servers": {"ours": {
            "requests": len(tally.latencies), "requests_per_second": 1.0, "p50_ms": 1.0,
            "p99_ms": 1.0, "max_ms": 1.0, "errors": dict(tally.errors),
            "first_errors": dict(tally.first_errors)}}}
    report = _report(figures).text
    assert f"ours: {tally.errors['HTTP 503']} x HTTP 503, the first on slow one: {LIMIT}" \
        in report.splitlines()


def test_an_engine_s_error_text_is_kept_on_one_line_and_cut() -> None:
    assert error_message(b"Resource temporarily\n unavailable (os error 11)") == \
        "Resource temporarily unavailable (os error 11)"
    assert error_message(b'{"error": {"message": "refused"}}') == "refused"
    assert len(error_message(b"x" * 1000)) == 300


def test_the_scale_section_names_its_errors_as_the_load_section_does() -> None:
    from perf.scale_perf import _report as scale_report

    row = {"seconds": 30.0, "peak_rss_mb": 900.0, "peak_pss_mb": 400.0, "processes": 4,
           "largest_process": "gunicorn", "largest_process_mb": 300.0, "requests": 12,
           "errors": {"HTTP 503": 2}, "first_errors": {"HTTP 503": f"slow one: {LIMIT}"},
           "ready_seconds": 1.2}
    lines = scale_report({"ours: serve": row}, records=100).text.splitlines()
    assert f"ours: serve: 2 x HTTP 503, the first on slow one: {LIMIT}" in lines
