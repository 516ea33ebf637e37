"""The LED backends against fake rpi_ws281x / spidev modules, the WS2812 SPI encoder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import types

import pytest

from hardware.leds import MockStrip, NullStrip, SpiWs2812Strip, Ws281xStrip, encode_ws2812, install_off_on_exit

RED, WHITE, OFF = (255, 0, 0), (255, 255, 255), (0, 0, 0)


# ----- mock strip -----------------------------------------------------------------------------------------
def test_mock_strip_records_frames_with_clock_and_goes_off_on_close():
    t = [5.0]
    with MockStrip(3, clock=lambda: t[0]) as strip:
        strip.show([RED])
        t[0] = 5.5
        strip.show([RED, WHITE, RED])
    assert [f.time for f in strip.frames] == [5.0, 5.5, 5.5]
    assert strip.frames[0].pixels == (RED, OFF, OFF)      # a short frame is padded with off
    assert strip.frames[1].pixels == (RED, WHITE, RED)
    assert strip.frames[-1].pixels == (OFF, OFF, OFF) and strip.closed


def test_bad_frames_are_refused_and_show_nothing():
    strip = MockStrip(2)
    with pytest.raises(ValueError, match="frame of 3 pixels is longer than the strip"):
        strip.show([RED] * 3)
    with pytest.raises(ValueError, match=r"pixel 1: \(256, 0, 0\) is not"):
        strip.show([RED, (256, 0, 0)])
    assert strip.frames == []


def test_mock_keep_bounds_history():
    strip = MockStrip(1, keep=2)
    for v in range(5):
        strip.show([(v, 0, 0)])
    assert [f.pixels[0][0] for f in strip.frames] == [3, 4]


def test_null_strip_is_a_quiet_no_op():
    s = NullStrip(10, "rpi_ws281x not installed")
    s.show([RED] * 99)
    s.close()
    assert s.status == "LEDs off: rpi_ws281x not installed"


def test_sigterm_turns_the_strip_off_then_exits():
    strip = MockStrip(2)
    strip.show([RED, RED])
    before = signal.getsignal(signal.SIGTERM)
    try:
        install_off_on_exit(strip)
        with pytest.raises(SystemExit) as exc:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs at the next bytecode boundary
                pass
        assert exc.value.code == 143
        assert strip.last == (OFF, OFF)
    finally:
        signal.signal(signal.SIGTERM, before)


def test_sigterm_handler_chains_to_the_previous_python_handler():
    strip = MockStrip(1)
    strip.show([WHITE])
    seen = []
    before = signal.signal(signal.SIGTERM, lambda s, f: seen.append(s))
    try:
        install_off_on_exit(strip)
        signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)
        assert seen == [signal.SIGTERM] and strip.last == (OFF,)
    finally:
        signal.signal(signal.SIGTERM, before)


# ----- rpi_ws281x backend with a fake module ----------------------------------------------------------------
class FakePixelStrip:
    instances: list["FakePixelStrip"] = []

    def __init__(self, num, pin, freq_hz=800000, dma=10, invert=False, brightness=255, channel=0,
                 strip_type=None, gamma=None):
        self.args = dict(num=num, pin=pin, freq_hz=freq_hz, dma=dma, invert=invert, brightness=brightness,
                         channel=channel, strip_type=strip_type)
        self.pixels = [None] * num
        self.shown: list[list] = []
        self.begun = self.cleaned = False
        FakePixelStrip.instances.append(self)

    def begin(self):
        self.begun = True

    def setPixelColorRGB(self, n, red, green, blue, white=0):
        self.pixels[n] = (red, green, blue)

    def show(self):
        self.shown.append(list(self.pixels))

    def _cleanup(self):
        self.cleaned = True


@pytest.fixture
def fake_ws281x(monkeypatch):
    mod = types.ModuleType("rpi_ws281x")
    mod.PixelStrip = FakePixelStrip
    mod.ws = types.SimpleNamespace(WS2811_STRIP_GRB=0x081000, WS2811_STRIP_RGB=0x100800,
                                   WS2811_STRIP_BRG=1, WS2811_STRIP_RBG=2, WS2811_STRIP_GBR=3, WS2811_STRIP_BGR=4)
    monkeypatch.setitem(sys.modules, "rpi_ws281x", mod)
    FakePixelStrip.instances.clear()
    return mod


def test_ws281x_defaults_and_frames(fake_ws281x):
    with Ws281xStrip(3, brightness=0.25) as strip:
        fake = FakePixelStrip.instances[0]
        assert fake.args == dict(num=3, pin=10, freq_hz=800_000, dma=10, invert=False, brightness=64, channel=0,
                                 strip_type=0x081000)
        assert fake.begun
        strip.show([RED, WHITE])
        assert fake.shown[-1] == [RED, WHITE, OFF]
        assert "GPIO10" in strip.status and "GRB" in strip.status
    assert fake.shown[-1] == [OFF, OFF, OFF] and fake.cleaned


def test_ws281x_rgb_order_and_bad_options(fake_ws281x):
    Ws281xStrip(1, order="rgb")
    assert FakePixelStrip.instances[-1].args["strip_type"] == 0x100800
    with pytest.raises(ValueError, match="colour order 'XYZ'"):
        Ws281xStrip(1, order="xyz")
    with pytest.raises(ValueError, match="brightness 1.5"):
        Ws281xStrip(1, brightness=1.5)
    with pytest.raises(ValueError, match="LED count 0"):
        Ws281xStrip(0)


def test_ws281x_without_the_library_raises_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)
    with pytest.raises(ImportError):
        Ws281xStrip(3)


# ----- a failed ws2811_init never crashes the process ---------------------------------------------------------
# Like the real library: the strip registers its cleanup with atexit (and in __del__) when it is made, and that
# cleanup runs ws2811_fini, which dies with SIGSEGV on a device whose init failed.
CRASHING_WS281X = """
import atexit, os, signal, types
ws = types.SimpleNamespace(WS2811_STRIP_GRB=0x081000, WS2811_STRIP_RGB=0x100800)
cleanups = []
CRASH = True   # False in-process: record the call instead of killing the test run
class PixelStrip:
    def __init__(self, num, pin, *args, **kwargs):
        self._leds = object()
        self._channel = object()
        atexit.register(self._cleanup)
    def __del__(self):
        self._cleanup()
    def begin(self):
        raise RuntimeError("ws2811_init failed with code -5 (mmap() failed)")
    def _cleanup(self):
        if self._leds is not None:
            cleanups.append(self)
            if CRASH:
                os.kill(os.getpid(), signal.SIGSEGV)   # ws2811_fini on a device whose init failed
