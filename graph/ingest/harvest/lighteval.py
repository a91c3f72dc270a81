"""lighteval (``lighteval``): one entry per task module, from its docstring and its configs.

lighteval keeps each benchmark in one Python module, the ones its registry loads: the
modules of ``lighteval/tasks/tasks/`` (a benchmark with helper files is a folder there, read
through its ``main.py``) and of ``lighteval/tasks/multilingual/tasks/``. An entry's id is the
module's name (the folder's name for a ``main.py``); a multilingual module's id is
``multilingual/NAME``, since three of them (``xcopa``, ``mgsm``, ``xwinograd``) share their
name with a module of the main suite and are other implementations of the benchmark.

A module opens with a docstring of ``key:`` lines, the form lighteval's registry parses for
its task listing: ``name``, ``dataset``, ``abstract``, ``languages``, ``tags``, ``paper``,
and on some ``starred``. A key is one word alone on its line, its value the lines below it,
so a line of a value that ends in a colon (an abstract's ``Task to ...:``) is no key.
``dataset``, ``languages`` and ``tags`` are comma-separated lists, kept as written. Each link
under ``paper`` is one paper: an arXiv link gives its id, a doi.org link or a publisher's
``/doi/`` link its DOI, and any other link is kept as the paper's ``url``, as stated (some
point at a dataset card or a project page). The ``abstract`` is a paper's text, not the
harness's, and is never read; only text before the first key, or a ``description:`` key, is
the module's own description. ``starred`` (lighteval's pick of featured tasks) and
``Contact`` have no place in a snapshot and are not read.

The module's ``LightevalTaskConfig(...)`` calls are read from its syntax tree, never run:
the literal ``name`` of each (the entry's tasks), its ``hf_repo`` (a dataset on the Hugging
Face hub, beside the docstring's own), its ``metrics`` (each ``Metrics.NAME`` by that name,
and a metric the module defines by the literal ``metric_name`` it gives) and ``version``
(the entry's where its configs state one and the same). A
config built in a loop or a comprehension is read the same way, and so is one built by a
function or a ``LightevalTaskConfig`` subclass of the module, with the literal arguments each
call of it passes. A value computed in code (an f-string over the languages, an enum's
value) is not stated, and is left out; a name is read through the module's own assignments
of it, and only where nothing else in the module binds that name.
"""

import ast
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from graph.ingest.harvest import pyast
from graph.ingest.harvest.archive import Archive
from graph.ingest.harvest.hub import hub_dataset
from graph.ingest.harvest.reader import MemberReader, Reading
from graph.ingest.harvest.text import arxiv_id, short_description
from graph.ingest.records.harness_snapshot import Dataset, Entry, Harness, Metric, Paper
from graph.ingest.records.identifiers import DOI
from graph.ingest.records.identifiers import doi as bare_doi

MODULE = re.compile(
    r"lighteval/tasks/(?:tasks/(?P<folder>[^/]+)/main|tasks/(?P<core>[^/]+)"
    r"|multilingual/tasks/(?P<multilingual>[^/]+))\.py"
)
CONFIG = "LightevalTaskConfig"
_KEY = re.compile(r"(?P<key>[A-Za-z][A-Za-z0-9_-]*):")
_LINK = re.compile(r"https?://\S+")
_LINK_END = ".,;:)]>'\""
_PUBLISHER_DOI = re.compile(r"/doi/(?:(?:abs|full|pdf|epdf)/)?(?P<doi>" + DOI.pattern + ")")
_DEPTH = 8
"""How many names deep a value is followed (``a = b``, ``b = "x"``) before giving up."""


class LightevalReader:
    harness: Harness = "lighteval"
    distribution = "lighteval"

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        for name in archive.names:
            entry_id = module_id(name)
            module = pyast.parse_module(reader, name) if entry_id else None
            entry = _entry(reader, name, entry_id, module) if entry_id and module else None
            reading.entries += [entry] if entry else []
        return reading


def module_id(name: str) -> str | None:
    """The entry id of a task module (``gsm8k``, ``ifeval``, ``multilingual/xcopa``), or
    ``None`` for any other member."""
    found = MODULE.fullmatch(name)
    if found is None or found.group("core") == "__init__" \
            or found.group("multilingual") == "__init__":
        return None
    if found.group("multilingual"):
        return f"multilingual/{found.group('multilingual')}"
    return found.group("folder") or found.group("core")


