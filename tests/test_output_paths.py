"""Every command that writes a file refuses a bad output path with one line and exit status 2."""

import os

import pytest

from conftest import hotstreak


@pytest.mark.parametrize("command, suffix", [(["labels"], ".pdf"), (["screenshot", "--screen", "race"], ".png")])
def test_bad_output_paths_are_one_line_and_exit_2(tmp_path, command, suffix):
    cases = {
        str(tmp_path): "is a folder",
        str(tmp_path / "missing" / f"x{suffix}"): "does not exist",
        str(tmp_path / "x.txt"): f"does not end in {suffix}",
        "": "is empty",
    }
    for out, message in cases.items():
        result = hotstreak(*command, "--out", out)
        assert result.returncode == 2, (out, result.stderr)
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o500)
    result = hotstreak("labels", "--out", str(folder / "x.pdf"))
    assert result.returncode == 2 and "no permission" in result.stderr


def test_an_os_error_while_writing_is_one_line(tmp_path, monkeypatch):
    from companion import cli

    def boom(args):
        raise PermissionError(13, "Permission denied", str(tmp_path / "x.pdf"))
    monkeypatch.setattr("companion.commands.labels.run", boom)
    assert cli.main(["labels", "--out", str(tmp_path / "x.pdf")]) == 2
