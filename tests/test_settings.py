"""Every setting is documented in the README, with its variable and its default."""

import re
from pathlib import Path

import pytest

from graph.settings import Settings

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_settings() -> dict[str, tuple[str, str]]:
    rows = re.findall(
        r"^\| `(\w+)` \| `(BENCHGRAPH_\w+)` \| `([^`]*)` \|", README.read_text(), re.MULTILINE
    )
    return {name: (variable, default) for name, variable, default in rows}


def test_every_setting_is_in_the_readme_table() -> None:
    documented = readme_settings()
    assert set(documented) == set(Settings.model_fields)
    for name, field in Settings.model_fields.items():
        variable, default = documented[name]
        assert variable == f"BENCHGRAPH_{name.upper()}"
        assert default == str(field.default)
        assert field.description, f"setting {name} has no help text"


def test_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BENCHGRAPH_BASE", "http://example.org/kg/")
    monkeypatch.setenv("BENCHGRAPH_MAX_NESTING_DEPTH", "7")
    settings = Settings()
    assert settings.base == "http://example.org/kg/"
    assert settings.max_nesting_depth == 7
