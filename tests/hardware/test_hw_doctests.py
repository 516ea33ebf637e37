"""The runnable examples in the hardware and lights docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["hardware", "hardware.scanner", "hardware.leds", "hardware.buttons", "hardware.device",
                                  "hardware.board", "hardware.pins", "hardware.hid", "hardware.keyburst", "hardware.mock_scanner", "hardware.lines", "hardware.audio", "companion.lights.lanemap",
                                  "companion.lights.render"])
def test_docstring_examples(name, monkeypatch):
    monkeypatch.delenv("HOTSTREAK_HARDWARE", raising=False)
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