# The docstring ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Docstring:
    """A module docstring cut at its ``key:`` lines: the text before the first key, and
    each key's lines (keys lower-cased; a key given twice keeps the lines of both)."""

    lead: list[str]
    sections: dict[str, list[str]]

    def text(self, key: str) -> str | None:
        """The key's value as one line, or ``None`` when it is absent or blank."""
        return " ".join(" ".join(self.sections.get(key, [])).split()) or None

    def names(self, key: str) -> list[str]:
        """The key's comma-separated value, item by item."""
        return [item.strip() for item in (self.text(key) or "").split(",") if item.strip()]

    def description(self) -> str | None:
        own = self.sections.get("description") or self.lead
        return short_description("\n".join(own))


def read_docstring(text: str) -> Docstring:
    lead: list[str] = []
    sections: dict[str, list[str]] = {}
    current = lead
    for line in text.splitlines():
        key = _KEY.fullmatch(line.strip())
        if key:
            current = sections.setdefault(key.group("key").lower(), [])
        else:
            current.append(line)
    return Docstring(lead, sections)


def paper_of_link(link: str) -> Paper:
    """The paper a link names: by arXiv id, by DOI (a doi.org or publisher's ``/doi/``
    link, the link kept), or by the link alone."""
    arxiv = arxiv_id(link)
    if arxiv:
        return Paper(arxiv=arxiv)
    doi = bare_doi(link)
    if doi:
        return Paper(doi=doi)
    publisher = _PUBLISHER_DOI.search(link)
    return Paper(doi=publisher.group("doi") if publisher else None, url=link)


def _papers(reader: MemberReader, name: str, lines: list[str]) -> list[Paper]:
    found: dict[tuple[str | None, ...], Paper] = {}
    for line in (line.strip() for line in lines):
        links = [link.rstrip(_LINK_END) for link in _LINK.findall(line)]
        if line and not links:
            reader.warn(name, "a paper line with no link", field="paper", value=line)
        for paper in map(paper_of_link, links):
            found.setdefault((paper.arxiv, paper.doi, paper.url), paper)
    return list(found.values())


def _docstring_datasets(reader: MemberReader, name: str, docstring: Docstring) -> list[Dataset]:
    found: list[Dataset] = []
    for item in docstring.names("dataset"):
        dataset = hub_dataset(item) if not any(c.isspace() for c in item) else None
        if dataset is None:
            reader.warn(name, "not a dataset id", field="dataset", value=item)
        found += [dataset] if dataset else []
    return found


# The configs -----------------------------------------------------------------------------


@dataclass
class Configs:
    """What a module's configs state, in source order."""

    count: int = 0
    names: list[str] = field(default_factory=list)
    repos: list[str] = field(default_factory=list)
    metrics: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Scope:
    """What a name in a config stands for: an argument a call of the config's factory binds
    it to, else the module's own assignments of it."""

    constants: Mapping[str, list[ast.expr]]
    bound: Mapping[str, ast.expr] = field(default_factory=dict)

    def values(self, name: str) -> list[tuple[ast.expr, "Scope"]]:
        """What ``name`` stands for, each with the scope its own names are read in (a call's
        argument is read in the module's)."""
        if name in self.bound:
            return [(self.bound[name], Scope(self.constants))]
        return [(value, self) for value in self.constants.get(name, [])]


def module_constants(module: ast.Module) -> dict[str, list[ast.expr]]:
    """The names the module assigns at its top level (in loops and branches too) and binds
    nowhere else: no loop or comprehension variable, parameter, local or import."""
    assigned: dict[str, list[ast.expr]] = {}
    for statement in _top_level(module.body):
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(statement.value)
    stores = Counter(_bindings(module))
    return {name: values for name, values in assigned.items() if stores[name] == len(values)}


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for statement in body:
        yield statement
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for name in ("body", "orelse", "finalbody"):
                yield from _top_level(getattr(statement, name, []))
            for handler in getattr(statement, "handlers", []):
                yield from _top_level(handler.body)


def _bindings(module: ast.Module) -> Iterator[str]:
    """Every name the module binds anywhere, once per binding."""
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.alias):
            yield (node.asname or node.name).split(".")[0]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name


def literals(node: ast.expr | None, scope: Scope, numbers: bool = False,
             depth: int = 0) -> list[str]:
    """The string literals ``node`` can stand for (and integers, as written, with
    ``numbers``): a literal, either branch of a conditional, the items of a list or tuple,
    and a name's values in ``scope``."""
    if node is None or depth > _DEPTH:
        return []
    if isinstance(node, ast.Constant) and (
            isinstance(node.value, str) or (numbers and type(node.value) is int)):
        return [str(node.value)]
    if isinstance(node, ast.IfExp):
        parts = [(node.body, scope), (node.orelse, scope)]
    elif isinstance(node, ast.List | ast.Tuple):
        parts = [(item, scope) for item in node.elts]
    elif isinstance(node, ast.Name):
        parts = scope.values(node.id)
    else:
        return []
    return [v for part, inner in parts for v in literals(part, inner, numbers, depth + 1)]


