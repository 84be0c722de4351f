"""Search by name: each entry of the rule catalogue and the API reference found by its name first.

The theme's search (lunr) appends a wildcard to every term typed, so that ``betainc`` also
finds ``betaincc`` and ``betaincinv``, and it scores a word found through the wildcard as if it
had been typed: the rarer the word in the pages, the higher, and a longer name is rarer than
the name it begins. Names are also split at dots and underscores (the ``separator`` in
``mkdocs.yml``), so the title of ``betainc_da_db`` holds the word ``betainc`` as much as the
title of ``betainc`` does.

Each such entry of the built search index is given a field of its own, ``name`` (see
``fields`` in ``mkdocs.yml``): its name's last part as one word, underscores left out. The
site's script ``docs/javascripts/search-exact-names.js`` adds each word typed to the query
once more, boosted and without the wildcard, so the entry whose whole name is that word comes
first, then the longer names it begins. ``name_word`` is the one place that says what the
word is.

>>> index = {"docs": [
...     {"location": "catalogue/scipy.special/", "title": "scipy.special", "text": ""},
...     {"location": "catalogue/scipy.special/#scipy.special.log_ndtr",
...      "title": "scipy.special.log_ndtr", "text": ""},
...     {"location": "api/chainrules/#chainrules.RuleConfig.rrule", "title": "rrule", "text": ""},
...     {"location": "special/#bessel-functions", "title": "Bessel functions", "text": ""},
... ]}
>>> [doc.get(NAME_FIELD) for doc in with_name_words(index)["docs"]]
[None, 'logndtr', 'rrule', None]
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["NAME_FIELD", "name_word", "with_name_words"]

NAME_FIELD = "name"

# The generated pages whose sections are each one Python object: the catalogue's headings are
# the function's name (``catalogue.heading``), the API reference's anchors its full path.
_NAMED_SECTIONS = {"catalogue": "title", "api": "anchor"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def name_word(name: str) -> str | None:
    """The one word a qualified name is found by: its last part, without underscores.

    A private name (one leading underscore) has none: its underscore cannot be typed into
    the search, which splits words there.

    >>> name_word("numpy.ones_like"), name_word("numpy.ndarray.__getitem__")
    ('oneslike', 'getitem')
    >>> name_word("scipy.special._lambertw") is None
    True
    """
    last = name.rpartition(".")[2]
    if last.startswith("_") and not (last.startswith("__") and last.endswith("__")):
        return None
    return last.replace("_", "").lower() or None


def with_name_words(index: dict[str, Any]) -> dict[str, Any]:
    """``index`` (the search plugin's ``search_index.json``), its named sections each given
    their ``name_word`` in ``NAME_FIELD``."""
    for doc in index["docs"]:
        path, _, anchor = doc["location"].partition("#")
        source = _NAMED_SECTIONS.get(path.partition("/")[0])
        if source is None or not anchor:
            continue
        name = doc["title"] if source == "title" else anchor
        word = name_word(name) if _NAME.fullmatch(name) else None
        if word is not None:
            doc[NAME_FIELD] = word
    return index
