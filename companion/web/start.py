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


def start_web(cfg: Any, mode: str, listen: str | None, controller: Any, db: str | Path,
              odds: Callable[[], Any] = lambda: None) -> Any:
    """Start the page's server for ``controller`` and return its :class:`companion.web.sink.WebSink` (with
    ``url`` set), or None when the page is off or cannot start."""
    where = wanted(cfg, mode, listen)
    if where is None:
        return None
    try:
        from companion.web.seats import load_secret
        from companion.web.server import WebServer
        from companion.web.sink import WebSink
        server = WebServer.open(where[0], where[1], submit=controller.submit, secret=load_secret(db),
                                hosts=cfg.web_hosts)
        server.start()
    except (OSError, ImportError) as exc:
        log.warning("no phone page on %s:%s (%s); the table goes on without it", where[0], where[1], exc)
        return None
    log.info("phone page: %s", server.url)
    sink = WebSink(server.post, server.hub, entries=lambda: controller.entries,
                   odds=odds, language=cfg.language, address=server.url, on_close=server.close,
                   refresh=server.refresh, names=tuple(getattr(cfg, "names", ())))
    return sink
