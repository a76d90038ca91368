"""Browser tests of the web table: Debian's chromium driven by playwright, against a real
server (``python -m api.cli serve``) on a free loopback port with SQLite in a temporary
folder and the in-process worker.

No browser is ever downloaded: the tests use ``/usr/bin/chromium`` and skip, saying why,
when it (or playwright) is missing — unless ``IRONWORKS_REQUIRE_BROWSER=1`` (set by
``.ci/run``), which makes them fail instead. Any console error on a page fails its test.
Screenshots go to ``$IRONWORKS_ARTIFACTS`` (default ``/tmp/ironworks-artifacts``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_table import screenshot

CHROMIUM = os.environ.get("IRONWORKS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
REPO = Path(__file__).resolve().parents[2]
VIEWPORT = {"width": 1440, "height": 900}
TIMEOUT_MS = 15_000


def _missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not (shutil.which(CHROMIUM) or Path(CHROMIUM).is_file()):
        return f"no chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    missing = _missing_browser()
    if missing:
        if os.environ.get("IRONWORKS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests are required here, but {missing}")
        pytest.skip(f"browser tests skipped: {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server for the module's tests; its base URL."""
    port = _free_port()
    folder = tmp_path_factory.mktemp("web")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "IRONWORKS_STORE")}
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--store", f"sqlite:///{folder / 'ironworks.sqlite3'}", "--log-level", "warning"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            if process.poll() is not None:
                break
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        else:
            pytest.fail("the server did not start")
        if process.poll() is not None:
            pytest.fail(f"the server exited: {(folder / 'server.log').read_text()[-2000:]}")
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


class Console:
    """Console errors and uncaught exceptions of the pages it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed_urls: list[str] = []

    def allow_failed(self, url_suffix: str) -> None:
        """Let requests to this URL fail: chromium reports every failed request on the
        console (a refused move that a test provokes; a board module another helper has
        not written yet, for which the table draws its generic board)."""
        self.allowed_urls.append(url_suffix)

    def watch(self, page: Any, name: str) -> Any:
        def on_console(message: Any) -> None:
            url = (message.location or {}).get("url", "")
            if message.type == "error" and not any(url.endswith(a) for a in self.allowed_urls):
                self.errors.append(f"{name}: {message.text} ({url})")

        page.on("console", on_console)
        page.on("pageerror", lambda e: self.errors.append(f"{name}: uncaught {e}"))
        page.set_default_timeout(TIMEOUT_MS)
        return page


@pytest.fixture
def console() -> Iterator[Console]:
    watcher = Console()
    yield watcher
    assert watcher.errors == [], "console errors:\n" + "\n".join(watcher.errors)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.stash[_FAILED] = report.failed


_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def open_page(browser: Any, console: Console, request: pytest.FixtureRequest) -> Iterator[Any]:
    """``open_page(name)``: a page in a browser context of its own (its own localStorage,
    so a second one is another person, e.g. a spectator). A failed test leaves a
    screenshot of each of its pages among the artifacts."""
    pages = []

    def make(name: str = "player") -> Any:
        context = browser.new_context(viewport=VIEWPORT)
        page = console.watch(context.new_page(), name)
        pages.append((name, page))
        return page

    yield make
    for name, page in pages:
        if request.node.stash.get(_FAILED, False):
            screenshot(page, f"failed-{request.node.name}-{name}")
        page.context.close()
