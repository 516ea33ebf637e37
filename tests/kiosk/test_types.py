"""The typed keyword-field lists stay in step with what they describe, and no sink attribute hides a Sink method."""

from __future__ import annotations

import dataclasses
import inspect
import logging
from types import SimpleNamespace

from companion.kiosk.controller import Controller
from companion.kiosk.journal import Journal
from companion.screen.model import ScreenFields, ScreenModel
from companion.screen.table_model import ViewOptions, from_view
from companion.web.sink import WebSink


def test_screen_fields_name_every_field_of_the_screen_model():
    assert set(ScreenFields.__annotations__) == {f.name for f in dataclasses.fields(ScreenModel)}


def test_view_options_name_every_option_of_from_view():
    options = {name for name, p in inspect.signature(from_view).parameters.items() if p.kind is p.KEYWORD_ONLY}
    assert set(ViewOptions.__annotations__) == options


def test_a_notice_reaches_the_web_sink_without_a_failure(caplog):
    posted = []
    hub = SimpleNamespace(publish=lambda *args: None, outcome=lambda *args: None)
    sink = WebSink(post=lambda fn, *args: posted.append(args), hub=hub)
    controller = Controller(Journal(":memory:"), sinks=[sink], notices=["The journal was replaced"])
    with caplog.at_level(logging.ERROR):
        controller.step()
    assert not [r for r in caplog.records if "failed" in r.getMessage()]
    assert controller.notices == [] and posted  # the notice was handed out and the page published
