"""The index version one request uses: acquired on first use, released when the request ends.

Routes that need no index (the OpenAPI document, static files) never touch it, so they keep
working while no index is built; routes that do need it get a 503 from the error handler.
"""

from __future__ import annotations

from flask import Flask, current_app, g

from .live import LiveIndex, OpenIndex

EXTENSION = "lessonsearch.live_index"


def install(app: Flask, live: LiveIndex) -> None:
    app.extensions[EXTENSION] = live
    app.teardown_request(_release)


def live_index(app: Flask | None = None) -> LiveIndex:
    return (app or current_app).extensions[EXTENSION]


def use_index() -> OpenIndex:
    """The version this request reads from; the same object however often it is called."""
    opened = g.get("index")
    if opened is None:
        opened = live_index().acquire()
        g.index = opened
    return opened


def used_index() -> OpenIndex | None:
    """The version this request has read from, without opening one."""
    return g.get("index")


def _release(_exc: BaseException | None) -> None:
    opened = g.pop("index", None)
    if opened is not None:
        live_index().release(opened)
