"""The service mode's state machine: the tests a builder walks with GO and UNDO. Pure: fed inputs and the time,
it gives the LED frame (:meth:`ServiceMode.frame`), the screen (:meth:`ServiceMode.page`) and what to say,
play, save or restore (:attr:`ServiceMode.outbox`); it touches no device, file or table.

The tests, in the order GO walks them (UNDO walks back; both wrap around): LED test, scanner test, button test,
sound test, screen test, LED calibration (``companion.service.wizard``). See docs/service.md.

>>> mode = ServiceMode(Setup(lane_map=LaneMap.default(per_space=2), count=112), now=0.0)
>>> mode.page(0.0).title, mode.page(0.0).big
('LED test', 'Lane 1 (Gobbler), space 1: pixels 0-1')
>>> mode.go(0.0); mode.page(0.0).title
'Scanner test'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from companion.colours import COLOURS
from companion.lights.lanemap import LaneMap
from companion.service.calibrate import Lane, current_amps, lane_pixels, worst_case_amps
from companion.service.page import PAGES, Pixel, ServicePage
from companion.service.scans import describe, how
from companion.service.wizard import Wizard
from companion.service.words import LANGUAGES, say

__all__ = ["Effect", "LEDS_SPACES_PER_SECOND", "Restore", "Save", "Say", "Setup", "ServiceMode"]

LEDS_SPACES_PER_SECOND = 2.0   # the LED test's running light
EFFECT_GAP = 1.5               # seconds between the sound test's effects
VOICE_SECONDS = 2.5            # what the sound test allows for each language's line before the effects
WHITE: Pixel = (255, 255, 255)
OFF: Pixel = (0, 0, 0)
MASCOT_COLOURS: tuple[tuple[str, Pixel], ...] = tuple((m, COLOURS[m]) for m in ("gobbler", "hurley", "dangle", "mum"))
"""The lanes' mascots (lane 1 first, their start lanes, docs/rules.md 1) and default colours."""


@dataclass(frozen=True)
class Say:
    """Speak ``text`` in ``language``."""
    text: str
    language: str


@dataclass(frozen=True)
class Effect:
    """Play the sound effect ``name``."""
    name: str


@dataclass(frozen=True)
class Save:
    """Write these calibrated lanes to the config (lane number -> Lane)."""
    lanes: Mapping[int, Lane]


@dataclass(frozen=True)
class Restore:
    """Put the config from before the calibration back."""


@dataclass(frozen=True)
class Setup:
    """What the service mode knows of the table: the ``lane_map`` in use (None when it does not fit the
    strip), the strip's ``count`` pixels, lanes and spaces, the lanes' mascots and colours (lane 1 first), the
    brightness cap (0..1) and the supply's amps, the table's ``language``, whether voice and effects are on,
    the sound effects to play."""

    lane_map: LaneMap | None
    count: int
    lanes: int = 4
    spaces: int = 14
    mascots: tuple[tuple[str, Pixel], ...] = MASCOT_COLOURS
    brightness: float = 0.35
    supply_amps: float = 4.0
    language: str = "en"
    voice: bool = True
    effects: bool = True
    effect_names: tuple[str, ...] = ("start", "collision", "fall", "dq", "finish", "crowd")
    deck: Any = None


@dataclass
class _Scan:
    text: str
    what: str
    how: list[str] = field(default_factory=list)
    dropped: int = 0   # repeats of it the scanner's repeat window dropped since