def metric_names(node: ast.expr | None, scope: Scope, depth: int = 0) -> list[str]:
    """The metrics an expression names: ``Metrics.NAME`` as ``NAME``, and through a name,
    a metric the module defines with a literal ``metric_name``."""
    if node is None or depth > _DEPTH:
        return []
    found: list[str] = []
    for child in ast.walk(node):
        if isinstance(child, ast.Attribute) and _is_metrics(child.value):
            found.append(child.attr)
        elif isinstance(child, ast.Name) and not _is_metrics(child):
            for bound, outer in scope.values(child.id):
                named = pyast.keyword(bound, "metric_name") \
                    if isinstance(bound, ast.Call) else None
                found += literals(named, outer) if named is not None \
                    else metric_names(bound, outer, depth + 1)
    return found


def _is_metrics(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Metrics") or (
        isinstance(node, ast.Attribute) and node.attr == "Metrics")


def read_configs(module: ast.Module) -> Configs:
    """What every config call of the module states, once for each call of its factory."""
    constants = module_constants(module)
    configs = Configs()
    for factory, calls in _config_calls(module):
        for bound in _call_sites(module, factory):
            for call in calls:
                _read_config(call, Scope(constants, bound), configs)
    return configs


Factory = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
"""A module-level definition whose body makes configs."""


def _config_calls(module: ast.Module) -> Iterator[tuple[Factory | None, list[ast.Call]]]:
    """The config calls of the module, each with the top-level function or
    ``LightevalTaskConfig`` subclass that makes it (``None`` for the module itself)."""
    outside: list[ast.Call] = []
    for statement in module.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            inside = _config_calls_in(statement)
            if inside:
                yield statement, inside
        else:
            outside += _config_calls_in(statement)
    yield None, outside


def _config_calls_in(node: ast.AST) -> list[ast.Call]:
    subclass = isinstance(node, ast.ClassDef) and any(
        pyast.name_of(base) == CONFIG for base in node.bases)
    return [call for call in pyast.calls(node) if pyast.call_name(call) == CONFIG
            or (subclass and _is_super_init(call))]


def _is_super_init(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "__init__" \
        and isinstance(call.func.value, ast.Call) and pyast.call_name(call.func.value) == "super"


def _call_sites(module: ast.Module, factory: Factory | None) -> list[dict[str, ast.expr]]:
    """What each call of ``factory`` binds its parameters to (one empty binding for the
    module itself, or a factory never called)."""
    function = _init(factory) if isinstance(factory, ast.ClassDef) else factory
    if factory is None or function is None:
        return [{}]
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    params = params[1:] if isinstance(factory, ast.ClassDef) else params  # self
    defaults = dict(zip(reversed(params), reversed(function.args.defaults), strict=False))
    sites = [{**defaults, **dict(zip(params, call.args, strict=False)),
              **{k.arg: k.value for k in call.keywords if k.arg}}
             for call in pyast.calls(module) if pyast.call_name(call) == factory.name]
    return sites or [{}]


def _init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    return next((s for s in cls.body
                 if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)


def _read_config(call: ast.Call, scope: Scope, configs: Configs) -> None:
    configs.count += 1
    configs.names += [n.strip() for n in literals(pyast.keyword(call, "name"), scope)
                      if n.strip()]
    configs.repos += literals(pyast.keyword(call, "hf_repo"), scope)
    configs.metrics += metric_names(pyast.keyword(call, "metrics"), scope)
    configs.versions += literals(pyast.keyword(call, "version"), scope, numbers=True)


# The entry -------------------------------------------------------------------------------


def _entry(reader: MemberReader, name: str, entry_id: str, module: ast.Module) -> Entry | None:
    text = ast.get_docstring(module)
    configs = read_configs(module)
    if text is None and not configs.count:
        reader.warn(name, "no docstring and no LightevalTaskConfig: not read as a benchmark")
        return None
    docstring = read_docstring(text or "")
    title = docstring.text("name")
    if title is None:
        reader.warn(name, "no docstring: the module's name stands for its name" if text is None
                    else "no name in the docstring: the module's name stands for it",
                    field="name")
    repos = [d for d in map(hub_dataset, configs.repos) if d is not None]
    return Entry(
        id=entry_id,
        name=title or entry_id,
        description=docstring.description(),
        papers=_papers(reader, name, docstring.sections.get("paper", [])),
        datasets=_docstring_datasets(reader, name, docstring) + repos,
        metrics=[Metric(name=metric) for metric in configs.metrics],
        tags=docstring.names("tags"),
        languages=docstring.names("languages"),
        tasks=configs.names,
        version=configs.versions[0] if len(set(configs.versions)) == 1 else None,
        source=[name],
    )
