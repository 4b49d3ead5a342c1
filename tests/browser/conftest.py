"""Fixtures for the real-browser tests (`make test-browser`).

* `chromium_path`: Debian's Chromium, installed by scripts/ensure_browser.sh when missing.
* `sync_playwright`: the Python Playwright driver, pip-installed into the running interpreter
  when missing. We never call `playwright install` (it downloads browsers from the internet);
  Playwright drives the distribution's Chromium through `executable_path`.
* `cjk_font`: a font with Chinese glyphs (fonts-noto-cjk), installed by
  scripts/ensure_cjk_font.sh when missing: the chapters quote the notes' Chinese terms.
* `lab_server`: one JupyterLab for the whole session, serving a copy of notebooks/ exactly as
  a fresh clone has them: brand-new Jupyter config/data/runtime directories, so no notebook is
  trusted and nothing from the developer's own Jupyter settings leaks in. It binds port 0 (the
  system picks a free port, no race with other programs) and the test reads the port back
  from the server's runtime file; if the port is taken between the pick and the bind, it
  starts again. Its kernel "python3" is the running interpreter's (the venv's under `make`),
  importing this checkout's package. Always shut down, even when a test fails.
* `page`: a fresh browser context per test (a 1400 x 1000 window) that can reach localhost
  only: every other request is aborted and listed. Kernels the test started are shut down.
* `timings`: seconds per notebook; printed per test and as a table with the total at the end.

Every wait here is bounded, so a hung browser or server fails the test instead of hanging CI.
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Flags for a CI container: no sandbox (root), no GPU, and no traffic to Google services.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
SERVER_START_TIMEOUT_S = 90
SERVER_STOP_TIMEOUT_S = 15
SERVER_START_ATTEMPTS = 3  # port 0 picked, then taken by someone else before the bind: retry
VIEWPORT = {"width": 1400, "height": 1000}

# JupyterLab settings for the test: no news toast over the screenshots (and no reason for the
# page to want the internet), every cell rendered (no virtual scrolling: cells off screen are
# still in the page), and no autosave (the served copies stay as cloned).
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}
TIMINGS: dict[str, float] = {}  # notebook -> seconds, filled by the tests
SESSION_START = time.monotonic()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything in tests/browser is a browser test (deselect with -m 'not browser')."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of a Chromium executable; apt-installs Debian's package when root and missing."""
    if not os.access(CHROMIUM, os.X_OK):
        proc = subprocess.run(
            ["bash", str(ROOT / "scripts" / "ensure_browser.sh")],
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "CHROMIUM": CHROMIUM},
        )
        if proc.returncode != 0 or not os.access(CHROMIUM, os.X_OK):
            pytest.fail(f"no Chromium at {CHROMIUM}:\n{proc.stdout}{proc.stderr}", pytrace=False)
    return CHROMIUM


@pytest.fixture(scope="session")
def sync_playwright():
    """`playwright.sync_api.sync_playwright`, pip-installing Playwright if needed."""
    try:
        from playwright.sync_api import sync_playwright as sp
    except ImportError:
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "playwright"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if proc.returncode != 0:
            pytest.fail(f"pip install playwright failed:\n{proc.stderr}", pytrace=False)
        importlib.invalidate_caches()
        from playwright.sync_api import sync_playwright as sp
    return sp