class ServiceMode:
    """One visit to the service mode, from time ``now``; it starts on the LED test."""

    def __init__(self, setup: Setup, now: float):
        self.setup = setup
        self.lang = setup.language
        self.index = 0
        self.t0 = now
        self.outbox: list[Say | Effect | Save | Restore] = [Say(say(self.lang, "service"), self.lang)]
        self.wizard: Wizard | None = None
        self.presses: dict[str, int] = {"undo": 0, "go": 0}
        self.scans: list[_Scan] = []
        self.repeats: int | None = None   # the scanner's count of dropped repeats at the last scan
        self._played = 0
        self._said: str | None = None
        self.new_file = False   # the last save made the config file (there was no old one to keep)
        self._enter(now, speak=True)

    @property
    def name(self) -> str:
        return PAGES[self.index]

    # ----- inputs -------------------------------------------------------------------------------------
    def go(self, now: float) -> None:
        """GO (the button, or the GO control card): next test, or the calibration's next step."""
        if self.wizard is not None:
            if self.wizard.step.stage in ("saved", "restored", "failed"):
                self.wizard = None
                self._turn(1, now)
                return
            self.wizard.go(now)
            if self.wizard.wants_save:
                self.outbox.append(Save(self.wizard.result))
            self._announce()
            return
        if self.name == "buttons" and not all(self.presses.values()):
            self._press("go")
            return
        if self.name == "calibrate":
            self.wizard = Wizard(self.setup.lanes, self.setup.spaces, self.setup.count, now)
            self._announce()
            return
        self._turn(1, now)

    def undo(self, now: float) -> None:
        """UNDO (the button, or the UNDO control card): previous test, or the calibration's step back."""
        if self.wizard is not None:
            if self.wizard.step.stage == "saved":
                self.outbox.append(Restore())
            elif not self.wizard.undo(now):
                self.wizard = None
            self._announce()
            return
        if self.name == "buttons" and not all(self.presses.values()):
            self._press("undo")
            return
        self._turn(-1, now)

    def scan(self, text: str, facts: Mapping[str, Any], now: float) -> None:
        """A scan on the scanner test (or any scan that is not GO/UNDO): shown, never acted on."""
        self.scans.append(_Scan(text, describe(text, self.lang, self.setup.deck), how(facts, self.lang)))
        del self.scans[:-3]
        self.repeats = facts.get("repeats")
        if self.name == "scanner":
            self._said = None   # every scan is said, the same card twice too
            self._announce()

    def repeated(self, repeats: int) -> None:
        """The scanner's count of dropped repeats now: a rise since the last scan is a repeat of it dropped."""
        if self.repeats is not None and repeats > self.repeats and self.scans:
            self.scans[-1].dropped += repeats - self.repeats
        self.repeats = repeats

    def saved(self, where: str, lane_map: LaneMap, now: float, backup: bool = True) -> None:
        """The calibration was written (``where``: the file; ``backup``: the old file was kept beside it, False
        when there was none); ``lane_map`` is in use from now on."""
        self.setup = _with_map(self.setup, lane_map)
        self.new_file = not backup
        if self.wizard is not None:
            self.wizard.saved(where, now)
        self._announce()

    def failed(self, why: str, now: float) -> None:
        if self.wizard is not None:
            self.wizard.failed(why, now)
        self._announce()

    def restored(self, lane_map: LaneMap | None, now: float) -> None:
        self.setup = _with_map(self.setup, lane_map)
        if self.wizard is not None:
            self.wizard.restored(now)
        self._announce()

    def _saved_key(self) -> str:
        return "cal_saved_new" if self.new_file else "cal_saved"

    def _restored_key(self) -> str:
        return "cal_removed" if self.new_file else "cal_restored"

    def _press(self, name: str) -> None:
        self.presses[name] += 1
        self.outbox.append(Say(say(self.lang, "say_works", name=name.upper()), self.lang))
        self._said = None   # and what to press next, again
        self._announce()

    def _announce(self) -> None:
        """Say what the builder must do now when it changed (eyes on the board, not on the screen)."""
        line = self._speech()
        if line is not None and line != self._said:
            self.outbox.append(Say(line, self.lang))
        self._said = line

    def _speech(self) -> str | None:
        lang, w = self.lang, self.wizard
        if w is not None:
            st = w.step
            if st.stage in ("run", "fine"):
                if st.problem:
                    return say(lang, "say_again", lane=st.lane)
                return say(lang, "say_mark", lane=st.lane, space=1 if st.mark == "start" else self.setup.spaces)
            keys = {"check": "say_check", "all": "cal_all", "saving": "cal_all", "saved": self._saved_key(),
                    "restored": self._restored_key(), "failed": "say_failed"}
            return say(lang, keys[st.stage], lane=st.lane)
        if self.name == "buttons":
            return str(self._buttons_page()["big"])
        if self.name == "scanner" and self.scans:
            return self.scans[-1].what
        return None

    def _turn(self, by: int, now: float) -> None:
        self.index = (self.index + by) % len(PAGES)
        self._enter(now, speak=True)

    def _enter(self, now: float, speak: bool) -> None:
        self.t0 = now
        self.presses = {"undo": 0, "go": 0}
        self._played = 0
        self._said = None
        if self.name == "scanner":
            self.scans = []   # each visit starts with "scan any label"
        if speak:
            self.outbox.append(Say(say(self.lang, "p_" + self.name), self.lang))
            self._announce()
        if self.name == "sound" and self.setup.voice:
            self.outbox += [Say(say(lang, "snd_voice"), lang) for lang in LANGUAGES]

    # ----- time ---------------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Let time act: the sound test's effects, one every EFFECT_GAP s after the voice lines."""
        if self.name != "sound" or not self.setup.effects:
            return
        due = int((now - self._effects_at()) // EFFECT_GAP) + 1 if now >= self._effects_at() else 0
        while self._played < min(due, len(self.setup.effect_names)):
            self.outbox.append(Effect(self.setup.effect_names[self._played]))
            self._played += 1

    def _effects_at(self) -> float:
        return self.t0 + (VOICE_SECONDS * len(LANGUAGES) if self.setup.voice else 0.5)

    # ----- outputs ------------------------------------------------------------------------------------
    def _leds_light(self, now: float) -> tuple[int, int] | None:
        """The LED test's running light: (lane, space) at ``now``."""
        s = self.setup
        k = int(max(0.0, now - self.t0) * LEDS_SPACES_PER_SECOND) % (s.lanes * s.spaces)
        return k // s.spaces + 1, k % s.spaces + 1

    def frame(self, now: float) -> list[Pixel]:
        """The LED strip's frame (``count`` pixels, before the brightness cap)."""
        s = self.setup
        frame = [OFF] * s.count
        colour = {n + 1: rgb for n, (_, rgb) in enumerate(s.mascots)}
        if self.wizard is not None:
            w = self.wizard
            for lane, space, pixels in w.lit_spaces():
                rgb = WHITE if space == 1 else colour.get(lane, WHITE)
                for p in pixels:
                    frame[p] = rgb if space % 2 or space == 1 else _dim(rgb, 0.25)
            if w.step.stage in ("run", "fine"):
                for lane, space, pixels in _lanes_pixels(w.result, s.spaces):
                    for p in pixels:
                        frame[p] = _dim(colour.get(lane, WHITE), 0.3)
            light = w.light(now)
            if light is not None:
                frame[light] = WHITE
            return frame
        if self.name == "leds" and s.lane_map is not None:
            spot = self._leds_light(now)
            for lane in range(1, s.lanes + 1):
                for space in range(1, s.spaces + 1):
                    rgb = WHITE if (lane, space) == spot else colour.get(lane, WHITE)
                    for p in s.lane_map.pixels_for(lane, space):
                        if p < s.count:
                            frame[p] = rgb
        return frame

    def page(self, now: float) -> ServicePage:
        """The service screen now."""
        lang, s = self.lang, self.setup
        frame = self.frame(now)
        base: dict[str, Any] = dict(page=self.name, title=say(lang, "p_" + self.name), number=self.index + 1,
                                    pages=len(PAGES),
                    keys=say(lang, "keys"), colours=tuple(rgb for _, rgb in s.mascots),
                    strip=tuple(frame) if self._mirrored() else ())
        if self.wizard is not None:
            return ServicePage(**{**base, **self._wizard_page(now)})
        if self.name == "leds":
            return ServicePage(**{**base, **self._leds_page(now, frame)})
        if self.name == "calibrate":
            return ServicePage(**{**base, "lines": (say(lang, "cal_intro"), say(lang, "cal_intro2")),
                                  "keys": say(lang, "cal_keys")})
        if self.name == "scanner":
            last = self.scans[-1] if self.scans else None
            lines = tuple(last.how) + (say(lang, "scan_count", n=len(self.scans)),) if last else ()
            if last is not None and last.dropped:
                lines = (say(lang, "scan_dropped", n=last.dropped),) + lines
            if last is not None and last.what == say(lang, "scan_unknown"):
                lines = (say(lang, "scan_read", chars=len(last.text), text=repr(last.text)[1:-1][:40]),) + lines
            return ServicePage(**{**base, "big": last.what if last else say(lang, "scan_wait"), "lines": lines})
        if self.name == "buttons":
            return ServicePage(**{**base, **self._buttons_page()})
        if self.name == "sound":
            return ServicePage(**{**base, **self._sound_page(now)})
        return ServicePage(**base)

    def _mirrored(self) -> bool:
        """Whether the screen mirrors the strip: the LED test and the calibration's marking and checks."""
        if self.wizard is not None:
            return self.wizard.step.stage in ("run", "fine", "check", "all", "saving")
        return self.name == "leds"

    def _leds_page(self, now: float, frame: list[Pixel]) -> dict[str, Any]:
        lang, s = self.lang, self.setup
        worst = worst_case_amps(s.count, s.brightness)
        lines = (say(lang, "leds_cap", pct=round(s.brightness * 100)),
                 say(lang, "leds_now", amps=current_amps(frame, s.brightness)),
                 say(lang, "leds_worst", amps=worst, supply=s.supply_amps))
        alert = say(lang, "leds_over") if worst > s.supply_amps else None
        if s.lane_map is None:
            return {"lines": lines, "alert": say(lang, "leds_no_map")}
        spot = self._leds_light(now)
        assert spot is not None
        lane, space = spot
        pixels = s.lane_map.pixels_for(lane, space)
        shown = f"{min(pixels)}-{max(pixels)}" if len(pixels) > 1 else str(pixels[0])
        mascot = s.mascots[lane - 1][0].capitalize() if lane <= len(s.mascots) else "-"
        return {"big": say(lang, "leds_light", lane=lane, mascot=mascot, space=space, pixels=shown),
                "lines": lines, "alert": alert, "light": pixels[0]}

    def _wizard_page(self, now: float) -> dict[str, Any]:
        lang, w = self.lang, self.wizard
        assert w is not None
        st = w.step
        mascot = self.setup.mascots[st.lane - 1][0].capitalize() if st.lane <= len(self.setup.mascots) else "-"
        alert = say(lang, "cal_problem", why=st.problem) if st.problem and st.stage == "run" else None
        if st.stage in ("run", "fine"):
            key = "cal_run_start" if st.mark == "start" else "cal_run_end"
            big = say(lang, key, lane=st.lane, mascot=mascot, last=self.setup.spaces)
            light = w.light(now)
            lines: tuple[str, ...] = (say(lang, "cal_fine"),) if st.stage == "fine" else ()
            lines += (say(lang, "cal_pixel", pixel=light, count=self.setup.count),)
            keys = say(lang, "cal_fine_keys" if st.stage == "fine" else "cal_run_keys")
            return {"big": big, "lines": lines, "keys": keys, "alert": alert, "light": light}
        if st.stage == "check":
            lane = dict(st.lanes)[st.lane]
            way = say(lang, "cal_up" if lane.direction == 1 else "cal_down")
            first = lane.first if lane.direction == 1 else lane.first + lane.per_space * self.setup.spaces - 1
            return {"big": say(lang, "cal_check", lane=st.lane, mascot=mascot, per=lane.per_space, first=first,
                               way=way), "lines": (say(lang, "cal_check_ask"),), "keys": say(lang, "cal_check_keys")}
        if st.stage in ("all", "saving"):
            return {"big": say(lang, "cal_all"), "keys": say(lang, "cal_all_keys")}
        if st.stage == "saved":
            key = self._saved_key()
            return {"big": say(lang, key), "lines": (st.detail,), "keys": say(lang, key + "_keys")}
        if st.stage == "restored":
            return {"big": say(lang, self._restored_key()), "keys": say(lang, "cal_restored_keys")}
        return {"big": say(lang, "cal_failed", why=st.problem), "keys": say(lang, "cal_failed_keys")}

    def _buttons_page(self) -> dict[str, Any]:
        lang = self.lang
        done = all(self.presses.values())
        lines = tuple(say(lang, "btn_ok", name=n.upper(), n=k) for n, k in self.presses.items() if k)
        ask = next((say(lang, f"btn_{n}_ask") for n, k in self.presses.items() if not k), None)
        return {"big": say(lang, "btn_done") if done else ask, "lines": lines + (say(lang, "btn_hold"),),
                "keys": say(lang, "keys") if done else say(lang, "btn_keys")}

    def _sound_page(self, now: float) -> dict[str, Any]:
        lang, s = self.lang, self.setup
        on = {True: say(lang, "snd_on"), False: say(lang, "snd_off")}
        lines = (say(lang, "snd_config", voice=on[s.voice], effects=on[s.effects]),)
        if s.voice and now < self.t0 + VOICE_SECONDS * len(LANGUAGES):
            k = min(len(LANGUAGES) - 1, int((now - self.t0) // VOICE_SECONDS))
            return {"big": say(lang, "snd_playing", what=say(LANGUAGES[k], "snd_voice")), "lines": lines}
        playing = now < self._effects_at() + EFFECT_GAP * self._played
        if self._played and self._played <= len(s.effect_names) and playing:
            name = s.effect_names[self._played - 1]
            return {"big": say(lang, "snd_playing", what=say(lang, "snd_effect", name=name)), "lines": lines}
        return {"big": say(lang, "snd_done"), "lines": lines}


@functools.lru_cache(maxsize=256)  # a frame dims the same few colours a few hundred times
def _dim(rgb: Pixel, k: float) -> Pixel:
    return (int(rgb[0] * k), int(rgb[1] * k), int(rgb[2] * k))


def _lanes_pixels(lanes: Mapping[int, Lane], spaces: int) -> list[tuple[int, int, list[int]]]:
    return [(n, k + 1, px) for n, lane in lanes.items() for k, px in enumerate(lane_pixels(lane, spaces))]


def _with_map(setup: Setup, lane_map: LaneMap | None) -> Setup:
    return replace(setup, lane_map=lane_map)
