"""The site's navigation by reader, read from ``docs/index.md`` rather than kept in mkdocs.yml.

``docs/index.md`` is the table of contents people read on GitHub too: each ``##`` heading names
a reader, and each list item under it begins with a link to a page for that reader. The
navigation is those sections, each page under the first reader that lists it and titled with
its link's text; then the generated pages (``generated``, a section each); then, under
``More``, every other page of ``docs/``, so that a new page is on the site before anyone files
it under a reader.

>>> index = '''# Docs
...
... ## Rule authors
...
... * [Writing rules](rules.md): the protocol. See also [testing](testing.md).
... * [Testing rules](testing.md)
...
... ## The maths
...
... * [Conventions](conventions.md)
... '''
>>> build_nav(index, ["index.md", "rules.md", "testing.md", "conventions.md", "new.md"],
...           {"Reference": [("API", "api/index.md")]})  # doctest: +NORMALIZE_WHITESPACE
[{'Home': 'index.md'},
 {'Rule authors': [{'Writing rules': 'rules.md'}, {'Testing rules': 'testing.md'}]},
 {'The maths': [{'Conventions': 'conventions.md'}]},
 {'Reference': [{'API': 'api/index.md'}]},
 {'More': ['new.md']}]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .pages import read_page

__all__ = ["MORE", "build_nav", "reader_sections"]

MORE = "More"
_ITEM_LINK = re.compile(r"^\s*[*-]\s+\[([^\]]+)\]\(([^)#\s]+\.md)\)")


def reader_sections(index_markdown: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """``(reader, [(title, page), ...])`` for each ``##`` section of the index page."""
    sections = []
    for section in read_page(index_markdown):
        if section.level != 2:
            continue
        pages = []
        for line in section.prose:
            link = _ITEM_LINK.match(line)
            if link:
                pages.append((link.group(1).replace("`", ""), link.group(2)))
        if pages:
            sections.append((section.title, pages))
    return sections


def build_nav(
    index_markdown: str,
    pages: Iterable[str],
    generated: Mapping[str, Sequence[tuple[str, str]]],
) -> list[dict[str, Any]]:
    """The mkdocs ``nav``: home, the readers' sections, ``generated``, then the rest."""
    existing = list(pages)
    placed = {"index.md"}
    nav: list[dict[str, Any]] = [{"Home": "index.md"}]
    for reader, links in reader_sections(index_markdown):
        entries = []
        for title, page in links:
            if page in existing and page not in placed:
                placed.add(page)
                entries.append({title: page})
        if entries:
            nav.append({reader: entries})
    for section, links in generated.items():
        placed.update(page for _, page in links)
        nav.append({section: [{title: page} for title, page in links]})
    rest = [page for page in existing if page.endswith(".md") and page not in placed]
    if rest:
        nav.append({MORE: sorted(rest)})  # titled by their own first heading
    return nav
