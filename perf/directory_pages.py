"""Synthetic directory pages: the plain-text format of the second seed.

A title line, a summary, the access paragraph, ``- Key`` / ``- value`` pairs, the authors'
words, a scores section ("No scores here yet" or "Top scores" with ``- MODEL VALUE%`` lines),
the model-card section, and "More in CATEGORY" with related benchmarks, some of them
catalogued records (met by name) and some known only by reference.
"""

import random

from perf import vocabulary as v
from perf.pools import Pools, publisher_field, sentences

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def _score(rng: random.Random, pools: Pools) -> str:
    return f"{rng.choice(pools.models)} {rng.uniform(20, 99):.1f}%"


def _facts(rng: random.Random, pools: Pools, maker: str | None) -> list[str]:
    """Three to seven ``- Key`` / ``- value`` pairs; always "Made by" when ``maker`` is given."""
    authors = tuple(rng.sample(pools.people, min(3, len(pools.people))))
    facts = [
        ("Made by", maker or publisher_field(rng, pools.organisations, authors)),
        ("Released", f"{rng.choice(MONTHS)} {rng.randint(2015, 2026)}"),
        ("Kind", rng.choice(v.DIRECTORY_KINDS)),
        ("Level", rng.choice(v.DIRECTORY_LEVELS)),
        ("Scored", rng.choice(v.DIRECTORY_SCORED)),
        ("Answers", rng.choice(v.DIRECTORY_ANSWERS)),
        ("Tasks", rng.choice(v.DIRECTORY_TASKS)),
    ]
    chosen = rng.sample(facts, rng.randint(3, len(facts)))
    if maker is not None and facts[0] not in chosen:
        chosen.insert(0, facts[0])
    return [line for key, value in chosen for line in (f"- {key}", f"- {value}")]


def _related(rng: random.Random, pools: Pools, count: int) -> list[str]:
    lines = []
    for _ in range(rng.randint(3, 6)):
        if count and rng.random() < 0.7:
            name = pools.names[rng.randrange(count)]
        else:
            name = rng.choice(pools.reference_names)
        line = f"- {name} In use {sentences(rng, 1)}"
        where = rng.randrange(3)  # no top score, on the same line, or on the next
        if where == 1:
            line += f" {_score(rng, pools)}"
        lines.append(line)
        if where == 2:
            lines.append(_score(rng, pools))
    return lines


def directory_page(rng: random.Random, pools: Pools, index: int, count: int,
                   title: str | None = None, maker: str | None = None) -> str:
    """The text of directory page ``index``; ``count`` records exist to relate it to.

    ``title`` and ``maker`` (the "Made by" fact) replace the page's own, for the pages that
    ``perf.defects`` writes about catalogued benchmarks."""
    title = title or pools.directory_names[index]
    lines = [title, sentences(rng, 2)]
    lines.append(f"{rng.choice(v.DIRECTORY_ACCESS)} {sentences(rng, 1)}" if rng.random() < 0.5
                 else sentences(rng, 1))
    lines += _facts(rng, pools, maker)
    lines += ["In the authors\u2019 words", sentences(rng, rng.randint(3, 6))]
    if rng.random() < 0.5:
        lines += ["No scores here yet",
                  f"No lab, leaderboard or Epoch AI run has reported a score for {title} yet."]
    else:
        lines.append("Top scores")
        if rng.random() < 0.5:
            lines.append("Scores as the labs report them, best first.")
        lines += [f"- {_score(rng, pools)}" for _ in range(rng.randint(1, 4))]
    survey = (f"We read the headline results of {rng.randint(100, 900)} launch posts from "
              f"{rng.randint(10, 90)} labs, and none of them list this benchmark.")
    lines += ["No lab model card reports it yet", survey]
    lines.append(f"More in {rng.choice(v.DIRECTORY_CATEGORIES)}")
    lines += _related(rng, pools, count)
    return "\n".join(lines)
