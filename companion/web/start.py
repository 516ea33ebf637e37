"""Hooking the phone page into a kiosk: whether to serve it, where, and the sink that feeds it.

Used once by ``companion.kiosk.wiring.build``. ``listen`` is the ``--web [HOST:]PORT`` option (None: the config
``[web]`` decides: on by default on a Pi, on every interface; off on a desktop unless asked, then on
127.0.0.1). A port in use or a bad address gives one log line and a table without the page.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)
OFF = ("off", "none", "no")


def wanted(cfg: Any, mode: str, listen: str | None) -> tuple[str, int] | None:
    """(host, port) to serve on, or None for no page. ``mode`` is the resolved hardware mode (pi or mock).
    Raises ValueError naming a bad ``listen``."""
    from companion.web.server import parse_listen
    default_host = cfg.web_host or ("0.0.0.0" if mode == "pi" else "127.0.0.1")
    if listen is not None:
        if str(listen).strip().lower() in OFF:
            return None
        return parse_listen(listen, default_host)
    enabled = cfg.web_enabled
    if enabled is False or (enabled == "auto" and mode != "pi"):
        return None
    return default_host, cfg.web_port


def start_web(cfg: Any, mode: str, listen: str | None, submit: Callable[[str, str], int],
              db: str | Path, limit: Any = None) -> tuple[Any, Callable[[], str]] | None:
    """Start the page's server (``submit(text, source)`` queues a phone's input: ``Controller.submit``) and
    return its :class:`companion.web.sink.WebSink` and ``address()``, which gives the page's address now (it
    may change when the Wi-Fi comes up); or None when the page is off or cannot start. ``limit`` replaces the
    server's per-address rate limit (a ``companion.web.guard.RateLimit``; tests)."""
    where = wanted(cfg, mode, listen)
    if where is None:
        return None
    try:
        from companion.web.seats import load_secret
        from companion.web.server import WebServer
        from companion.web.sink import WebSink
        secret = load_secret(db)
        server = WebServer.open(where[0], where[1], submit=submit, secret=secret, hosts=cfg.web_hosts, limit=limit)
        server.start()
    except (OSError, ImportError) as exc:
        log.warning("no phone page on %s:%s (%s); the table goes on without it", where[0], where[1], exc)
        return None
    log.info("phone page: %s", server.url)
    sink = WebSink(server.post, server.hub, language=cfg.language, on_close=server.close, secret=secret)
    server.kept = db  # the address is kept beside the journal for `hotstreak status`
    return sink, server.refresh

