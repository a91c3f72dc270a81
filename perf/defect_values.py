"""What each defect class of ``perf.defects`` writes into a record, and how it breaks a file.

Each function changes one record (a dict as ``generate_catalog`` makes it) and returns the
``Planted`` defect: the field as a load report names it (``page.sources[1].url``) and the
value written. Nested dicts that records may share (a paper's) are replaced, never changed
in place.
"""

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from graph.slug import slugify
from perf import vocabulary as v
from perf.pools import Pools


@dataclass(frozen=True)
class Planted:
    """One defect in one file: its class, the field it is in, and the value written there."""

    defect: str
    field: str | None
    value: str | None
    means: str | None = None
    """What the value must come to: the arXiv id or DOI a normalised form stands for; for a
    directory page, the id of the catalogued benchmark it is about."""


MAKER_CLASSES = ("maker-list", "maker-article", "maker-contributions")
_TAKES_THE = re.compile(r"Institute|University of|Laboratory|Center|School|Hospital|Team")


# -- field-level: the record is kept, with a warning ------------------------------------------

def released(rng: random.Random, record: dict[str, Any]) -> Planted:
    year = record["page"]["paper"]["year"] or rng.randint(2015, 2025)
    value = rng.choice((f"c. {year}", f"sometime in {year}"))
    record["page"]["released"] = value
    return Planted("released-not-a-date", "page.released", value)


def bad_arxiv(rng: random.Random, record: dict[str, Any]) -> Planted:
    value = f"{rng.randint(10, 99)}.{rng.randint(10_000, 99_999)}x"
    _paper(record)["arxiv"] = value
    return Planted("arxiv-not-an-id", "page.paper.arxiv", value)


def bad_url(rng: random.Random, record: dict[str, Any]) -> Planted:
    """A ``javascript:`` or ``ftp:`` URL in one of the record's URL fields that has a URL."""
    page = record["page"]
    places: list[tuple[str, dict[str, Any], str]] = [
        (f"page.sources[{n}].url", source, "url") for n, source in enumerate(page["sources"])]
    places += [(f"page.{key}", page, key) for key in ("repo_url", "leaderboard_url") if page[key]]
    places += [(f"page.{part}.url", page[part], "url") for part in ("dataset", "publisher")
               if page[part]["url"]]
    places += [(f"disposition.verified_results[{n}].source_url", result, "source_url")
               for n, result in enumerate(record["disposition"]["verified_results"])]
    if page["paper"]["url"]:
        places.append(("page.paper.url", page["paper"], "url"))
    where, container, key = rng.choice(places)
    value = rng.choice((f"javascript:alert('{page['id']}')",
                        f"ftp://ftp.example.org/pub/{page['id']}.tar.gz"))
    (_paper(record) if where == "page.paper.url" else container)[key] = value
    return Planted("url-not-http", where, value)


def empty_name(record: dict[str, Any]) -> Planted:
    record["page"]["name"] = ""
    return Planted("name-empty", "page.name", "")


def own_variant(rng: random.Random, record: dict[str, Any], pools: Pools) -> Planted:
    """The page's own id among its variants, with at least one other, valid, variant."""
    lineage, own = record["page"]["lineage"], record["page"]["id"]
    variants = [variant for variant in lineage["variants"] if variant != own]
    if not variants:
        variants.append(rng.choice([i for i in pools.reference_ids if i != own]))
    variants.insert(rng.randint(0, len(variants)), own)
    lineage["variants"] = variants
    return Planted("own-variant", "page.lineage.variants", own)


# -- kept, with no warning ------------------------------------------------------------------

def arxiv_form(rng: random.Random, record: dict[str, Any], defect: str) -> Planted:
    """The record's arXiv id as ``arXiv:ID`` or as its abs page with a version: it means
    the same id, and must meet the other records of that paper on its node."""
    arxiv = record["page"]["paper"]["arxiv"]
    value = (f"arXiv:{arxiv}" if defect == "arxiv-prefixed"
             else f"https://arxiv.org/abs/{arxiv}v{rng.randint(1, 4)}")
    _paper(record)["arxiv"] = value
    return Planted(defect, "page.paper.arxiv", value, means=arxiv)


