"""The voice's sink: the race caller's lines through the voice queue, and sound effects."""

from __future__ import annotations

from typing import Any, Sequence

from companion.rules import events as ev
from companion.rules.errors import RefusedError
from companion.rules.events import Event
from companion.rules.game_events import PhaseChanged
from companion.rules.phases import Phase
from companion.view.sink import NullSink
from companion.view.table_view import TableView


def split_cards(events: Sequence[Event]) -> tuple[list[list[Event]], list[Event]]:
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


class VoiceSink(NullSink):
    """Calls the race out loud: one short line per card from the :class:`companion.call.caller.Caller` in the
    configured language, the moments around the race, refusals in a few words, through the voice queue
    (nothing of a card starts once the next card is revealed), and the synthesised sound effects."""

    def __init__(self, caller: Any, voice: Any, audio: Any, effects: bool = True):
        self.caller = caller
        self.voice = voice
        self.audio = audio
        self.effects = effects
        self.serial = 0  # grows with every card revealed (races and undos included): the queue's card order

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        from companion.voice.sounds import START_LEAD, effects_for, lead_for
        cards, rest = split_cards(events)
        for e in rest:
            if isinstance(e, PhaseChanged) and e.phase is Phase.RACING:
                if self.effects:
                    self.audio.play_effect("start")
                self.voice.say(self.caller.race_start(e.race_no), self.serial, priority=1, slot="phase",
                               delay=START_LEAD if self.effects else 0.0)
        per_pass = view.race.track.reveals_per_pass if view.race is not None else None
        for group in cards:
            self.serial += 1
            for line in self.caller.card_lines(group, self.serial, per_pass):
                self.voice.say(line.text, self.serial, priority=line.priority, slot=line.slot,
                               max_age=line.max_age, delay=lead_for(group) if self.effects else 0.0)
        for line in self.caller.table_lines(rest, view):
            self.voice.say(line.text, None, priority=line.priority, slot=line.slot, max_age=line.max_age)
        if self.effects:
            for name in effects_for(list(events)):
                self.audio.play_effect(name)

    def refused(self, error: RefusedError, view: TableView, now: float) -> None:
        line = self.caller.refusal(error)
        self.voice.say(line.text, None, priority=line.priority, slot=line.slot, max_age=line.max_age)

    def reset(self, view: TableView, now: float) -> None:
        """After an undo or a start from the journal: nothing still waiting is said (it may tell of a card
        taken back)."""
        hush = getattr(self.voice, "hush", None)
        if hush is not None:
            hush()

    def render(self, view: TableView, now: float) -> None:
        self.voice.update()

    def close(self) -> None:
        self.voice.close()
        self.audio.close()
