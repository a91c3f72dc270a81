"""alpaca-eval (``alpaca-eval``): AlpacaEval 2.0 and AlpacaEval with their leaderboards'
results, and the models the package configures.

The package states two benchmarks, the two versions of one evaluation set, each with a
folder of leaderboards: ``alpaca_eval/leaderboards/data_AlpacaEval_2/`` is AlpacaEval 2.0's
and ``data_AlpacaEval/`` AlpacaEval's (``constants.py``'s ``ALPACAEVAL_2_LEADERBOARD_PATHS``
and ``ALPACAEVAL_1_LEADERBOARD_PATHS``). Each leaderboard is ``{annotator}_leaderboard.csv``:
the same models scored against the version's baseline by another annotator (the evaluator
config of that name in ``evaluators_configs/``), as ``constants.py``'s
``PRECOMPUTED_LEADERBOARDS`` keys each file by its reference outputs and annotator. So every
file of a folder gives results of its benchmark; the annotator is a setting of each result
(``settings.other["annotator"]``, with the folder's baseline as ``other["baseline"]``), and
the judge (``settings.judge``) is the model its evaluator config names
(``completions_kwargs.model_name``); without that config the judge is not stated. The main
leaderboard of a version is the one of its default annotator, which ``constants.py`` states
as ``ANNOTATOR_CONFIG_AE2`` and ``ANNOTATOR_CONFIG_AE1`` (read from its syntax tree);
the README calls those two leaderboards "AlpacaEval 2.0" and "AlpacaEval", and that name is
their results' ``table`` (the other files have no name, and no table).

Which folder is which benchmark, what each CSV column is (a score with its standard-error
column, the sample count, the ``mode``, or data that is no score, like ``avg_length``), who
ran a row by its ``mode`` (``verified`` and ``minimal``: the maintainers; ``community``: the
community; ``dev``: not stated), and the README's own results table are rules kept as data in
``alpaca_eval.toml`` beside this module (``graph.ingest.harvest.alpaca_eval_rules``), each with
where
in the package it was read. The win rates are percentages (``metrics/helpers.py`` prints a
fraction times 100). A column no rule names is a warning, and so is a rule that no longer
matches the package. Each value is kept as printed; an empty cell (a score a row does not
have) is no result. No leaderboard states when it was run: no result has a date.

The entries' description is the README's (the wheel's METADATA) Overview paragraph; their
papers are the README's BibTeX citations the rules name; their dataset is the one
``constants.py`` loads (``datasets.load_dataset("tatsu-lab/alpaca_eval", ...)``).

Each model config (``models_configs/NAME/configs.yaml``, its settings under the key ``NAME``)
is a ``StatedModel``: its id the folder's name, the names the leaderboards use. Its
``pretty_name`` and the ``model_name`` it loads are aliases (a local path, ``./…``, is no
name). That ``model_name`` is its Hugging Face id only where a Hugging Face loader loads it
(``HUB_LOADERS``) and it reads as one (``ORG/NAME``): the same form through an API
(``openai_completions`` against Together's server) is that API's name, not a hub id, and is
the model's ``api_id`` where the decoder sends it to a provider's API (``API_CALLERS``).

A config that samples several completions of the model it loads and submits one of them
(best-of-n: ``pairrm-zephyr-7b-beta`` generates 16 completions with
``HuggingFaceH4/zephyr-7b-beta`` and submits the one PairRM picks) is a system of its own,
built on that model: its scores are not the base model's. Its settings say so where a
``completions_kwargs`` setting asks for more than one completion (``SAMPLE_COUNTS``:
``best_of: 16``, ``n: 64``); where they do not, its name does (the folder's or
``pretty_name``: ``Snorkel-Mistral-PairRM-DPO-best-of-16``, "Samba CoE v0.2 (best-of-16)";
``BEST_OF_NAME``). Its ``model_name`` is then the base model's name, not its own: no hub id,
API id or alias of it, so it keeps its folder's name as its key and its results stay off the
base model's node. The snapshot has no field for the model a system is built on, so that link
is not stated.
"""

