"""The voice's sink: announcer lines through the voice queue, and sound effects."""

from __future__ import annotations

from typing import Any

from companion.kiosk.controller import BaseSink
from companion.rules.events import Event, Revealed
from companion.rules.table import Table


class VoiceSink(BaseSink):
    """Calls the race out loud: announcer lines per event in the configured language, through the voice
    queue (never more than a card behind), and the synthesised sound effects."""

    def __init__(self, announcer: Any, voice: Any, audio: Any, effects: bool = True):
        self.announcer = announcer
        self.voice = voice
        self.audio = audio
        self.effects = effects

    def events(self, events: list[Event], table: Table, now: float) -> None:
        from companion.voice.sounds import effects_for
        from companion.rules.game_events import PhaseChanged
        race = getattr(table.game, "race", None) if table.game is not None else None
        card = len(race.cards) if race is not None else None
        for e in events:
            if isinstance(e, PhaseChanged) and e.phase.value == "racing":
                if self.effects:
                    self.audio.play_effect("start")
                self.voice.say(self.announcer.line_for("race-start", race=e.race_no), None)
        for line in self.announcer.lines(events):
            self.voice.say(line, card)
        if race is not None and not race.is_over and any(isinstance(e, Revealed) for e in events) \
                and race.revealed == race.track.reveals_per_pass - 1:
            self.voice.say(self.announcer.line_for("last-card", pass_no=race.pass_no), card)
        if self.effects:
            for name in effects_for(events):
                self.audio.play_effect(name)

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        from companion.kiosk.controller import SAVE_FAILED
        if message == SAVE_FAILED:  # the journal cannot save: one fixed line, whatever was scanned
            self.voice.say(SAVE_FAILED, None)
            return
        self.voice.say(self.announcer.line_for("refused", reason=text), None)

    def render(self, table: Table, now: float) -> None:
        self.voice.update()

    def close(self) -> None:
        self.voice.close()
        self.audio.close()
