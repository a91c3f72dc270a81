"""What HELM's Python states about its run specs and scenarios, read from the syntax tree.

A run spec function (``@run_spec_function("mimic_rrs")`` in ``helm/benchmark/run_specs/``)
states, as literals: the run groups it reports to (``RunSpec(groups=[...])``), the scenario
class it runs (``ScenarioSpec(class_name=...)``), how it poses the task (the adapter's
``method``, an ``ADAPT_*`` constant, given directly or fixed by a ``get_*_adapter_spec``
helper), and whether it takes a ``data_path`` with no default: data the user must have on
disk. A scenario class states its ``tags``, the Hugging Face datasets it loads by literal
id, the papers its docstring (or its module's) cites in BibTeX, read with pybtex
(``graph.ingest.harvest.bibtex``; an entry pybtex cannot read is a warning naming the class),
and the links its docstrings give on a line of their own as the paper's (``Paper: URL``). What a
function computes (an f-string group name, a method passed in) is not stated, and is left out.
"""

import ast
import re
from dataclasses import dataclass, field, replace

from graph.ingest.harvest import pyast
from graph.ingest.harvest.bibtex import Citation
from graph.ingest.harvest.citing import read_citations
from graph.ingest.harvest.hub import hub_dataset
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.records.harness_snapshot import Dataset

RUN_SPECS = "helm/benchmark/run_specs/"
ADAPTER_CONSTANTS = "helm/benchmark/adaptation/adapter_spec.py"
ADAPTER_HELPERS = ("helm/benchmark/adaptation/common_adapter_specs.py",)
LOCAL_DATA_ARGUMENT = "data_path"
_ADAPTER_HELPER = re.compile(r"_?get_\w*adapter_spec")
_PAPER_LINE = re.compile(r"^\s*Paper:\s*(?P<url>https?://\S+)\s*$", re.MULTILINE)
"""A docstring line that gives a link as the paper's, in the words of HELM's docstrings."""


@dataclass(frozen=True)
class RunSpec:
    """What one run spec function states: its name, its file, the run groups it reports to,
    the scenario classes it runs, its adapter methods, and whether it takes a ``data_path``."""

    name: str
    source: str
    groups: tuple[str, ...]
    scenario_classes: tuple[str, ...]
    methods: tuple[str, ...]
    local_data: bool


@dataclass(frozen=True)
class Scenario:
    """What one scenario class states: its file and name, its tags, the datasets it loads,
    and the BibTeX citations and ``Paper:`` links of its docstring then of its module's, in
    order."""

    source: str
    name: str
    tags: tuple[str, ...]
    datasets: tuple[Dataset, ...]
    citations: tuple[Citation, ...]
    paper_links: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Call:
    """One call in a function, as much of it as says how a task is posed: the called name,
    the constant its ``method`` keyword names, and the names its positional arguments are."""

    called: str | None
    method: str | None
    positional: tuple[str | None, ...]


@dataclass(frozen=True)
class _Helper:
    """An adapter helper (``get_*_adapter_spec``): its parameters, the default of its
    ``method`` parameter if it has one, and its own calls (which fix its method if not)."""

    parameters: tuple[str, ...]
    method_default: str | None
    calls: tuple[_Call, ...]


@dataclass(frozen=True)
class _Pending:
    """A run spec read, whose methods wait until every helper is known."""

    spec: RunSpec
    calls: tuple[_Call, ...]


