"""The README tells the truth: its two set-up commands are the ones CI runs, it links the project's own rules
document and nothing outside the repository, its figures agree with the files they describe, and every option
of `run` and `odds` is documented."""

from __future__ import annotations

import re
import subprocess

import pytest

from companion.cli import build_parser
from conftest import ROOT

README = (ROOT / "README.md").read_text()


def setup_command(name: str) -> str:
    """The one line of the ```sh block after the `<!-- setup:NAME` marker."""
    after = README.split(f"<!-- setup:{name}", 1)[1]
    block = re.search(r"^```sh\n(.*?)^```$", after, re.S | re.M)
    assert block, f"no sh block after setup:{name}"
    lines = block.group(1).strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


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


def test_readme_stays_inside_the_repository_and_links_the_rules_document():
    outside = "/".join(("..", "shared"))  # spelled in parts: no file in tests/ names that folder literally
    assert outside not in README and "".join(("RULES", ".md")) not in README  # nor that file
    assert "[docs/rules.md](docs/rules.md)" in README
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README):  # relative links and images
        assert (ROOT / target).exists(), target


def test_rules_document_names_every_data_file_and_side_bet():
    rules = (ROOT / "docs" / "rules.md").read_text()
    for name in ("track.toml", "deck.toml", "tickets.toml", "sidebets.toml", "game.toml"):
        assert name in rules
    from companion.rules.sidebets import load_side_bets
    for card in load_side_bets():
        assert f"`{card.id}`" in rules or card.id.startswith("bottom2-")


def test_spidev_bufsiz_agrees_with_the_install_script():
    script = (ROOT / "systemd" / "install.sh").read_text()
    installed = set(re.findall(r"spidev\.bufsiz=(\d+)", script))
    assert len(installed) == 1
    assert set(re.findall(r"spidev\.bufsiz=(\d+)", README)) == installed


def test_led_wiring_text_uses_the_config_keys():
    from companion.kiosk.config import DEFAULT_TOML
    assert "pixels_per_space" in DEFAULT_TOML and "lanes" in DEFAULT_TOML
    assert "`pixels_per_space`" in README and "`[leds] lanes`" in README
    assert "`per_space`" not in README and "`segments`" not in README


@pytest.mark.parametrize("command", ["run", "odds", "simulate"])
def test_every_option_of_the_command_is_in_the_readme(command):
    parser = build_parser(command)
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    for action in sub._actions:
        for option in action.option_strings:
            if option.startswith("--") and option != "--help":
                assert option in README, f"hotstreak {command} {option} is not in README.md"


def test_the_config_reference_is_the_programs_own_defaults():
    from companion.kiosk.config import DEFAULT_TOML
    start = README.index("The full reference with the defaults:\n\n```toml\n")
    block = README[start:].split("```toml\n", 1)[1].split("```", 1)[0]
    assert block == DEFAULT_TOML.rstrip("\n") + "\n"
