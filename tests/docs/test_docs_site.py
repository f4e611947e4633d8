"""The documentation site: `mkdocs build --strict` passes offline, and a real browser (Debian's
headless Chromium, no network) renders its main pages at a desktop and a phone width with
every image loaded, no console error, working internal links, a gallery card for every
registered env and drawn benchmark charts.

Full-page screenshots go to ``build/docs-screenshots/`` (or ``$PROTOGYM_DOCS_SCREENSHOTS``)
for a person to look at; the build's duration is written there too.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(
    os.environ.get("PROTOGYM_DOCS_SCREENSHOTS") or ROOT / "build" / "docs-screenshots"
)
# The home page, the gallery, a family page, an env page, the benchmarks and a tutorial.
PAGES = {
    "home": "",
    "gallery": "envs/",
    "family": "envs/classic-control/",
    "env": "envs/classic-control/cartpole/",
    "benchmarks": "benchmarks/",
    "tutorial": "tutorials/type-check/",
}
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
# The server is shut down after this many seconds even if a test hangs.
SERVER_SECONDS = 900
# Chromium resolves no host but this one, so nothing can leave the machine.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
    "--disable-extensions", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "MUJOCO_GL": os.environ.get("MUJOCO_GL", "egl")}
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=1200,
    )
    seconds = time.perf_counter() - started
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr[-5000:]}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "build-seconds.txt").write_text(f"{seconds:.1f}\n")
    return out


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    watchdog = threading.Timer(SERVER_SECONDS, server.shutdown)
    watchdog.daemon = True
    thread.start()
    watchdog.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        watchdog.cancel()
        server.shutdown()
        server.server_close()
        thread.join(10)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """No access log on the test's stderr."""


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that drops a request it no longer needs is not an error to print."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    assert Path(chromium).exists(), (
        "Debian's chromium is needed: apt-get install -y chromium (scripts/run-tests.sh does)"
    )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.mark.slow
def test_the_site_builds_with_the_gallery_and_the_api_reference(site: Path) -> None:
    envs = site / "envs"
    assert (envs / "classic-control" / "cartpole.gif").stat().st_size > 1000
    assert (envs / "classic-control" / "cartpole-thumb.gif").stat().st_size > 500
    assert "FrozenLake-v1" in (envs / "toy-text" / "index.html").read_text()
    api = (site / "reference" / "protogym" / "index.html").read_text()
    assert "reset" in api and "make_vec" in api
    for svg in (site / "benchmarks").glob("*.svg"):
        assert svg.read_text().count("<rect") >= 2, svg


@pytest.mark.slow
@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("page", list(PAGES))
def test_a_browser_renders_the_page(base_url: str, browser: Any, page: str, width: str) -> None:
    viewport_width, viewport_height = WIDTHS[width]
    context = browser.new_context(viewport={"width": viewport_width, "height": viewport_height})
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    errors: list[str] = []
    offsite: list[str] = []
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    # a request the browser cancels itself (a <picture> source it chose not to use) is fine
    tab.on("requestfailed", lambda r: None if r.failure == "net::ERR_ABORTED"
           else errors.append(f"failed: {r.url} ({r.failure})"))

    def local_only(route: Any) -> None:
        if route.request.url.startswith(base_url):
            route.continue_()
        else:
            offsite.append(route.request.url)
            route.abort()

    tab.route("**/*", local_only)
    try:
        response = tab.goto(base_url + PAGES[page], wait_until="networkidle")
        assert response is not None and response.status == 200
        assert tab.locator("article h1").count() >= 1
        _scroll_through(tab)  # the gallery's thumbnails load when they come into view
        images = tab.eval_on_selector_all(
            "img", "imgs => imgs.map(i => [i.src, i.complete && i.naturalWidth, i.alt])"
        )
        overflow = tab.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        links = tab.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        anchors = tab.eval_on_selector_all("[id]", "nodes => nodes.map(n => n.id)")
        if page == "gallery":
            _check_the_gallery(tab)
        if page == "benchmarks":
            _check_the_charts(tab)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(SCREENSHOTS / f"{page}-{width}.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
    assert not offsite, f"the page asked other hosts: {offsite}"
    if page != "tutorial":
        assert images, "no image on the page"
    assert all(loaded for _, loaded, _ in images), f"images that did not load: {images}"
    assert all(alt.strip() for _, _, alt in images), f"images without alt text: {images}"
    assert overflow <= 1, f"the page is {overflow}px wider than the {width} screen"
    _check_links(base_url, base_url + PAGES[page], links, set(anchors))


def _scroll_through(tab: Any) -> None:
    height = tab.evaluate("() => document.body.scrollHeight")
    for y in range(0, height + 800, 600):
        tab.evaluate(f"() => window.scrollTo(0, {y})")
        tab.wait_for_timeout(30)
    tab.wait_for_load_state("networkidle")
    tab.wait_for_function(
        "() => Array.from(document.images).every(i => i.complete)", timeout=60_000
    )
    tab.evaluate("() => window.scrollTo(0, 0)")


@functools.cache
def _installed_ids() -> list[str]:
    """Every id a fresh process registers: what the build's gallery sees. This test process's
    own registry may hold ids other tests registered in code."""
    listing = subprocess.run(
        [sys.executable, "-c", "import protogym; print('\\n'.join(protogym.registry))"],
        capture_output=True, text=True, check=True, timeout=120,
    )
    return listing.stdout.split()


def _check_the_gallery(tab: Any) -> None:
    """A card for every registered env, and the search box keeps only what matches."""
    card_ids = tab.eval_on_selector_all(
        ".pg-card", "cards => cards.map(c => c.dataset.ids.split(' '))"
    )
    shown = {env_id for ids in card_ids for env_id in ids}
    missing = set(_installed_ids()) - shown
    assert not missing, f"registered ids with no gallery card: {sorted(missing)[:20]}"
    search = tab.locator(".pg-search input").first
    search.fill("pong")
    visible = tab.eval_on_selector_all(
        ".pg-card:not([hidden])", "cards => cards.map(c => c.dataset.search)"
    )
    assert visible and all("pong" in text for text in visible), visible
    assert len(visible) < len(card_ids)
    search.fill("")
    assert tab.locator(".pg-card:not([hidden])").count() == len(card_ids)


def _check_the_charts(tab: Any) -> None:
    charts = tab.eval_on_selector_all(
        "img.pg-chart",
        "imgs => imgs.map(i => [i.src, i.naturalWidth, i.getBoundingClientRect().height])",
    )
    assert len(charts) >= 10, charts
    assert all(width > 0 and height > 20 for _, width, height in charts), charts


def _check_links(base_url: str, page_url: str, links: list[str], anchors: set[str]) -> None:
    """Every link to this site answers 200, and every link to a place on this page finds it."""
    broken = []
    for link in dict.fromkeys(links):
        if not link.startswith(base_url):
            continue
        target, _, fragment = link.partition("#")
        if target == page_url and fragment:
            if urllib.parse.unquote(fragment) not in anchors:
                broken.append(link)
            continue
        try:
            with urllib.request.urlopen(target, timeout=10) as answer:
                if answer.status != 200:
                    broken.append(link)
        except urllib.error.URLError:
            broken.append(link)
    assert not broken, f"internal links that do not resolve: {broken}"