@dataclass
class HelmCode:
    """Reads run specs and scenarios of one HELM package. Each module is parsed once and its
    tree dropped when read: only the facts read from it stay."""

    reader: MemberReader
    _constants: dict[str, str] = field(default_factory=dict)
    _helpers: dict[str, _Helper] = field(default_factory=dict)
    _scenarios: dict[str, dict[str, Scenario]] = field(default_factory=dict)

    def run_specs(self) -> list[RunSpec]:
        """Every run spec function in the package, in member then source order."""
        self._constants = self._adapter_constants()
        modules = [n for n in self.reader.archive.below(RUN_SPECS) if n.endswith(".py")]
        pending: list[_Pending] = []
        for name in (*ADAPTER_HELPERS, *modules):
            module = self._parse(name)
            for node in ast.walk(module) if module else ():
                if not isinstance(node, ast.FunctionDef):
                    continue
                if _ADAPTER_HELPER.fullmatch(node.name):
                    self._helpers.setdefault(node.name, _helper(node))
                found = _run_spec(node, name) if name in modules else None
                pending += [found] if found else []
        return [
            replace(p.spec, methods=tuple(sorted(self._methods(p.calls, ())))) for p in pending
        ]

    def scenario(self, class_name: str) -> Scenario | None:
        """The scenario class named by its dotted path, if the package holds it."""
        module_path, _, class_ = class_name.rpartition(".")
        base = module_path.replace(".", "/")
        for name in (f"{base}.py", f"{base}/__init__.py"):
            if name in self.reader.archive:
                if name not in self._scenarios:
                    self._scenarios[name] = self._read_scenarios(name)
                return self._scenarios[name].get(class_)
        return None

    def _read_scenarios(self, name: str) -> dict[str, Scenario]:
        """The classes of one module, by name."""
        module = self._parse(name)
        if module is None:
            return {}
        cited = self._cited(name, module, "module docstring")
        linked = _paper_links(module)
        return {
            node.name: Scenario(name, node.name, _class_tags(node), _loaded_datasets(node),
                                self._cited(name, node, f"{node.name} docstring") + cited,
                                _paper_links(node) + linked)
            for node in module.body if isinstance(node, ast.ClassDef)
        }

    def _cited(self, name: str, node: ast.Module | ast.ClassDef,
               field: str) -> tuple[Citation, ...]:
        """The BibTeX citations of the node's docstring; one warning per unreadable entry."""
        docstring = ast.get_docstring(node, clean=False)
        return tuple(read_citations(self.reader, name, docstring, field)) if docstring else ()

    def _parse(self, name: str) -> ast.Module | None:
        return pyast.parse_module(self.reader, name) if name in self.reader.archive else None

    def _adapter_constants(self) -> dict[str, str]:
        """The ``ADAPT_*`` names and their strings (``ADAPT_GENERATION: str = "generation"``)."""
        module = self._parse(ADAPTER_CONSTANTS)
        found: dict[str, str] = {}
        for node in module.body if module else []:
            target: ast.expr
            if isinstance(node, ast.AnnAssign):
                target, value = node.target, node.value
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            else:
                continue
            text = pyast.string(value)
            if isinstance(target, ast.Name) and target.id.startswith("ADAPT_") and text:
                found[target.id] = text
        return found

    def _methods(self, calls: tuple[_Call, ...], seen: tuple[str, ...]) -> set[str]:
        """The adapter methods these calls state: ``method=ADAPT_X`` in any call, and the
        methods of the adapter helpers called (``seen``: the helpers on the way, so that two
        helpers calling each other end)."""
        found: set[str] = set()
        for call in calls:
            helper = self._helpers.get(call.called or "")
            given = call.method
            if helper is not None and "method" in helper.parameters:
                index = helper.parameters.index("method")
                if given is None and index < len(call.positional):
                    given = call.positional[index]
                given = given if given is not None else helper.method_default
            elif helper is not None and given is None and call.called not in seen:
                assert call.called is not None
                found |= self._methods(helper.calls, (*seen, call.called))
            method = self._constants.get(given) if given else None
            found.update([method] if method else [])
        return found


def _helper(function: ast.FunctionDef) -> _Helper:
    parameters = tuple(a.arg for a in (*function.args.args, *function.args.kwonlyargs))
    default = _default(function, "method")
    return _Helper(parameters, default.id if isinstance(default, ast.Name) else None,
                   _calls(function))


