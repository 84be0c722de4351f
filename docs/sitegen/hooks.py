"""The mkdocs hooks of the site (``hooks:`` in mkdocs.yml): generated pages and the navigation.

``on_files`` adds the generated pages, the rule catalogue (``catalogue``) and the API reference
(``api``), and sets the navigation from ``docs/index.md`` (``navigation``); ``on_page_markdown``
points the home page to both references; ``on_post_build`` gives the search index's named
sections their names as words (``search``). The catalogue reads the test record that the build
is given in ``CHAINRULES_TEST_RECORD``, or else ``test-record.json`` in the project's root if
there is one (what ``python -m pytest --chainrules-record=test-record.json`` writes); without
one it says that it does not know what was tested.
"""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the package ``sitegen``

from sitegen import api, catalogue, navigation, search
from sitegen.statements import PAGE_LIBRARIES, Resolver, statements_of_page

__all__ = ["on_files", "on_page_markdown", "on_post_build", "record_path"]

RECORD_VARIABLE = "CHAINRULES_TEST_RECORD"


def record_path(root: Path) -> Path | None:
    """The test record the catalogue reads: ``$CHAINRULES_TEST_RECORD``, else one in ``root``."""
    given = os.environ.get(RECORD_VARIABLE)
    if given:
        return Path(given)
    default = root / "test-record.json"
    return default if default.exists() else None


def _report_document(root: Path) -> dict[str, Any]:
    from chainrules.coverage.format_json import to_document
    from chainrules.coverage.record import read_test_record
    from chainrules.coverage.report import current_report

    path = record_path(root)
    record = read_test_record(path) if path is not None else None
    return to_document(current_report(record))


def _statements(docs: Path, document: dict[str, Any]) -> dict[str, list]:
    resolver = Resolver(catalogue.names_of(document))
    found = defaultdict(list)
    for page in sorted(docs.glob("*.md")):
        libraries = PAGE_LIBRARIES.get(page.name, ())
        text = page.read_text(encoding="utf-8")
        for name, statement in statements_of_page(page.name, text, resolver, libraries):
            if statement not in found[name]:
                found[name].append(statement)
    return found


def _notes(document: dict[str, Any]) -> dict[str, list[str]]:
    notes = {}
    every = [*document["functions"], *document["outside_universe"]]
    for function in every:
        if catalogue.has_rules(function):
            target = catalogue.find_object(function["name"])
            if target is not None:
                notes[function["name"]] = catalogue.rule_notes(target)
    return notes


def on_files(files: Files, config: Any) -> Files:
    docs = Path(config["docs_dir"])
    document = _report_document(Path(config["config_file_path"]).parent)
    pages = catalogue.catalogue_pages(document, _statements(docs, document), _notes(document))
    references = api.api_pages(catalogue=catalogue.locations(document))
    for path, text in {**references, **pages}.items():
        files.append(File.generated(config, path, content=text))

    def titled(generated: dict[str, str]) -> list[tuple[str, str]]:
        index = [p for p in generated if p.endswith("/index.md")]
        rest = [p for p in generated if p not in index]
        return [(text_title(generated[p]), p) for p in index + rest]

    generated = {"API reference": titled(references), "Rule catalogue": titled(pages)}
    written = [f.src_uri for f in files if f.src_uri.endswith(".md") and not f.generated_by]
    index = (docs / "index.md").read_text(encoding="utf-8")
    config["nav"] = navigation.build_nav(index, written, generated)
    return files


def text_title(markdown: str) -> str:
    """A page's first heading."""
    return next(line[2:].strip() for line in markdown.splitlines() if line.startswith("# "))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if page.file.src_uri != "index.md":
        return markdown
    return markdown.rstrip() + (
        "\n\n## Reference\n\n"
        "* [Rule catalogue](catalogue/index.md): every function that has rules, one entry "
        "each, generated from the registry when the site is built.\n"
        "* [API reference](api/index.md): the public names, from their docstrings.\n"
    )


def on_post_build(config: Any) -> None:
    # hooks run after the plugins: the search plugin has written its index by now
    path = Path(config["site_dir"]) / "search" / "search_index.json"
    index = search.with_name_words(json.loads(path.read_text(encoding="utf-8")))
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
