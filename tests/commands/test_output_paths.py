"""Every command that writes a file refuses a bad output path with one line and exit status 2."""

import os

import pytest

from conftest import hotstreak


@pytest.mark.slow
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


@pytest.mark.slow
def test_folders_and_binary_files_are_named_for_what_they_are(tmp_path):
    for command in (["status", "--db", str(tmp_path)], ["history", "--db", str(tmp_path)]):
        result = hotstreak(*command)
        assert result.returncode == 2 and "is a folder" in result.stderr, result.stderr
    result = hotstreak("demo", "--headless", "--script", str(tmp_path))
    assert result.returncode == 2 and "is a folder" in result.stderr
    binary = tmp_path / "script.bin"
    binary.write_bytes(b"\xda\xff\x00HS15\n")
    result = hotstreak("demo", "--headless", "--script", str(binary))
    assert result.returncode == 2 and "is not a text file" in result.stderr and str(binary) in result.stderr
    result = hotstreak("screenshot", "--screen", "race", "--size", "100000x100000", "--out", str(tmp_path / "x.png"))
    assert result.returncode == 2 and "to 7680x7680" in result.stderr
