"""The sections and tables of a Markdown page, each section with the anchor mkdocs gives it.

A section runs from one heading to the next (of any level); the text before the first heading
is a section of level 0 without an anchor. Headings and tables inside fenced code blocks are
code, not structure. Anchors follow Python-Markdown's ``toc`` extension, which mkdocs uses:
the heading's text without its Markdown, lower-cased, punctuation dropped, spaces as ``-``,
and ``_1``, ``_2``, ... for repeated headings.

>>> page = read_page("# Rules for `scipy.special`\\n| a | b |\\n|---|---|\\n| 1 | 2 \\\\| 3 |")
>>> [(s.title, s.anchor) for s in page]
[('Rules for scipy.special', 'rules-for-scipyspecial')]
>>> page[0].tables[0].header, page[0].tables[0].rows
(('a', 'b'), (('1', '2 | 3'),))
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

__all__ = ["Section", "Table", "heading_text", "read_page", "slugify"]

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_CELL_SEPARATOR = re.compile(r"(?<!\\)\|")
_RULE_ROW = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class Table:
    """A pipe table: its header cells and its rows of cells, escaped pipes unescaped."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass
class Section:
    """A heading and what follows it up to the next heading: prose lines and tables."""

    title: str
    level: int
    anchor: str
    prose: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def slugify(text: str) -> str:
    """The anchor Python-Markdown's ``toc`` extension makes of a heading's text.

    >>> slugify("Hard points"), slugify("Bessel, Struve: J'(x) & more")
    ('hard-points', 'bessel-struve-jx-more')
    """
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def heading_text(markdown: str) -> str:
    """A heading's text as a reader sees it: code spans, emphasis and links reduced to text.

    >>> heading_text("Fast kernels: `chainrules.fastmath` and [more](more.md)")
    'Fast kernels: chainrules.fastmath and more'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    return re.sub(r"[`*]", "", text).strip()


def _cells(line: str) -> tuple[str, ...]:
    line = line.strip()
    line = line.removeprefix("|")
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return tuple(cell.strip().replace("\\|", "|") for cell in _CELL_SEPARATOR.split(line))


def read_page(markdown: str) -> list[Section]:
    """The page's sections in order (see the module docstring)."""
    sections = [Section("", 0, "")]
    used: dict[str, int] = {}
    lines = markdown.splitlines()
    in_code = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_code = not in_code
        heading = None if in_code else _HEADING.match(line)
        if heading:
            title = heading_text(heading.group(2))
            anchor = slugify(title)
            if anchor in used:
                used[anchor] += 1
                anchor = f"{anchor}_{used[anchor]}"
            else:
                used[anchor] = 0
            sections.append(Section(title, len(heading.group(1)), anchor))
        elif not in_code and line.lstrip().startswith("|") and i + 1 < len(lines):
            if _RULE_ROW.match(lines[i + 1].strip()):
                header = _cells(line)
                rows = []
                i += 2
                while i < len(lines) and lines[i].lstrip().startswith("|"):
                    rows.append(_cells(lines[i]))
                    i += 1
                sections[-1].tables.append(Table(header, tuple(rows)))
                continue
            sections[-1].prose.append(line)
        elif not in_code:
            sections[-1].prose.append(line)
        i += 1
    return [s for s in sections if s.level or s.prose or s.tables]
