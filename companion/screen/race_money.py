"""The label saying which race card the odds shown belong to. What the money in the race is (the paid places
and what each ticket would pay if the race ended now) is the view's answer (:mod:`companion.view.money`).
"""

from __future__ import annotations


def odds_label(lang: str, odds_card: int | None, pass_no: int, reveals_per_pass: int) -> str:
    """Which card the odds belong to: ``"After card 5"`` (of this pass), ``"After pass 1 card 15"`` (an
    earlier pass), ``"Before the start"`` (0), or ``""`` when not known. ``odds_card`` counts the race's
    revealed cards over all passes."""
    from companion.screen.words import say
    if odds_card is None:
        return ""
    if odds_card <= 0:
        return say(lang, "before_start")
    p, n = (odds_card - 1) // reveals_per_pass + 1, (odds_card - 1) % reveals_per_pass + 1
    return say(lang, "after_card", n=n) if p == pass_no else say(lang, "after_pass_card", p=p, n=n)


__all__ = ["odds_label"]
