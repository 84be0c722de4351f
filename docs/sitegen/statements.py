"""What the documentation pages state about functions, gathered per function for the catalogue.

Four kinds of statement are read, wherever a page makes them:

* **hard points**: tables headed ``function | point | derivative given``, and paragraphs that
  begin ``Hard points:``, clause by clause (clauses are separated by ``;``);
* **non-differentiable points**: the items and sentences of a section whose title begins
  ``Non-differentiable``;
* **parameter derivatives**: tables headed ``function | parameter | status``;
* **accuracy**: tables with ``first derivative`` and ``second derivative`` columns (the
  derivatives against mpmath) or a ``max ulps`` column (a fast kernel's values).

A table row or clause names its functions in code spans (`` `xlogy`, `xlog1py` ``, or
`` `numpy.power (in x, p = 2.5)` ``, read up to the first space or parenthesis); a name with a
``*`` is a pattern (`` `eval_*` ``), `` `a` ... `b` `` every name the section mentions from
``a`` to ``b``, and a row for ``all`` (or ``all of these``) the functions that the section's
text (outside its tables) names. Names resolve against the catalogue's functions and their
aliases: a qualified name exactly, a bare one by its last part, within the page's own library
(``special.md``: ``scipy.special``) where it has one. What names no function is left out.

>>> names = {"scipy.special.xlogy": "scipy.special.xlogy", "numpy.abs": "numpy.absolute",
...          "numpy.absolute": "numpy.absolute"}
>>> page = '''## Hard points
...
... | function | point | derivative given |
... |---|---|---|
... | `xlogy` | x = 0 | 0 in `y` |
...
... ## Non-differentiable points
...
... * `abs'(0) = 0`;
... '''
>>> found = statements_of_page("special.md", page, Resolver(names), ("scipy.special.",))
>>> [(name, s.kind, s.text) for name, s in found]
[('scipy.special.xlogy', 'hard points', 'at x = 0: 0 in `y`')]
>>> found = statements_of_page("conventions.md", page, Resolver(names), ())
>>> [(name, s.kind, s.text, s.anchor) for name, s in found][-1]
('numpy.absolute', 'non-differentiable points', "`abs'(0) = 0`", 'non-differentiable-points')
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .pages import Section, Table, read_page

__all__ = [
    "ACCURACY",
    "HARD_POINTS",
    "KINDS",
    "NON_DIFFERENTIABLE_POINTS",
    "PARAMETER_DERIVATIVES",
    "PAGE_LIBRARIES",
    "Resolver",
    "Statement",
    "statements_of_page",
]

HARD_POINTS = "hard points"
NON_DIFFERENTIABLE_POINTS = "non-differentiable points"
PARAMETER_DERIVATIVES = "parameter derivatives"
ACCURACY = "accuracy"
KINDS = (HARD_POINTS, NON_DIFFERENTIABLE_POINTS, PARAMETER_DERIVATIVES, ACCURACY)

# The library whose functions a page names by their bare names; other pages use qualified
# names, or mean every library's function of that name (conventions.md: `sqrt`).
PAGE_LIBRARIES: Mapping[str, tuple[str, ...]] = {
    "special.md": ("scipy.special.",),
    "accuracy.md": ("scipy.special.",),
    "fastmath.md": ("chainrules.fastmath.",),
}

_CODE = re.compile(r"`([^`]+)`")
_NAME = re.compile(r"[A-Za-z_*][\w.*]*")
_RANGE = re.compile(r"`([^`]+)`\s*(?:\.\.\.|…)\s*`([^`]+)`")


@dataclass(frozen=True)
class Statement:
    """One thing a page states about a function, and where: ``page#anchor``.

    A table row keeps its other columns too (``columns``, ``cells``) and the case its first
    cell names (``"in x, v = 2.5"``), for the catalogue to show rows of one table as a table.
    """

    kind: str
    text: str
    page: str
    anchor: str
    section: str
    case: str = ""
    columns: tuple[str, ...] = ()
    cells: tuple[str, ...] = ()


class Resolver:
    """Names as pages write them -> the catalogue's function names.

    ``names`` maps every name and alias of a function to the function's name.

    >>> r = Resolver({"numpy.absolute": "numpy.absolute", "numpy.abs": "numpy.absolute",
    ...               "math.fabs": "math.fabs", "numpy.fabs": "numpy.fabs"})
    >>> r.resolve("np.abs", ()), r.resolve("fabs", ()), r.resolve("fabs", ("math.",))
    (['numpy.absolute'], ['math.fabs', 'numpy.fabs'], ['math.fabs'])
    """

    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = dict(names)
        self.by_last: dict[str, list[str]] = {}
        for name in sorted(self.names):
            self.by_last.setdefault(name.rsplit(".", 1)[-1], []).append(name)

    def resolve(self, written: str, libraries: Sequence[str]) -> list[str]:
        """The functions ``written`` names, as a page of ``libraries`` writes it."""
        written = written.strip().rstrip(".,;:")
        if written.startswith("np."):
            written = "numpy." + written[3:]
        if "*" in written:
            candidates = [n for n in self.names if _within(n, libraries)]
            if "." in written:
                hits = fnmatch.filter(candidates, written)
            else:
                hits = [n for n in candidates if fnmatch.fnmatchcase(n.rsplit(".", 1)[-1], written)]
            return _unique(self.names[n] for n in sorted(hits))
        if "." in written:
            full = [written, *(library + written for library in libraries)]
            return _unique(self.names[n] for n in full if n in self.names)
        hits = [n for n in self.by_last.get(written, []) if _within(n, libraries)]
        return _unique(self.names[n] for n in hits)


def _within(name: str, libraries: Sequence[str]) -> bool:
    return not libraries or name.startswith(tuple(libraries))


def _unique(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _written_names(text: str) -> list[str]:
    """The names a cell or clause writes in code spans: a span of names separated by spaces
    (`` `jvp yvp ivp` ``) names each, any other span the name it begins with."""
    names = []
    for code in _CODE.findall(text):
        words = code.split()
        if words and all(_NAME.fullmatch(word) for word in words):
            names += [word.rstrip(".") for word in words]
            continue
        match = _NAME.match(code.strip())
        if match:
            names.append(match.group(0).rstrip("."))
    return names


class _SectionNames:
    """Resolves the names of one section's rows and clauses, ranges and ``all`` included."""

    def __init__(self, section: Section, resolver: Resolver, libraries: Sequence[str]) -> None:
        self.resolver, self.libraries = resolver, libraries
        text = "\n".join(section.prose)
        cells = [cell for table in section.tables for row in table.rows for cell in row[:1]]
        self.order = _unique(
            name
            for written in _written_names(text + "\n" + "\n".join(cells))
            for name in resolver.resolve(written, libraries)
        )
        self.everything = [n for w in _written_names(text) for n in self._one(w)]

    def _one(self, written: str) -> list[str]:
        return self.resolver.resolve(written, self.libraries)

    def _first(self, code: str) -> str | None:
        written = _written_names(f"`{code}`")
        hits = self._one(written[0]) if written else []
        return hits[0] if hits else None

    def of(self, text: str, words: bool = False) -> list[str]:
        """The functions ``text`` (a first cell, or with ``words`` False a clause) names:
        its code spans, or for a cell without any its words."""
        if re.fullmatch(r"\s*all( of these)?\s*", text):
            return _unique(self.everything)
        names: list[str] = []
        for first, last in _RANGE.findall(text):
            ends = [self._first(first), self._first(last)]
            if all(end in self.order for end in ends):
                at = sorted(self.order.index(end) for end in ends if end is not None)
                names += self.order[at[0] : at[1] + 1]
        written = _written_names(text)
        if not written and words:
            written = [w for w in re.split(r"[,\s]+", text) if _NAME.fullmatch(w)]
        return _unique([*names, *(n for w in written for n in self._one(w))])


