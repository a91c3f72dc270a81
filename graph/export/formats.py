"""The RDF formats benchgraph writes: one table for names, aliases, media types and extensions.

The CLI picks a format by ``--format`` or by the output file's extension (``format_for``); the
web app negotiates by media type (``format_for_media_type``). Turtle and N-Triples hold one
graph, so a dataset written in them is the union of its named graphs; TriG, N-Quads and JSON-LD
keep every named graph apart.
"""

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RdfFormat:
    """One RDF serialisation format."""

    name: str
    """The canonical name, as given to ``--format`` (``turtle``)."""
    label: str
    """Its usual written name (``Turtle``)."""
    aliases: tuple[str, ...]
    """Other names accepted for it (lower case)."""
    media_types: tuple[str, ...]
    """Media types, the preferred (registered) one first."""
    extensions: tuple[str, ...]
    """File extensions with their dot, the preferred one first."""
    keeps_graphs: bool
    """True when the format keeps named graphs apart; False when it holds one graph (the union)."""
    rdflib_name: str
    """rdflib's name for the format (``Graph.parse(format=...)``)."""

    @property
    def media_type(self) -> str:
        """The preferred media type."""
        return self.media_types[0]

    @property
    def extension(self) -> str:
        """The preferred file extension, with its dot."""
        return self.extensions[0]

    def __str__(self) -> str:
        return self.name


TURTLE = RdfFormat(
    name="turtle",
    label="Turtle",
    aliases=("ttl",),
    media_types=("text/turtle", "application/x-turtle"),
    extensions=(".ttl",),
    keeps_graphs=False,
    rdflib_name="turtle",
)
NTRIPLES = RdfFormat(
    name="ntriples",
    label="N-Triples",
    aliases=("nt", "n-triples"),
    media_types=("application/n-triples",),
    extensions=(".nt",),
    keeps_graphs=False,
    rdflib_name="nt",
)
TRIG = RdfFormat(
    name="trig",
    label="TriG",
    aliases=(),
    media_types=("application/trig", "application/x-trig"),
    extensions=(".trig",),
    keeps_graphs=True,
    rdflib_name="trig",
)
NQUADS = RdfFormat(
    name="nquads",
    label="N-Quads",
    aliases=("nq", "n-quads"),
    media_types=("application/n-quads", "text/x-nquads"),
    extensions=(".nq",),
    keeps_graphs=True,
    rdflib_name="nquads",
)
JSONLD = RdfFormat(
    name="jsonld",
    label="JSON-LD",
    aliases=("json-ld",),
    media_types=("application/ld+json",),
    extensions=(".jsonld", ".json"),
    keeps_graphs=True,
    rdflib_name="json-ld",
)

FORMATS: tuple[RdfFormat, ...] = (TURTLE, NTRIPLES, TRIG, NQUADS, JSONLD)
"""Every format, the default (Turtle) first."""

DEFAULT_FORMAT = TURTLE


def _index(keys: dict[str, RdfFormat], key: str, fmt: RdfFormat) -> None:
    if keys.setdefault(key, fmt) is not fmt:
        raise AssertionError(f"{key!r} names two formats")  # a mistake in the table above


def _build_indexes() -> tuple[dict[str, RdfFormat], dict[str, RdfFormat], dict[str, RdfFormat]]:
    by_name: dict[str, RdfFormat] = {}
    by_extension: dict[str, RdfFormat] = {}
    by_media_type: dict[str, RdfFormat] = {}
    for fmt in FORMATS:
        for name in (fmt.name, *fmt.aliases):
            _index(by_name, name, fmt)
        for extension in fmt.extensions:
            _index(by_extension, extension, fmt)
        for media_type in fmt.media_types:
            _index(by_media_type, media_type, fmt)
    return by_name, by_extension, by_media_type


_BY_NAME, _BY_EXTENSION, _BY_MEDIA_TYPE = _build_indexes()


def _choices() -> str:
    return ", ".join(fmt.name for fmt in FORMATS)


def format_named(name: str) -> RdfFormat:
    """The format called ``name`` or one of its aliases (any case); ValueError if none is."""
    found = _BY_NAME.get(name.strip().lower())
    if found is None:
        raise ValueError(f"unknown format {name!r}; choose one of {_choices()}")
    return found


def format_for_path(path: Path) -> RdfFormat:
    """The format a file's extension names (any case); ValueError if it names none."""
    found = _BY_EXTENSION.get(path.suffix.lower())
    if found is None:
        extensions = ", ".join(ext for fmt in FORMATS for ext in fmt.extensions)
        what = f"extension {path.suffix!r}" if path.suffix else "no extension"
        raise ValueError(
            f"cannot tell the format of {path} from its {what}: give --format "
            f"({_choices()}) or use one of {extensions}"
        )
    return found


def format_for(name: str | None, path: Path | None = None) -> RdfFormat:
    """The format to write: by ``name`` when given (it wins over the extension), else by the
    extension of ``path``, else Turtle. ValueError, listing the choices, for an unknown one."""
    if name is not None:
        return format_named(name)
    if path is not None:
        return format_for_path(path)
    return DEFAULT_FORMAT


def format_for_media_type(media_type: str) -> RdfFormat | None:
    """The format of a media type (parameters such as ``; charset=utf-8`` and case ignored),
    or None when benchgraph writes no RDF format of that type."""
    essence = media_type.split(";", 1)[0].strip().lower()
    return _BY_MEDIA_TYPE.get(essence)


def media_types() -> tuple[str, ...]:
    """Every media type benchgraph can write, each format's preferred one first."""
    return tuple(media_type for fmt in FORMATS for media_type in fmt.media_types)
