"""Every docstring example in companion/ and hardware/ runs and stays true (python -m doctest's rules).

The modules are found by their source (a ``>>>`` line), so collection imports none of them; each is imported
and its examples run in its own test.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _modules_with_examples() -> list[str]:
    names = []
    for package in ("companion", "hardware"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name == "__main__.py" or ">>> " not in path.read_text("utf-8"):
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules_with_examples()
ONLY_SKIPPED = {  # modules whose examples are all marked +SKIP, and why they cannot run here
    "companion.screen.draw": "it draws on a pygame display",
    "companion.web.server": "it serves on a network port",
}


def test_the_examples_are_found_in_both_packages():
    assert {"companion.rules.race", "companion.voice.pace", "hardware.leds"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch):
    monkeypatch.delenv("HOTSTREAK_HARDWARE", raising=False)
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert (result.attempted == 0) == (name in ONLY_SKIPPED), "every example skipped" if name not in ONLY_SKIPPED else name