def _calls(function: ast.FunctionDef) -> tuple[_Call, ...]:
    def name_of(node: ast.AST | None) -> str | None:
        return node.id if isinstance(node, ast.Name) else None

    return tuple(
        _Call(pyast.call_name(call), name_of(pyast.keyword(call, "method")),
              tuple(name_of(argument) for argument in call.args))
        for call in pyast.calls(function)
    )


def _run_spec(function: ast.FunctionDef, source: str) -> _Pending | None:
    name = next((pyast.string(d.args[0]) for d in function.decorator_list
                 if isinstance(d, ast.Call) and pyast.call_name(d) == "run_spec_function"
                 and d.args), None)
    if name is None:
        return None
    local = pyast.local_strings(function)
    groups: list[str] = []
    classes: list[str] = []
    for call in pyast.calls(function):
        called = pyast.call_name(call)
        if called == "RunSpec":
            groups += _names(pyast.keyword(call, "groups"), local)
        elif called == "ScenarioSpec":
            classes += filter(None, [pyast.string(pyast.keyword(call, "class_name"))])
    needs = LOCAL_DATA_ARGUMENT in _required_parameters(function)
    spec = RunSpec(name, source, tuple(dict.fromkeys(groups)), tuple(dict.fromkeys(classes)),
                   (), needs)
    return _Pending(spec, _calls(function))


def _default(function: ast.FunctionDef, parameter: str) -> ast.expr | None:
    positional = function.args.args
    defaults = dict(zip([a.arg for a in positional[len(positional) - len(function.args.defaults):]],
                        function.args.defaults, strict=True))
    for argument, value in zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True):
        if value is not None:
            defaults[argument.arg] = value
    return defaults.get(parameter)


def _required_parameters(function: ast.FunctionDef) -> set[str]:
    every = {a.arg for a in (*function.args.args, *function.args.kwonlyargs)}
    return {name for name in every if _default(function, name) is None}


def _names(node: ast.expr | None, local: dict[str, str]) -> list[str]:
    """The names in a list literal: string literals, and locals bound to one."""
    if not isinstance(node, ast.List | ast.Tuple):
        return []
    found: list[str] = []
    for element in node.elts:
        value = pyast.string(element)
        if value is None and isinstance(element, ast.Name):
            value = local.get(element.id)
        if value:
            found.append(value)
    return found


def _paper_links(node: ast.Module | ast.ClassDef) -> tuple[str, ...]:
    """The links the node's docstring gives as the paper's, each on a ``Paper:`` line."""
    docstring = ast.get_docstring(node, clean=False) or ""
    return tuple(found.group("url") for found in _PAPER_LINE.finditer(docstring))


def _class_tags(node: ast.ClassDef) -> tuple[str, ...]:
    for statement in node.body:
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "tags" for t in statement.targets
        ):
            return tuple(pyast.strings(statement.value))
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) \
                and statement.target.id == "tags":
            return tuple(pyast.strings(statement.value))
    return ()


def _loaded_datasets(node: ast.ClassDef) -> tuple[Dataset, ...]:
    """The Hugging Face datasets the class loads by a literal id: ``load_dataset("x", ...)``,
    and ``snapshot_download`` / ``hf_hub_download`` with ``repo_type="dataset"``."""
    found: dict[str, Dataset] = {}
    for call in pyast.calls(node):
        called = pyast.call_name(call)
        name: str | None = None
        if called == "load_dataset":
            name = pyast.string(call.args[0] if call.args else pyast.keyword(call, "path"))
        elif called in ("snapshot_download", "hf_hub_download") and \
                pyast.string(pyast.keyword(call, "repo_type")) == "dataset":
            name = pyast.string(pyast.keyword(call, "repo_id"))
        dataset = hub_dataset(name) if name else None
        if dataset is not None:
            found.setdefault(dataset.id, dataset)
    return tuple(found.values())
