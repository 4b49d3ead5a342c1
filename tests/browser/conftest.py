"""Fixtures for the real-browser tests (`make test-browser`).

* `chromium_path`: Debian's Chromium, installed by scripts/ensure_browser.sh when missing.
* `sync_playwright`: the Python Playwright driver, pip-installed into the running interpreter
  when missing. We never call `playwright install` (it downloads browsers from the internet);
  Playwright drives the distribution's Chromium through `executable_path`.
* `lab_server`: JupyterLab serving a copy of notebooks/ exactly as a fresh clone has them:
  a brand-new Jupyter data/config directory, so no notebook is trusted, and nothing from the
  developer's own Jupyter settings leaks in. Always shut down, even when the test fails.

Every wait here is bounded, so a hung browser or server fails the test instead of hanging CI.
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
import shutil
import signal
import socket
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
SERVER_START_TIMEOUT_S = 60
SERVER_STOP_TIMEOUT_S = 15


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


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def _stop(proc: subprocess.Popen, server: LabServer) -> None:
    """Shut JupyterLab down: politely through its API (this also stops the kernels, which run
    in their own process groups), then SIGTERM / SIGKILL to the group we started."""
    if proc.poll() is None:
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


@pytest.fixture
def lab_server(tmp_path: Path):
    """JupyterLab on a free localhost port, serving a fresh copy of notebooks/."""
    root_dir = tmp_path / "course"
    shutil.copytree(
        ROOT / "notebooks",
        root_dir,
        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"),
    )
    jupyter = tmp_path / "jupyter"  # fresh per test: empty signature database => untrusted
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(jupyter / "config"),
        "JUPYTER_DATA_DIR": str(jupyter / "data"),
        "JUPYTER_RUNTIME_DIR": str(jupyter / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(jupyter / "lab-settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(jupyter / "lab-workspaces"),
        "IPYTHONDIR": str(jupyter / "ipython"),
        "MPLCONFIGDIR": str(jupyter / "mpl"),
        # The kernel named "python3" is this interpreter's (the venv's under `make`), and it
        # imports the package as installed there (no PYTHONPATH help), as `make lab`'s does.
        "JUPYTER_PREFER_ENV_PATH": "1",
        "JUPYTER_PLATFORM_DIRS": "1",
    }
    env.pop("JUPYTER_PATH", None)
    # Answer JupyterLab's "fetch Jupyter news?" question with "never": no toast over the
    # screenshot, and no reason for the page to want the internet.
    news = jupyter / "lab-settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    token = secrets.token_hex(24)
    port = _free_port()
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        f"--ServerApp.token={token}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={root_dir}",
        # No server-side calls to the internet (news feed, update check).
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    log_path = tmp_path / "jupyterlab.log"
    server = LabServer(f"http://127.0.0.1:{port}/", token, root_dir, log_path)
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
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"JupyterLab exited with {proc.returncode}:\n{server.log()}")
            try:
                server.api("status", timeout=2)
                break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"JupyterLab did not answer within "
                        f"{SERVER_START_TIMEOUT_S} s:\n{server.log()}"
                    )
                time.sleep(0.25)
        yield server
    finally:
        _stop(proc, server)


@pytest.fixture
def browser_page(chromium_path: str, sync_playwright):
    """A headless Chromium page that can reach localhost only.

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

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, timeout=60_000
        )
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.set_default_timeout(30_000)
            page = context.new_page()
            page.route("**/*", guard)
            yield page, blocked
        finally:
            browser.close()
