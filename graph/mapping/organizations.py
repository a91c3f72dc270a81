"""Splitting a free-text makers field into organisations, keeping every note.

Records write makers as prose: ``A (note); B (note)``, ``A, B and C (Johnson et al.)``,
``the Allen Institute for AI``, ``Stanford University (Guha et al.) with contributions from
…``. The rule, outside brackets:

- parts are split on ``;``, then on commas, then on `` and `` (an Oxford comma too:
  ``A, B, and C``) and ``in collaboration with``;
- a comma does not split a name from a place or legal form it holds (``The Chinese
  University of Hong Kong, Shenzhen``, ``Acme, Inc.``), and `` and `` does not split fields
  of study (``University of Science and Technology of China``): ``graph.mapping.maker_words``
  lists the words that say so;
- notes are not names: a bracketed note and a trailing ``et al.`` belong to the name they
  follow; ``with contributions from …`` (or ``with support from``, ``funded by`` …) belongs to
  the one organisation before it, or to the group when there are several; a part that is only
  a citation (``Johnson et al.``) is a note about the group. A bracketed note after the last
  of several names, when none of the others has one, is about the group as well;
- a leading article written in lower case (``the Allen Institute for AI``) is prose, not part
  of the name, and is dropped; a capital ``The`` is kept, as in the names that carry it
  (``The Chinese University of Hong Kong, Shenzhen``, ``The Alan Turing Institute``).
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from graph.mapping.maker_words import FIELD_WORDS, INSTITUTION_WORDS, LEGAL_FORMS, PLACES


@dataclass(frozen=True)
class OrganizationMention:
    name: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Makers:
    organizations: tuple[OrganizationMention, ...]
    group_notes: tuple[str, ...]
    """Notes about the makers as a group, such as "Johnson et al."."""


_CONTRIBUTORS = re.compile(
    r",?\s+(?=(?:with\s+(?:contributions?|support|help|input|assistance|funding)\s+from"
    r"|(?:supported|funded|sponsored)\s+by)\b)"
)
_JOINERS = (" and ", " in collaboration with ", " in partnership with ")
_ET_AL = re.compile(r"\s*\bet\s+al\b\.?$")
_ARTICLE = "the "
_BRACKET = re.compile(r"[()\[\]{}]")


@lru_cache(maxsize=4096)  # records that share a paper share its publisher text
def split_makers(text: str) -> Makers:
    organizations: list[OrganizationMention] = []
    group_notes: list[str] = []
    for part in _split_top_level(text, (";",)):
        body, contributors = _contributors(part)
        mentions: list[OrganizationMention] = []
        for piece in _pieces(body):
            mention = _mention(piece)
            if mention.name:
                mentions.append(mention)
            else:  # a citation or a bracket standing alone: about everyone in the part
                group_notes.extend(mention.notes)
        if len(mentions) > 1 and mentions[-1].notes and not any(m.notes for m in mentions[:-1]):
            group_notes.extend(mentions[-1].notes)
            mentions[-1] = OrganizationMention(mentions[-1].name)
        if contributors is not None:
            if len(mentions) == 1:
                mentions[0] = OrganizationMention(
                    mentions[0].name, (*mentions[0].notes, contributors)
                )
            else:
                group_notes.append(contributors)
        organizations.extend(mentions)
    return Makers(tuple(organizations), tuple(group_notes))


def _contributors(part: str) -> tuple[str, str | None]:
    """``part`` without its trailing "with contributions from …" clause, and the clause."""
    for match in _CONTRIBUTORS.finditer(part):
        if _depth_at(part, match.start()) == 0:
            return part[: match.start()].strip(), part[match.end():].strip()
    return part, None


def _pieces(body: str) -> list[str]:
    """``body`` split into one piece of text per organisation, notes still attached."""
    pieces: list[str] = []
    for comma_part in _split_top_level(body, (",",)):
        if comma_part.startswith("and "):  # the Oxford comma: "A, B, and C"
            comma_part = comma_part[4:].lstrip()
        joined = _join_fields(_split_top_level(comma_part, _JOINERS))
        if pieces and joined and _continues(pieces[-1], joined[0]):
            pieces[-1] = f"{pieces[-1]}, {joined.pop(0)}"
        pieces.extend(joined)
    return pieces


def _continues(name: str, after_comma: str) -> bool:
    """Whether the text after a comma is part of the name before it: a legal form, or a
    place after an institution (``University of California, Berkeley``)."""
    if name.endswith(")"):
        return False
    bare = _strip_notes(after_comma)[0].lower()
    if bare in LEGAL_FORMS:
        return True
    return bare in PLACES and not INSTITUTION_WORDS.isdisjoint(name.lower().split())


def _join_fields(pieces: list[str]) -> list[str]:
    """Joins back what `` and `` split inside a name of fields of study:
    ``Hong Kong University of Science`` + ``Technology``."""
    joined: list[str] = []
    for piece in pieces:
        if joined and _is_fields(joined[-1].rsplit(" ", 1)[-1]) and \
                _is_fields(piece.split(" of ", 1)[0]):
            joined[-1] = f"{joined[-1]} and {piece}"
        else:
            joined.append(piece)
    return joined


def _is_fields(words: str) -> bool:
    split = words.lower().split()
    return bool(split) and all(word in FIELD_WORDS for word in split)


def _mention(piece: str) -> OrganizationMention:
    """One organisation's piece of text -> its name and notes."""
    name, notes = _strip_notes(piece)
    et_al = _ET_AL.search(name)
    if et_al is not None:
        before = name[: et_al.start()].strip()
        if " " not in before:  # "Johnson et al.": a citation, not an organisation
            return OrganizationMention("", (name, *notes))
        name, notes = before, ("et al.", *notes)
    if name.startswith(_ARTICLE):
        name = name[len(_ARTICLE):].lstrip()
    return OrganizationMention(name, notes)


def _strip_notes(piece: str) -> tuple[str, tuple[str, ...]]:
    """``Name (a) (b)`` -> ``("Name", ("a", "b"))``; unbalanced brackets stay in the name."""
    name = piece.strip()
    notes: list[str] = []
    while name.endswith(")"):
        depth = 0
        for index in range(len(name) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(name[index], 0)
            if depth == 0:
                break
        if depth != 0:
            break
        note = name[index + 1 : -1].strip()
        name = name[:index].strip()
        if note:
            notes.insert(0, note)
    return name, tuple(notes)


def _depth_at(text: str, index: int) -> int:
    """How many brackets are open at ``index`` of ``text``."""
    depth = 0
    for match in _BRACKET.finditer(text, 0, index):
        depth = depth + 1 if match.group() in "([{" else max(depth - 1, 0)
    return depth


def _split_top_level(text: str, separators: tuple[str, ...]) -> list[str]:
    """``text`` split on any of ``separators`` where it stands outside brackets; parts
    stripped, empty ones dropped. (Separators are found by C-level search, and only the
    few found inside a bracket are looked at again: this runs for every makers text.)"""
    parts = [text]
    for separator in separators:
        parts = [piece for part in parts for piece in _split_outside(part, separator)]
    return [part.strip() for part in parts if part.strip()]


def _split_outside(text: str, separator: str) -> list[str]:
    if separator not in text:
        return [text]
    pieces = text.split(separator)
    if _BRACKET.search(text) is None:
        return pieces
    parts = [pieces[0]]
    for piece in pieces[1:]:
        if _depth_at(parts[-1], len(parts[-1])) > 0:  # the separator was inside a bracket
            parts[-1] = parts[-1] + separator + piece
        else:
            parts.append(piece)
    return parts
