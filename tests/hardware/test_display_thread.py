"""A screen that is not a desktop window lives on a thread of its own: opening it, every flip, every read of its
events and closing it run there (KMSDRM's EGL context belongs to one thread: flipped from another, every frame
failed with EGL_BAD_ACCESS under systemd in qemu), and a display that stops answering is given up, not waited on."""

from __future__ import annotations

import threading

import pytest

from hardware.display import NullDisplay, PygameDisplay, open_display
from hardware.display_thread import DisplayThread


def test_every_sdl_call_of_a_threaded_display_runs_on_its_own_thread(monkeypatch):
    import pygame
    seen: list[tuple[str, str]] = []
    for name in ("init", "set_mode", "flip", "quit"):
        real = getattr(pygame.display, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            seen.append((_name, threading.current_thread().name))
            return _real(*args, **kwargs)
        monkeypatch.setattr(pygame.display, name, spy)
    real_get = pygame.event.get
    monkeypatch.setattr(pygame.event, "get", lambda *a, **k: seen.append(("events", threading.current_thread().name))
                        or real_get(*a, **k))
    display = open_display("dummy", (320, 200), start_timeout=5)
    assert isinstance(display, PygameDisplay) and display.thread is not None
    display.surface.fill((200, 0, 0))  # drawing is the caller's: memory, not SDL's video calls
    display.present()
    display.poll()
    display.close()
    assert [name for name, _ in seen] == ["init", "set_mode", "flip", "events", "events", "quit"]
    assert {thread for _, thread in seen} == {"display"}


def test_a_display_without_a_start_timeout_stays_on_the_callers_thread():
    display = open_display("dummy", (320, 200))
    try:
        assert isinstance(display, PygameDisplay) and display.thread is None
    finally:
        display.close()


def test_a_display_that_does_not_open_in_time_is_a_null_display_saying_so():
    release = threading.Event()
    thread = DisplayThread()
    with pytest.raises(RuntimeError, match="did not start"):
        thread.start(lambda: release.wait(30), timeout=0.05, late="the kmsdrm display did not start within 0.05 s")
    release.set()
    with pytest.raises(RuntimeError, match="given up"):
        thread.run(lambda: "never run")


def test_a_frame_that_hangs_gives_the_display_up_and_later_frames_are_not_queued_behind_it():
    release = threading.Event()
    ran: list[str] = []
    thread = DisplayThread(call_timeout=0.05)
    assert thread.start(lambda: "open", timeout=5, late="late") == "open"
    with pytest.raises(RuntimeError, match="did not answer within 0.05 s"):
        thread.run(lambda: release.wait(30))
    for _ in range(3):
        with pytest.raises(RuntimeError, match="given up"):
            thread.run(lambda: ran.append("frame"))
    release.set()
    assert thread._calls.qsize() <= 1 and ran == []  # at most the stop: no frame waits on the hung thread


def test_an_error_of_a_call_is_the_callers_and_the_thread_goes_on():
    thread = DisplayThread()
    thread.start(lambda: None, timeout=5, late="late")

    def broken():
        raise ValueError("no such mode")
    with pytest.raises(ValueError, match="no such mode"):
        thread.run(broken)
    assert thread.run(lambda: "next frame") == "next frame"
    thread.stop()


def test_a_display_that_cannot_open_on_its_thread_is_a_null_display(monkeypatch):
    import hardware.display

    def refuse(*args, **kwargs):
        raise RuntimeError("kmsdrm not available")
    monkeypatch.setattr(hardware.display, "PygameDisplay", refuse)
    display = open_display("kmsdrm", start_timeout=5)
    assert isinstance(display, NullDisplay) and display.reason == "cannot open a kmsdrm display (kmsdrm not available)"
