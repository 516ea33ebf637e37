"""The voice: WAV cache keyed by text + voice (with a size cap), a queue where nothing of a card starts once the
next card is revealed (fake clock), and quick stops in every state."""

from __future__ import annotations

import concurrent.futures
import logging
import os
import random
import shutil
import subprocess
import time
import wave

import pytest

from companion.voice.speech import Line, Voice, VoiceCache, VoiceQueue, VoiceUnavailable
from hardware.audio import MockAudio
from conftest import FakeClock




class FakeEspeak:
    """Stands in for subprocess.run of espeak-ng: writes a small file to the -w path, records the texts."""

    def __init__(self, fail_on: str | None = None):
        self.texts: list[tuple[str, str]] = []
        self.fail_on = fail_on

    def __call__(self, argv, **kwargs):
        voice, out, text = argv[argv.index("-v") + 1], argv[argv.index("-w") + 1], argv[-1]
        self.texts.append((voice, text))
        if text == self.fail_on:
            return subprocess.CompletedProcess(argv, 1, b"", b"boom")
        with open(out, "wb") as f:
            f.write(b"RIFF fake wav " + text.encode())
        return subprocess.CompletedProcess(argv, 0, b"", b"")


# ----- queue ----------------------------------------------------------------------------------------------------
def test_queue_drops_lines_more_than_one_card_behind_when_a_newer_card_arrives():
    clock = FakeClock()
    q = VoiceQueue(clock, max_lag_cards=1, max_age=None)
    for text in ("card 1 a", "card 1 b", "card 1 c"):
        q.put(text, card=1)
    q.put("card 2 a", card=2)
    assert [l.text for l in q] == ["card 1 a", "card 1 b", "card 1 c", "card 2 a"]  # one card behind is fine
    q.put("card 3 a", card=3)
    assert [l.text for l in q] == ["card 2 a", "card 3 a"]
    assert [l.text for l in q.dropped] == ["card 1 a", "card 1 b", "card 1 c"]


def test_queue_with_no_lag_keeps_only_the_newest_card():
    q = VoiceQueue(FakeClock(), max_lag_cards=0, max_age=None)
    q.put("one", 1)
    q.put("two", 2)
    q.put("two more", 2)
    assert [l.text for l in q] == ["two", "two more"]


def test_queue_drops_lines_that_waited_too_long_on_the_fake_clock():
    clock = FakeClock()
    q = VoiceQueue(clock, max_lag_cards=1, max_age=5.0)
    q.put("your pick, Ann", card=None)
    q.put("card 4", card=4)
    clock.advance(4.9)
    assert q.peek().text == "your pick, Ann"
    clock.advance(0.2)
    assert q.pop() is None
    assert [l.text for l in q.dropped] == ["your pick, Ann", "card 4"]


def test_table_lines_are_not_dropped_for_card_lag():
    q = VoiceQueue(FakeClock(), max_lag_cards=1, max_age=None)
    q.put("Payout time!", None)
    q.put("card 7", 7)
    q.put("card 9", 9)
    assert [l.text for l in q] == ["Payout time!", "card 9"]


def test_queue_rejects_negative_lag():
    with pytest.raises(ValueError, match="-1"):
        VoiceQueue(FakeClock(), max_lag_cards=-1)


# ----- voice: queue + cache + audio -----------------------------------------------------------------------------
def make_voice(tmp_path, clock, seconds=2.0, fail_on=None, **kw):
    espeak = FakeEspeak(fail_on)
    audio = MockAudio(clock, voice_seconds=seconds)
    voice = Voice(audio, "nl", clock, VoiceCache(tmp_path, run=espeak), background=False, **kw)
    return voice, audio, espeak


def test_voice_plays_lines_in_order_one_at_a_time(tmp_path):
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock)
    voice.say("Kaart 1: Hurley!", 1)
    voice.say("Hurley rent naar vak 6!", 1)
    assert voice.update().text == "Kaart 1: Hurley!"
    clock.advance(1.0)
    assert voice.update() is None           # still speaking
    clock.advance(1.5)
    assert voice.update().text == "Hurley rent naar vak 6!"
    assert [kind for kind, _ in audio.played] == ["voice", "voice"]


