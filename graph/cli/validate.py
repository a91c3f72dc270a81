"""``benchgraph validate``: check record files against the SHACL shapes and say what to fix.

Text (the default) lists, per record file, what is wrong in the shapes' own words; ``json``
is the same for tools; ``ttl`` is the W3C SHACL validation report graph. The load report
(files rejected before validation) goes to stderr.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from rdflib import Literal, URIRef
from rdflib.term import Node

from graph.cli.common import (
    EXIT_DATA_FAILS,
    EXIT_OK,
    STDOUT,
    add_build_arguments,
    add_store_arguments,
    build_from,
    load_exit_code,
    output_to,
    report_load,
    settings_from,
)
from graph.errors import BenchgraphError, ErrorKind
from graph.namespace import curie
from graph.settings import Settings
from graph.store.disk import build_files
from graph.store.files import read_validation
from graph.store.kinds import StoreSpec, open_store
from graph.validation.report import Severity, ValidationReport, ValidationResult

FORMATS = ("text", "json", "ttl")
SEVERITIES = ("violation", "warning", "info")


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check record files against the SHACL shapes",
        description="Build the graph from record files (default: the bundled catalog) and check "
        "it against the shapes in shapes/; with --store oxigraph:DIR, show the report the "
        "store keeps from its build (`benchgraph build --store` validates), reading no record. "
        "Exit 1 when there is a violation (whatever else), else 2 when a file was rejected "
        "before validation or on a usage error, else 0 (warnings allowed).",
    )
    add_build_arguments(parser)
    add_store_arguments(parser, limits=False)
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text for people (default), json for tools, ttl for the W3C "
                        "SHACL validation report")
    parser.add_argument("--severity", choices=SEVERITIES, default="warning",
                        help="show results this severe or more: violation, warning (default) "
                        "or info; the exit code depends on violations only")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    if StoreSpec.parse(settings.store).kind != "memory":
        return _show_kept(args, settings)
    built = build_from(args, settings)
    with tempfile.TemporaryDirectory(prefix="benchgraph-validate-") as folder:
        made = Path(folder) / "made"
        build_files(made, built, settings.base, validate=True)
        report = read_validation(made)
    assert report is not None, "a build asked to validate keeps its report"
    report_load(args, built)
    _write(args, report, settings.base)
    return load_exit_code(built) if report.conforms else EXIT_DATA_FAILS  # outranks a rejection


def _show_kept(args: argparse.Namespace, settings: Settings) -> int:
    """The report a store keeps from its build (no record is read)."""
    store = open_store(StoreSpec.parse(settings.store), settings, args.paths, lazy=True)
    try:
        report = store.artefacts().validation()
    finally:
        store.close()
    if report is None:
        raise BenchgraphError(f"the store {settings.store} was built without validating; build "
                              "it again with `benchgraph build PATH... --store ...` (which "
                              "validates unless told --no-validate)", ErrorKind.STORE)
    _write(args, report, settings.base)
    return EXIT_OK if report.conforms else EXIT_DATA_FAILS


def _write(args: argparse.Namespace, report: ValidationReport, base: str) -> None:
    shown = report.at_least(Severity.from_name(args.severity))
    with output_to(STDOUT):
        if args.format == "json":
            json.dump(shown.to_json(), sys.stdout, indent=1, ensure_ascii=False)
            sys.stdout.write("\n")
        elif args.format == "ttl":
            sys.stdout.write(shown.to_turtle().decode("utf-8"))
        else:
            write_text(shown, report, base, sys.stdout)
        sys.stdout.flush()


def write_text(shown: ValidationReport, full: ValidationReport, base: str, out: TextIO) -> None:
    """Per record file, each result: severity, what it is about, where, then the message."""
    for record, results in shown.by_record().items():
        out.write(f"{_heading(record, results, base)}\n")
        out.writelines(_result_lines(result, base) for result in results)
        out.write("\n")
    out.write(_summary(full) + "\n")


def _heading(record: URIRef | None, results: list[ValidationResult], base: str) -> str:
    source = results[0].source_file
    where = source or (_short(record, base) if record is not None else "the whole catalog")
    counts = ", ".join(_count(n, severity.value.lower())
                       for severity in Severity
                       if (n := sum(1 for r in results if r.severity is severity)))
    return f"{where}: {counts}"


def _result_lines(result: ValidationResult, base: str) -> str:
    where = [_short(result.focus_node, base)]
    if result.path is not None:
        where.append(result.path)
    if result.value is not None and result.value != result.focus_node:
        where.append(f"value {_value(result.value, base)}")
    head = f"  {result.severity.value.lower()}: {result.shape_name} ({', '.join(where)})"
    return f"{head}\n    {result.message}\n"


def _summary(report: ValidationReport) -> str:
    verdict = "conforms" if report.conforms else "does not conform"
    counts = ", ".join(_count(report.count(s), s.value.lower()) for s in Severity
                       if s is not Severity.INFO or report.count(s))
    return f"{_count(report.records_checked, 'record')} checked: {counts}; the catalog {verdict}"


def _short(node: Node, base: str) -> str:
    return curie(node, base) if isinstance(node, URIRef) else str(node)


def _value(node: Node, base: str) -> str:
    if isinstance(node, Literal):
        return json.dumps(str(node), ensure_ascii=False)
    return _short(node, base)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
