"""Browser fixtures for the web client's tests: one Debian Chromium headless shell per test run
(driven by Playwright's sync API, no browser download), the nodes' base URLs, and a factory of
pages each logged in as a new player."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect, sync_playwright

from tests.conftest import ROOT
from tests.server.client import TLS, Node

# The headless shell: Chromium's engine without the desktop browser around it, the same pages
# drawn for about a quarter less CPU than `chromium --headless`.
CHROMIUM = "/usr/bin/chromium-headless-shell"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
TIMEOUT_MS = 30_000  # generous: the machine is shared and slow at times
# Playwright's assertions keep their own default (5 s), apart from the context's: the same
# allowance for them, so a busy machine slows an `expect` down without failing it.
expect.set_options(timeout=TIMEOUT_MS)

# The sizes of the players' trials (issue 59): two laptops, a tablet, a phone upright and the
# same phone held sideways.
TRIAL_SIZES: dict[str, ViewportSize] = {
    "laptop": {"width": 1366, "height": 768},
    "small-laptop": {"width": 1280, "height": 720},
    "tablet": {"width": 820, "height": 1180},
    "phone": {"width": 390, "height": 844},
    "landscape": {"width": 844, "height": 390},
}

# Registers silently: app.js registers with this name when there is no token yet.
REGISTER = """
if (!localStorage.getItem('samedeal.token')) localStorage.setItem('samedeal.name', %s);
"""


# Package scope: Playwright's sync API keeps an event loop running on this thread while it is
# open, and the async tests that run after tests/e2e need the thread's loop back.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    exe = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium-headless-shell")
    if exe is None:
        pytest.fail("chromium-headless-shell is not installed: run the README's test command "
                    "(make test)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def web(nodes: list[Node]) -> str:
    return nodes[0].url


@pytest.fixture(scope="session")
def web2(nodes: list[Node]) -> str:
    return nodes[1].url


def open_context(browser: Browser, name: str, **options: object) -> BrowserContext:
    context = browser.new_context(**options)  # type: ignore[arg-type]
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(REGISTER % repr(name))
    return context


def wait_online(page: Page) -> None:
    # A function, not an expression: Playwright evals a string on every poll, and the
    # page's CSP (no 'unsafe-eval') refuses that once the first check has failed.
    page.wait_for_function("() => document.getElementById('net')?.dataset.state === 'online'")


def resize(page: Page, size: ViewportSize) -> None:
    """Resize the viewport and wait until the page has laid itself out again: boards fit
    themselves to the room they have on the window's resize event (clients/web/fit.js)."""
    page.set_viewport_size(size)
    page.wait_for_function("(w) => innerWidth === w", arg=size["width"])
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def lobby_page(context: BrowserContext, base: str) -> Page:
    """A new page of ``context`` on the lobby, connected."""
    page = context.new_page()
    page.goto(f"{base}/#/")
    page.wait_for_selector(".lobby")
    wait_online(page)
    return page


def create_match_in_lobby(page: Page, game: str, seats: int = 2) -> str:
    """Create a match of ``game`` (easy) with the lobby's form, with a turn timer too long to
    place anything in a test; the match's id."""
    form = page.locator("form.create-match")
    form.locator("select[name=game]").select_option(game)
    form.locator("select[name=variant]").select_option("easy")
    form.locator("input[name=seats]").fill(str(seats))
    form.locator("input[name=turn_time]").fill("300")
    form.get_by_role("button", name="Create match").click()
    expect(page.locator(".match .match-state")).to_have_text("open", timeout=TIMEOUT_MS)
    return page.url.rsplit("/", 1)[1]


@pytest.fixture
def page_for(browser: Browser, web: str) -> Iterator[Callable[..., Page]]:
    """page_for(name, base=None): a new context and page, registered as a new player named
    `name`, on the lobby (`#/`) and connected."""
    contexts: list[BrowserContext] = []

    def make(name: str, base: str | None = None) -> Page:
        context = open_context(browser, name, viewport={"width": 1200, "height": 900})
        contexts.append(context)
        return lobby_page(context, base or web)

    yield make
    for c in contexts:
        c.close()


class Api:
    """A player speaking REST to a node."""

    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.Client(base_url=base + "/api/v1", timeout=10, verify=TLS)
        r = self.http.post("/players", json={"name": name, "kind": "human"})
        assert r.status_code == 201, r.text
        body = r.json()
        self.id, self.name = body["player"]["id"], body["player"]["name"]
        self.token: str = body["token"]
        self.http.headers["authorization"] = f"Bearer {self.token}"

    def call(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        r = self.http.request(method, path, json=body)
        assert r.status_code < 300, (path, r.text)
        return r.json()  # type: ignore[no-any-return]


def make_arena(redis_url: str, game: str, variant: str, start: str = "+8s",
               duration: str = "10s", interval: str = "10s", name: str = "Browser arena") -> str:
    """An arena made with the operator's command (one round of ten seconds, starting eight
    seconds from now, unless told otherwise); its id."""
    made = subprocess.run(
        [sys.executable, "-m", "engine.cli", "arena", "create", game, variant, "--start", start,
         "--duration", duration, "--interval", interval, "--name", name,
         "--redis-url", redis_url], cwd=ROOT, capture_output=True, text=True, timeout=60,
        check=False)
    assert made.returncode == 0, made.stderr
    return made.stdout.split()[0]