@pytest.fixture(scope="session")
def cjk_font() -> str:
    """A font with Chinese glyphs (fc-list :lang=zh); apt-installs fonts-noto-cjk when root."""
    proc = subprocess.run(
        ["bash", str(ROOT / "scripts" / "ensure_cjk_font.sh")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0:
        pytest.fail(f"no CJK font:\n{proc.stdout}{proc.stderr}", pytrace=False)
    return proc.stdout.strip()


@dataclass
class LabServer:
    """A running JupyterLab: where it listens and what it serves."""

    base_url: str  # e.g. http://127.0.0.1:12345/
    token: str
    root_dir: Path  # the served folder (a copy of notebooks/)
    log_path: Path

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}{path}{sep}token={self.token}"

    def api(self, path: str, method: str = "GET", timeout: float = 10) -> dict | list | None:
        req = urllib.request.Request(
            f"{self.base_url}api/{path}",
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """End every session (and its kernel): the next test starts from nothing."""
        for session in self.api("sessions") or []:
            try:
                self.api(f"sessions/{session['id']}", method="DELETE", timeout=30)
            except (OSError, urllib.error.URLError):
                pass

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def _stop(proc: subprocess.Popen, server: LabServer | None) -> None:
    """Shut JupyterLab down: politely through its API (this also stops the kernels, which run
    in their own process groups), then SIGTERM / SIGKILL to the group we started."""
    if proc.poll() is None and server is not None:
        try:
            server.api("shutdown", method="POST", timeout=5)
        except (OSError, urllib.error.URLError):
            pass
        try:
            proc.wait(timeout=SERVER_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=SERVER_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            continue


def _lab_env(jupyter: Path) -> dict:
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(jupyter / "config"),
        "JUPYTER_DATA_DIR": str(jupyter / "data"),
        "JUPYTER_RUNTIME_DIR": str(jupyter / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(jupyter / "lab-settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(jupyter / "lab-workspaces"),
        "IPYTHONDIR": str(jupyter / "ipython"),
        "MPLCONFIGDIR": str(jupyter / "mpl"),
        # The kernel named "python3" is this interpreter's (the venv's under `make`), found
        # before any user-level one, as `make lab` finds it.
        "JUPYTER_PREFER_ENV_PATH": "1",
        "JUPYTER_PLATFORM_DIRS": "1",
        # ...and it imports this checkout's package (the venv may hold another checkout's).
        "PYTHONPATH": os.pathsep.join(
            [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        ),
    }
    env.pop("JUPYTER_PATH", None)
    for name, values in LAB_SETTINGS.items():
        path = jupyter / "lab-settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return env


def _start_lab(root_dir: Path, jupyter: Path, log_path: Path):
    """Start JupyterLab on port 0 and read back its URL from the runtime file.

    Returns (process, server), or (process, None) when the picked port was taken before the
    server could bind it (the caller starts again).
    """
    env = _lab_env(jupyter)
    token = secrets.token_hex(24)
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        f"--ServerApp.token={token}",
        "--ServerApp.port=0",  # the system picks a free port
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={root_dir}",
        # No server-side calls to the internet (news feed, update check).
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    runtime = jupyter / "runtime"
    for old in runtime.glob("jpserver-*.json"):
        old.unlink()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=root_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so the finaliser can end it all
        )
    info_file = runtime / f"jpserver-{proc.pid}.json"
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    server = None
    while True:
        if proc.poll() is not None:
            text = log_path.read_text(errors="replace")
            if "already in use" in text:
                return proc, None
            pytest.fail(f"JupyterLab exited with {proc.returncode}:\n{text}")
        if server is None and info_file.is_file():
            try:
                info = json.loads(info_file.read_text())
            except ValueError:
                info = None  # being written
            if info and info.get("port"):
                base = f"http://127.0.0.1:{info['port']}{info.get('base_url', '/')}"
                server = LabServer(base, token, root_dir, log_path)
        if server is not None:
            try:
                server.api("status", timeout=2)
                return proc, server
            except (OSError, urllib.error.URLError):
                pass
        if time.monotonic() > deadline:
            _stop(proc, server)
            pytest.fail(
                f"JupyterLab did not answer within {SERVER_START_TIMEOUT_S} s:\n"
                + log_path.read_text(errors="replace")
            )
        time.sleep(0.25)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    """JupyterLab on a free localhost port, serving a fresh copy of notebooks/."""
    tmp_path = tmp_path_factory.mktemp("lab")
    root_dir = tmp_path / "course"
    shutil.copytree(
        ROOT / "notebooks",
        root_dir,
        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"),
    )
    jupyter = tmp_path / "jupyter"  # fresh: empty signature database => untrusted notebooks
    for attempt in range(1, SERVER_START_ATTEMPTS + 1):
        log_path = tmp_path / f"jupyterlab-{attempt}.log"
        proc, server = _start_lab(root_dir, jupyter, log_path)
        if server is not None:
            break
        _stop(proc, None)
    else:
        pytest.fail(f"JupyterLab found its port taken {SERVER_START_ATTEMPTS} times")
    try:
        yield server
    finally:
        _stop(proc, server)


@pytest.fixture(scope="session")
def browser(chromium_path: str, sync_playwright):
    """Debian's Chromium, headless, driven by Playwright (one for the session)."""
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, timeout=60_000
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser, lab_server, cjk_font):
    """A page in a fresh browser context that can reach localhost only.

    Yields (page, blocked) where `blocked` lists every request the guard aborted.
    """
    blocked: list[str] = []

    def guard(route, request) -> None:
        url = urllib.parse.urlsplit(request.url)
        if url.scheme in ("data", "blob") or url.hostname in LOCAL_HOSTS:
            route.continue_()
        else:
            blocked.append(request.url)
            route.abort("blockedbyclient")

    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(30_000)
    try:
        pg = context.new_page()
        pg.route("**/*", guard)
        yield pg, blocked
    finally:
        context.close()
        lab_server.shutdown_kernels()


@pytest.fixture(scope="session")
def timings() -> dict[str, float]:
    return TIMINGS


def pytest_terminal_summary(terminalreporter) -> None:
    """Seconds per notebook (a slow chapter shows here) and the total."""
    if not TIMINGS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("notebooks in JupyterLab: seconds (open, run all, check)")
    for name, seconds in TIMINGS.items():
        write(f"{seconds:7.1f} s  {name}")
    write(f"{sum(TIMINGS.values()):7.1f} s  total over {len(TIMINGS)} notebooks")
    write(f"{time.monotonic() - SESSION_START:7.1f} s  whole browser session")