"""


@pytest.fixture
def crashing_ws281x(tmp_path, monkeypatch):
    package = tmp_path / "fake" / "rpi_ws281x"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(CRASHING_WS281X)
    monkeypatch.syspath_prepend(str(tmp_path / "fake"))
    monkeypatch.delitem(sys.modules, "rpi_ws281x", raising=False)
    return tmp_path / "fake"


def test_failed_begin_raises_and_never_calls_the_library_cleanup(crashing_ws281x):
    import atexit
    import gc
    import rpi_ws281x
    rpi_ws281x.CRASH = False
    registered = []
    original = atexit.register
    atexit.register = lambda f, *a, **k: registered.append(f) or original(f, *a, **k)
    try:
        with pytest.raises(RuntimeError, match="ws2811_init failed with code -5"):
            Ws281xStrip(3)
    finally:
        atexit.register = original
    gc.collect()                                   # __del__ of the dropped strip: no cleanup either
    assert rpi_ws281x.cleanups == []
    assert len(registered) == 1
    registered[0]()                                # what atexit would run at exit: disarmed, does nothing
    assert rpi_ws281x.cleanups == []


@pytest.mark.slow  # a real process: 0.4-0.6 s here, more when the machine is busy
def test_leds_off_with_a_failed_ws281x_init_exits_1_without_a_crash(crashing_ws281x):
    from conftest import ROOT
    env = dict(os.environ, PYTHONPATH=f"{crashing_ws281x}{os.pathsep}{ROOT}")
    r = subprocess.run([sys.executable, "-m", "companion", "leds-off", "--hardware", "pi", "--led-backend", "ws281x"],
                       capture_output=True, text=True, env=env, timeout=60, cwd=ROOT)
    assert r.returncode == 1, (r.returncode, r.stderr)        # not -11 (SIGSEGV)
    assert "ws2811_init failed with code -5" in r.stderr
    assert "Traceback" not in r.stderr


# ----- WS2812 SPI encoder -----------------------------------------------------------------------------------
RESET3 = bytes(90)    # 300 us at 2.4 MHz = 720 bits
RESET8 = bytes(240)   # 300 us at 6.4 MHz = 1920 bits
ZERO3 = bytes([0x92, 0x49, 0x24])  # 100 100 100 100 100 100 100 100
ONE3 = bytes([0xDB, 0x6D, 0xB6])   # 110 110 110 110 110 110 110 110


def test_encode_pure_red_grb_3bit():
    assert encode_ws2812([RED]) == ZERO3 + ONE3 + ZERO3 + RESET3


def test_encode_white_and_off_3bit():
    assert encode_ws2812([WHITE]) == ONE3 * 3 + RESET3
    assert encode_ws2812([OFF]) == ZERO3 * 3 + RESET3


def test_encode_rgb_order_puts_red_first():
    assert encode_ws2812([RED], order="RGB") == ONE3 + ZERO3 + ZERO3 + RESET3


def test_encode_bit_order_msb_first():
    # green 0x80: one 1 bit then seven 0 bits -> 110 100 100 ... ; red/blue 0
    assert encode_ws2812([(0, 0x80, 0)], reset_us=0)[:3] == bytes([0xD2, 0x49, 0x24])
    assert encode_ws2812([(0, 0x01, 0)], reset_us=0)[:3] == bytes([0x92, 0x49, 0x26])


def test_encode_8bit_scheme():
    data = encode_ws2812([RED, OFF], bits=8)
    assert data[:24] == bytes([0xC0] * 8 + [0xF8] * 8 + [0xC0] * 8)
    assert data[24:48] == bytes([0xC0] * 24)
    assert data[48:] == RESET8


def test_encode_bad_scheme_or_order():
    with pytest.raises(ValueError, match="bits 4"):
        encode_ws2812([RED], bits=4)
    with pytest.raises(ValueError, match="colour order 'RGBW'"):
        encode_ws2812([RED], order="RGBW")


# ----- spidev backend with a fake module -----------------------------------------------------------------------
class FakeSpiDev:
    instances: list["FakeSpiDev"] = []

    def __init__(self):
        self.opened = None
        self.max_speed_hz = 0
        self.mode = None
        self.writes: list[bytes] = []
        self.closed = False
        FakeSpiDev.instances.append(self)

    def open(self, bus, device):
        self.opened = (bus, device)

    def writebytes2(self, data):
        self.writes.append(bytes(data))

    def close(self):
        self.closed = True


@pytest.fixture
def fake_spidev(monkeypatch):
    mod = types.ModuleType("spidev")
    mod.SpiDev = FakeSpiDev
    monkeypatch.setitem(sys.modules, "spidev", mod)
    FakeSpiDev.instances.clear()
    return mod


def test_spi_strip_writes_encoded_frames_and_off_on_close(fake_spidev):
    with SpiWs2812Strip(2, bits=3, brightness=1.0) as strip:
        spi = FakeSpiDev.instances[0]
        assert spi.opened == (0, 0) and spi.max_speed_hz == 2_400_000 and spi.mode == 0
        strip.show([RED])
        assert spi.writes[-1] == encode_ws2812([RED, OFF], bits=3)
    assert spi.writes[-1] == encode_ws2812([OFF, OFF], bits=3) and spi.closed


def test_spi_strip_brightness_cap_and_8bit_default(fake_spidev):
    strip = SpiWs2812Strip(1, brightness=0.5, bus=1, device=2)
    spi = FakeSpiDev.instances[0]
    assert spi.opened == (1, 2) and spi.max_speed_hz == 6_400_000
    strip.show([WHITE])
    assert spi.writes[-1] == encode_ws2812([(128, 128, 128)], bits=8)
    assert "spidev1.2" in strip.status


def test_spi_strip_without_device_raises(monkeypatch):
    class Missing(FakeSpiDev):
        def open(self, bus, device):
            raise FileNotFoundError(2, "No such file or directory")

    mod = types.ModuleType("spidev")
    mod.SpiDev = Missing
    monkeypatch.setitem(sys.modules, "spidev", mod)
    with pytest.raises(FileNotFoundError):
        SpiWs2812Strip(3)


def test_mock_window_draws_lanes_and_forwards_keys(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    keys: list[str] = []
    rows = [[0, 1, 2], [5, 4, 3]]  # two lanes of three pixels, the second folded back
    strip = MockStrip(6, window=True, rows=rows, on_key=keys.append)
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u))
        strip.show([RED] * 6)
        surface = pygame.display.get_surface()
        assert surface.get_at((4 + 9, 4 + 9))[:3] == RED  # first pixel of lane 1 drawn in red
        assert keys == ["u"]
    finally:
        strip.close()


def test_mock_window_is_laid_out_again_for_a_new_lane_map(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    strip = MockStrip(8, window=True, rows=[[0, 1, 2, 3], [4, 5, 6, 7]])
    try:
        strip.show([RED, OFF, OFF, OFF, OFF, OFF, OFF, OFF])
        before = pygame.display.get_surface().get_size()
        strip.set_rows([[7, 6], [5, 4], [3, 2], [1, 0]])     # four lanes of two, folded: pixel 0 is lane 4's last
        surface = pygame.display.get_surface()
        assert surface.get_size() != before and surface.get_size() == (2 * 18 + 8, 4 * 24 + 8)
        assert surface.get_at((4 + 18 + 9, 4 + 3 * 24 + 9))[:3] == RED   # the last frame, redrawn in the new rows
        with pytest.raises(ValueError, match="pixel 8 is not on the strip"):
            strip.set_rows([[8]])
    finally:
        strip.close()
    MockStrip(4).set_rows([[0, 1], [2, 3]])   # without a window: nothing to lay out


# ----- all off is the last frame on every exit path ----------------------------------------------------------
class WatchedPixelStrip(FakePixelStrip):
    """A fake rpi_ws281x strip that counts what the real one would do after its memory is freed."""

    during_show = None  # called inside show(), e.g. to deliver a signal in the middle of a frame

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.after_cleanup = 0

    def setPixelColorRGB(self, n, red, green, blue, white=0):
        self.after_cleanup += self.cleaned
        super().setPixelColorRGB(n, red, green, blue, white)

    def show(self):
        self.after_cleanup += self.cleaned
        super().show()
        if WatchedPixelStrip.during_show is not None:
            hook, WatchedPixelStrip.during_show = WatchedPixelStrip.during_show, None
            hook()


@pytest.fixture
def watched(fake_ws281x, monkeypatch):
    fake_ws281x.PixelStrip = WatchedPixelStrip
    before = signal.getsignal(signal.SIGTERM)
    yield
    WatchedPixelStrip.during_show = None
    signal.signal(signal.SIGTERM, before)


def test_sigterm_in_a_kiosk_loop_ends_with_all_off_and_nothing_after_cleanup(watched):
    import threading
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda s, f: stop.set())   # what the kiosk installs first
    strip = Ws281xStrip(3, brightness=1.0)
    install_off_on_exit(strip)
    frames = 0
    while not stop.is_set():                                   # the main loop keeps rendering frames
        strip.show([RED] * 3)
        frames += 1
        if frames == 3:
            os.kill(os.getpid(), signal.SIGTERM)
    strip.show([RED] * 3)      # a sink rendering once more on the way out
    strip.close()              # the kiosk's close
    strip.close()              # the atexit close: nothing more
    signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)    # a second SIGTERM after the cleanup
    fake = WatchedPixelStrip.instances[-1]
    assert fake.cleaned and fake.after_cleanup == 0
    assert fake.shown[-1] == [OFF] * 3


def test_sigterm_in_the_middle_of_a_frame_exits_with_all_off_last(watched):
    strip = Ws281xStrip(2, brightness=1.0)
    install_off_on_exit(strip)                                 # no earlier handler: SystemExit(143)
    handler = signal.getsignal(signal.SIGTERM)
    WatchedPixelStrip.during_show = lambda: handler(signal.SIGTERM, None)
    with pytest.raises(SystemExit) as exc:
        try:
            strip.show([WHITE, WHITE])                          # the signal lands inside this write
        finally:
            strip.close()
    assert exc.value.code == 143
    fake = WatchedPixelStrip.instances[-1]
    assert fake.shown[-1] == [OFF, OFF] and fake.cleaned and fake.after_cleanup == 0
    assert strip.closed