import ast
import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.parser import HeaderParser
from typing import Any

from graph.ingest.harvest.alpaca_eval_rules import (
    BenchmarkRule,
    ColumnRule,
    ReadmeTableRule,
    Rules,
    bundled_rules,
)
from graph.ingest.harvest.archive import Archive
from graph.ingest.harvest.bibtex import Citation, check
from graph.ingest.harvest.citing import read_citations
from graph.ingest.harvest.hub import hub_dataset
from graph.ingest.harvest.markdown_blocks import Block, Heading, Prose, Table, blocks
from graph.ingest.harvest.pyast import call_name, calls, keyword, parse_module, string
from graph.ingest.harvest.reader import MemberReader, Reading, text_field
from graph.ingest.harvest.result_figures import decimal
from graph.ingest.harvest.text import short_description
from graph.ingest.records.harness_snapshot import Dataset, Entry, Harness, Metric, Paper
from graph.ingest.records.stated_model import StatedModel
from graph.ingest.records.stated_result import RanBy, Scale, Settings, StatedResult, Uncertainty

CONSTANTS = "alpaca_eval/constants.py"
LEADERBOARDS = "alpaca_eval/leaderboards/"
EVALUATOR_CONFIG = "alpaca_eval/evaluators_configs/{}/configs.yaml"
MODEL_CONFIG = re.compile(r"alpaca_eval/models_configs/(?P<id>[^/]+)/configs\.yaml")
LEADERBOARD = re.compile(r"(?P<annotator>.+)_leaderboard\.csv")
HUB_LOADERS = frozenset({
    "huggingface_local_completions", "vllm_local_completions", "huggingface_api_completions",
})
"""The decoders that load ``model_name`` from the Hugging Face hub: ``from_pretrained``,
vLLM's ``LLM(model=...)``, and Hugging Face's inference API."""
API_CALLERS = frozenset({
    "openai_completions", "anthropic_completions", "bedrock_anthropic_completions",
    "cohere_completions", "google_completions", "jina_chat_completions",
    "replicate_completions",
})
"""The decoders (``decoders/``) that send ``model_name`` to a provider's API as its id of the
model: OpenAI's client (or a server speaking its protocol, ``client_kwargs.base_url``),
Anthropic's, Bedrock's, Cohere's, Google's, JinaChat's and Replicate's."""
SAMPLE_COUNTS = ("best_of", "n", "num_return_sequences")
"""The ``completions_kwargs`` that ask a decoder for several completions of one prompt (the
decoders pass them on: vLLM's ``SamplingParams`` ``best_of``, which generates that many and
returns one, and ``n``; transformers' ``num_return_sequences``). A leaderboard takes one output
per instruction, so a count above 1 is a system that picks one of several samples."""
BEST_OF_NAME = re.compile(r"\bbest-of-[0-9]+\b", re.IGNORECASE)
"""A best-of-n system's name: the folder's (``Storm-7B-best-of-64``) or its ``pretty_name``
(``Snorkel (Mistral-PairRM-DPO+best-of-16)``)."""
HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")
COUNT = re.compile(r"(?P<count>[0-9]+)(\.0+)?")
"""A count as pandas prints it: ``805``, or ``805.0`` from a column that holds floats."""


class AlpacaEvalReader:
    harness: Harness = "alpaca_eval"
    distribution = "alpaca-eval"

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        package = _Package.read(MemberReader(archive, reading.problems),
                                self.rules or bundled_rules())
        boards = _leaderboards(package)
        reading.entries = [_entry(package, rule, boards[rule.id])
                           for rule in package.rules.benchmark if boards[rule.id]]
        reading.models = [model for name in archive.names
                          if (model := _model_config(package.reader, name)) is not None]
        return reading


@dataclass
class _Readme:
    """The README (METADATA's body): its name, Markdown blocks and citations."""

    name: str
    blocks: list[Block]
    citations: dict[str, Citation]


