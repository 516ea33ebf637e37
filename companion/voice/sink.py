"""The voice's sink: the race caller's lines through the voice queue, and sound effects."""

from __future__ import annotations

from typing import Any

from companion.kiosk.controller import BaseSink
from companion.rules import events as ev
from companion.rules.events import Event
from companion.rules.game_events import PhaseChanged
from companion.rules.table import Table


def split_cards(events: list[Event]) -> tuple[list[list[Event]], list[Event]]:
    """A batch of events -> the race events of each revealed card (each group starts with ``Revealed``) and the
    other events (game and table events, in order)."""
    cards: list[list[Event]] = []
    rest: list[Event] = []
    race_types = tuple(ev.EVENT_TYPES)
    for e in events:
        if isinstance(e, ev.Revealed):
            cards.append([e])
        elif cards and isinstance(e, race_types):
            cards[-1].append(e)
        else:
            rest.append(e)
    return cards, rest


class VoiceSink(BaseSink):
    """Calls the race out loud: one short line per card from the :class:`companion.call.caller.Caller` in the
    configured language, the moments around the race, refusals in a few words, through the voice queue
    (nothing of a card starts once the next card is revealed), and the synthesised sound effects."""

    def __init__(self, caller: Any, voice: Any, audio: Any, effects: bool = True):
        self.caller = caller
        self.voice = voice
        self.audio = audio
        self.effects = effects
        self.serial = 0  # grows with every card revealed (races and undos included): the queue's card order

    def events(self, events: list[Event], table: Table, now: float) -> None:
        from companion.voice.sounds import START_LEAD, effects_for, lead_for
        cards, rest = split_cards(events)
        for e in rest:
            if isinstance(e, PhaseChanged) and e.phase.value == "racing":
                if self.effects:
                    self.audio.play_effect("start")
                self.voice.say(self.caller.race_start(e.race_no), self.serial, priority=1, slot="phase",
                               delay=START_LEAD if self.effects else 0.0)
        race = getattr(table.game, "race", None) if table.game is not None else None
        per_pass = race.track.reveals_per_pass if race is not None else None
        for group in cards:
            self.serial += 1
            for line in self.caller.card_lines(group, self.serial, per_pass):
                self.voice.say(line.text, self.serial, priority=line.priority, slot=line.slot,
                               max_age=line.max_age, delay=lead_for(group) if self.effects else 0.0)
        for line in self.caller.table_lines(rest, table):
            self.voice.say(line.text, None, priority=line.priority, slot=line.slot, max_age=line.max_age)
        if self.effects:
            for name in effects_for(events):
                self.audio.play_effect(name)

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        line = self.caller.refusal(message)
        self.voice.say(line.text, None, priority=line.priority, slot=line.slot, max_age=line.max_age)

    def reset(self, table: Table, now: float) -> None:
        """After an undo or a start from the journal: nothing still waiting is said (it may tell of a card
        taken back)."""
        hush = getattr(self.voice, "hush", None)
        if hush is not None:
            hush()

    def render(self, table: Table, now: float) -> None:
        self.voice.update()

    def close(self) -> None:
        self.voice.close()
        self.audio.close()
