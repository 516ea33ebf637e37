"""`hotstreak leds-off`: a no-op success on mock; a clear failure when the real strip cannot open."""

from __future__ import annotations

import pytest

from conftest import hotstreak


@pytest.mark.slow
def test_leds_off_on_mock_succeeds():
    r = hotstreak("leds-off", "--hardware", "mock")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("LEDs off (LEDs: mock strip of 300 pixels")


@pytest.mark.slow
def test_leds_off_mode_from_env_and_count():
    r = hotstreak("leds-off", "--led-count", "56", env={"HOTSTREAK_HARDWARE": "mock"})
    assert r.returncode == 0 and "mock strip of 56 pixels" in r.stdout


@pytest.mark.slow
@pytest.mark.parametrize("count", ["0", "10001", "1000000000"])
def test_leds_off_count_out_of_range_is_a_one_line_error(count):
    r = hotstreak("leds-off", "--hardware", "mock", "--led-count", count)
    assert r.returncode == 2
    assert r.stderr == f"hotstreak leds-off: --led-count {count} is out of range (expected 1..10000 pixels)\n"


@pytest.mark.slow
def test_leds_off_on_pi_without_the_library_says_why():
    # this desktop has neither rpi_ws281x nor spidev: the strip cannot open
    r = hotstreak("leds-off", "--hardware", "pi", "--led-backend", "ws281x")
    assert r.returncode == 1
    assert "rpi_ws281x not installed" in r.stderr


def test_leds_off_after_the_service_reads_the_services_config(tmp_path, monkeypatch):
    # ExecStopPost= runs `hotstreak leds-off` with no --config: it reads /etc/hotstreak/config.toml through
    # $CONFIGURATION_DIRECTORY, as the service did, so a longer strip than 300 pixels goes dark to its end.
    from conftest import hotstreak_in_process
    monkeypatch.setenv("CONFIGURATION_DIRECTORY", str(tmp_path))
    monkeypatch.delenv("HOTSTREAK_CONFIG", raising=False)
    (tmp_path / "config.toml").write_text("[leds]\ncount = 400\n")
    r = hotstreak_in_process("leds-off", "--hardware", "mock")
    assert r.returncode == 0 and "mock strip of 400 pixels" in r.stdout, r.stderr