@dataclass
class _Package:
    """What every entry draws on: the README, ``constants.py`` and the annotators' judges."""

    reader: MemberReader
    rules: Rules
    readme: _Readme | None
    constants: ast.Module | None
    judges: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)

    @classmethod
    def read(cls, reader: MemberReader, rules: Rules) -> "_Package":
        constants = parse_module(reader, CONSTANTS)
        return cls(reader, rules, _readme(reader), constants)

    def judge(self, annotator: str) -> tuple[str | None, str | None]:
        """The model the annotator's evaluator config names, and that config's member."""
        if annotator not in self.judges:
            self.judges[annotator] = _judge(self.reader, annotator)
        return self.judges[annotator]

    def settings(self, annotator: str | None, baseline: str) -> tuple[Settings, list[str]]:
        """The settings of a result scored by ``annotator``, and the files they were read
        from."""
        other = {"baseline": baseline}
        if annotator is None:
            return Settings(other=other), []
        judge, config = self.judge(annotator)
        return (Settings(judge=judge, other={"annotator": annotator, **other}),
                [config] if config else [])

    def ran_by(self, name: str, mode: str, where: str) -> RanBy:
        for rule in self.rules.mode:
            if rule.mode == mode:
                return rule.ran_by
        if mode:
            self.reader.warn(name, "a mode no rule in alpaca_eval.toml names: who ran it is "
                             "not stated", field="mode", value=f"{where}: {mode}")
        return "not_stated"


def _readme(reader: MemberReader) -> _Readme | None:
    names = [n for n in reader.archive.names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
    text = reader.text(names[0]) if names else None
    if text is None:
        return None
    body = HeaderParser().parsestr(text).get_payload()
    body = body if isinstance(body, str) else ""
    found = read_citations(reader, names[0], body)
    cited = {c.key: c for c in reversed(found)}  # the first of a key cited twice
    return _Readme(names[0], blocks(body), cited)


def _judge(reader: MemberReader, annotator: str) -> tuple[str | None, str | None]:
    name = EVALUATOR_CONFIG.format(annotator)
    config = reader.mapping(name) if name in reader.archive else None
    if config is None:
        return None, None
    settings = config.get(annotator)
    kwargs = settings.get("completions_kwargs") if isinstance(settings, dict) else None
    judge = text_field(kwargs, "model_name") if isinstance(kwargs, dict) else None
    if judge is None:
        reader.warn(name, "an evaluator config with no completions_kwargs.model_name: the "
                    "judge is not stated", field=f"{annotator}.completions_kwargs.model_name")
    return judge, name


# -- leaderboards -------------------------------------------------------------------------


@dataclass
class _Board:
    """One leaderboard file's results, the score columns it has, and the files read."""

    results: list[StatedResult]
    metrics: list[str]
    sources: list[str]


@dataclass(frozen=True)
class _Table:
    """What every result of one leaderboard shares."""

    source: str
    settings: Settings
    title: str | None


def _leaderboards(package: _Package) -> dict[str, list[_Board]]:
    """Each benchmark's leaderboard files, read; a CSV in no known folder is a warning."""
    folders = {rule.folder: rule for rule in package.rules.benchmark}
    mains = {rule.id: _main_annotator(package, rule) for rule in package.rules.benchmark}
    boards: dict[str, list[_Board]] = {rule.id: [] for rule in package.rules.benchmark}
    for name in package.reader.archive.below(LEADERBOARDS):
        folder = name.rsplit("/", 1)[0] + "/"
        if not name.endswith(".csv") or folder in package.rules.ignored_folders:
            continue
        if folder not in folders:
            package.reader.warn(name, "a leaderboard in a folder no rule in alpaca_eval.toml "
                                "names: left out")
            continue
        rule = folders[folder]
        board = _leaderboard(package, rule, name, mains[rule.id])
        boards[rule.id] += [board] if board is not None else []
    return boards


def _main_annotator(package: _Package, rule: BenchmarkRule) -> str | None:
    """The benchmark's default annotator, as ``constants.py`` assigns it."""
    for node in package.constants.body if package.constants else []:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == rule.annotator_constant):
            return string(node.value)
    if package.constants is not None:
        package.reader.warn(CONSTANTS, "no string assigned to the annotator constant that "
                            "alpaca_eval.toml names", field=rule.annotator_constant)
    return None


