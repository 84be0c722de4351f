"""The HTML page, read back with the standard library's parser."""

from html.parser import HTMLParser

from chainrules.coverage.format_html import render_html

VOID = {"meta", "input", "br", "hr", "img", "link"}


class PageReader(HTMLParser):
    """Checks that tags nest and close, and collects the rows of each table and the text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.tables, self.text, self.attributes = [], {}, [], []
        self._table, self._cells = None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.attributes.append((tag, attrs))
        if tag not in VOID:
            self.open.append(tag)
        if tag == "table":
            self._table = self.tables.setdefault(attrs.get("id"), [])
        elif tag == "tr" and self._table is not None:
            self._cells = []
            self._table.append((attrs, self._cells))
        elif tag in ("td", "th") and self._cells is not None:
            self._cells.append("")

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1:]}>"
        self.open.pop()
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cells and self.open and self.open[-1] in ("td", "th"):
            self._cells[-1] += data


def read(page):
    reader = PageReader()
    reader.feed(page)
    reader.close()
    assert reader.open == []
    return reader


def test_the_page_parses_and_holds_every_function(small_report):
    page = render_html(small_report)
    assert page.startswith("<!DOCTYPE html>")
    reader = read(page)
    functions = reader.tables["functions"]
    body = [(attrs, cells) for attrs, cells in functions[1:]]
    assert [cells[0] for _, cells in body] == [r.name for r in small_report.rows]
    assert [attrs["data-status"] for attrs, _ in body] == [r.status for r in small_report.rows]
    categories = reader.tables["categories"]
    assert [cells[0] for _, cells in categories[1:]] == [
        "python.math",
        "python.operator",
        "unclassified",
        "total",
    ]


def test_text_is_escaped(small_report):
    reader = read(render_html(small_report))
    scripts = [attrs for tag, attrs in reader.attributes if tag == "script"]
    assert len(scripts) == 1  # the page's own filter, not the reason's
    assert "<script>alert('mutates')</script> & more" in "".join(reader.text)


def test_the_page_is_self_contained(small_report):
    reader = read(render_html(small_report))
    for tag, attrs in reader.attributes:
        assert "src" not in attrs and "href" not in attrs, (tag, attrs)


def test_bars_stay_within_their_track(small_report):
    reader = read(render_html(small_report))
    widths = [
        float(attrs["style"].removeprefix("width:").removesuffix("%"))
        for tag, attrs in reader.attributes
        if tag == "span" and attrs.get("class") in ("tested", "rules")
    ]
    bars = list(zip(widths[::2], widths[1::2], strict=True))  # (tested, rules only) per bar
    assert bars and all(0 <= tested + rules <= 100 for tested, rules in bars)
    if small_report.known:
        assert bars[0] == (50.0, 50.0)  # python.math: sin tested, cos has rules


def test_the_page_says_what_it_could_not_know(small_report):
    text = "".join(read(render_html(small_report)).text)
    assert "Unclassified (1): math.tricky" in text
    assert ("coverage unknown" in text) is (not small_report.known)


def test_engines_have_a_table_and_a_column_each(small_report, engine_cells, engine_totals):
    reader = read(render_html(small_report))
    engines = reader.tables["engines"]
    assert engines[0][1] == ["category", "reference", "torch", "jax", "autograd", "dask"]
    assert {cells[0]: cells[1:] for _, cells in engines[1:]} == engine_totals
    functions = reader.tables["functions"]
    header = functions[0][1]
    at = [header.index(engine) for engine in ("reference", "torch", "jax", "autograd", "dask")]
    shown = {cells[0].split()[0]: [cells[i] for i in at] for _, cells in functions[1:]}
    expected = dict(engine_cells)
    if small_report.known:
        expected["math.sin"] = ["2", "2", "1 [1]", "reached", "reached"]
    assert shown == expected


def test_a_first_order_reason_is_a_tooltip_and_a_note(small_report):
    reader = read(render_html(small_report))
    reason = "the host callback | has no 2nd derivative"
    titles = [
        attrs["title"] for tag, attrs in reader.attributes if tag == "td" and "title" in attrs
    ]
    notes = "".join(reader.text)
    if small_report.known:
        assert titles == [reason]
        assert f"[1] {reason}" in notes and "Why some checks stop at 1st order or refuse:" in notes
    else:
        assert titles == [] and "Why some checks stop" not in notes


def test_wide_tables_scroll_in_their_own_box(small_report):
    reader = read(render_html(small_report))
    boxes = [attrs.get("class", "") for tag, attrs in reader.attributes if tag == "div"]
    tables = [attrs["id"] for tag, attrs in reader.attributes if tag == "table"]
    assert tables == ["categories", "engines", "functions"]
    assert boxes.count("scroll") == 2 and boxes.count("scroll tall") == 1
    page = render_html(small_report)
    for table in tables:  # each table is the only child of its box
        assert f'class="scroll"><table id="{table}">' in page or (
            f'class="scroll tall"><table id="{table}">' in page
        )


def test_the_page_names_every_rule_outside_the_universe(small_report):
    from dataclasses import replace

    from chainrules.coverage.report import OutsideRow

    many = tuple(OutsideRow(f"stand_in_{i}", True, True, False, False) for i in range(25))
    text = "".join(read(render_html(replace(small_report, outside=many))).text)
    assert "Rules outside the universe (25): stand_in_0, " in text and "stand_in_24" in text
    assert "--format json" not in text
