"""The documentation site: `mkdocs build --strict` passes offline, and the built pages render
in a real browser (Debian's headless Chromium) with their images and without console errors.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The home page, an API reference page and a gallery page.
PAGES = ("", "reference/protogym/", "envs/gallery/protogym-classic-control/cartpole/")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SDL_VIDEODRIVER": "dummy"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr[-5000:]}"
    return out


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """No access log on the test's stderr."""


@pytest.mark.slow
def test_the_site_builds_with_the_gallery_and_the_api_reference(site: Path) -> None:
    gallery = site / "envs" / "gallery"
    assert (gallery / "protogym-classic-control" / "cartpole.gif").stat().st_size > 1000
    assert "FrozenLake-v1" in (gallery / "protogym-toy-text" / "index.html").read_text()
    api = (site / "reference" / "protogym" / "index.html").read_text()
    assert "reset" in api and "make_vec" in api


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_a_browser_renders_the_page(base_url: str, page: str) -> None:
    from playwright.sync_api import Route, sync_playwright

    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is needed: apt-get install chromium (run-tests.sh does)"
    errors: list[str] = []
    offsite: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        try:
            tab = browser.new_page()
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.on("requestfailed", lambda r: errors.append(f"failed: {r.url}"))

            def local_only(route: Route) -> None:
                if route.request.url.startswith(base_url):
                    route.continue_()
                else:
                    offsite.append(route.request.url)
                    route.abort()

            tab.route("**/*", local_only)
            response = tab.goto(base_url + page, wait_until="networkidle")
            assert response is not None and response.status == 200
            assert tab.locator("article h1").count() >= 1
            images = tab.eval_on_selector_all(
                "article img", "imgs => imgs.map(i => [i.src, i.complete && i.naturalWidth])"
            )
        finally:
            browser.close()
    assert not errors, errors
    assert not offsite, f"the page asked other hosts: {offsite}"
    assert all(width for _, width in images), f"images that did not load: {images}"
    if "gallery" in page:
        assert any(src.endswith(".gif") for src, _ in images)