def paper_url_only(rng: random.Random, record: dict[str, Any]) -> Planted:
    """A paper known only by a venue URL (not arXiv's: that would give its id away)."""
    year = record["page"]["paper"]["year"] or rng.randint(2018, 2025)
    url = rng.choice(v.VENUE_URLS).format(year=year, n=rng.randint(100_000, 999_999))
    record["page"]["paper"] = {"arxiv": "", "title": "", "url": url, "year": year}
    return Planted("paper-url-only", "page.paper", url)


def paper_doi_only(rng: random.Random, record: dict[str, Any]) -> Planted:
    """A paper known only by its DOI, bare (``10.xxxx/yyyy``) or as a doi.org URL."""
    year = record["page"]["paper"]["year"] or rng.randint(2018, 2025)
    doi = rng.choice((f"10.18653/v1/{year}.acl-long.{rng.randint(1, 999)}",
                      f"10.1145/{rng.randint(3_500_000, 3_799_999)}.{rng.randint(1_000, 9_999)}",
                      f"10.5281/zenodo.{rng.randint(1_000_000, 9_999_999)}"))
    written = doi if rng.random() < 0.5 else f"https://doi.org/{doi}"
    record["page"]["paper"] = {"arxiv": "", "doi": written, "title": "", "url": "",
                               "year": year}
    return Planted("paper-doi-only", "page.paper.doi", written, means=doi)


def maker(rng: random.Random, defect: str, pools: Pools, authors: Sequence[str]) -> str:
    """Makers in one of the shapes real pages write them in (``MAKER_CLASSES``)."""
    plain = [org for org in v.ORGANISATIONS if "," not in org and not org.startswith("The ")]
    if defect == "maker-list":  # "New York University, Cohere For AI and Anthropic"
        names = rng.sample(plain, rng.randint(3, 4))
        return f"{', '.join(names[:-1])} and {names[-1]}"
    if defect == "maker-article":  # "the Allen Institute for AI"
        first, second = rng.sample([org for org in plain if _TAKES_THE.search(org)], 2)
        return f"the {first}" if rng.random() < 0.7 else f"the {first} and {second}"
    surname = (authors[0] if authors else rng.choice(pools.people)).rsplit(" ", 1)[-1]
    first, second, third = rng.sample(plain, 3)
    helpers = second if rng.random() < 0.5 else f"{second} and {third}"
    return f"{first} ({surname} et al.) with contributions from {helpers}"


def page_title(rng: random.Random, defect: str, page: dict[str, Any], taken: set[str]) -> str:
    """The title of a directory page about ``page``'s benchmark: its id, one of its aliases
    (one that is not merely its id), or ``Name (ABBR)`` with ABBR made one of its aliases;
    ``taken`` holds the slugs ABBR must not have (ids, earlier abbreviations) and gets it."""
    if defect == "directory-by-id":
        return str(page["id"])
    aliases: list[str] = page["aliases"]
    if defect == "directory-by-alias":
        usable = [alias for alias in aliases if slugify(alias) != page["id"]]
        if not usable:
            usable = [f"{page['name']} benchmark"]
            aliases.append(usable[0])
        return rng.choice(usable)
    abbreviation = _abbreviation(page["name"], taken)
    taken.add(slugify(abbreviation))
    if abbreviation not in aliases:
        aliases.append(abbreviation)
    return f"{page['name']} ({abbreviation})"


def _abbreviation(name: str, taken: set[str]) -> str:
    """The capitals and digits of ``name`` (``MedQA-Pro`` -> ``MQAP``), numbered when that
    slug is taken."""
    letters = "".join(ch for ch in name if ch.isupper() or ch.isdigit()) or name[:3].upper()
    candidate, number = letters, 1
    while slugify(candidate) in taken:
        number += 1
        candidate = f"{letters}{number}"
    return candidate


# -- file-level: the file is rejected --------------------------------------------------------

def broken(text: str, defect: str) -> str:
    """``text`` with a file-level defect: cut off at two fifths (``truncated-json``), or
    with Latin-1 bytes in it, written as lone surrogates (``\\udce9``) that
    ``generate_catalog.write_catalog`` writes with ``surrogateescape``."""
    if defect == "truncated-json":
        return text[: len(text) * 2 // 5]
    return text.replace('"summary": "', '"summary": "Universit\udce9 de Montr\udce9al: ', 1)


def _paper(record: dict[str, Any]) -> dict[str, Any]:
    """The record's paper as a dict of its own (paper dicts may be shared between records)."""
    paper = dict(record["page"]["paper"])
    record["page"]["paper"] = paper
    return paper