def test_a_line_with_a_delay_waits_for_it_and_the_lines_after_it_keep_their_order(tmp_path):
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=1.0)
    voice.say("Mum valt!", 1, priority=0, delay=0.25)
    voice.say("Laatste kaart!", 1)
    assert voice.update() is None                       # its sound effect goes first
    clock.advance(0.2)
    assert voice.update() is None
    clock.advance(0.05)
    assert voice.update().text == "Mum valt!"
    clock.advance(1.0)
    assert voice.update().text == "Laatste kaart!"


def test_the_sink_holds_a_line_for_its_effect_only_when_effects_play(tmp_path):
    from companion.call.caller import Caller
    from companion.rules import Race
    from companion.voice.sink import VoiceSink
    from companion.rules.game_events import Phase, PhaseChanged
    from companion.voice.sounds import EFFECT_LEAD, START_LEAD
    from companion.rules.table import Table
    from companion.view.table_view import build
    view = build(Table())
    for effects, wait in ((True, EFFECT_LEAD), (False, 0.0)):
        clock = FakeClock()
        voice, audio, _ = make_voice(tmp_path / str(effects), clock, seconds=1.0)
        sink = VoiceSink(Caller("en", random.Random(0)), voice, audio, effects=effects)
        race = Race()
        sink.events(race.push_text("MF"), view, clock())
        assert [line.ready_at - line.at for line in voice.queue] == pytest.approx([wait])
        assert (("effect", "fall") in audio.played) is effects
        sink.events(race.push_text("H+3"), view, clock())   # no effect: no wait
        assert [line.ready_at - line.at for line in voice.queue][-1] == 0.0
        voice.queue.clear()
        sink.events([PhaseChanged(Phase.RACING, 2)], view, clock())
        assert [line.ready_at - line.at for line in voice.queue] == pytest.approx([START_LEAD if effects else 0.0])


def test_voice_never_lags_the_race_by_more_than_one_card(tmp_path):
    """Cards come every second, each with three 2-second lines: the voice skips, it never falls behind."""
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=2.0)
    started = []
    for card in range(1, 11):
        for k in range(3):
            voice.say(f"card {card} line {k}", card)
        for _ in range(10):                 # ten frames per card
            line = voice.update()
            if line:
                started.append((line.card, voice.queue.newest_card))
            clock.advance(0.1)
    assert started
    assert all(newest - card <= 1 for card, newest in started)
    assert voice.queue.dropped                # it had to drop lines to keep up
    assert started[-1][0] >= 9


def test_a_line_still_playing_for_a_stale_card_is_cut(tmp_path):
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=10.0, max_lag_cards=1)
    voice.say("a very long line about card 1", 1)
    voice.update()
    voice.say("card 2", 2)
    voice.update()
    assert audio.played[-1][0] == "voice" and len(audio.played) == 1  # card 1 is only one behind: keeps playing
    voice.say("card 3", 3)
    line = voice.update()
    assert ("stop", "") in audio.played
    assert line.text == "card 2"              # one card behind the newest: still said


def test_renders_each_line_once_and_reuses_the_cache(tmp_path):
    clock = FakeClock()
    voice, audio, espeak = make_voice(tmp_path, clock, seconds=0.0)
    for _ in range(3):
        voice.say("Daar gaat Hurley!", None)
        voice.update()
    assert espeak.texts == [("nl", "Daar gaat Hurley!")]
    assert len({p for kind, p in audio.played}) == 1


def test_cache_key_depends_on_text_and_voice(tmp_path):
    cache = VoiceCache(tmp_path, run=FakeEspeak())
    a, b, c = cache.path_for("Hola", "es"), cache.path_for("Hola", "nl"), cache.path_for("Hola!", "es")
    assert len({a, b, c}) == 3
    assert cache.path_for("Hola", "es") == a
    assert cache.render("Hola", "es") == a and a.exists() and a.is_relative_to(tmp_path)


