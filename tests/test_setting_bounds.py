"""Every numeric setting is bounded, below and above, and finite: a value out of bounds (``inf``,
``nan``, a huge number) is the command line's one line naming the flag or the variable, exit
2, before anything is built or run."""

from __future__ import annotations

import pytest

from graph.cli import main
from graph.settings import Settings

NUMERIC = sorted(name for name, field in Settings.model_fields.items()
                 if field.annotation in (int, float))
HUGE = {int: "1" + "0" * 30, float: "1e300"}
FLAGS = {"query_timeout": "--query-timeout", "row_limit": "--row-limit"}
"""The numeric settings ``benchgraph query`` takes as flags too."""


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``benchgraph ARGV`` fails with."""
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def bad_values(name: str) -> list[str]:
    return ["inf", "-inf", "nan", HUGE[Settings.model_fields[name].annotation]]  # type: ignore[index]


def test_the_numeric_settings_are_found() -> None:
    assert {"query_timeout", "row_limit", "remote_timeout", "port", "max_file_bytes"} <= set(
        NUMERIC)


@pytest.mark.parametrize("name", NUMERIC)
def test_every_numeric_setting_refuses_inf_nan_and_huge_values_by_variable(
    name: str, no_env: None, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    variable = f"BENCHGRAPH_{name.upper()}"
    for value in bad_values(name):
        monkeypatch.setenv(variable, value)
        line = refused(["query", "-e", "ASK {}"], capsys)
        prefix = f"benchgraph query: bad setting: {variable} {value!r}: must be "
        assert line.startswith(prefix), line


@pytest.mark.parametrize("name", sorted(FLAGS))
def test_the_limit_flags_refuse_inf_nan_and_huge_values(
    name: str, no_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    for value in [*bad_values(name), "soon"]:
        line = refused(["query", "-e", "ASK {}", f"{FLAGS[name]}={value}"], capsys)
        prefix = f"benchgraph query: bad setting: {FLAGS[name]} {value!r}: must be "
        assert line.startswith(prefix), line


@pytest.mark.parametrize(("value", "reason"), [
    ("inf", "must be a finite number"),
    ("nan", "must be a finite number"),
    ("1e300", "must be at most 86400"),
    ("0", "must be more than 0"),
])
def test_a_time_limit_says_its_bounds_in_words(
    value: str, reason: str, no_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(["query", "-e", "ASK {}", "--query-timeout", value], capsys) == (
        f"benchgraph query: bad setting: --query-timeout {value!r}: {reason}")


def test_a_bound_is_a_value_that_is_taken(no_env: None) -> None:
    """The upper bounds do not refuse the defaults, nor a day as a time limit."""
    settings = Settings(query_timeout=86400, remote_timeout=86400)
    assert settings.query_timeout == 86400.0
