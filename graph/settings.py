"""One typed settings object: every knob with a default and help text.

Each setting reads from a ``BENCHGRAPH_<NAME>`` environment variable; the CLI's
flags override it. ``tests/test_settings.py`` holds the README's settings table
equal to this class.
"""

import re
from functools import cache
from typing import Any

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, SettingsConfigDict

from graph.errors import BenchgraphError, ErrorKind

DEFAULT_BASE = "https://w3id.org/benchgraph/"
BASE_RULE = "must be an http(s) IRI ending in / or #"
_BASE = re.compile(r"https?://[^\s<>\"{}|\\^`]+[/#]")
STORE_RULE = "must be memory, oxigraph:DIR or sparql:URL"
_STORE = re.compile(r"memory|oxigraph:.+|sparql:.+")


class Settings(BaseSettings):
    """benchgraph's settings (environment variables ``BENCHGRAPH_*``)."""

    model_config = SettingsConfigDict(env_prefix="BENCHGRAPH_", frozen=True)

    base: str = Field(
        DEFAULT_BASE,
        description="Base IRI of the data: benchmarks become {base}benchmark/{id}. Ends in / or #.",
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
    store: str = Field(
        "memory",
        description="Which store queries run on: memory (built at start), oxigraph:DIR (built "
        "once by `benchgraph build --store oxigraph:DIR`) or sparql:URL (flag --store).",
    )
    query_timeout: float = Field(
        30.0, gt=0,
        description="Seconds a query may run before it is stopped (flag --query-timeout).",
    )
    row_limit: int = Field(
        10_000,
        ge=0,
        description="Most rows or triples a query returns; the answer says when it was cut; 0 "
        "for no limit (flag --row-limit).",
    )
    max_request_bytes: int = Field(
        1024 * 1024, ge=1024, description="Largest request body the web app accepts, in bytes."
    )
    host: str = Field(
        "127.0.0.1", description="Address `benchgraph serve` listens on (flag --host)."
    )
    port: int = Field(5000, ge=0, le=65535, description="Port `benchgraph serve` listens on; 0 "
                      "for any free one (flag --port).")
    workers: int = Field(2, ge=1, description="Web server processes of `benchgraph serve` (flag "
                         "--workers).")
    threads: int = Field(4, ge=1, description="Requests each web server process handles at once, "
                         "each with a query process of its own (started when first needed).")

    graph_store: str = Field(
        "", description="Graph Store Protocol URL of a sparql:URL store, where `benchgraph "
        "push` loads graphs, when it is not the query URL (flag --graph-store).",
    )
    remote_user: str = Field(
        "", description="User name for basic auth to a sparql:URL store's engine.",
    )
    remote_password: SecretStr = Field(
        SecretStr(""), description="Password for basic auth to a sparql:URL store's engine "
        "(never on the command line, never printed).",
    )
    remote_token: SecretStr = Field(
        SecretStr(""), description="Bearer token for a sparql:URL store's engine, instead of "
        "basic auth (never on the command line, never printed).",
    )
    remote_timeout: float = Field(
        60.0, gt=0, description="Seconds to wait for a sparql:URL store's engine to answer "
        "one of benchgraph's own requests, and to take a graph besides a second per MB of it "
        "(queries have query_timeout).",
    )
    remote_retries: int = Field(
        3, ge=0, description="Times a request to a sparql:URL store's engine is tried again "
        "after a connection failure or a 5xx answer, waiting 0.25 s, 0.5 s, 1 s ...",
    )

    @field_validator("base")
    @classmethod
    def _an_http_iri_ending_in_slash_or_hash(cls, value: str) -> str:
        if not _BASE.fullmatch(value):
            raise ValueError(BASE_RULE)
        return value

    @field_validator("store")
    @classmethod
    def _a_kind_of_store(cls, value: str) -> str:
        if not _STORE.fullmatch(value.strip()):
            raise ValueError(STORE_RULE)
        return value.strip()


class SettingsError(BenchgraphError):
    """A setting with a value it cannot take, from a flag or the environment."""

    kind = ErrorKind.USAGE


def load_settings(**flags: Any) -> Settings:
    """The settings from the environment, with ``flags`` (from the command line) on top.
    SettingsError says, in words, which setting is wrong, where it came from and why."""
    try:
        return Settings(**flags)
    except ValidationError as error:
        problems = "; ".join(_problem(detail, flags) for detail in error.errors())
        raise SettingsError(f"bad setting: {problems}") from None


def _problem(detail: ErrorDetails, flags: dict[str, Any]) -> str:
    name = str(detail["loc"][0]) if detail["loc"] else "?"
    where = f"--{name.replace('_', '-')}" if name in flags else f"BENCHGRAPH_{name.upper()}"
    return f"{where} {detail.get('input')!r}: {_reason(detail)}"


def _reason(detail: ErrorDetails) -> str:
    """Why, in words: a validator's own sentence, else pydantic's, reworded where it is terse."""
    kind, ctx = detail["type"], detail.get("ctx") or {}
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return "must be a whole number"
    message = detail["msg"]
    return message[:1].lower() + message[1:]


@cache
def default_settings() -> Settings:
    """The settings from the environment, read once per process."""
    return Settings()
