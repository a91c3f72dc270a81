"""lm-eval's ``include:``: a task file built on other files, resolved as lm-eval resolves it.

``include`` names one file or a list of them, relative to the including file's folder (any
suffix: templates are often ``_default_template_yaml``). The included files are merged in
order, each resolved first, without their ``task_list``; then the including file's own keys
win. A chain that cannot be followed (a file missing, outside the package, unreadable, or a
cycle) makes the including file fail with one warning naming the file and the include; lm-eval
would not load that task either. A file included by others is read and resolved once, and a
diamond (two includes of one template) is no cycle.

Only the keys the harvest reads are kept (``KEYS``): the rest of a task file (prompts,
filters) never stays in memory.
"""

from typing import Any

from graph.harvest.archive import resolve_member
from graph.harvest.reader import MemberReader

KEYS = frozenset({
    "class", "dataset_path", "group", "group_alias", "include", "metric_list", "output_type",
    "tag", "task", "task_alias",
})

Config = dict[str, Any]


class IncludeResolver:
    def __init__(self, reader: MemberReader) -> None:
        self.reader = reader
        self._resolved: dict[str, Config | None] = {}

    def resolve(self, name: str) -> Config | None:
        """The config of member ``name`` with its includes merged; ``None`` (warned) when the
        member or its chain cannot be read."""
        return self._resolve(name, ())

    def resolve_inline(self, config: Config, written_in: str) -> Config | None:
        """An inline config (a task given in a group's list) with its includes merged,
        relative to the file ``written_in`` that holds it."""
        return self._merge(_projected(config), written_in, (written_in,))

    def _resolve(self, name: str, chain: tuple[str, ...]) -> Config | None:
        """Member ``name`` resolved; kept for later only when it is included (``chain`` is
        not empty): most task files are included by none, and need not stay in memory."""
        if name in self._resolved:
            return self._resolved[name]
        raw = self.reader.mapping(name, KEYS)
        resolved = None if raw is None else self._merge(raw, name, (*chain, name))
        if chain:
            self._resolved[name] = resolved
        return resolved

    def _merge(self, config: Config, name: str, chain: tuple[str, ...]) -> Config | None:
        if "include" not in config:
            return config
        includes = config["include"]
        if isinstance(includes, str):
            includes = [includes]
        if not isinstance(includes, list) or not all(isinstance(i, str) for i in includes):
            self.reader.warn(name, "include must be a file name or a list of them",
                             field="include", value=type(config["include"]).__name__)
            return None
        folder = name.rsplit("/", 1)[0] if "/" in name else ""
        merged: Config = {}
        for include in includes:
            target = resolve_member(folder, include)
            failure = self._failure(target, chain)
            if failure is not None:
                cycle = " -> ".join((*chain, target or include))
                self.reader.warn(name, failure, field="include",
                                 value=cycle if target in chain else include)
                return None
            assert target is not None
            included = self._resolve(target, chain)
            if included is None:
                self.reader.warn(name, "includes a file that cannot be read", field="include",
                                 value=include)
                return None
            merged.update({k: v for k, v in included.items() if k != "task_list"})
        merged.update({k: v for k, v in config.items() if k != "include"})
        return merged

    def _failure(self, target: str | None, chain: tuple[str, ...]) -> str | None:
        if target is None:
            return "includes a file outside the package"
        if target in chain:
            return "include cycle"
        if target not in self.reader.archive:
            return "includes a file that is not in the package"
        return None


def _projected(config: Config) -> Config:
    return {key: value for key, value in config.items() if key in KEYS}
