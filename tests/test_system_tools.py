"""A test that needs a program this machine lacks is skipped with the program's name and how to
install it; under ``CI=true`` it fails instead."""

import pytest

from tests.system_tools import Tool, require

ABSENT = Tool("benchgraph-no-such-program", "apt-get install no-such-package")


def test_an_absent_program_skips_naming_it_and_its_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=(
            "benchgraph-no-such-program is not installed: apt-get install no-such-package")):
        require(ABSENT)


def test_under_ci_an_absent_program_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="benchgraph-no-such-program"):
        require(ABSENT)


def test_a_present_program_gives_its_path() -> None:
    [path] = require(Tool("sh", "apt-get install dash"))
    assert path.endswith("/sh")
