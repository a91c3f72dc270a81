"""One typed settings object: every knob with a default and help text.

Each setting reads from a ``BENCHGRAPH_<NAME>`` environment variable; the CLI's
flags override it. ``tests/test_settings.py`` holds the README's settings table
equal to this class.
"""

from functools import cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_BASE = "https://w3id.org/benchgraph/"


class Settings(BaseSettings):
    """benchgraph's settings (environment variables ``BENCHGRAPH_*``)."""

    model_config = SettingsConfigDict(env_prefix="BENCHGRAPH_", frozen=True)

    base: str = Field(
        DEFAULT_BASE,
        description="Base IRI of the data: benchmarks become {base}benchmark/{id}. Ends in / or #.",
        pattern=r"^https?://[^\s<>\"{}|\\^`]+[/#]$",
    )
    max_file_bytes: int = Field(
        16 * 1024 * 1024,
        ge=1,
        description="Largest record file read, in bytes; larger is rejected.",
    )
    max_string_chars: int = Field(
        1_000_000, ge=1, description="Longest string value accepted in a record, in characters."
    )
    max_nesting_depth: int = Field(
        100, ge=1, description="Deepest nesting of JSON arrays and objects accepted in a record."
    )


@cache
def default_settings() -> Settings:
    """The settings from the environment, read once per process."""
    return Settings()
