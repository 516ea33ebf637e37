"""Rule data files and card notation errors: bad input names itself and the expected form."""

import pytest

from companion.rules import Card, DataFileError, InvalidCardError, load_deck, load_track


def test_default_track_matches_rules_section_1():
    t = load_track()
    assert (t.lanes, t.spaces, t.finish_space, t.start_space) == (4, 14, 13, 3)
    assert t.stars == (1, 8, 13, 14) and t.fold_lines == (4, 7, 11) and t.reveals_per_pass == 15


def test_default_deck_has_53_cards_in_label_order():
    deck = load_deck()
    assert len(deck) == 53
    assert deck.by_code("HS02").card.notation() == "GR+2" and deck.by_code("HS02").starting
    assert deck.by_code("HS09").card.notation() == "G+1>"
    assert deck.by_code("HS31").card.notation() == "D+1<"
    assert [deck.by_code(c).card.notation() for c in ("HS45", "HS46", "HS51", "HS53")] == ["A+1", "A+1", "AR+2", "A-2"]
    assert len(deck.starting_cards) == 4


@pytest.mark.parametrize("text", ["", "X+1", "G", "G+0", "G+", "GQ", "H 3", "A+1+", "G*x"])
def test_bad_notation_names_the_text_and_expected_form(text):
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value) and "expected" in str(info.value)


def test_unknown_label_code_names_it():
    with pytest.raises(InvalidCardError, match="'HS99'.*HS01..HS53"):
        load_deck().by_code("HS99")


def test_track_file_lists_every_problem_with_key_paths(tmp_path):
    bad = tmp_path / "track.toml"
    bad.write_text('lanes = 0\nspaces = 14\nfinish_space = 13\nstart_space = 3\nstars = [1, 99]\n'
                   'fold_lines = [7, 4]\nfinal_stretch = 11\ncolour = "red"\n[lane]\ngobbler = 1\nhurley = 1\n'
                   'dangle = 3\nmum = 4\n')
    with pytest.raises(DataFileError) as info:
        load_track(bad)
    text = str(info.value)
    for key in ("lanes", "stars[1]", "fold_lines", "colour", "lane"):
        assert key in text
    assert len(info.value.problems) >= 5


def test_deck_file_lists_every_problem_with_key_paths(tmp_path):
    bad = tmp_path / "deck.toml"
    bad.write_text('[[card]]\ncode = "HS01"\nnotation = "GX"\n[[card]]\ncode = "HS01"\nnotation = "G+1"\n'
                   '[[card]]\ncode = "nope"\nnotation = "H+1"\nstarting = "yes"\n')
    with pytest.raises(DataFileError) as info:
        load_deck(bad)
    problems = info.value.problems
    assert any(p.startswith("card[0].notation") for p in problems)
    assert any(p.startswith("card[1].code") and "twice" in p for p in problems)
    assert any(p.startswith("card[2].code") for p in problems)
    assert any(p.startswith("card[2].starting") for p in problems)


def test_unreadable_or_invalid_toml_is_one_clear_error(tmp_path):
    with pytest.raises(DataFileError, match="cannot read"):
        load_track(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("lanes = = 4")
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_track(broken)
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes("# café\n".encode("latin-1"))
    with pytest.raises(DataFileError) as info:
        load_deck(latin1)
    assert str(info.value) == f"{latin1}: not UTF-8 text: byte 0xe9 at offset 5 (expected a TOML file saved as UTF-8)"


@pytest.mark.slow
def test_simulate_uses_a_users_track(tmp_path, run_cli):
    from importlib import resources
    text = resources.files("companion.rules").joinpath("data", "track.toml").read_text()
    short = tmp_path / "short.toml"
    short.write_text(text.replace("start_space = 3", "start_space = 10"))
    result = run_cli("simulate", "--json", "--track", str(short), "H+3", "H+1")
    assert result.returncode == 0, result.stderr
    assert '"hurley": 1' in result.stdout
    result = run_cli("simulate", "--track", str(tmp_path / "nope.toml"), "H+3")
    assert result.returncode == 2 and "nope.toml" in result.stderr
