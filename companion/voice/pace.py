"""The voice at table pace: which lines would really be played, and when, if card n were revealed at
(n-1) * pace seconds. The real caller and the real :class:`companion.voice.speech.Voice` queue run on a fake
clock; each line lasts as long as its rendered audio (:func:`wav_seconds` of the espeak-ng WAV in the voice
cache, or any ``length`` function in tests). Rendering time itself is not counted (the kiosk renders the
fixed lines ahead and the rest in a background thread). As in the kiosk, a card's sound effects play on its
reveal (:func:`effects_at`) and its lines wait :data:`companion.voice.sounds.EFFECT_LEAD` after them.

>>> from companion.rules.race import play
>>> said = said_at_pace(cards_of(play(["HF", "H+2"])[1]), 2.5, "en", length=lambda text: 1.0)
>>> [(s.card, s.start, s.end) for s in said]  # the fall's effect plays first: its line waits EFFECT_LEAD
[(1, 0.25, 1.25), (2, 2.5, 3.5)]
"""

from __future__ import annotations

import random
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from companion.call.caller import ESSENTIAL, Caller
from companion.rules import events as ev
from companion.voice.sounds import effects_for, lead_for
from companion.voice.speech import Voice, VoiceCache

SEED = 2026
"""The seed of the phrasing choices (the same as ``simulate --lang``), so the output is repeatable."""

FRAME = 0.01
"""Seconds between two :meth:`Voice.update` calls of the simulation (the kiosk runs at 30 frames a second)."""


@dataclass(frozen=True)
class Said:
    """A line played: for ``card`` (1-based), from ``start`` to ``end`` seconds after card 1 (cut lines end
    early); ``covers`` indexes into that card's events of what it names; ``cut`` if it was stopped."""

    card: int
    text: str
    start: float
    end: float
    covers: tuple[int, ...] = ()
    cut: bool = False

    def to_dict(self) -> dict[str, object]:
        """JSON form: ``{"card": n, "text": line, "start": s, "end": s}``, seconds rounded to milliseconds."""
        return {"card": self.card, "text": self.text, "start": round(self.start, 3), "end": round(self.end, 3)}


def cards_of(events: list[ev.Event]) -> list[list[ev.Event]]:
    """A race's events split per revealed card (each list starts with its ``Revealed``)."""
    out: list[list[ev.Event]] = []
    for e in events:
        if isinstance(e, ev.Revealed) or not out:
            out.append([e])
        else:
            out[-1].append(e)
    return out


def wav_seconds(path: str | Path) -> float:
    """The length of a WAV file in seconds."""
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


def espeak_length(lang: str, cache: VoiceCache | None = None) -> Callable[[str], float]:
    """A length function: renders the line with espeak-ng into the voice cache (once) and measures the WAV.
    Raises VoiceUnavailable (from the cache) when espeak-ng is missing or fails."""
    cache = cache or VoiceCache()
    voice = Caller(lang).voice
    known: dict[str, float] = {}

    def length(text: str) -> float:
        if text not in known:
            known[text] = wav_seconds(cache.render(text, voice))
        return known[text]
    return length


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class _TimedAudio:
    """Audio that is busy for the length of each line ("paths" are the line texts); records cuts."""

    name = "pace"

    def __init__(self, clock: _Clock, length: Callable[[str], float]):
        self.clock, self.length = clock, length
        self.until = float("-inf")
        self.cut_at: float | None = None

    def play_voice(self, path: str | Path) -> None:
        self.until = self.clock() + self.length(str(path))

    def voice_busy(self) -> bool:
        return self.clock() < self.until

    def stop_voice(self) -> None:
        self.cut_at, self.until = self.clock(), float("-inf")

    def play_effect(self, name: str) -> None:
        pass

    def close(self) -> None:
        pass


class _TextCache:
    """A stand-in for :class:`VoiceCache` whose "WAV path" of a line is its text (lengths come from ``length``)."""

    espeak = "pace"

    def available(self) -> bool:
        return True

    def has(self, text: str, voice: str) -> bool:
        return True

    def path_for(self, text: str, voice: str) -> str:
        return text

    def render(self, text: str, voice: str) -> str:
        return text

    def prerender(self, lines: Iterable[str], voice: str) -> int:
        return 0

    def stop(self) -> None:
        pass


def effects_at(cards: list[list[ev.Event]], pace: float) -> list[tuple[float, str]]:
    """The sound effects played when card n is revealed at (n-1) * ``pace`` seconds: ``(seconds, effect name)``,
    in order (the kiosk's :func:`companion.voice.sounds.effects_for` of each card, all at its reveal)."""
    return [((n - 1) * pace, name) for n, events in enumerate(cards, 1) for name in effects_for(events)]


def said_at_pace(cards: list[list[ev.Event]], pace: float, lang: str, length: Callable[[str], float],
                 seed: int = SEED, per_pass: int | None = None, effects: bool = True) -> list[Said]:
    """The lines the voice plays when card n (1-based, its events ``cards[n-1]``) is revealed at (n-1) * ``pace``
    seconds; lines the queue drops are absent. ``per_pass``: reveals in a pass (the track's), for the "last
    card" line. ``effects``: the kiosk plays sound effects (a card with one holds its lines for the effect's
    lead). Raises ValueError for a pace not above 0 or an unknown language."""
    if not pace > 0:
        raise ValueError(f"pace {pace!r} must be more than 0 seconds a card")
    caller = Caller(lang, random.Random(seed))
    clock = _Clock()
    audio = _TimedAudio(clock, length)
    voice = Voice(audio, caller.voice, clock, _TextCache(), background=False)
    out: list[Said] = []
    playing: tuple[int, str, float, tuple[int, ...]] | None = None  # (card, text, start, covers)

    def frame() -> None:
        nonlocal playing
        line = voice.update()
        if playing is not None and (line is not None or not audio.voice_busy()):
            card, text, start, covers = playing
            cut = audio.cut_at is not None
            end = audio.cut_at if audio.cut_at is not None else start + length(text)
            audio.cut_at = None
            out.append(Said(card, text, start, end, covers, cut))
            playing = None
        if line is not None:
            assert line.card is not None, "every line here is said for a card"
            playing = (line.card, line.text, clock(), line.meta or ())

    for n, events in enumerate(cards, 1):
        reveal = (n - 1) * pace
        while clock.t + FRAME <= reveal + 1e-9:
            clock.t = round(clock.t + FRAME, 6)
            frame()
        clock.t = reveal
        delay = lead_for(events) if effects else 0.0
        for spoken in caller.card_lines(events, n, per_pass):
            voice.say(spoken.text, n, priority=spoken.priority, slot=spoken.slot, max_age=spoken.max_age,
                      meta=spoken.covers, delay=delay)
        frame()
    limit = clock.t + 120.0
    while (len(voice.queue) or playing is not None) and clock.t < limit:
        clock.t = round(clock.t + FRAME, 6)
        frame()
    return out


def heard(cards: list[list[ev.Event]], said: list[Said], pace: float) -> tuple[int, int]:
    """(essential events named before the next card, essential events): falls, knockouts, out of bounds and
    finishes of each card, named by a line of that card that ended uncut by the next reveal (the last card has
    no next reveal)."""
    named = total = 0
    for n, events in enumerate(cards, 1):
        deadline = n * pace if n < len(cards) else float("inf")
        done = {i for s in said if s.card == n and not s.cut and s.end <= deadline + 1e-9 for i in s.covers}
        for i, e in enumerate(events):
            if isinstance(e, ESSENTIAL):
                total += 1
                named += i in done
    return named, total
