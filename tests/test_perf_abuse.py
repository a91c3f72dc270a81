"""The abuse section's verdicts: a probe that was never answered is no fast answer. A server
that stops answering under abuse must show as "unanswered" at the percentiles it reaches,
and miss its target, not vanish from the figures as a failed request would from a mean."""

from collections import Counter
from typing import Any

from perf.abuse_perf import ENGINE, OURS, RUNAWAY, SLOW, _percentiles, _report, headline


def _abused(ask: list[float], failures: Counter[str] | None = None) -> dict[str, Any]:
    return {"probes": {"ASK {}": _percentiles(ask, failures or Counter())},
            "peak_rss_mb": 300.0, "peak_pss_mb": 200.0, "killed_at_cap_after_s": None,
            "runaway_answers": {"HTTP 503": 4}, "runaway_first_said": {"HTTP 503": "busy"},
            "runaway_median_s": 1.2}


def test_an_unanswered_probe_is_reported_as_such_and_misses_the_target() -> None:
    answered = [0.01] * 99
    figures = {"seconds": 30.0, "slow_each": 50, "runaways": 8, "cap_mb": 8192.0,
               "target_p99_ms": 1000.0, "store": "store built",
               "servers": {OURS: {SLOW: _abused([*answered[:98], 0.02, 0.02]),
                                  RUNAWAY: _abused([*answered[:97], float("inf"), float("inf"),
                                                    float("inf")], Counter({"TimeoutError": 3}))},
                           ENGINE: {SLOW: _abused(answered), RUNAWAY: _abused(answered)}}}
    report = _report(figures)
    assert report.data["met"] is False
    lines = report.text.splitlines()
    slow = next(line for line in lines if f"{OURS}, {SLOW}" in line)
    runaway = next(line for line in lines if f"{OURS}, {RUNAWAY}" in line)
    assert slow.split()[-4:] == ["10.0", "20.0", "20.0", "met"]
    assert runaway.split()[-4:] == ["10.0", "unanswered", "unanswered", "MISSED"]
    assert "ASK {} failed: 3 x TimeoutError" in report.text
    assert "runaways answered: 4 x HTTP 503 (median 1.2 s); the first HTTP 503: busy" in report.text
    shown = headline(report.data)
    assert shown[f"ASK p99 ms, {SLOW} (ours / engine)"] == "20.0 / 10.0"
    assert shown[f"ASK p99 ms, {RUNAWAY} (ours / engine)"] == "unanswered / 10.0"
