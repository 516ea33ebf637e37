"""Sample service screens (``hotstreak screenshot --screen service``, the screen tests, docs/screenshots):
each test of the service mode as a builder sees it a few seconds in, on the default 4-lane, 112-pixel strip.

>>> sample_page("calibrate").big
'Lane 2 (Hurley): press GO when the light reaches the first light of space 1'
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from companion.lights.lanemap import LaneMap
from companion.service.calibrate import Lane
from companion.service.mode import ServiceMode, Setup
from companion.service.page import PAGES, ServicePage
from companion.service.wizard import Step

__all__ = ["DOC_PICTURES", "sample_page", "save_pictures"]

DOC_PICTURES = (("leds", 1920), ("calibrate", 1920), ("leds", 800), ("calibrate", 800), ("scanner", 800),
                ("screen", 800))
"""The pictures in docs/service.md: (test, screen width: 1920 is 1920x1080, 800 the 7-inch panel)."""


def sample_page(name: str = "leds", language: str = "en") -> ServicePage:
    """The service screen of test ``name`` (one of ``companion.service.page.PAGES``) in ``language``.
    Raises ValueError for another name."""
    if name not in PAGES:
        raise ValueError(f"unknown service test {name!r} (expected one of: {', '.join(PAGES)})")
    lanes = LaneMap.from_dict({"spaces": 14, "lane": {str(n): {"first": 28 * (n - 1), "per_space": 2,
                                                               "direction": 1 if n % 2 else -1} for n in range(1, 5)}})
    mode = ServiceMode(Setup(lane_map=lanes, count=112, language=language), now=0.0)
    while mode.name != name:
        if mode.name == "buttons":   # the button test goes on once each button was pressed
            mode.undo(0.0)
            mode.go(0.0)
        mode.go(0.0)
    now = 9.3
    if name == "calibrate":   # lane 1 marked and checked; the slow light on lane 2's space 1 (folded back)
        mode.go(0.0)
        assert mode.wizard is not None
        mode.wizard.step = Step("fine", 2, "start", origin=57, t0=0.0, lanes=((1, Lane(0, 1, 2)),))
        now = 2.8
    elif name == "scanner":
        mode.scan("HS15", {"mode": "serial", "suffix": "CR LF", "ms": 14, "repeats": 1}, 1.0)
    elif name == "buttons":
        mode.undo(1.0)
    elif name == "sound":
        mode.tick(now)
    return mode.page(now)


def save_pictures(folder: str | Path, pictures: tuple[tuple[str, int], ...] = DOC_PICTURES,
                  language: str = "en") -> list[Path]:
    """Draw the sample service screens ``pictures`` to ``folder/service-<test>-<width>.png`` (SDL's dummy
    video driver: no display needed); returns the files written."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.screen.draw import Screen
    from companion.screen.model import ScreenModel
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, width in pictures:
        screen = Screen.offscreen((1920, 1080) if width == 1920 else (800, 480))
        screen.draw(ScreenModel(screen="service", service=sample_page(name, language), language=language), now=0.0)
        path = out / f"service-{name}-{width}.png"
        screen.save(str(path))
        written.append(path)
    return written


if __name__ == "__main__":   # python -m companion.service.samples docs/service (docs/screenshots.sh)
    for written in save_pictures(sys.argv[1] if len(sys.argv) > 1 else "docs/service"):
        print(f"wrote {written}")
