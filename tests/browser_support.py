"""What the browser tests share: the service and a host page on two loopback ports, and Chromium.

The host page comes from one port and the real app from another, so the widget runs
cross-origin exactly as on a course site. Chromium is Debian's (``/usr/bin/chromium``) driven by
Playwright; nothing reaches the network: lesson URLs on the example host are answered with a
stub page, and any other outside request is refused and recorded.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote_plus, urlsplit

import pytest
from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

from lessonsearch.web import Settings, create_app
from lessonsearch.web.request_index import live_index

CHROMIUM = Path(os.environ.get("LESSONSEARCH_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--no-first-run", "--disable-component-update", "--disable-sync", "--disable-quic",
]
TESTS = Path(__file__).resolve().parent
HOST_PAGES = TESTS / "data" / "host"
XSS_COURSE = TESTS / "data" / "xss"
SCREENSHOTS = TESTS / "screenshots"
LESSON_HOST = "learn.example.org"
"""Where the sample course's lesson URLs point; answered with a stub, never fetched."""
WIDTHS = (375, 1280)


def require_browser() -> tuple[object, Path]:
    """Playwright's ``sync_playwright`` and the Chromium binary, or a skip saying what is missing.

    With ``CI`` set nothing is skipped: a missing browser fails the run instead.
    """
    missing = []
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
        missing.append("the playwright package (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        missing.append(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    if missing:
        reason = "browser tests need " + " and ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so they may not be skipped")
        pytest.skip(reason)
    return sync_playwright, CHROMIUM


def service_app(index_dir: Path) -> Flask:
    """The real app, as ``lessonsearch serve`` runs it."""
    return create_app(Settings(index_dir=index_dir))


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


@contextmanager
def serve_app(index_dir: Path) -> Iterator[str]:
    """The service on a free loopback port; yields its origin (no trailing slash)."""
    app = service_app(index_dir)
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_QuietHandler)
    try:
        with _running(server) as origin:
            yield origin
    finally:
        live_index(app).close()  # the index files it opened, or they leak into warnings


@contextmanager
def _running(server) -> Iterator[str]:
    """Serve from a daemon thread; yield the origin; stop and close on the way out."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


class _HostPageHandler(SimpleHTTPRequestHandler):
    """Serves ``tests/data/host`` as a course site would, with a strict CSP of its own.

    ``{{SERVICE}}`` in a page becomes the service's origin, ``{{ARTICLE}}`` a long generated
    lesson (for the responsiveness test).
    """

    service = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(HOST_PAGES), **kwargs)

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        path = HOST_PAGES / urlsplit(self.path).path.lstrip("/")
        if path.suffix != ".html" or not path.is_file():
            super().do_GET()
            return
        html = path.read_text(encoding="utf-8")
        html = html.replace("{{SERVICE}}", self.service).replace("{{ARTICLE}}", long_article())
        body = html.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", (
            f"default-src 'self'; script-src 'self' {self.service}; "
            f"connect-src {self.service}; style-src 'self'; img-src 'self'"))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextmanager
def serve_host_pages(service: str) -> Iterator[str]:
    """The host site on another free loopback port; yields its origin."""
    handler = type("HostPages", (_HostPageHandler,), {"service": service})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    with _running(server) as origin:
        yield origin


_SENTENCES = (
    "The model turns the prompt into tokens, and each token gets an embedding.",
    "Attention lets every position look back at the tokens before it.",
    "A larger temperature flattens the distribution that softmax produces.",
    "During generation the KV cache keeps the keys and values of earlier tokens.",
    "Top-p sampling keeps the smallest set of tokens whose probabilities add up to p.",
    "Pretraining minimises the cross-entropy loss over a very large corpus of text.",
    "A base model continues text, while fine-tuning teaches it to follow instructions.",
    "The context window limits how many tokens the model can read at once.",
    "Hallucination is fluent text that is not supported by the facts.",
    "Retrieval-augmented generation adds passages from a search to the prompt.",
)


def long_article(words: int = 30_000) -> str:
    """A lesson of about ``words`` words in short paragraphs, with code and links mixed in."""
    paragraphs, count, i = [], 0, 0
    while count < words:
        sentences = [_SENTENCES[(i + k) % len(_SENTENCES)] for k in range(6)]
        text = " ".join(sentences)
        if i % 5 == 0:
            text += ' See <a href="#top">attention</a> and <code>temperature=0.7</code>.'
        paragraphs.append(f"<p>{text}</p>")
        count += sum(len(s.split()) for s in sentences)
        i += 1
    return "\n".join(paragraphs)


@dataclass
class Tab:
    """A browser page plus what it said: console errors, uncaught errors, refused requests."""

    page: object
    errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    allowed_errors: tuple[str, ...] = ()

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in self.allowed_errors)]


def open_tab(browser, width: int = 1280, height: int = 800, **context_options) -> Tab:
    """A fresh context and page at ``width``, watching the console and guarding the network."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  **context_options)
    page = context.new_page()
    tab = Tab(page)
    page.on("console", lambda m: tab.errors.append(f"console: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: tab.errors.append(f"uncaught: {e}"))

    def guard(route) -> None:
        host = urlsplit(route.request.url).hostname
        if host in ("127.0.0.1", "localhost"):
            route.fallback()
        elif host == LESSON_HOST:
            route.fulfill(status=200, content_type="text/html",
                          body="<!doctype html><title>Lesson</title><p>A lesson page.</p>")
        else:
            tab.refused.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    return tab


def expect(locator):
    """Playwright's ``expect``, imported only where a browser test runs."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def wait_for_answer(page, box: str, text: str) -> None:
    """Until ``box`` shows the results for ``text`` itself.

    On a busy machine a pause between keystrokes can outlast the debounce, so a prefix's
    answer may show first; its "see all" link names the query it answers.
    """
    from playwright.sync_api import expect

    see_all = page.locator(f"{box} [role=option][data-kind=all]")
    expect(see_all).to_have_attribute("href", re.compile(re.escape(f"?q={quote_plus(text)}") + "$"))


def launch(playwright, executable: Path):
    return playwright.chromium.launch(executable_path=str(executable), args=LAUNCH_ARGS,
                                      headless=True)


def screenshot(page, name: str, full_page: bool = False, scroll_to: str | None = None) -> Path:
    """``tests/screenshots/NAME.png`` (git-ignored), for a person to look at."""
    SCREENSHOTS.mkdir(exist_ok=True)
    if scroll_to:
        page.locator(scroll_to).evaluate("el => el.scrollIntoView({block: 'start'})")
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
