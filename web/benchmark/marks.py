"""The marks a benchmark page repeats most, made in Python: a value, a list of values, and the
numbers of the records that state each.

A benchmark page shows a hundred values or more, each with its footnote numbers. As Jinja
macros these marks cost almost half of the page's rendering: a macro call is a Python call of
Jinja's runtime wrapped around a Python call of the template's own
(perf/decisions/benchmark-marks-in-python.md). ``benchmark/_macros.html`` exports them under
the macros' names, so templates call them as before.

Every text is data from a record and goes in through ``escape``, the function autoescape
calls in a template: quotes are escaped too, so an attribute stays one. The marks are
f-strings, not ``Markup.format``, whose formatter is Python's own and as slow as a macro.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from types import SimpleNamespace

from flask import Flask
from markupsafe import Markup, escape

from web.benchmark.view import Said, Shown

SHOWN_SAIDS = 5
"""A value stated by more records shows the first four numbers and how many more."""
SHOWN_VALUES = 12
"""A longer list than ``SHOWN_VALUES + 2`` shows its first ``SHOWN_VALUES``, the rest folded."""

_SEPARATOR = '<span class="sep">, </span>'


def said(saids: Sequence[Said]) -> Markup:
    """The numbers of the records in ``saids``, as links to the page's list of records."""
    if not saids:
        return Markup()
    numbered = sorted(saids, key=attrgetter("number"))
    shown = numbered if len(numbered) <= SHOWN_SAIDS else numbered[:SHOWN_SAIDS - 1]
    links = "".join(
        f'<a href="#record-{s.number}" title="stated by {escape(s.file or s.name)}'
        f'{escape(f" ({s.when})") if s.when else ""}">{s.number}</a>' for s in shown)
    if len(shown) < len(numbered):
        links += (f'<a href="#records" title="stated by {len(numbered)} records">'
                  f'+{len(numbered) - len(shown)}</a>')
    return Markup(f'<sup class="said">{links}</sup>')


def show(v: Shown) -> Markup:
    """A value: a paragraph, a link (an external one marked so) or a plain value."""
    if v.long:
        shown = f'<div class="long-text" tabindex="0">{escape(v.text.strip())}</div>'
    elif v.href:
        external = ' class="external" rel="nofollow noopener"' if v.external else ""
        title = f' title="{escape(v.term.value)}"' if v.term.value != v.text else ""
        shown = f'<a href="{escape(v.href)}"{external}{title}>{escape(v.text)}</a>'
    else:
        shown = f'<span class="value">{escape(v.text)}</span>'
    note = f' <small class="note">{escape(v.note)}</small>' if v.note else ""
    return Markup(shown + note)


def value(v: Shown) -> Markup:
    """A value and the numbers of the records that state it."""
    return show(v) + said(v.said)


def values(shown: Sequence[Shown]) -> Markup:
    """A list of values, comma-separated; a long one's tail folded ("312 more")."""
    head = len(shown) if len(shown) <= SHOWN_VALUES + 2 else SHOWN_VALUES
    items = [f'<span class="item">{value(v)}</span>' for v in shown]
    if head == len(shown):
        return Markup(_SEPARATOR.join(items))
    return Markup("".join(item + _SEPARATOR for item in items[:head])
                  + f'<details class="more"><summary>{len(shown) - head} more</summary>'
                  + _SEPARATOR.join(items[head:]) + "</details>")


def init_app(app: Flask) -> None:
    """Makes the marks a global of the app's templates, ``marks``."""
    app.jinja_env.globals["marks"] = SimpleNamespace(
        said=said, show=show, value=value, values=values, SHOWN_VALUES=SHOWN_VALUES)
