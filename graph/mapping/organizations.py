"""Splitting a free-text publisher field into organisations, keeping every note.

Records write makers as prose: ``A (note); B (note)`` or ``A and B (Johnson et al.)``.
Parts are split on top-level ``;`` then on top-level `` and `` (never on commas:
``The Chinese University of Hong Kong, Shenzhen`` is one name). A bracketed note
after one name belongs to that name; a note after the last of several names joined
by "and", when none of the others has one, belongs to the group as a whole.
"""

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class OrganizationMention:
    name: str
    note: str | None = None


@dataclass(frozen=True)
class Makers:
    organizations: tuple[OrganizationMention, ...]
    group_notes: tuple[str, ...]
    """Notes about the makers as a group, such as "Johnson et al."."""


@lru_cache(maxsize=4096)  # records that share a paper share its publisher text
def split_makers(text: str) -> Makers:
    organizations: list[OrganizationMention] = []
    group_notes: list[str] = []
    for part in _split_top_level(text, ";"):
        mentions = [_with_note(piece) for piece in _split_top_level(part, " and ")]
        *leading, last = mentions
        if leading and last.note is not None and all(m.note is None for m in leading):
            group_notes.append(last.note)
            mentions[-1] = OrganizationMention(last.name)
        organizations.extend(m for m in mentions if m.name)
    return Makers(tuple(organizations), tuple(group_notes))


def _with_note(piece: str) -> OrganizationMention:
    """``Name (note)`` -> name and note; a name without a closing bracketed note stays whole."""
    piece = piece.strip()
    if piece.endswith(")"):
        depth = 0
        for index in range(len(piece) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(piece[index], 0)
            if depth == 0:
                name, note = piece[:index].strip(), piece[index + 1 : -1].strip()
                if name:
                    return OrganizationMention(name, note or None)
                break
    return OrganizationMention(piece)


def _split_top_level(text: str, separator: str) -> list[str]:
    """``text`` split on ``separator`` where it stands outside brackets; empty parts dropped."""
    if not any(bracket in text for bracket in "([{"):
        return [part.strip() for part in text.split(separator) if part.strip()]
    parts: list[str] = []
    depth = 0
    start = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index])
            index += len(separator)
            start = index
            continue
        index += 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]