def _leaderboard(package: _Package, rule: BenchmarkRule, name: str,
                 main: str | None) -> _Board | None:
    text = package.reader.text(name)
    try:
        rows = list(csv.reader(io.StringIO(text))) if text is not None else []
    except csv.Error as error:
        package.reader.warn(name, "not a CSV file that can be read", value=str(error))
        return None
    columns = _columns(package, name, rows[0] if rows else [])
    if columns is None:
        return None
    found = LEADERBOARD.fullmatch(name.rsplit("/", 1)[1])
    annotator = found.group("annotator") if found else None
    settings, configs = package.settings(annotator, rule.baseline)
    is_main = annotator is not None and annotator == main
    table = _Table(name, settings, rule.name if is_main else None)
    results = [result for number, model, cells in _rows(package, name, rows)
               for result in _row(package, table, columns, cells, f"row {number} ({model})")]
    scores = [heading for heading, column in columns.items() if column.role == "score"]
    return _Board(results, scores, [name, *configs, *([CONSTANTS] if is_main else [])])


def _columns(package: _Package, name: str, header: list[str]) -> dict[str, ColumnRule] | None:
    """The header's columns with their rules; ``None`` (and a warning) when the first is not
    the model's name. A column no rule names is a warning, and left out."""
    rules = {rule.name: rule for rule in package.rules.column}
    first = rules.get(header[0]) if header else None
    if first is None or first.role != "model":
        package.reader.warn(name, "no model name in the first column: left out",
                            field="header", value=",".join(header)[:200])
        return None
    errors = {rule.stderr for rule in package.rules.column if rule.stderr}
    for heading in header[1:]:
        if heading not in rules and heading not in errors:
            package.reader.warn(name, "a column no rule in alpaca_eval.toml names: left out",
                                field=heading)
    return {heading: rules[heading] for heading in header if heading in rules}


def _rows(package: _Package, name: str,
          rows: list[list[str]]) -> Iterator[tuple[int, str, dict[str, str]]]:
    """Each row's number, model and cells by heading, once per model; a warning for a row
    with no model, with more or fewer cells than headings, or for a model already listed."""
    header, seen = rows[0], set()
    for number, row in enumerate(rows[1:], start=2):
        model = row[0] if row else ""
        reason = ("a row with no model name" if not model.strip() else
                  "a row with another number of cells than the header" if len(row) != len(header)
                  else "a model listed twice: the first row kept" if model in seen else None)
        if reason is not None:
            package.reader.warn(name, f"{reason}: left out", field=f"row {number}", value=model)
            continue
        seen.add(model)
        yield number, model, dict(zip(header, row, strict=True))


def _row(package: _Package, table: _Table, columns: dict[str, ColumnRule],
         cells: dict[str, str], where: str) -> list[StatedResult]:
    """The results of one row: one per score column with a value."""
    model = next(cells[h] for h, column in columns.items() if column.role == "model")
    modes = [cells[h].strip() for h, column in columns.items() if column.role == "mode"]
    ran_by = package.ran_by(table.source, modes[0], where) if modes else "not_stated"
    samples = [_count(package, table.source, h, cells[h], where)
               for h, column in columns.items() if column.role == "samples"]
    results = []
    for heading, column in columns.items():
        value = _number(package, table.source, heading, cells[heading], where) \
            if column.role == "score" else None
        if value is None:
            continue
        stderr = _number(package, table.source, column.stderr,
                         cells.get(column.stderr) if column.stderr else None, where)
        results.append(_result(model, heading, value, stderr, column.scale, table,
                               samples=samples[0] if samples else None, ran_by=ran_by))
    return results


