"""Which of a package's own models a result's model name is: the package states both.

A results table names a model the way the package's configs do (OpenCompass's
``llama-3-70b-instruct-hf``, AlpacaEval's folder ``Meta-Llama-3-70B-Instruct``), and the
package's description of that model (``Snapshot.models``) says what it loads: the Hugging Face
id, which is the model's key (``graph.mapping.model_names``). Linking the two is a fact of one
package, so it is made here, at the harvest, where both are in hand, and the mapping of a
result needs no other record: ``StatedResult.model_id`` is the name that model's description
is keyed by (``ModelRules.record_name``: its Hugging Face id; else the API id it calls, where
its id in the package respells it, as AlpacaEval's ``gpt4_1106_preview`` does OpenAI's
``gpt-4-1106-preview``; else its id in the package), so a result and the description meet.

A name is looked up as written among each model's id, Hugging Face id, display name and
aliases; failing that, by the key the mapping's rule gives it (``llama-3-70b-instruct-lmdeploy``
is the model whose config is named ``llama-3-70b-instruct-turbomind``: the same weights,
another backend). A name two models of the package claim is left unlinked (the package does
not say which). A name the package gives no model of its own keeps no ``model_id``, and the
mapping's key rule alone decides its node.
"""

from collections.abc import Iterable, Iterator, Sequence

from graph.ingest.records.harness_snapshot import Entry
from graph.ingest.records.stated_model import StatedModel
from graph.mapping.model_names import ModelRules, bundled_model_rules


def with_model_ids(entries: Sequence[Entry], models: Sequence[StatedModel]) -> list[Entry]:
    """``entries`` with each result's ``model_id`` set where its name is one model's."""
    rules = bundled_model_rules()
    named = _unique(_names(models, rules))
    keyed = _unique(((rules.key(name), key) for name, key in _names(models, rules)))
    linked: list[Entry] = []
    for entry in entries:
        results = [result.model_copy(update={"model_id": found}) if (
                       result.model_id is None
                       and (found := named.get(result.model) or keyed.get(rules.key(result.model))))
                   else result for result in entry.results]
        linked.append(entry if results == entry.results
                      else entry.model_copy(update={"results": results}))
    return linked


def _names(models: Sequence[StatedModel], rules: ModelRules) -> Iterator[tuple[str, str]]:
    """(a name a model is given, the name that model is keyed by), for every name."""
    for model in models:
        keyed = rules.record_name(model.id, model.hub_id, model.api_id)
        for name in (model.id, model.hub_id, model.api_id, model.display_name, *model.aliases):
            if name:
                yield name, keyed


def _unique(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """name -> model, for the names one model alone is given."""
    claims: dict[str, set[str]] = {}
    for name, model in pairs:
        claims.setdefault(name, set()).add(model)
    return {name: next(iter(found)) for name, found in claims.items() if len(found) == 1}


__all__ = ["with_model_ids"]
