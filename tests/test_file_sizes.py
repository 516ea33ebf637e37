"""Every Python file of the project (companion/, hardware/, bench/, tests/) stays under 450 lines: a longer one is
split where its content splits, by topic, into files named after what each holds."""

from __future__ import annotations

from conftest import ROOT

FOLDERS = ("companion", "hardware", "bench", "tests")
LIMIT = 450


def test_every_python_file_is_under_450_lines():
    long = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = len(path.read_text("utf-8").splitlines())
            if lines >= LIMIT:
                long.append(f"{path.relative_to(ROOT)} has {lines} lines "
                            f"(expected under {LIMIT}: split it where its content splits)")
    assert not long, "\n".join(long)
