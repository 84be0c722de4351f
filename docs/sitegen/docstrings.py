"""A griffe extension: the project's docstrings as Markdown, their examples as code.

The docstrings are written to be read in a terminal and run as doctests, in the light
reStructuredText that Python's own docstrings use: ``>>>`` examples, literal blocks after a
paragraph ending in ``::``, simple tables ruled with ``===``, ``\\s`` after a code span.
Rendered as Markdown, an example's ``Tangent[Point](x=1.0)`` would be a link and a table's
rule a heading. ``as_markdown`` fences each of them as code (``pycon`` for examples, so that
the example shows exactly what the doctest runs), and mkdocstrings renders the rest, whose
``code spans`` and ``*`` lists are Markdown already.

>>> as_markdown("A rule.\\n\\n>>> f(1)\\n2").splitlines()
['A rule.', '', '```pycon', '>>> f(1)', '2', '```']
>>> as_markdown(as_markdown("A rule.\\n\\n>>> f(1)\\n2")).count("```")  # once is enough
2
>>> as_markdown("Import it::\\n\\n    from x import y\\n").splitlines()
['Import it:', '', '```python', 'from x import y', '```']
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import griffe

__all__ = ["DoctestBlocks", "as_markdown"]

_RULED = re.compile(r"^\s*=+(\s+=+)+\s*$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _fenced(lines: list[str], language: str) -> list[str]:
    body = textwrap.dedent("\n".join(lines)).splitlines()
    return [f"```{language}", *body, "```"]


def as_markdown(docstring: str) -> str:
    """``docstring`` with its examples, literal blocks and ruled tables fenced as code."""
    lines = docstring.splitlines()
    out: list[str] = []
    fenced = False  # inside a fence already there: left as it is
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if fenced or stripped.startswith("```"):
            out.append(line)
            i += 1
            continue
        if stripped.startswith(">>>") or _RULED.match(line):  # up to the next blank line
            end = next((j for j in range(i, len(lines)) if not lines[j].strip()), len(lines))
            out += _fenced(lines[i:end], "pycon" if stripped.startswith(">>>") else "text")
            i = end
            continue
        if stripped.endswith("::") and not stripped.startswith(".."):
            out.append(line[: line.rstrip().rfind("::")] + ":")
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            base = _indent(line)
            block = []
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["", *_fenced(block, "python"), ""]
            continue
        out.append(re.sub(r"``\\s", "``s", line))
        i += 1
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Rewrites the docstring of every object griffe loads with ``as_markdown``."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = as_markdown(obj.docstring.value)
