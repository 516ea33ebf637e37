"""The service mode at a running table: routes inputs to :class:`companion.service.mode.ServiceMode` while it
is on, draws its LED frames, says its lines, plays its effects and saves (or restores) the calibration.

The controller asks :meth:`Service.takes` for every input before the table sees it: ``HS-SERVICE`` (scanned,
the F2 key, both buttons held) enters; while the service mode is on every input is the service mode's, and
nothing of it reaches the table or the journal. ``HS-SERVICE`` again, or ``HS-SERVICE-EXIT``, leaves; the
controller then redraws every sink from the unchanged table. Each loop pass the controller calls
:meth:`Service.show`, which returns the view with the service screen's data (``view.service``).
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any, Callable, Mapping

from companion.lights.lanemap import LaneMap, LaneSpec
from companion.service.calibrate import Lane
from companion.service.configfile import SaveError, remove_new, restore, write_calibration
from companion.service.mode import Effect, Restore, Save, Say, ServiceMode, Setup
from companion.service.words import say

log = logging.getLogger(__name__)

__all__ = ["ENTER", "EXIT", "SERVICE_SOURCES", "Service", "lane_map_of"]

ENTER, EXIT = "HS-SERVICE", "HS-SERVICE-EXIT"
SERVICE_SOURCES = ("scan", "button", "keyboard", "script")
"""Where the service mode takes inputs from (the table's own scanner, buttons and keys); a phone's input
while it is on is refused ("busy": try again) so a phone never waits for an answer."""
BUSY = "the table is in service mode (expected its return: try again then)"


def lane_map_of(lanes: Mapping[int, Lane], spaces: int) -> LaneMap:
    """The LaneMap of calibrated lanes (one chain, one segment)."""
    return LaneMap({n: LaneSpec(0, lane.first, lane.per_space, lane.direction) for n, lane in lanes.items()},
                   spaces, [0])


class Service:
    """The service mode of one kiosk.

    ``setup()`` gives the :class:`Setup` at each entry (the lane map in use then); ``strip`` is the LED strip
    (``show(frame)``); ``config_path`` where a calibration is saved (``check(text)`` validates the new config
    text, raising to refuse it); ``sound`` says lines and plays effects (``say(text, language)``,
    ``effect(name)``, ``update()`` every loop pass, ``hush()`` on entering; None: silent); ``facts(source)`` how
    the last scan came in (``companion.service.scans.how``); ``on_map(lane_map)`` puts a lane map in use at
    once (the lights and the screen's LED preview)."""

    def __init__(self, setup: Callable[[], Setup], strip: Any, *, config_path: Path | None = None,
                 check: Callable[[str], object] | None = None,
                 sound: Any = None, facts: Callable[[str], Mapping[str, Any]] | None = None,
                 on_map: Callable[[LaneMap | None], object] | None = None):
        self.setup, self.strip = setup, strip
        self.config_path, self.check = config_path, check
        self.sound, self.facts, self.on_map = sound, facts, on_map
        self._backup: Path | None = None  # the old file's copy from the last save; None: there was no old file
        self.mode: ServiceMode | None = None
        self._frame: list[Any] | None = None
        self._before: LaneMap | None = None  # the lane map before the last save (what a restore puts back)
        self._parting: tuple[str, str] | None = None

    @property
    def active(self) -> bool:
        return self.mode is not None

    def takes(self, text: str, source: str) -> bool:
        """True when ``text`` is the service mode's: every input while it is on, ``HS-SERVICE`` from the table's
        own scanner, buttons or keys to enter (a phone never reaches the service mode)."""
        return self.mode is not None or (text.strip().upper() == ENTER and source in SERVICE_SOURCES)

    def handle(self, text: str, source: str, now: float) -> str | None:
        """Handle one input the service mode takes; None when done, else a one-line refusal (a phone's input
        while the service mode is on). Never raises for bad input: an unknown scan is shown as read."""
        code = text.strip().upper()
        if self.mode is None:
            self.mode = ServiceMode(self.setup(), now)
            self._frame = None
            if self.sound is not None:
                self.sound.hush()   # the race call stops: the service mode speaks now
            log.info("service mode on (from %s)", source)
        elif source not in SERVICE_SOURCES:
            return BUSY
        elif code in (ENTER, EXIT):
            self._parting = say(self.mode.lang, "off"), self.mode.lang  # said once the sinks are redrawn
            self.mode = None
            log.info("service mode off (from %s); the table is as it was", source)
            return None
        elif code in ("HS-GO", "HS-UNDO") and not (self.mode.name == "scanner" and self.mode.wizard is None
                                                     and source != "button"):
            (self.mode.go if code == "HS-GO" else self.mode.undo)(now)
        else:
            self.mode.scan(text.strip(), self.facts(source) if self.facts else {"mode": _mode_of(source)}, now)
        self._flush(now)
        return None

    def show(self, view: Any, now: float) -> Any:
        """Let time act, draw the strip's frame when it changed, and return ``view`` with the service screen
        (the same object when nothing on the screen changed)."""
        if self.mode is None:
            if self._parting is not None:
                self._say(*self._parting)
                self._parting = None
            return view
        self.mode.tick(now)
        if self.facts is not None and self.mode.name == "scanner" and self.mode.scans:
            repeats = self.facts("scan").get("repeats")   # a repeat dropped by the reader shows at once
            if isinstance(repeats, int):
                self.mode.repeated(repeats)
        self._flush(now)
        if self.sound is not None:
            self.sound.update()
        frame = self.mode.frame(now)
        if frame != self._frame:
            self.strip.show(frame)
            self._frame = frame
        page = self.mode.page(now)
        return view if getattr(view, "service", None) == page else dataclasses.replace(view, service=page)

    # ----- what the mode asked for ----------------------------------------------------------------------
    def _flush(self, now: float) -> None:
        mode = self.mode
        assert mode is not None
        while mode.outbox:
            item = mode.outbox.pop(0)
            if isinstance(item, Say):
                self._say(item.text, item.language)
            elif isinstance(item, Effect) and self.sound is not None:
                self.sound.effect(item.name)
            elif isinstance(item, Save):
                self._save(item, now)
            elif isinstance(item, Restore):
                self._restore(now)

    def _save(self, item: Save, now: float) -> None:
        assert self.mode is not None
        if self.config_path is None:
            self.mode.failed("no config file to write (start with --config FILE)", now)
            return
        try:
            self._backup = write_calibration(self.config_path, item.lanes, self.check)
        except SaveError as exc:
            log.error("LED calibration not saved: %s", exc)
            self.mode.failed(str(exc), now)
            return
        lane_map = lane_map_of(item.lanes, self.mode.setup.spaces)
        self._before = self.mode.setup.lane_map
        kept = f"the old file kept as {self._backup.name}" if self._backup else "there was no old file"
        log.info("LED calibration saved to %s (%s)", self.config_path, kept)
        if self.on_map is not None:
            self.on_map(lane_map)
        self.mode.saved(str(self.config_path), lane_map, now, backup=self._backup is not None)

    def _restore(self, now: float) -> None:
        assert self.mode is not None and self.config_path is not None
        try:
            if self._backup is None:
                remove_new(self.config_path)  # there was no old file: the defaults again
            else:
                restore(self.config_path)
        except SaveError as exc:
            log.error("LED calibration not put back: %s", exc)
            self.mode.failed(str(exc), now)
            return
        log.info("LED calibration: %s put back as it was", self.config_path)
        if self.on_map is not None:
            self.on_map(self._before)
        self.mode.restored(self._before, now)

    def _say(self, text: str, language: str) -> None:
        if self.sound is not None:
            self.sound.say(text, language)


def _mode_of(source: str) -> str:
    return {"keyboard": "window", "script": "script"}.get(source, "serial")
