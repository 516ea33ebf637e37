"""The voice at table pace: the share of essential events (falls, knockouts, out of bounds, finishes) named
before the next card is revealed, at 2.5 s and 2 s a card, in each language, over the golden race cases
(tests/data/race-cases.jsonl). Lines are rendered with espeak-ng (the voice cache, mastered) and played through
the real queue with the sound effects in the timeline (companion.voice.pace, the same code as
``hotstreak simulate --json --pace``: a card with an effect holds its lines for the effect's lead).

The mix at 2.5 s a card (companion.voice.stems, the same code as ``simulate --stems``): in the speech band
(300-3400 Hz), how far the voice is above the ducked effects while each line plays that has an effect under it
(lowest and median over those lines; an effect counts from -60 dBFS in the band).

    python bench/voice_pace.py [--paces 2.5 2.0] [--check-cli N] [--random N]

--check-cli N: also run ``hotstreak simulate --json --pace`` on the first N cases of each language and pace and
say whether its "said" list is the same as the bench's (default 3). --random N: the same figures over N whole
races from the shuffled real deck (default 100), a larger sample than the golden cases.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.call.caller import ESSENTIAL  # noqa: E402
from companion.call.words import LANGUAGES  # noqa: E402
from companion.rules import load_track  # noqa: E402
from companion.rules.race import play  # noqa: E402
from companion.call.caller import Caller  # noqa: E402
from companion.call.words import sounds_dir  # noqa: E402
from companion.voice.levels import speech_band  # noqa: E402
from companion.voice.pace import cards_of, espeak_length, heard, said_at_pace  # noqa: E402
from companion.voice.speech import VoiceCache  # noqa: E402
from companion.voice.stems import race_stems  # noqa: E402


def cases() -> list[dict]:
    path = ROOT / "tests" / "data" / "race-cases.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def random_races(count: int, seed: int = 7) -> list[list[str]]:
    """``count`` whole races from the real deck, each pass a fresh shuffle of its label codes (seeded)."""
    import random
    from companion.rules import load_deck
    from companion.rules.race import Race
    rng = random.Random(seed)
    codes = [dc.code for dc in load_deck()]
    out = []
    for _ in range(count):
        race, cards = Race(), []
        while not race.is_over:
            order = codes[:]
            rng.shuffle(order)
            for code in order[:race.track.reveals_per_pass]:
                if race.is_over:
                    break
                race.push_text(code)
                cards.append(code)
        out.append(cards)
    return out


def margins(races: list, lang: str, per_pass: int, pace: float = 2.5) -> list[float]:
    """dB the voice is above the effects in the speech band over each line that has an effect under it."""
    import numpy as np
    cache, voice = VoiceCache(), Caller(lang).voice
    length = espeak_length(lang, cache)
    out = []
    for cards in races:
        said = said_at_pace(cards, pace, lang, length, per_pass=per_pass)
        stems = race_stems(cards, said, pace, lambda text: cache.render(text, voice), sounds_dir() / "effects")
        v, e = speech_band(stems.voice, stems.rate), speech_band(stems.effects, stems.rate)
        for s in said:
            a, b = round(s.start * stems.rate), round(s.end * stems.rate)
            pe = float(np.mean(e[a:b] ** 2))
            if pe > 1e-6:  # an effect sounds under this line (-60 dBFS and up, not the filter's leakage)
                out.append(10 * np.log10(float(np.mean(v[a:b] ** 2)) / pe))
    return out


def mix_table(title: str, races: list, per_pass: int) -> float:
    """Print the speech-band margins of the mix at 2.5 s a card; returns the lowest."""
    print(f"{title}, the mix at 2.5 s a card: voice above the ducked effects in 300-3400 Hz, lines with an effect"
          " under them")
    print(f"{'lang':5}{'lines':>7}{'lowest dB':>11}{'median dB':>11}")
    worst = float("inf")
    for lang in LANGUAGES:
        m = margins(races, lang, per_pass)
        if not m:
            print(f"{lang:5}{0:7}")
            continue
        worst = min(worst, min(m))
        print(f"{lang:5}{len(m):7}{min(m):11.1f}{statistics.median(m):11.1f}")
    return worst


def table(title: str, races: list, paces: list[float], per_pass: int) -> float:
    """Print one table of figures; returns the lowest share at 2.5 s a card."""
    essential = sum(isinstance(e, ESSENTIAL) for r in races for card in r for e in card)
    print(f"{title}: {len(races)} races, {sum(len(r) for r in races)} cards, {essential} essential events")
    print(f"{'lang':5}{'pace':>6}{'named':>10}{'share':>8}{'lines':>7}{'cut':>5}{'median s':>10}{'max s':>7}")
    worst = 1.0
    for lang in LANGUAGES:
        length = espeak_length(lang)
        for pace in paces:
            named = total = lines = cut = 0
            durations = []
            for cards in races:
                said = said_at_pace(cards, pace, lang, length, per_pass=per_pass)
                n, t = heard(cards, said, pace)
                named, total = named + n, total + t
                lines += len(said)
                cut += sum(s.cut for s in said)
                durations += [length(s.text) for s in said]
            share = named / total if total else 1.0
            if pace == 2.5:
                worst = min(worst, share)
            print(f"{lang:5}{pace:6.1f}{f'{named}/{total}':>10}{share:8.1%}{lines:7}{cut:5}"
                  f"{statistics.median(durations):10.2f}{max(durations):7.2f}")
    return worst


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--paces", type=float, nargs="+", default=[2.5, 2.0])
    p.add_argument("--check-cli", type=int, default=3, metavar="N")
    p.add_argument("--random", type=int, default=100, metavar="N",
                   help="also N whole races from the shuffled real deck (0: none)")
    args = p.parse_args(argv)
    per_pass = load_track().reveals_per_pass
    races = [cards_of(play(c["cards"])[1]) for c in cases()]
    worst = table("golden race cases (tests/data/race-cases.jsonl)", races, args.paces, per_pass)
    print()
    mix_worst = mix_table("golden race cases", races, per_pass)
    worst_random = None
    if args.random:
        print()
        whole = [cards_of(play(r)[1]) for r in random_races(args.random)]
        worst_random = table("whole random races (seed 7)", whole, args.paces, per_pass)
        print()
        mix_worst = min(mix_worst, mix_table("whole random races", whole, per_pass))
    if args.check_cli:
        same = checked = 0
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        for lang in LANGUAGES:
            length = espeak_length(lang)
            for pace in args.paces:
                for case in cases()[:args.check_cli]:
                    out = subprocess.run([sys.executable, "-m", "companion", "simulate", "--json", "--pace",
                                          str(pace), "--lang", lang, *case["cards"]], capture_output=True,
                                         text=True, env=env, cwd=ROOT)
                    mine = [s.to_dict() for s in said_at_pace(cards_of(play(case["cards"])[1]), pace, lang, length,
                                                              per_pass=per_pass)]
                    checked += 1
                    same += out.returncode == 0 and json.loads(out.stdout)["said"] == mine
        print(f"simulate --pace agrees with the bench: {same}/{checked} runs")
    print(f"lowest share at 2.5 s a card: golden cases {worst:.1%}"
          + (f", whole races {worst_random:.1%}" if worst_random is not None else "")
          + " (goal: at least 95% in each language)")
    print(f"lowest speech-band margin of the voice over the ducked effects: {mix_worst:.1f} dB (goal: at least 10)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
