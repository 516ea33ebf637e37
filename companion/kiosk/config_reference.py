"""The reference of docs/config.md, made from the settings table (``companion.kiosk.settings.SETTINGS``): the
defaults as TOML (``DEFAULT_TOML``) and a table of every setting with its type, default, what it accepts and
what it means, between the markers BEGIN and END. Rewrite it with::

    python -m companion.kiosk.config_reference docs/config.md
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.kiosk.settings import NUMBER, SECTION_DOCS, SETTINGS, default_toml, toml_value

_KIND_WORDS = {str: "text", int: "whole number", float: "number", bool: "true or false", list: "list"}
BEGIN, END = "<!-- settings: begin -->", "<!-- settings: end -->"


def reference_markdown() -> str:
    """The reference of docs/config.md (between BEGIN and END): the defaults as TOML, then one table row per
    setting with its type, default, what it accepts and its doc."""
    rows = ["| key | type | default | accepts | meaning |", "|---|---|---|---|---|"]
    for s in SETTINGS:
        kinds = s.kind if isinstance(s.kind, tuple) else (s.kind,)
        kind = "number" if kinds == NUMBER else " or ".join(_KIND_WORDS[k] for k in kinds)
        default = toml_value(s.default)
        default = "4 segments, see above" if "\n" in default else default
        doc = " ".join((s.above or s.doc or SECTION_DOCS.get(s.section, "")).split())
        cells = [f"`{s.path}`", kind, f"`{default}`", s.expected or kind, doc]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return (f"{BEGIN}\n<!-- made from SETTINGS in companion/kiosk/settings.py (edit there) by\n"
            "     python -m companion.kiosk.config_reference docs/config.md -->\n"
            "These are the program's own defaults (`DEFAULT_TOML`, made from `SETTINGS` in\n"
            "`companion/kiosk/settings.py`), with what each key means:\n\n"
            f"```toml\n{default_toml()}```\n\nEach setting, what it accepts and what it means:\n\n"
            + "\n".join(rows) + f"\n{END}")


def with_reference(text: str) -> str:
    """``text`` (docs/config.md) with its reference between BEGIN and END made afresh. Raises ValueError
    when either marker is missing."""
    if BEGIN not in text or END not in text:
        raise ValueError(f"no {BEGIN} ... {END} block (expected the reference's place in docs/config.md)")
    head, rest = text.split(BEGIN, 1)
    return head + reference_markdown() + rest.split(END, 1)[1]


def main(argv: list[str]) -> int:
    """``python -m companion.kiosk.config_reference FILE``: rewrite FILE's reference block; exit 1 on a bad FILE."""
    if len(argv) != 1:
        print("usage: python -m companion.kiosk.config_reference docs/config.md", file=sys.stderr)
        return 2
    path = Path(argv[0])
    try:
        text = path.read_text(encoding="utf-8")
        path.write_text(with_reference(text), encoding="utf-8")
    except (OSError, ValueError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
