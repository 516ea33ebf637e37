"""Pages that turn on their own: where the 7-inch panel has no room for everything at once (the final
standings with their life-outcome lines, the money of more than four seats), it shows a page at a time, each
for :data:`PAGE_SECONDS` on the screen's clock, round again; the screen's sink draws a frame at each turn."""

from __future__ import annotations

PAGE_SECONDS = 6.0
"""How long each page stays up (seconds on the screen's clock)."""


def page_at(now: float, pages: int) -> int:
    """The page (0-based) of ``pages`` shown at ``now`` seconds: each for :data:`PAGE_SECONDS`, round again."""
    return int(max(0.0, now) // PAGE_SECONDS) % max(1, pages)


def next_page_at(now: float) -> float:
    """When the next page turns, after ``now`` (the screen's sink draws a frame then)."""
    return (int(max(0.0, now) // PAGE_SECONDS) + 1) * PAGE_SECONDS


__all__ = ["PAGE_SECONDS", "next_page_at", "page_at"]
