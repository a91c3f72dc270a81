"""A model a harness package describes -> the statements of its record's named graph.

The model's node is the one its Hugging Face id names where the package states one, else the
API id it calls where the package's id respells it, else its id there
(``ModelRules.record_name`` in ``graph.mapping.model_names``), so HELM's metadata,
OpenCompass's and AlpacaEval's configs and every result naming the model meet on one node,
each in its own graph. What the package states: its display name (``rdfs:label``), every
other name (``skos:altLabel``: its id, the Hugging Face id, the API id, the configs' names),
the Hugging Face id (``bench:hubId``), its maker (an organisation node, ``bench:madeBy``),
access as written, release date, parameter count and short description; a dated snapshot
(``gpt-4o-YYYY-MM-DD``) is ``bench:snapshotOf`` the model its name is a snapshot of. The
record cites the package and the files, as a harness entry's does.
"""

from graph.ingest.records import HarnessModel
from graph.mapping.context import MappingContext
from graph.mapping.emitter import Statements
from graph.mapping.harness_entry import package_node
from graph.mapping.model_names import bundled_model_rules
from graph.namespace import BENCH, DCTERMS, PROV, SKOS


def map_harness_model(record: HarnessModel, out: Statements, ctx: MappingContext) -> None:
    """Statements about the model and the record's sources."""
    model, package = record.model, record.package
    harness = ctx.vocabulary.find(BENCH.Harness, package.harness)
    out.add_text(out.graph, BENCH.entryId, model.id)
    out.add(out.graph, BENCH.harness, harness)
    out.add_texts(out.graph, BENCH.statedIn, model.source)
    out.add(out.graph, PROV.wasDerivedFrom, package_node(package, harness, out, ctx))

    rules = bundled_model_rules()
    keyed = rules.record_name(model.id, model.hub_id, model.api_id)
    key = rules.key(keyed)
    node = ctx.named_node(out, ctx.iris.model(key), BENCH.Model, model.display_name or model.id)
    out.add(out.graph, BENCH.describesModel, node)
    names = [model.id, model.hub_id, model.api_id, *model.aliases]
    out.add_texts(node, SKOS.altLabel, dict.fromkeys(n for n in names
                                                    if n and n != model.display_name))
    out.add_text(node, BENCH.hubId, model.hub_id)
    if model.maker is not None:
        out.add(node, BENCH.madeBy, ctx.named_node(out, ctx.iris.org(model.maker),
                                                  BENCH.Organization, model.maker))
    out.add_text(node, BENCH.modelAccess, model.access)
    out.add_partial_date(node, DCTERMS.issued, model.release_date)
    out.add_integer(node, BENCH.parameterCount, model.parameters)
    out.add_text(node, DCTERMS.description, model.description)
    family = rules.family(key)
    if family is not None:
        out.add(node, BENCH.snapshotOf, ctx.named_node(out, ctx.iris.model(family), BENCH.Model,
                                                       _family_name(keyed, key, family)))


def _family_name(name: str, key: str, family: str) -> str:
    """The family's name as the snapshot's name writes it: the name without its date, where
    the name's own spelling allows; else the family's key."""
    tail = name.rsplit("/", 1)[-1]
    cut = len(key) - len(family)
    return tail[:-cut] if len(tail) > cut else family


__all__ = ["map_harness_model"]