def test_prerender_renders_only_what_is_missing(tmp_path):
    espeak = FakeEspeak()
    cache = VoiceCache(tmp_path, run=espeak)
    assert cache.prerender(["een", "twee"], "nl") == 2
    assert cache.prerender(["een", "twee", "drie"], "nl") == 1
    assert [t for _, t in espeak.texts] == ["een", "twee", "drie"]


def test_a_failing_line_is_skipped_with_one_log_line(tmp_path, caplog):
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=0.0, fail_on="bad")
    with caplog.at_level(logging.WARNING, "hotstreak.voice"):
        voice.say("bad", 1)
        voice.say("bad", 1)
        voice.say("good", 1)
        assert voice.update().text == "good"
    assert len([r for r in caplog.records if "skipped" in r.message]) == 1
    with pytest.raises(VoiceUnavailable, match="boom"):
        VoiceCache(tmp_path / "x", run=FakeEspeak("bad")).render("bad", "nl")


def test_no_espeak_means_no_voice_with_one_log_line(tmp_path, caplog):
    clock = FakeClock()
    audio = MockAudio(clock)
    with caplog.at_level(logging.WARNING, "hotstreak.voice"):
        voice = Voice(audio, "en-gb", clock, VoiceCache(tmp_path, espeak="no-such-espeak-ng"), background=False)
        voice.say("Hello", 1)
        assert voice.update() is None
    assert not voice.enabled and audio.played == []
    assert len(caplog.records) == 1 and "no-such-espeak-ng" in caplog.records[0].message
    with pytest.raises(VoiceUnavailable, match="not installed"):
        VoiceCache(tmp_path, espeak="no-such-espeak-ng").render("Hello", "en-gb")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
@pytest.mark.parametrize("voice,text", [("nl", "Hurley rent naar vak zes!"), ("es", "¡Mum cruza la meta!")])
def test_real_espeak_renders_a_wav(tmp_path, voice, text):
    path = VoiceCache(tmp_path).render(text, voice)
    with wave.open(str(path)) as w:
        assert w.getnchannels() == 1 and w.getnframes() > w.getframerate() * 0.3


def test_background_rendering_plays_when_ready(tmp_path):
    clock = FakeClock()
    audio = MockAudio(clock, voice_seconds=0.0)
    voice = Voice(audio, "nl", clock, VoiceCache(tmp_path, run=FakeEspeak()), background=True)
    try:
        voice.say("achtergrond", 1)
        voice._jobs["achtergrond"].result(timeout=5)
        assert voice.update().text == "achtergrond"
        future = voice.prerender(["vast een", "vast twee"])
        assert future.result(timeout=5) == 2
    finally:
        voice.close()


# ----- the race caller's queue policy ---------------------------------------------------------------------------
def test_by_default_nothing_of_a_card_starts_once_the_next_card_is_revealed(tmp_path):
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=2.0)
    voice.say("card 1 news", 1)
    voice.say("card 1 more", 1)
    assert voice.update().text == "card 1 news"
    voice.say("card 2 news", 2)                    # revealed while card 1 still speaks
    clock.advance(2.0)
    assert voice.update().text == "card 2 news"    # card 1's second line never starts
    assert [l.text for l in voice.queue.dropped] == ["card 1 more"]


def test_a_newer_line_of_the_same_slot_replaces_a_waiting_one(tmp_path):
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=2.0)
    voice.say("Payouts!", None)
    voice.update()
    voice.say("Ann, your pick.", None, slot="pick")
    voice.say("Bram, your pick.", None, slot="pick")
    clock.advance(2.0)
    assert voice.update().text == "Bram, your pick."
    assert voice.queue.peek() is None


