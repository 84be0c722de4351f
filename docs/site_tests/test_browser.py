"""The built site and the coverage report's HTML page, as a reader sees them in Chromium.

Each page is loaded over HTTP from the loopback interface; every test fails on a console
error, an uncaught exception, a failed request or an HTTP error of the page. The screenshots
(the catalogue, a search for betainc, the coverage report at 700 px) go to the session's
screenshot folder, for people to look at. A search for a function's name lists that
function's entry first, before the longer names that begin with it.
"""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit

import pytest


def _open(page, url, wait_until="networkidle"):
    response = page.goto(url, wait_until=wait_until)
    assert response is not None and response.ok, url
    return page


def _png(path) -> tuple[int, int]:
    """A PNG's width and height, read from its header."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def test_the_catalogue_page_lists_every_category(page, site_url, screenshots):
    _open(page, site_url + "catalogue/")
    assert page.locator("h1").first.inner_text().rstrip("¶") == "Rule catalogue"
    categories = page.locator("article table tbody tr td:first-child a").all_inner_texts()
    assert "scipy.special" in categories and "numpy.linalg" in categories
    shot = screenshots / "catalogue.png"
    page.screenshot(path=str(shot), full_page=False)
    assert _png(shot) == (1280, 900)
    assert page.errors.messages == []


def _search(page, site_url, query: str) -> list[list[SplitResult]]:
    """The links a search for ``query`` shows, a list per page: its own link first, then its
    sections' in the order shown."""
    _open(page, site_url)
    page.keyboard.press("/")  # the search's shortcut
    page.keyboard.type(query)
    # the results update as each letter is typed: wait for those of the whole query
    page.locator(f'.md-search-result__list a[href*="?h={query}#"]').first.wait_for(timeout=15_000)
    groups = page.locator(".md-search-result__list .md-search-result__item")
    hrefs = "as => as.map(a => a.href)"
    return [
        [urlsplit(href) for href in group.locator("a.md-search-result__link").evaluate_all(hrefs)]
        for group in groups.all()
    ]


def test_search_finds_betainc_in_the_catalogue(page, site_url, screenshots):
    groups = _search(page, site_url, "betainc")
    targets = [target for group in groups for target in group]
    entry = [t for t in targets if t.fragment == "scipy.special.betainc"]
    assert entry and entry[0].path.endswith("/catalogue/scipy.special/"), targets
    shot = screenshots / "search-betainc.png"
    page.screenshot(path=str(shot))
    assert _png(shot) == (1280, 900)
    page.goto(entry[0].geturl(), wait_until="networkidle")
    heading = page.locator("h2[id='scipy.special.betainc']")
    assert heading.is_visible() and "parameter derivatives" in page.inner_text("article")
    assert page.errors.messages == []


# Each name begins longer names in the catalogue: betaincc and betaincinv; gammainc, gammaln and
# gammasgn; jve and jvp. The search finds those by the name too, but lists the name's own
# entry first.
@pytest.mark.parametrize(
    ("name", "longer"),
    [("betainc", "betaincinv"), ("gamma", "gammaln"), ("jv", "jve")],
)
def test_search_lists_the_entry_of_the_name_typed_first(page, site_url, name, longer):
    groups = _search(page, site_url, name)
    first_page, *_ = groups
    sections = [target.fragment for target in first_page if target.fragment]
    assert sections, groups
    assert sections[0].rpartition(".")[2] == name, sections  # scipy.special.gamma or math.gamma
    everything = [target.fragment for group in groups for target in group]
    assert f"scipy.special.{longer}" in everything  # found, after it
    assert page.errors.messages == []


def _site_pages(site, site_url) -> list[str]:
    pages = sorted(site.rglob("index.html"))
    return [site_url + str(p.parent.relative_to(site)).removeprefix(".") + "/" for p in pages]


def test_every_page_loads_without_errors(page, site, site_url):
    pages = _site_pages(site, site_url)
    assert len(pages) > 40  # the written pages, the API reference and the catalogue
    for url in pages:  # scripts have run at "load"; the search index loads once, below
        _open(page, url, wait_until="load")
        assert page.locator("h1").count() >= 1, url
    page.wait_for_load_state("networkidle")
    assert page.errors.messages == []


@pytest.fixture(scope="module")
def coverage_page(tmp_path_factory):
    from chainrules.coverage.format_html import render_html
    from chainrules.coverage.report import current_report

    path = tmp_path_factory.mktemp("coverage") / "coverage.html"
    path.write_text(render_html(current_report()), encoding="utf-8")
    return path


def test_the_coverage_report_fits_700_pixels(page, coverage_page, screenshots):
    page.set_viewport_size({"width": 700, "height": 1000})
    _open(page, coverage_page.as_uri())
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0  # wide tables scroll inside their own box
    search = page.locator("#search")
    placeholder_width = search.evaluate(
        """input => {
            const style = getComputedStyle(input);
            const context = document.createElement("canvas").getContext("2d");
            context.font = style.font;
            const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
            return context.measureText(input.placeholder).width + padding - input.clientWidth;
        }"""
    )
    assert placeholder_width <= 0, "the search box cuts its placeholder off"
    page.screenshot(path=str(screenshots / "coverage-700px.png"))
    search.evaluate("input => input.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(screenshots / "coverage-700px-functions.png"))
    search.fill("betainc")
    page.screenshot(path=str(screenshots / "coverage-700px-betainc.png"))
    shown = page.locator("#functions tbody tr:not([hidden])")
    names = [text.split()[0] for text in shown.all_inner_texts()]
    assert "scipy.special.betainc" in names
    assert all("betainc" in text.lower() for text in shown.all_inner_texts())
    assert page.inner_text("#shown") == str(len(names))
    assert "see --format json" not in page.inner_text("body")
    assert page.errors.messages == []


def test_the_error_check_sees_console_errors_exceptions_and_missing_files(page, tmp_path):
    broken = tmp_path / "broken.html"
    broken.write_text(
        "<!DOCTYPE html><title>broken</title><h1>broken</h1>"
        '<img src="missing.png"><script>console.error("boom"); undefined_name();</script>'
    )
    _open(page, broken.as_uri(), wait_until="load")
    messages = " | ".join(page.errors.messages)
    assert "console: boom" in messages
    assert "uncaught: " in messages and "undefined_name" in messages
    assert "request failed: " in messages and "missing.png" in messages
