"""One typed settings object: every knob with a default and help text.

Each setting reads from a ``BENCHGRAPH_<NAME>`` environment variable; the CLI's
flags override it. ``tests/test_settings.py`` holds the README's settings table
equal to this class.
"""

import os
import re
from functools import cache
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, SettingsConfigDict

from graph.errors import BenchgraphError, ErrorKind

DEFAULT_BASE = "https://w3id.org/benchgraph/"
BASE_RULE = "must be an http(s) IRI ending in / or #"
_BASE = re.compile(r"https?://[^\s<>\"{}|\\^`]+[/#]")
STORE_RULE = "must be memory, oxigraph:DIR or sparql:URL"
_STORE = re.compile(r"memory|oxigraph:.+|sparql:.+")
DAY = 24 * 60 * 60
"""The longest time limit a setting takes, in seconds: every numeric setting is bounded and
finite, so that no value reaches a clock, a buffer or a loop that cannot take it."""
GIB = 1024 * 1024 * 1024
"""The largest size in bytes (or characters) a setting takes."""
LogLevel = Literal["debug", "info", "warning", "error"]
"""The levels of ``logging`` a server's log may be set to, by name."""


class Settings(BaseSettings):
    """benchgraph's settings (environment variables ``BENCHGRAPH_*``)."""

    model_config = SettingsConfigDict(env_prefix="BENCHGRAPH_", frozen=True)

    base: str = Field(
        DEFAULT_BASE,
        description="Base IRI of the data: benchmarks become {base}benchmark/{id}. Ends in / or #.",
    )
    max_file_bytes: int = Field(
        16 * 1024 * 1024,
        ge=1, le=GIB,
        description="Largest record file read, in bytes; larger is rejected.",
    )
    max_string_chars: int = Field(
        1_000_000, ge=1, le=GIB,
        description="Longest string value accepted in a record, in characters.",
    )
    max_nesting_depth: int = Field(
        100, ge=1, le=1000,
        description="Deepest nesting of JSON arrays and objects accepted in a record.",
    )
    store: str = Field(
        "memory",
        description="Which store queries run on: memory (built at start), oxigraph:DIR (built "
        "once by `benchgraph build --store oxigraph:DIR`) or sparql:URL (flag --store).",
    )
    query_timeout: float = Field(
        30.0, gt=0, le=DAY, allow_inf_nan=False,
        description="Seconds a query may run before it is stopped (flag --query-timeout).",
    )
    row_limit: int = Field(
        10_000,
        ge=0, le=1_000_000_000,
        description="Most rows or triples a query returns; the answer says when it was cut; 0 "
        "for no limit (flag --row-limit).",
    )
    max_query_bytes: int = Field(
        65_536, ge=1024, le=16 * 1024 * 1024,
        description="Longest query text accepted, in bytes of UTF-8, from the web or a query "
        "file; longer is refused before it is parsed.",
    )
    query_memory_mb: int = Field(
        1024, ge=64, le=1024 * 1024,
        description="Memory one query may take, in MB, beyond what its query process holds "
        "when it starts; a query past it is stopped as a time limit stops one.",
    )
    query_processes: int = Field(
        10, ge=1, le=256,
        description="Query processes of a server (or of a command), started as they are "
        "needed: at most this many queries run at once.",
    )
    long_queries: int = Field(
        3, ge=1, le=256,
        description="Queries that may run past their first second at once; another that runs "
        "that long is stopped and answered 503 with Retry-After, so that short queries and "
        "pages always find a query process free.",
    )
    max_request_bytes: int = Field(
        1024 * 1024, ge=1024, le=GIB,
        description="Largest request body the web app accepts, in bytes.",
    )
    host: str = Field(
        "127.0.0.1", description="Address `benchgraph serve` listens on (flag --host)."
    )
    port: int = Field(5000, ge=0, le=65535, description="Port `benchgraph serve` listens on; 0 "
                      "for any free one (flag --port).")
    threads: int = Field(
        16, ge=1, le=256,
        description="Requests `benchgraph serve` handles at once, a thread each; a request's "
        "thread mostly waits on its query process. More wait, read whole, in a queue.",
    )
    log_level: LogLevel = Field(
        "info", description="The least level `benchgraph serve` writes to its log on "
        "stderr: error, warning (also each query a limit stopped or whose process died), info "
        "(also a line for every query) or debug, in any case (flag --log-level).",
    )

    graph_store: str = Field(
        "", description="Graph Store Protocol URL of a sparql:URL store, where `benchgraph "
        "push` loads graphs; push needs it (flag --graph-store).",
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
        60.0, gt=0, le=DAY, allow_inf_nan=False,
        description="Seconds to wait for a sparql:URL store's engine to answer "
        "one of benchgraph's own requests, and to take a graph besides a second per MB of it "
        "(queries have query_timeout).",
    )
    remote_retries: int = Field(
        3, ge=0, le=10,
        description="Times a request to a sparql:URL store's engine is tried again "
        "after a connection failure or a 5xx answer, waiting 0.25 s, 0.5 s, 1 s ...",
    )

    @field_validator("base")
    @classmethod
    def _an_http_iri_ending_in_slash_or_hash(cls, value: str) -> str:
        if not _BASE.fullmatch(value):
            raise ValueError(BASE_RULE)
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _a_level_in_any_case(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("store")
    @classmethod
    def _a_kind_of_store(cls, value: str) -> str:
        """The kind, with a store folder made absolute against the working directory of the
        moment the settings are read: the same folder wherever the store is opened later."""
        value = value.strip()
        if not _STORE.fullmatch(value):
            raise ValueError(STORE_RULE)
        kind, _, location = value.partition(":")
        return f"oxigraph:{os.path.abspath(location)}" if kind == "oxigraph" else value


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
    if kind in _BOUNDS:
        words, key = _BOUNDS[kind]
        bound = ctx.get(key)
        if isinstance(bound, float) and bound.is_integer():
            bound = int(bound)  # a day is 86400 seconds, not 86400.0
        return f"must be {words} {bound}"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return "must be a whole number"
    if kind == "finite_number":
        return "must be a finite number"
    if kind in ("float_parsing", "float_type"):
        return "must be a number"
    message = detail["msg"]
    return message[:1].lower() + message[1:]


_BOUNDS = {
    "greater_than_equal": ("at least", "ge"),
    "greater_than": ("more than", "gt"),
    "less_than_equal": ("at most", "le"),
    "less_than": ("less than", "lt"),
}
"""pydantic's errors of a bound, as the words ``_reason`` says them with and the bound's key."""


@cache
def default_settings() -> Settings:
    """The settings from the environment, read once per process."""
    return Settings()
