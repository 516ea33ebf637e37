"""The README and docs/ tell the truth: the README's two set-up commands are the ones CI runs, it stays short
and lists every command with all its options, every relative link resolves, nothing in the repository names a
place outside it, and the figures in docs/ agree with the files and code they describe."""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from companion.cli import build_parser
from conftest import ROOT

README = (ROOT / "README.md").read_text()
DOCS = ROOT / "docs"
MARKDOWN = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def doc(name: str) -> str:
    return (DOCS / name).read_text()


def setup_command(name: str) -> str:
    """The one line of the ```sh block after the `<!-- setup:NAME` marker."""
    after = README.split(f"<!-- setup:{name}", 1)[1]
    block = re.search(r"^```sh\n(.*?)^```$", after, re.S | re.M)
    assert block, f"no sh block after setup:{name}"
    lines = block.group(1).strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def subcommands() -> dict:
    """Each `hotstreak` subcommand's argparse parser, by name."""
    parser = build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices


def long_options(sub) -> list[str]:
    return [option for action in sub._actions for option in action.option_strings
            if option.startswith("--") and option != "--help"]


def test_exactly_two_set_up_commands_demo_and_tests():
    assert re.findall(r"<!-- setup:(\w+)", README) == ["demo", "test"]
    assert setup_command("demo").endswith(".venv/bin/hotstreak demo")
    assert setup_command("test").endswith(".venv/bin/python -m pytest")


@pytest.mark.parametrize("name", ["demo", "test"])
def test_set_up_commands_work_for_root_without_sudo_and_for_sudo_users(name):
    command = setup_command(name)
    assert not re.search(r"(^|&& )sudo ", command)  # a bare sudo fails as root where sudo is absent
    for part in command.split("&&"):
        if "apt-get" in part:
            assert part.strip().startswith("$(command -v sudo) apt-get"), part
    assert "python3-venv" in command  # a fresh Debian cannot make a venv without it


