"""The kiosk's install script for the tests that run it or read it (``run_install``), and a parser of udev rule
lines (``rule_lines``): the shipped rule's, and those the script adds for a scanner."""

from __future__ import annotations

import re
import subprocess

from conftest import ROOT

INSTALL = ROOT / "systemd/install.sh"

RULE_ITEM = re.compile(r'^(?P<key>[A-Z_]+)(\{(?P<attr>[^}]+)\})?(?P<op>==|!=|\+=|-=|:=|=)"(?P<value>[^"]*)"$')


def rule_lines(text: str) -> list[list[re.Match]]:
    """Each rule line parsed into its items; fails on a line udev would not accept (e.g. a trailing comment)."""
    parsed = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        items = []
        for item in re.split(r',\s*', line):
            m = RULE_ITEM.match(item)
            assert m, f"not a udev KEY op \"value\" item: {item!r} in {line!r}"
            items.append(m)
        parsed.append(items)
    return parsed


def run_install(*args: str) -> subprocess.CompletedProcess:
    """``bash systemd/install.sh ARGS``, its output captured as text."""
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60)