def _table_kind(table: Table) -> str | None:
    header = tuple(h.lower() for h in table.header)
    if not header or header[0] not in ("function", "fast function"):
        return None
    if header[1:] == ("point", "derivative given"):
        return HARD_POINTS
    if header[1:] == ("parameter", "status"):
        return PARAMETER_DERIVATIVES
    if "first derivative" in header and "second derivative" in header:
        return ACCURACY
    if any("max ulps" in h for h in header):
        return ACCURACY
    return None


def _row_text(kind: str, header: Sequence[str], row: Sequence[str]) -> str:
    cells = dict(zip((h.lower() for h in header), row, strict=False))
    if kind == HARD_POINTS:
        return f"at {cells['point']}: {cells['derivative given']}"
    if kind == PARAMETER_DERIVATIVES:
        return f"{cells['parameter']}: {cells['status']}"
    case = _case(row[0])
    parts = [f"{name} {cell}" for name, cell in zip(header[1:], row[1:], strict=False) if cell]
    return (f"{case}: " if case else "") + "; ".join(parts)


def _case(cell: str) -> str:
    """What a first cell says in parentheses after its name: ``in x, v = 2.5``."""
    code = _CODE.search(cell)
    return "; ".join(re.findall(r"\(([^)]*)\)", code.group(1))) if code else ""


def _clauses(section: Section) -> Iterator[tuple[str, str]]:
    """(kind, clause) for the prose statements of a section."""
    paragraphs = re.split(r"\n\s*\n", "\n".join(section.prose))
    for paragraph in paragraphs:
        flat = " ".join(line.strip() for line in paragraph.splitlines())
        if flat.startswith("Hard points:"):
            for clause in re.split(r";|(?<=\.)\s+(?=[A-Z`])", flat.removeprefix("Hard points:")):
                if clause.strip():
                    yield HARD_POINTS, clause.strip().rstrip(".")
        elif section.title.startswith("Non-differentiable"):
            items = re.split(r"(?:^|\s)\*\s+|(?<=\.)\s+(?=[A-Z`])", flat)
            for item in items:
                if item.strip():
                    yield NON_DIFFERENTIABLE_POINTS, item.strip().rstrip(";.")


def statements_of_page(
    page: str, markdown: str, resolver: Resolver, libraries: Sequence[str]
) -> list[tuple[str, Statement]]:
    """``(function name, Statement)`` for everything ``markdown`` (the page ``page``) states."""
    found: list[tuple[str, Statement]] = []
    for section in read_page(markdown):
        names = _SectionNames(section, resolver, libraries)
        where = (page, section.anchor, section.title)
        for table in section.tables:
            kind = _table_kind(table)
            if kind is None:
                continue
            for row in table.rows:
                if len(row) != len(table.header):
                    continue
                text = _row_text(kind, table.header, row)
                statement = Statement(
                    kind, text, *where, case=_case(row[0]), columns=table.header[1:], cells=row[1:]
                )
                found += [(name, statement) for name in names.of(row[0], words=True)]
        for kind, clause in _clauses(section):
            found += [(name, Statement(kind, clause, *where)) for name in names.of(clause)]
    return found