def test_ci_runs_the_readme_test_command():
    script = (ROOT / ".ci" / "run").read_text()
    function = re.search(r"^readme_command\(\) \{.*?^\}$", script, re.S | re.M).group(0)
    out = subprocess.run(["bash", "-c", function + "\nreadme_command test"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == setup_command("test")
    assert 'eval "$command"' in script and "command=$(readme_command test)" in script


def test_readme_is_for_the_table_at_most_250_lines():
    assert len(README.splitlines()) <= 250


def test_readme_links_the_rules_document():
    assert "[docs/rules.md](docs/rules.md)" in README


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_to_a_file_in_the_repository(page):
    text = re.sub(r"(?ms)^```.*?^```$", "", page.read_text())  # links, not code
    targets = re.findall(r"\]\(([^)\s]+)\)", text)  # [text](target) and ![alt](target)
    relative = [t.split("#", 1)[0] for t in targets if not re.match(r"[a-z]+:|#", t)]
    assert relative or page.name in ("rules.md",), f"{page.name} links nothing"
    for target in relative:
        resolved = (page.parent / target).resolve()
        assert resolved.is_relative_to(ROOT.resolve()), f"{page.name}: {target} leaves the repository"
        assert resolved.is_file(), f"{page.name}: {target} is not a file of the repository"
    for target in targets:  # a #section of a markdown page must be one of its headings
        if re.match(r"[a-z]+:", target) or "#" not in target:
            continue
        file, anchor = target.split("#", 1)
        linked = (page.parent / file).resolve() if file else page
        if linked.suffix == ".md":
            assert anchor in anchors(linked), f"{page.name}: {target} names no heading of {linked.name}"


def anchors(page: Path) -> set[str]:
    """The #anchors GitHub gives the headings of a markdown page (lower case, punctuation dropped, - for space)."""
    text = re.sub(r"(?ms)^```.*?^```$", "", page.read_text())
    return {re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")
            for heading in re.findall(r"(?m)^#{1,6} (.+)$", text)}


SKIPPED_DIRS = {".git", ".venv", "venv", "__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis",
                "build", "dist", "node_modules"}


def repository_text_files():
    """Every text file of the checkout (not the venv, caches or build output), as (relative path, text). The
    skipped folders are not walked at all (a venv alone holds tens of thousands of files)."""
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info"))
        for name in sorted(files):
            path = Path(top) / name
            try:
                yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue  # pictures, sounds, PDFs


def _parts(*parts: str) -> str:
    """``parts`` joined when the test runs: spelled in parts, this file does not name the places it looks for, and
    nor does its compiled file (Python folds ``"a" + "b"`` into one constant; a call it does not)."""
    return "".join(parts)


OUTSIDE = re.compile("|".join([re.escape(_parts("..", "/", "shared")), re.escape(_parts("DESIGN", ".md")),
                               re.escape(_parts("RULES", ".md")), _parts(r"(?i:\bissue", r" #?[1-9][0-9]?\b)")]))


def test_no_file_of_the_repository_names_a_place_outside_it():
    """The repository must stand alone: no file points at the folder or documents a clone does not have."""
    offending = [f"{name}: {match.group(0)!r}" for name, text in repository_text_files()
                 for match in [OUTSIDE.search(text)] if match]
    assert offending == []


def test_the_outside_names_check_finds_what_it_looks_for():
    for text in (_parts("see DESIGN", ".md"), _parts("RULES", ".md section 4"), _parts("..", "/shared/cases"),
                 _parts("(issue", " 12)"), _parts("Issue", " 4:"), _parts("issue", " #7")):
        assert OUTSIDE.search(text), text
    for text in ("docs/rules.md", "issue 100", "tissue 12", "an issue with 3 cards"):
        assert not OUTSIDE.search(text), text


def test_rules_document_names_every_data_file_and_side_bet():
    rules = doc("rules.md")
    for name in ("track.toml", "deck.toml", "tickets.toml", "sidebets.toml", "game.toml"):
        assert name in rules
    from companion.rules.sidebets import load_side_bets
    for card in load_side_bets():
        assert f"`{card.id}`" in rules or card.id.startswith("bottom2-")


def test_spidev_bufsiz_agrees_with_the_install_script():
    script = (ROOT / "systemd" / "install.sh").read_text()
    installed = set(re.findall(r"spidev\.bufsiz=(\d+)", script))
    assert len(installed) == 1
    assert set(re.findall(r"spidev\.bufsiz=(\d+)", doc("pi.md"))) == installed


def test_led_wiring_text_uses_the_config_keys():
    from companion.kiosk.config import DEFAULT_TOML
    assert "pixels_per_space" in DEFAULT_TOML and "lanes" in DEFAULT_TOML
    pi = doc("pi.md")
    assert "`pixels_per_space`" in pi and "`[leds] lanes`" in pi
    for text in (pi, doc("config.md"), README):   # a lane's `per_space` is a config key (the calibration's)
        assert "`segments`" not in text


@pytest.mark.parametrize("command", sorted(subcommands()))
def test_the_readme_lists_the_command_with_every_option(command):
    lines = [line for line in README.splitlines() if line.startswith(f"- `hotstreak {command} ")
             or line.startswith(f"- `hotstreak {command}`")]
    assert len(lines) == 1, f"README.md has no line (or several) for hotstreak {command}"
    for option in long_options(subcommands()[command]):
        assert re.search(re.escape(option) + r"\b", lines[0]), f"hotstreak {command} {option} is not on its README line"


@pytest.mark.parametrize("command", sorted(subcommands()))
def test_the_command_reference_documents_every_option(command):
    sections = re.split(r"(?m)^## ", doc("cli.md"))
    section = next((s for s in sections if s.startswith(f"`hotstreak {command}`")), None)
    assert section, f"docs/cli.md has no section '## `hotstreak {command}`'"
    for option in long_options(subcommands()[command]):
        assert re.search(re.escape(option) + r"\b", section), f"hotstreak {command} {option} is not in docs/cli.md"


def config_reference() -> str:
    text = doc("config.md")
    start = text.index("with what each key means:\n\n```toml\n")
    return text[start:].split("```toml\n", 1)[1].split("```", 1)[0]


def test_the_config_reference_is_the_programs_own_defaults():
    from companion.kiosk.config import DEFAULT_TOML
    assert config_reference() == DEFAULT_TOML.rstrip("\n") + "\n"


def test_the_config_reference_holds_what_hotstreak_config_prints(monkeypatch):
    """The same keys and values as `hotstreak config` prints, but for the two paths it prints resolved."""
    from conftest import hotstreak_in_process
    for name in ("HOTSTREAK_CONFIG", "HOTSTREAK_HARDWARE"):
        monkeypatch.delenv(name, raising=False)
    result = hotstreak_in_process("config")
    assert result.returncode == 0, result.stderr
    printed, documented = tomllib.loads(result.stdout), tomllib.loads(config_reference())
    for key in ("journal", "cache"):
        assert Path(printed["paths"].pop(key)).is_absolute()
        assert documented["paths"].pop(key) == ""
    assert printed == documented


def test_heading_anchors_are_the_ones_github_makes():
    pi = anchors(DOCS / "pi.md")
    assert {"which-scanner", "the-services-sandbox-line-by-line", "hotstreak-doctor"} <= pi
    assert "Which scanner?" not in pi