def _result(model: str, metric: str, value: str, stderr: str | None, scale: Scale | None,
            table: _Table, samples: int | None, ran_by: RanBy) -> StatedResult:
    return StatedResult(
        model=model, metric=metric, value=value, scale=scale,
        uncertainty=Uncertainty(stderr=stderr) if stderr is not None else None,
        samples=samples, settings=table.settings, harness="alpaca_eval", ran_by=ran_by,
        table=table.title, source=table.source)


def _number(package: _Package, name: str, heading: str | None, cell: str | None,
            where: str) -> str | None:
    """A cell's number as printed; ``None`` for an empty cell, and a warning for one that is
    no number."""
    value = (cell or "").strip()
    if not value or heading is None or decimal(value):
        return value if value and heading is not None else None
    package.reader.warn(name, "not a number in digits and a point: left out", field=heading,
                        value=f"{where}: {value}")
    return None


def _count(package: _Package, name: str, heading: str, cell: str, where: str) -> int | None:
    found = COUNT.fullmatch(cell.strip())
    if found is None and cell.strip():
        package.reader.warn(name, "not a count: left out", field=heading,
                            value=f"{where}: {cell.strip()}")
    return int(found.group("count")) if found else None


# -- the README ---------------------------------------------------------------------------


def _readme_results(package: _Package, rule: BenchmarkRule) -> list[StatedResult]:
    """The results of the README tables that the rules give to the benchmark."""
    readme = package.readme
    results: list[StatedResult] = []
    for table_rule in package.rules.readme_table:
        if table_rule.benchmark != rule.id or readme is None:
            continue
        table = _titled_tables(readme.blocks).get(table_rule.title)
        if table is None:
            package.reader.warn(readme.name, "a README table that alpaca_eval.toml names and "
                                "the README does not hold", field="table",
                                value=table_rule.title)
            continue
        results += _table_results(package, readme.name, rule, table_rule, table)
    return results


def _table_results(package: _Package, name: str, rule: BenchmarkRule,
                   table_rule: ReadmeTableRule, table: Table) -> list[StatedResult]:
    settings, _ = package.settings(table_rule.annotator, rule.baseline)
    stated = _Table(name, settings, table_rule.title)
    ran_by = package.ran_by(name, table_rule.mode, table_rule.title)
    header, results = table.header, []
    for score in table_rule.scores:
        if score.metric not in header or (score.stderr and score.stderr not in header):
            package.reader.warn(name, "a column that alpaca_eval.toml names and the README "
                                "table does not have", field=table_rule.title,
                                value=f"{score.metric}, {score.stderr}")
            continue
        for row in table.rows:
            model, cells = (row[0] if row else ""), dict(zip(header, row, strict=False))
            where = f"{table_rule.title} ({model})"
            value = _number(package, name, score.metric, cells.get(score.metric), where)
            stderr = _number(package, name, score.stderr,
                             cells.get(score.stderr) if score.stderr else None, where)
            results += [_result(model, score.metric, value, stderr, table_rule.scale, stated,
                                samples=None, ran_by=ran_by)] if value and model else []
    return results


def _titled_tables(found: list[Block]) -> dict[str, Table]:
    """Each table that a paragraph titles (its caption), by that paragraph's text without a
    closing colon."""
    tables: dict[str, Table] = {}
    for block in found:
        if isinstance(block, Table) and block.caption is not None:
            tables.setdefault(block.caption.rstrip(":").strip(), block)
    return tables


def _description(readme: _Readme, heading: str) -> str | None:
    """The first paragraph under the README's heading ``heading``."""
    under = False
    for block in readme.blocks:
        if isinstance(block, Heading):
            under = block.text == heading
        elif under and isinstance(block, Prose):
            return short_description(block.text)
    return None


def _papers(package: _Package, rule: BenchmarkRule) -> list[Paper]:
    """The papers of the README's citations that the rule names, in its order."""
    readme = package.readme
    if readme is None:
        return []
    papers: list[Paper] = []
    for key in rule.cite_keys:
        citation = readme.citations.get(key)
        paper = check(None, citation) if citation else None
        if paper is None:
            package.reader.warn(readme.name, "a cite key that alpaca_eval.toml names and the "
                                "README holds no paper for", field="citation", value=key)
        papers += [paper] if paper else []
    return papers


