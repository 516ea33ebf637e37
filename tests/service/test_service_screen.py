"""The service screens at 800x480, 1280x720 and 1920x1080 in en, nl and es: every text is drawn at or above the
size class's smallest capital, fits its room, stays inside the window and overlaps no other (the checks of
tests/screen/test_screen_layout.py); no card notation or label code is shown."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import re

import pytest

pygame = pytest.importorskip("pygame")

from companion.lights.lanemap import LaneMap
from companion.screen.model import ScreenModel, sample_model
from companion.service.calibrate import Lane
from companion.service.mode import ServiceMode, Setup
from companion.service.page import PAGES
from companion.service.samples import sample_page
from companion.service.wizard import Step
from companion.service.words import WORDS
from screen.test_screen_layout import problems

CODE = re.compile(r"\bHS-?[A-Z0-9]|[GHDMA][+-]\d")


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)])
def test_every_service_screen_fits_every_size_and_language(size, lang):
    from companion.screen.draw import Painter
    for name, page in [*((name, sample_page(name, lang)) for name in PAGES), *harder_pages(lang)]:
        painter = Painter(pygame.Surface(size))
        painter.boxes = []
        painter.draw(ScreenModel(screen="service", service=page, language=lang), now=0.0)
        found = problems(list(painter.boxes), size)
        assert not found, f"{name} {size} {lang}: {found}"
        shown = " ".join(box.text for box in painter.boxes)
        assert not CODE.search(shown), f"{name} {lang}: {CODE.search(shown)}"


def harder_pages(lang: str) -> list:
    """The longest pages: a supply too small, a lane's check, marks refused, a calibration saved far away."""
    lanes = LaneMap.default(per_space=3)
    mode = ServiceMode(Setup(lane_map=lanes, count=168, supply_amps=1.0, language=lang), now=0.0)
    pages = [("leds over the supply", mode.page(0.0))]
    mode.index = len(PAGES) - 1
    mode.go(0.0)
    assert mode.wizard is not None
    done = ((1, Lane(0, 1, 3)),)
    for stage, extra in (("check", {}), ("run", {"problem": "lane 2 overlaps lane 1 at pixel 20 (mark lane 2 "
                                                              "again)"}),
                         ("saved", {"detail": "/home/someone/.config/hotstreak/config.toml (start with "
                                              "--config and this file)"}),
                         ("failed", {"problem": "/etc/hotstreak/config.toml: cannot write (Permission denied)"})):
        mode.wizard.step = Step(stage, 2 if stage == "run" else 1, lanes=done, **extra)
        pages.append((f"calibration {stage}", mode.page(1.0)))
    return pages


def test_the_screenshot_sample_is_the_led_test():
    model = sample_model("service")
    assert model.screen == "service" and model.service.page == "leds"


def test_every_language_has_every_word_with_the_same_placeholders():
    fields = lambda text: sorted(re.findall(r"{(\w+)", text))  # noqa: E731
    for lang in ("nl", "es"):
        assert set(WORDS[lang]) == set(WORDS["en"]), lang
        for key, text in WORDS["en"].items():
            assert fields(WORDS[lang][key]) == fields(text), (lang, key)
