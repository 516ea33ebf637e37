"""The phone page's words come from the table: ``GET /api/words?lang=xx`` serves the ``[phone]`` section of the
phrase catalogue, and the page (which holds no phrase table) shows them in the table's language."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from companion.catalogue import LANGUAGES, load_catalogue
from tests.browser import available, phone_browser
from webtable import LiveTable


def get(table: LiveTable, path: str, host: str | None = None) -> tuple[int, object]:
    request = urllib.request.Request(table.url + path, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_words_of_each_language_are_served_and_nothing_else():
    with LiveTable() as table:
        table.scan("HS-NEW", "HS-PLAYERS-3", "HS-GO")
        table.wait_idle()
        for lang in LANGUAGES:
            status, words = get(table, f"api/words?lang={lang}")
            assert status == 200 and words == load_catalogue(lang).phone
        assert get(table, "api/words") == (200, load_catalogue("en").phone)  # no language asked: English
        join = (table.controller.view.join_url or "").split("?join=")[1]
        assert join and all(join not in json.dumps(get(table, f"api/words?lang={lang}")[1]) for lang in LANGUAGES)
        status, answer = get(table, "api/words?lang=fr" + "x" * 500)
        assert status == 400 and isinstance(answer, dict) and answer["ok"] is False
        assert answer["error"] == "no language 'frxxxxxxxxxxxxxx' (expected one of: en, nl, es)"  # bounded
        status, answer = get(table, "api/words?lang=nl", host="evil.example")  # a DNS-rebound page reads nothing
        assert status == 403 and isinstance(answer, dict) and answer["ok"] is False


@pytest.mark.slow  # a real browser: over 1 s
@pytest.mark.skipif(available() is not None, reason=available() or "")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_shows_the_catalogue_s_words_in_the_table_s_language(lang, tmp_path):
    from selenium.webdriver.support.ui import WebDriverWait
    words = load_catalogue(lang).phone
    picks = words["picks"].format(name=load_catalogue(lang).words["seat"].format(n=1))
    with LiveTable(language=lang) as table:
        table.scan("HS-NEW", "HS-PLAYERS-3", "HS-GO")
        table.wait_idle()
        phone = phone_browser(tmp_path / "profile")
        try:
            phone.get(table.url)
            WebDriverWait(phone, 60).until(lambda b: b.find_element("id", "phase").text == picks,
                                           f"the phase never read {picks!r}")
            assert phone.execute_script("return document.documentElement.lang") == lang
            shown = phone.execute_script(
                "return [...document.querySelectorAll('[data-t]')].map((e) => [e.dataset.t, e.textContent])")
            assert len(shown) > 10
            assert [[key, words[key]] for key, _ in shown] == shown  # every labelled element in its words
            options = [o.text for o in phone.find_elements("css selector", "#join-seat option")]
            assert options == [words["seat"].format(n=n) for n in (1, 2, 3)]  # drawn again when the words came
        finally:
            phone.quit()