def test_plain_news_is_cut_for_essential_news_of_a_newer_card(tmp_path):
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=3.0)
    voice.say("Hurley 3, up to 6.", 1, priority=3)
    voice.update()
    voice.say("Mum to 5.", 2, priority=3)
    clock.advance(1.0)
    assert voice.update() is None and ("stop", "") not in audio.played     # plain for plain: no cut
    clock.advance(2.0)
    voice.update()
    voice.say("Mum down!", 3, priority=0)
    clock.advance(0.5)
    assert voice.update().text == "Mum down!" and ("stop", "") in audio.played


def test_a_line_without_a_time_limit_waits_as_long_as_it_takes(tmp_path):
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=20.0)
    voice.say("Game over!", None, max_age=None)
    voice.say("Final standings.", None, max_age=None)
    voice.update()
    clock.advance(20.0)
    assert voice.update().text == "Final standings."


# ----- bounded cost: fixed refusal lines, a capped cache ----------------------------------------------------------
def test_garbage_refusals_render_a_fixed_line_not_one_per_text(tmp_path):
    from companion.call.caller import Caller
    from companion.rules.errors import RefusedError
    from companion.voice.sink import VoiceSink
    clock = FakeClock()
    voice, audio, espeak = make_voice(tmp_path, clock, seconds=0.0)
    sink = VoiceSink(Caller("en", random.Random(0)), voice, audio)
    for k in range(300):
        sink.refused(RefusedError(f"unknown code 'JUNK{k}' (expected HS-...)"), None, clock())
        voice.update()
    rendered = {text for _, text in espeak.texts}
    assert len(rendered) <= 2 and not any("JUNK" in t for t in rendered)
    assert len(list(tmp_path.glob("*/*.wav"))) <= 2


def test_the_cache_keeps_under_its_cap_evicting_the_least_recently_used(tmp_path):
    cache = VoiceCache(tmp_path, run=FakeEspeak(), max_bytes=400)
    first = cache.render("line number 0 " + "x" * 40, "en")
    for k in range(1, 40):
        cache.render(f"line number {k} " + "x" * 40, "en")
        os.utime(first, (2e9 + k, 2e9 + k))          # the first line keeps being used
    assert cache.size() <= 400
    assert first.exists()                              # recently used: kept
    assert not cache.path_for("line number 1 " + "x" * 40, "en").exists()   # the oldest went


# ----- stopping quickly ----------------------------------------------------------------------------------------
def slow_espeak(tmp_path, seconds: int = 60):
    """A fake espeak-ng program that takes ``seconds`` per line (a real child process)."""
    path = tmp_path / "bin" / "espeak-ng"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"#!/bin/sh\nsleep {seconds}\n")
    path.chmod(0o755)
    return path


def _state(job) -> str:
    """How a render job (or a dict of them) stands, for a failure message: running, cancelled, its result or
    the exception it ended with."""
    if isinstance(job, dict):
        return ", ".join(f"{text!r}: {_state(each)}" for text, each in job.items()) or "no job"
    if not isinstance(job, concurrent.futures.Future):
        return f"not a job but {job!r}"
    if not job.done():
        return "running"
    return "cancelled" if job.cancelled() else repr(job.exception() or job.result())


def test_close_during_the_first_start_prerender_kills_espeak_and_ends_the_worker(tmp_path):
    clock = FakeClock()
    voice = Voice(MockAudio(clock), "en-gb", clock, VoiceCache(tmp_path / "cache", espeak=str(slow_espeak(tmp_path))))
    assert voice.enabled, f"{voice.cache.espeak} was not found"
    future = voice.prerender([f"line {k}" for k in range(300)])
    voice.say("Hurley down!", 1)
    deadline = time.monotonic() + 5
    while not voice.cache._procs and time.monotonic() < deadline:
        time.sleep(0.01)                               # wait until espeak-ng is really running
    assert voice.cache._procs, f"espeak-ng never started: pre-render {_state(future)}, now {_state(voice._jobs)}"
    voice.close()
    assert future.result(timeout=2) == 0              # the pre-render ended (it would take 300 minutes)
    now_job = voice._jobs["Hurley down!"]              # the on-demand render ended too
    done, _ = concurrent.futures.wait([now_job], timeout=2)
    assert done and (now_job.cancelled() or isinstance(now_job.exception(), VoiceUnavailable)), _state(now_job)
    assert not voice.cache._procs
    assert voice.update() is None


