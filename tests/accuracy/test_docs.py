"""docs/accuracy.md states the accuracy tables of this folder, as they are."""

from reference import PAGE, accuracy_page


def test_the_docs_page_is_the_tables_of_the_sweeps():
    assert PAGE.read_text() == accuracy_page(), (
        "docs/accuracy.md is out of date: run `python tests/support/reference.py`"
    )