def _datasets(constants: ast.Module | None) -> list[Dataset]:
    """The datasets ``constants.py`` loads: ``load_dataset``'s first argument, and
    ``hf_hub_download``'s ``repo_id`` where its ``repo_type`` is ``dataset``."""
    found: list[Dataset] = []
    for call in calls(constants) if constants else ():
        name = call_name(call)
        if name == "load_dataset" and call.args:
            dataset_id = string(call.args[0])
        elif name == "hf_hub_download" and string(keyword(call, "repo_type")) == "dataset":
            dataset_id = string(keyword(call, "repo_id"))
        else:
            continue
        dataset = hub_dataset(dataset_id) if dataset_id else None
        found += [dataset] if dataset else []
    return found


# -- entries and models -------------------------------------------------------------------


def _entry(package: _Package, rule: BenchmarkRule, boards: list[_Board]) -> Entry:
    readme = package.readme
    description = _description(readme, package.rules.description_heading) if readme else None
    papers = _papers(package, rule)
    told = _readme_results(package, rule)
    datasets = _datasets(package.constants)
    metrics = sorted({name for board in boards for name in board.metrics})
    readme_used = readme is not None and bool(description or papers or told)
    return Entry(
        id=rule.id, name=rule.name, aliases=rule.aliases, description=description,
        papers=papers, datasets=datasets,
        metrics=[Metric(name=name, main=name == rule.main_metric) for name in metrics],
        results=[r for board in boards for r in board.results] + told,
        source=[s for board in boards for s in board.sources]
        + ([readme.name] if readme is not None and readme_used else [])
        + ([CONSTANTS] if datasets else []),
    )


def _model_config(reader: MemberReader, name: str) -> StatedModel | None:
    """The model a member states, if it is a model config that can be read."""
    found = MODEL_CONFIG.fullmatch(name)
    config = reader.mapping(name) if found else None
    return _model(reader, name, found.group("id"), config) if found and config else None


def _model(reader: MemberReader, name: str, model_id: str,
           config: dict[str, Any]) -> StatedModel | None:
    keys = list(config)
    key = model_id if model_id in config else keys[0] if len(keys) == 1 else None
    settings = config.get(key) if key is not None else None
    if not isinstance(settings, dict):
        reader.warn(name, "no settings under the folder's name: left out", field=model_id)
        return None
    if key != model_id:
        reader.warn(name, "the config's key is not its folder's name", field=str(key))
    pretty = text_field(settings, "pretty_name")
    kwargs = settings.get("completions_kwargs")
    loaded = text_field(kwargs, "model_name") if isinstance(kwargs, dict) else None
    # a local path is no name; a best-of-n system's model_name is its base model's, not its own
    local = loaded is not None and loaded.startswith((".", "/", "~"))
    named = None if local or _best_of_n(kwargs, (model_id, pretty)) else loaded
    decoder = settings.get("fn_completions")
    hub = named if named and decoder in HUB_LOADERS and HUB_ID.fullmatch(named) else None
    api = named if decoder in API_CALLERS else None
    aliases = [a for a in (pretty, named, str(key)) if a and a != model_id]
    return StatedModel(id=model_id, display_name=pretty, hub_id=hub, api_id=api,
                       aliases=aliases, source=[name])


def _best_of_n(kwargs: object, names: tuple[str | None, ...]) -> bool:
    """Whether a config with these ``completions_kwargs`` and names (its folder's, its
    ``pretty_name``) is a system that picks one of several completions of the model it loads:
    a ``SAMPLE_COUNTS`` setting above 1, or a best-of-n name."""
    counts = [kwargs.get(key) for key in SAMPLE_COUNTS] if isinstance(kwargs, dict) else []
    if any(type(count) is int and count > 1 for count in counts):  # not a bool
        return True
    return any(BEST_OF_NAME.search(name) for name in names if name)
