"""The built site, served on the loopback interface, and headless Chromium to read it with.

``CHAINRULES_SITE`` names a site already built (CI builds it with ``mkdocs build --strict``
first); without it the site is built once for the session. ``CHAINRULES_SITE_SCREENSHOTS``
names the folder the screenshots go to (a temporary folder without it). Chromium is Debian's
(``/usr/bin/chromium``, or ``CHROMIUM``), driven by playwright, which downloads no browser of
its own when given the executable; its profile is a new, empty folder, and the flags keep it
from opening connections of its own.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def build_site(destination: Path) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of the project into ``destination``."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(destination)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    given = os.environ.get("CHAINRULES_SITE")
    if given:
        return Path(given)
    destination = tmp_path_factory.mktemp("site")
    built = build_site(destination)
    assert built.returncode == 0, built.stdout + built.stderr
    return destination


@pytest.fixture(scope="session")
def site_url(site):
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # the test's output is not a server log
        pass


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory) -> Path:
    given = os.environ.get("CHAINRULES_SITE_SCREENSHOTS")
    folder = Path(given) if given else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """A Chromium context of a new, empty profile; closed at the end of the session."""
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


class PageErrors:
    """The console errors and uncaught exceptions of a page, and the requests that failed."""

    def __init__(self, page) -> None:
        self.messages: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.messages.append(f"uncaught: {error}"))
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)

    def _console(self, message) -> None:
        if message.type == "error":
            self.messages.append(f"console: {message.text}")

    def _request_failed(self, request) -> None:
        if request.failure != "net::ERR_ABORTED":  # not the page moving on to the next one
            self.messages.append(f"request failed: {request.url}: {request.failure}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.messages.append(f"HTTP {response.status}: {response.url}")


@pytest.fixture
def page(browser):
    """A new tab, with its errors collected in ``page.errors``."""
    tab = browser.new_page()
    tab.errors = PageErrors(tab)
    try:
        yield tab
    finally:
        tab.close()
