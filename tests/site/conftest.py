"""Fixtures for the static site's browser test (`make test-site`, after `make site`).

* `site_dir`, `site_url`: build/site, served by a plain static file server (Python's
  http.server, as any static host would) on 127.0.0.1, on a port the system picks (port 0).
* `browser`: Debian's Chromium (scripts/ensure_browser.sh; never `playwright install`), driven
  by Playwright (pip-installed into the running interpreter when missing, as tests/browser does).
* `context`, `page`: one browser context for the session (a learner's browser), a new tab per
  notebook; every request of the pages, their workers and the service worker is recorded
  (`hosts`) and any to another host aborted. The context
  serves the site's jupyter-lite.json with ``exposeAppInBrowser`` added, so that the test can
  read the notebook from JupyterLab's own model (the published site does not expose it).
* `timings`: seconds per notebook, printed as a table at the end.

Every wait is bounded, so a hung page fails the test instead of hanging CI.
"""

from __future__ import annotations

import functools
import http.server
import importlib
import os
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("AUTOGRAD_COURSE_SITE", ROOT / "build" / "site"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]
TIMINGS: dict[str, tuple[float, float]] = {}  # notebook -> (kernel ready s, run all s)
SESSION_START = time.monotonic()


class _Handler(http.server.SimpleHTTPRequestHandler):
    """A static file server; the types a strict host sends for WebAssembly and modules."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json"}

    def log_message(self, *args) -> None:  # quiet: the test reads the browser's log instead
        pass


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """build/site (or $AUTOGRAD_COURSE_SITE), built by `make site`."""
    if not (SITE / "index.html").is_file() or not (SITE / "static" / "pyodide").is_dir():
        pytest.fail(f"no site at {SITE}: run `make site` first", pytrace=False)
    return SITE


@pytest.fixture(scope="session")
def site_url(site_dir):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(SITE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        proc = subprocess.run(["bash", str(ROOT / "scripts" / "ensure_browser.sh")],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            pytest.fail(f"no Chromium at {CHROMIUM}:\n{proc.stdout}{proc.stderr}", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "playwright"],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            pytest.fail(f"pip install playwright failed:\n{proc.stderr}", pytrace=False)
        importlib.invalidate_caches()
        from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                      timeout=60_000)
        try:
            yield chromium
        finally:
            chromium.close()


def expose_app(config: dict) -> dict:
    """The site's settings plus JupyterLab's ``exposeAppInBrowser`` (for this test only): the
    test reads the notebook's cells and kernel from ``window.jupyterapp``."""
    config["jupyter-config-data"]["exposeAppInBrowser"] = "true"
    return config


@pytest.fixture(scope="session")
def context(browser, site_url):
    """One browser context for the session, as one learner's browser: its HTTP cache keeps
    Pyodide's compiled WebAssembly between notebooks. ``hosts`` maps every host any page,
    worker or service worker asked to one URL asked of it; a request to another host than the
    site's is aborted (and listed)."""
    hosts: dict[str, str] = {}
    local = urllib.parse.urlsplit(site_url).netloc

    def seen(request) -> None:
        url = urllib.parse.urlsplit(request.url)
        if url.scheme not in ("data", "blob"):
            hosts.setdefault(url.netloc, request.url)

    def guard(route, request) -> None:
        seen(request)
        url = urllib.parse.urlsplit(request.url)
        if url.netloc == local and url.path == "/jupyter-lite.json":
            response = route.fetch()
            route.fulfill(response=response, json=expose_app(response.json()))
        elif url.scheme in ("data", "blob") or url.netloc == local:
            route.continue_()
        else:
            route.abort("blockedbyclient")

    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.set_default_timeout(60_000)
    ctx.on("request", seen)  # also the service worker's and the workers' requests
    ctx.route("**/*", guard)
    ctx.hosts = hosts
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context):
    """(page, hosts): a new tab in the session's context; ``hosts`` as in ``context``."""
    pg = context.new_page()
    try:
        yield pg, context.hosts
    finally:
        pg.close()


@pytest.fixture(scope="session")
def timings() -> dict[str, tuple[float, float]]:
    return TIMINGS


def pytest_terminal_summary(terminalreporter) -> None:
    if not TIMINGS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("notebooks in the static site (Pyodide kernel): seconds")
    write("  kernel    run all   notebook")
    for name, (ready, run) in TIMINGS.items():
        write(f"{ready:8.1f} {run:10.1f}   {name}")
    total = sum(r + s for r, s in TIMINGS.values())
    write(f"{total:8.1f} s in all over {len(TIMINGS)} notebooks; whole session "
          f"{time.monotonic() - SESSION_START:.1f} s")
