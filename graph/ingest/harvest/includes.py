"""lm-eval's ``include:``: a task file built on other files, resolved as the harness resolves it.

``include`` names one file or a list of them, relative to the including file's folder (any
suffix: templates are often ``_default_template_yaml``). The included files are merged, each
resolved first, without their ``task_list``; then the including file's own keys win. Where
two included files give one key, the harnesses differ, and the resolver is told which it
reads: lm-eval (0.4.13's ``lm_eval/tasks/_yaml_loader.load_yaml``) merges the list in order,
so the last file's value wins; lmms-eval (0.7.3's ``lmms_eval/utils.load_yaml_config``)
merges it from the last file to the first, so the first file's value wins
(``first_include_wins``).

A chain that cannot be followed (a file missing, outside the package, unreadable, or a
cycle) makes the including file fail with one warning naming the file and the include; the
harness would not load that task either. A file included by others is read and resolved
once, and a diamond (two includes of one template) is no cycle, as in lmms-eval (lm-eval
0.4.13's loader, which remembers every file of the whole chain, refuses one as a cycle; its
own task files hold none).

Only the keys the harvest reads are kept (``KEYS``, lm-eval's; a reader that reads more
passes its own): the rest of a task file (prompts, filters) never stays in memory.
"""

from typing import Any

from graph.ingest.harvest.archive import resolve_member
from graph.ingest.harvest.reader import MemberReader

KEYS = frozenset({
    "class", "dataset_path", "group", "group_alias", "include", "metric_list", "output_type",
    "tag", "task", "task_alias",
})

Config = dict[str, Any]


class IncludeResolver:
    """Resolves the task files one reader reads, keeping the top-level ``keys`` of each."""

    def __init__(self, reader: MemberReader, keys: frozenset[str] = KEYS,
                 first_include_wins: bool = False) -> None:
        self.reader = reader
        self.keys = keys
        self.first_include_wins = first_include_wins
        """Of two included files that give one key, the first's value wins (lmms-eval),
        rather than the last's (lm-eval)."""
        self._resolved: dict[str, Config | None] = {}

    def resolve(self, name: str) -> Config | None:
        """The config of member ``name`` with its includes merged; ``None`` (warned) when the
        member or its chain cannot be read."""
        return self._resolve(name, ())

    def resolve_inline(self, config: Config, written_in: str) -> Config | None:
        """An inline config (a task given in a group's list) with its includes merged,
        relative to the file ``written_in`` that holds it."""
        projected = {key: value for key, value in config.items() if key in self.keys}
        return self._merge(projected, written_in, (written_in,))

    def _resolve(self, name: str, chain: tuple[str, ...]) -> Config | None:
        """Member ``name`` resolved; kept for later only when it is included (``chain`` is
        not empty): most task files are included by none, and need not stay in memory."""
        if name in self._resolved:
            return self._resolved[name]
        raw = self.reader.mapping(name, self.keys)
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
        included: list[Config] = []
        for include in includes:
            resolved = self._included(name, folder, include, chain)
            if resolved is None:
                return None
            included.append(resolved)
        merged: Config = {}
        for resolved in reversed(included) if self.first_include_wins else included:
            merged.update({k: v for k, v in resolved.items() if k != "task_list"})
        merged.update({k: v for k, v in config.items() if k != "include"})
        return merged

    def _included(self, name: str, folder: str, include: str,
                  chain: tuple[str, ...]) -> Config | None:
        """The config of one file ``name`` includes, resolved; ``None`` (warned) when the
        chain cannot be followed."""
        target = resolve_member(folder, include)
        failure = self._failure(target, chain)
        if failure is not None:
            cycle = " -> ".join((*chain, target or include))
            self.reader.warn(name, failure, field="include",
                             value=cycle if target in chain else include)
            return None
        assert target is not None
        resolved = self._resolve(target, chain)
        if resolved is None:
            self.reader.warn(name, "includes a file that cannot be read", field="include",
                             value=include)
        return resolved

    def _failure(self, target: str | None, chain: tuple[str, ...]) -> str | None:
        if target is None:
            return "includes a file outside the package"
        if target in chain:
            return "include cycle"
        if target not in self.reader.archive:
            return "includes a file that is not in the package"
        return None

