"""YAML as data only: PyYAML's safe loader, with every tag it does not know kept as a value.

lm-eval task files write ``!function utils.process_docs``; lm-eval itself imports that
module to load the file. Here such a node becomes ``Tagged("!function", "utils.process_docs")``
and nothing is imported or run. The same holds for any other tag, ``!!python/object`` too:
the safe loader never builds Python objects, and a tag only names what a value would be.
"""

from dataclasses import dataclass
from typing import Any

import yaml

_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML has it (several times faster), the pure-Python one else."""


@dataclass(frozen=True)
class Tagged:
    """A node with a tag the safe loader does not define, and its value as plain data."""

    tag: str
    value: Any


class HarvestLoader(_Base):  # type: ignore[valid-type, misc]
    """The safe loader, and one constructor for every tag it has none for."""


def _construct_tagged(loader: yaml.SafeLoader, node: yaml.Node) -> Tagged:
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        assert isinstance(node, yaml.MappingNode)
        value = loader.construct_mapping(node, deep=True)
    return Tagged(node.tag, value)


# The constructor for the tag None is called for every tag that has no constructor of its own.
HarvestLoader.add_constructor(None, _construct_tagged)


class YamlError(Exception):
    """A YAML text that cannot be read, or is not the shape asked for; ``reason`` reads the
    same for every file, ``detail`` says where and why (in the parser's words)."""

    def __init__(self, detail: str, reason: str = "not valid YAML") -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def load_mapping(text: str, keys: frozenset[str] | None = None) -> dict[str, Any]:
    """The mapping one YAML document holds, or only its top-level ``keys`` when given.

    With ``keys``, the document is parsed whole but only those keys' values are built as
    Python data: a task file's prompts and filters cost no objects. Merge keys (``<<:``) at
    the top level are applied first, as a full load would. Raises ``YamlError`` when the text
    is not valid YAML or not a mapping."""
    loader = HarvestLoader(text)
    try:
        node = loader.get_single_node()
        if not isinstance(node, yaml.MappingNode):
            shape = "an empty document" if node is None else (
                "a list" if isinstance(node, yaml.SequenceNode) else "a single value")
            raise YamlError(shape, reason="not a YAML mapping of keys to values")
        if keys is None:
            data = loader.construct_document(node)
            assert isinstance(data, dict)
            return data
        loader.flatten_mapping(node)
        found: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key in keys:
                found[key] = loader.construct_object(value_node, deep=True)
        return found
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise YamlError(f"{where}{error.problem or error}") from None
    except yaml.YAMLError as error:
        raise YamlError(str(error)) from None
    except ValueError as error:  # a scalar no constructor takes: a date 2024-02-30
        raise YamlError(f"a value YAML cannot take: {error}") from None
    finally:
        loader.dispose()