@pytest.mark.slow
def test_sigterm_during_the_first_start_prerender_stops_the_kiosk_quickly(tmp_path):
    """A real `hotstreak run` with voice on and a slow espeak-ng (60 s a line) pre-rendering its 300-odd fixed
    lines: SIGTERM ends the process within seconds, not after the pre-render."""
    import signal
    import sys
    from conftest import ROOT
    from notify_listener import NotifyListener
    espeak = slow_espeak(tmp_path)
    config = tmp_path / "config.toml"
    config.write_text(f'[paths]\ncache = "{tmp_path / "cache"}"\n[audio]\nvoice = true\neffects = false\n')
    with NotifyListener(tmp_path) as listener:
        env = dict(os.environ, PYTHONPATH=str(ROOT), PATH=f"{espeak.parent}:{os.environ['PATH']}",
                   **listener.env())
        env.pop("HOTSTREAK_HARDWARE", None)
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--hardware", "mock", "--config",
                                 str(config), "--db", str(tmp_path / "journal.db"), "--display", "none",
                                 "--audio", "mock", "--quiet"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        try:
            listener.wait_for("READY=1", timeout=30)
            deadline = time.monotonic() + 10
            running = False
            while not running and time.monotonic() < deadline:
                running = subprocess.run(["pgrep", "-f", str(espeak)], capture_output=True).returncode == 0
                time.sleep(0.05)
            assert running, "the pre-render never started espeak-ng"
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=30)
            took = time.monotonic() - started
            print(f"stopped {took:.2f} s after SIGTERM")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert code == 0, proc.stderr.read().decode()
    assert took < 5.0, f"stopping took {took:.1f} s"    # the slow pre-render would take 300 minutes
    assert subprocess.run(["pgrep", "-f", str(espeak)], capture_output=True).returncode != 0  # none left behind


def test_after_an_undo_nothing_still_waiting_is_said(tmp_path):
    from companion.call.caller import Caller
    from companion.voice.sink import VoiceSink
    clock = FakeClock()
    voice, audio, _ = make_voice(tmp_path, clock, seconds=5.0)
    sink = VoiceSink(Caller("en", random.Random(0)), voice, audio)
    voice.say("Hurley 3, up to 6.", 1)
    voice.say("Last card!", 1)
    voice.update()
    sink.reset(None, clock())
    assert ("stop", "") in audio.played and voice.queue.peek() is None
    clock.advance(5.0)
    assert voice.update() is None


def test_the_voice_cache_env_wins_over_the_given_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOTSTREAK_VOICE_CACHE", str(tmp_path / "from-env"))
    cache = VoiceCache(tmp_path / "from-config", run=FakeEspeak())
    assert cache.render("Hello", "nl").parent.parent == tmp_path / "from-env"
    monkeypatch.delenv("HOTSTREAK_VOICE_CACHE")
    assert VoiceCache(tmp_path / "from-config").dir == tmp_path / "from-config"


def test_the_kiosk_voice_renders_into_the_voice_cache_env(tmp_path, monkeypatch):
    from companion.kiosk.config import parse_config
    from companion.kiosk.wiring import build
    from companion.voice.sink import VoiceSink
    monkeypatch.setenv("HOTSTREAK_VOICE_CACHE", str(tmp_path / "voice"))
    config = parse_config(f'[paths]\ncache = "{tmp_path / "config-cache"}"\n')
    kiosk = build(config, mode="mock", db=tmp_path / "j.db", display="none", audio="mock", web="off")
    try:
        [sink] = [s for s in kiosk.controller.sinks if isinstance(s, VoiceSink)]
        assert sink.voice.cache.dir == tmp_path / "voice"
    finally:
        kiosk.close()
