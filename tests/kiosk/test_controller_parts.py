"""The controller is thin: take an input, journal it, apply it, build the view, hand it to the sinks; its parts
live in modules of their own beside it (docs/architecture.md, "The path of a scan")."""

from __future__ import annotations

from pathlib import Path

KIOSK = Path(__file__).resolve().parents[2] / "companion" / "kiosk"
PARTS = ("inputs", "rescue", "current_game", "records", "wording", "feeds", "page_hooks")


def test_the_controller_module_stays_under_300_lines():
    lines = (KIOSK / "controller.py").read_text("utf-8").count("\n")
    assert lines < 300, f"companion/kiosk/controller.py has {lines} lines (expected under 300: move a part out)"


def test_the_controller_is_made_of_its_parts_and_keeps_the_names_tests_and_tools_import():
    import importlib

    from companion.kiosk import controller
    for part in PARTS:
        assert (KIOSK / f"{part}.py").is_file(), part
        importlib.import_module(f"companion.kiosk.{part}")
    bases = {base.__module__.rsplit(".", 1)[-1] for base in controller.Controller.__mro__[1:-1]}
    assert bases == {"rescue", "current_game", "records", "feeds", "page_hooks"}
    for name in controller.__all__:
        assert hasattr(controller, name), name
