"""The phone page in a real browser (Debian's chromium, headless, driven by Selenium) against a live table.

Set HOTSTREAK_SCREENSHOTS=docs to save the phone views shown in docs/screen.md (docs/web-*.png).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import available, phone_browser
from webtable import LiveTable

pytestmark = pytest.mark.skipif(available() is not None, reason=available() or "")

ODDS = {"gobbler": (0.31, 0.27, 0.24, 0.18), "hurley": (0.22, 0.26, 0.27, 0.25),
        "dangle": (0.18, 0.22, 0.25, 0.35), "mum": (0.29, 0.25, 0.24, 0.22)}
DRAFT = ("HS-T-HURLEY-1-R", "HS-T-MUM-1-S", "HS-T-DANGLE-1-S", "HS-T-GOBBLER-1-S",   # seats 1 2 3 4
         "HS-T-YES-1-S", "HS-T-NO-1-R", "HS-T-HURLEY-2-S", "HS-T-MUM-2-R")           # seats 4 3 2 1
WAIT = 60  # s: a deadline for a hang only; chromium on a loaded machine can take many seconds


@pytest.fixture
def shots(tmp_path):
    where = os.environ.get("HOTSTREAK_SCREENSHOTS")
    folder = Path(where) if where else tmp_path
    folder.mkdir(parents=True, exist_ok=True)

    def save(browser, name: str) -> Path:
        path = folder / f"web-{name}.png"
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(412, min(max(915, height), 2400))
        browser.save_screenshot(str(path))
        browser.set_window_size(412, 915)
        return path
    return save


@pytest.fixture
def phones(tmp_path):
    opened = []

    def phone():
        browser = phone_browser(tmp_path / f"profile{len(opened)}")
        opened.append(browser)
        return browser
    yield phone
    for browser in opened:
        browser.quit()


def wait_text(browser, element_id: str, text: str) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(lambda b: text in b.find_element("id", element_id).text,
                                       f"#{element_id} never showed {text!r}")


def qr(table: LiveTable) -> str:
    """The URL the screen's QR code holds (``...?join=CODE``): what a phone's camera opens."""
    url = table.controller.view.join_url
    assert url and "?join=" in url
    return url


def claim(browser, seat: int, name: str) -> None:
    from selenium.webdriver.support.ui import Select, WebDriverWait
    # the page fills the seat list from its first view: on a busy machine that may come after the page loaded
    WebDriverWait(browser, 30).until(lambda b: b.find_elements("css selector", f"#join-seat option[value='{seat}']"))
    Select(browser.find_element("id", "join-seat")).select_by_value(str(seat))
    browser.find_element("id", "join-name").send_keys(name)
    browser.find_element("id", "join-btn").click()
    wait_text(browser, "me-name", name)


def fetch(browser, path: str, body: dict) -> dict:
    """POST from inside the page (same origin, the page's own token)."""
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify(arguments[1])}).then(r => r.json()).then(done, e => done({error: String(e)}));",
        path, body)


@pytest.mark.slow
def test_claim_a_seat_follow_the_race_and_get_refused_for_another_seat(phones, shots):
    with LiveTable(odds=lambda: ODDS) as table:
        table.scan("HS-NEW", "HS-PLAYERS-4", "HS-GO")
        table.wait_idle()
        ann = phones()
        ann.get(qr(table))
        wait_text(ann, "phase", "Seat 1 picks")
        shots(ann, "join")
        claim(ann, 1, "Ann")
        assert table.controller.view.seat_name(0) == "Ann"  # the name reached the table (and the big screen)
        wait_text(ann, "phase", "Your pick!")
        table.scan(*DRAFT)
        wait_text(ann, "tickets", "Mum middle · risky")
        lines = ann.find_element("id", "tickets").text.splitlines()  # hurley top risky: .22*15 + .26*5 + .27*2
        assert lines == ["Hurley top · risky", "≈ $5.1", "Mum middle · risky", "≈ $4.2"]
        table.scan("HS-GO", "HS-GO", "HS15")  # adding cards, GO, the first revealed card
        wait_text(ann, "last-card", "Last card")
        card, code = table.controller.table.game.race.cards[-1]
        shown = ann.find_element("id", "last-card").text
        assert shown == "Last card: Hurley 3 ahead" and card.notation() == "H+3"  # words, never H+3 or HS15
        assert code not in ann.find_element("tag name", "body").text
        wait_text(ann, "phase", "Racing!")
        shots(ann, "race")

        bo = phones()  # a second phone: seat 1 is taken
        bo.get(qr(table))
        wait_text(bo, "money", "Ann")
        assert not bo.find_element("css selector", "#join-seat option[value='1']").is_enabled()
        assert bo.execute_script("return location.search") == ""  # the join code left the address bar
        answer = fetch(bo, "/api/claim", {"seat": 1, "name": "Mallory", "join": qr(table).split("=")[1]})
        assert answer == {"ok": False, "error": "seat 1 is not yours (expected the phone that claimed seat 1)",
                          "reason": "not-yours", "line": "That seat isn't yours."}
        mine = ann.execute_script("return JSON.parse(localStorage.getItem('hotstreak-seat'))")
        answer = fetch(ann, "/api/leave", {"seat": 2, "token": mine["token"]})  # Ann's token, Bo's seat
        assert answer["error"] == "seat 2 is not yours (expected the phone that claimed seat 2)"
        assert table.controller.view.seat_name(0) == "Ann" and table.controller.view.seat_name(1) == "Seat 2"


@pytest.mark.slow
def test_the_page_reconnects_and_keeps_the_seat(phones):
    with LiveTable(language="nl") as table:
        table.scan("HS-NEW", "HS-PLAYERS-3", "HS-GO")
        table.wait_idle()
        phone = phones()
        phone.get(qr(table))
        wait_text(phone, "phase", "Speler 1 kiest")  # the kiosk language
        claim(phone, 2, "Bo")
        phone.execute_script("ws.close()")  # the phone slept and its connection died
        table.scan("HS-T-HURLEY-1-S")
        wait_text(phone, "phase", "Jij kiest!")  # seat 2's turn: back live, seat kept from localStorage
        phone.refresh()
        wait_text(phone, "me-name", "Bo")


@pytest.mark.slow
def test_place_an_open_variant_bet_on_the_phone(phones, shots):
    with LiveTable(odds=lambda: ODDS) as table:
        table.scan("HS-NEW", "HS-PLAYERS-9", "HS-GO")
        table.wait_idle()
        phone = phones()
        phone.get(qr(table))
        claim(phone, 3, "Cy")
        phone.find_element("css selector", "#bet-mascots button[data-mascot='dangle']").click()
        phone.find_element("css selector", "#bet-answer button[data-answer='no']").click()
        phone.find_element("id", "bet-btn").click()
        wait_text(phone, "my-bet", "Dangle + NO")
        bet = table.controller.table.game.book.seat(2)
        assert (bet.mascot.value, bet.answer) == ("dangle", False)
        assert [e.text for e in table.journal.effective()[-2:]] == ["HS-BET-3-DANGLE", "HS-BET-3-NO"]
        shots(phone, "open-bet")
        phone.find_element("css selector", "#bet-answer button[data-answer='yes']").click()  # a change of mind
        phone.find_element("id", "bet-btn").click()
        wait_text(phone, "my-bet", "Dangle + YES")
        assert table.journal.effective()[-1].text == "HS-BET-3-YES"  # only what changed is sent
        others = [f"HS-BET-{n}-{bet}" for n in range(1, 10) if n != 3 for bet in ("HURLEY", "NO")]
        table.scan(*others, "HS-GO")  # every seat has bet: GO closes betting, the race starts
        table.wait_idle()
        assert table.controller.table.phase == "racing"
        token = phone.execute_script("return JSON.parse(localStorage.getItem('hotstreak-seat')).token")
        answer = fetch(phone, "/api/bet", {"seat": 3, "token": token, "mascot": "mum", "answer": "yes"})
        assert answer == {"ok": False, "error": "betting is closed (the table is in racing; expected betting)",
                          "reason": "wrong-time", "line": "Not now."}


@pytest.mark.slow
def test_a_seat_named_at_the_kiosk_is_claimed_with_the_code_on_the_screen(phones):
    from selenium.webdriver.support.ui import Select, WebDriverWait
    from companion.screen.table_model import from_view
    with LiveTable(language="nl") as table:
        table.scan("HS-NEW", "HS-PLAYERS-3", "HS-GO", "HS-NAME-2:Dora")
        table.wait_idle()
        code = from_view(table.controller.view).seats[1].name.rsplit(" · ", 1)[1]  # beside seat 2 on the screen
        phone = phones()
        phone.get(qr(table))
        wait_text(phone, "phase", "Speler 1 kiest")
        box = phone.find_element("id", "join-code")
        Select(phone.find_element("id", "join-seat")).select_by_value("1")
        assert not box.is_displayed()  # a free, unnamed seat: the first phone takes it
        Select(phone.find_element("id", "join-seat")).select_by_value("2")
        assert box.is_displayed() and box.get_attribute("placeholder") == "Code op het scherm"
        phone.find_element("id", "join-name").send_keys("Dora")
        box.send_keys("000000" if code != "000000" else "111111")
        phone.find_element("id", "join-btn").click()
        WebDriverWait(phone, WAIT).until(lambda b: b.find_element("id", "notice").is_displayed())
        assert table.controller.view.seat_name(1) == "Dora" and phone.find_element("id", "join").is_displayed()
        box.clear()
        box.send_keys(code)
        phone.find_element("id", "join-btn").click()
        wait_text(phone, "me-name", "Dora")
        # a token that no longer counts (another journal): the phone is told to pick its seat again
        phone.execute_script("localStorage.setItem('hotstreak-seat', JSON.stringify({seat: 2, token: 'f'.repeat(32)}))")
        phone.execute_async_script("const done = arguments[arguments.length - 1];"
                                   "post('/api/leave', {seat: 2, token: 'f'.repeat(32)}).then(done);")
        wait_text(phone, "notice", "kies je plek opnieuw")
        assert phone.execute_script("return localStorage.getItem('hotstreak-seat')") is None


@pytest.mark.slow
def test_a_phone_without_the_join_code_is_asked_for_it_and_the_dealer_takes_its_seat_back(phones):
    with LiveTable() as table:
        table.scan("HS-NEW", "HS-PLAYERS-3", "HS-GO")
        table.wait_idle()
        phone = phones()
        phone.get(table.url)  # the address typed from the screen, without the code
        wait_text(phone, "phase", "Seat 1 picks")
        key = phone.find_element("id", "join-key")
        assert key.is_displayed() and key.get_attribute("placeholder") == "Join code"
        phone.find_element("id", "join-name").send_keys("Ann")
        phone.find_element("id", "join-btn").click()
        wait_text(phone, "notice", "Type the join code shown under the QR code on the table's screen")
        assert table.controller.view.seat_name(0) == "Seat 1"
        key.send_keys(qr(table).split("=")[1].lower())
        phone.find_element("id", "join-btn").click()
        wait_text(phone, "me-name", "Ann")
        assert not key.is_displayed()  # kept on the phone for the rest of the game
        table.scan("HS-NAME-1:Annabel")  # the Dealer names seat 1 at the kiosk
        wait_text(phone, "notice", "The Dealer took your seat back at the table")
        assert phone.execute_script("return localStorage.getItem('hotstreak-seat')") is None


CONTRAST = """
const lum = (c) => { const [r, g, b] = c.match(/[0-9.]+/g).slice(0, 3).map((x) => { x /= 255;
  return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const opaque = (c) => !/rgba\\(.*,\\s*0\\)$/.test(c) && c !== "transparent";
const out = [];
for (const el of document.querySelectorAll("body *")) {
  if (el.closest("svg") || !el.getClientRects().length) continue;
  if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
  const st = getComputedStyle(el);
  let bg = null;
  for (let e = el; e; e = e.parentElement) { const b = getComputedStyle(e).backgroundColor; if (opaque(b)) { bg = b; break; } }
  bg = bg || getComputedStyle(document.documentElement).backgroundColor;
  let faded = false;
  for (let e = el; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) faded = true;
  const [a, b] = [lum(st.color), lum(bg)].sort((x, y) => y - x);
  const size = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
  const least = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
  const ratio = (a + 0.05) / (b + 0.05);
  out.push({text: el.textContent.trim().slice(0, 30), ratio, least, faded, color: st.color, bg});
}
return out;
"""


def text_contrast(browser) -> list[dict]:
    """Every visible text element outside the track's SVG: its contrast ratio on its nearest opaque background."""
    return browser.execute_script(CONTRAST)


@pytest.mark.slow
def test_the_pick_shows_the_stacks_the_track_is_drawn_and_every_text_reads_at_aa(phones, shots):
    with LiveTable(odds=lambda: ODDS) as table:
        table.scan("HS-NEW", "HS-PLAYERS-4", "HS-GO", *DRAFT[:2])  # seat 3's pick
        table.wait_idle()
        cy, dev = phones(), phones()
        for phone in (cy, dev):
            phone.get(qr(table))
        claim(cy, 3, "Cy")
        claim(dev, 4, "Dev")
        wait_text(cy, "phase", "Your pick!")
        wait_text(dev, "phase", "Cy picks")
        assert not dev.find_element("id", "pick").is_displayed()  # only the seat whose pick it is sees its stacks
        rows = {r.get_attribute("data-stack"): r.text for r in cy.find_elements("css selector", "#stacks tr.stack")}
        assert list(rows) == ["gobbler", "hurley", "dangle", "mum", "yes", "no"]
        assert rows["hurley"].split() == ["Hurley", "middle", "·", "2", "left", "safe", "$7", "$5", "$3", "$3.6"]
        assert rows["gobbler"].split()[-4:] == ["$10", "$7", "$5", "$6.2"]  # .31*10 + .27*7 + .24*5 (top ticket)
        risky = cy.find_elements("css selector", "#stacks tr.risky[data-stack='gobbler'] td")
        assert [td.text for td in risky] == ["risky", "$15", "$5", "$2", "$6.5"]
        best = cy.find_element("css selector", "#stacks td.ev.best").text
        assert best == "$6.5"  # the highest expected value is marked: .31*15 + .27*5 + .24*2
        assert "YES" in rows["yes"] and "+$15" in cy.find_element("id", "stacks").text
        head = [th.text for th in cy.find_elements("css selector", "#odds th")]
        assert head == ["", "1st", "2nd", "3rd"] and "before the first card" in cy.find_element("id", "odds-when").text
        assert cy.find_element("css selector", "#odds tr[data-mascot='hurley']").text.split()[-4:] == ["Hurley", "22%", "26%", "27%"]
        bad = [t for t in text_contrast(cy) if t["ratio"] < t["least"] or t["faded"]]
        assert not bad, bad
        shots(cy, "pick")

        table.scan(*DRAFT[2:], "HS-GO", "HS-GO", "HS15", "HS04", "HS10", "HS02")
        table.wait_idle()
        wait_text(cy, "phase", "Racing!")
        wait_text(cy, "pass", "card 4/")
        svg = cy.find_element("id", "track-svg")
        assert len(svg.find_elements("css selector", "rect.sp")) == 4 * 14
        drawn = {g.get_attribute("data-mascot"): g for g in svg.find_elements("css selector", "g.mascot")}
        racing = {m.mascot.value: m for m in table.controller.table.game.race.state.mascots if m.status.value == "racing"}
        assert set(drawn) == set(racing)
        for name, m in racing.items():
            assert drawn[name].find_element("css selector", "text").text == name[0].upper()
            assert (drawn[name].get_attribute("data-fallen") == "1") == m.fallen
        assert svg.find_elements("css selector", ".chq-light") and svg.find_elements("css selector", ".star")
        assert len(svg.find_elements("css selector", "line.fold")) == 3
        fill = cy.execute_script("return getComputedStyle(document.querySelector('#track-svg .f-dangle')).fill")
        assert fill == "rgb(138, 73, 232)"  # the screen's Dangle
        bad = [t for t in text_contrast(cy) if t["ratio"] < t["least"] or t["faded"]]
        assert not bad, bad
        shots(cy, "track")
        cy.execute_script("document.getElementById('phase').style.color = 'rgb(70, 70, 80)'")  # the check can fail
        assert [t["text"] for t in text_contrast(cy) if t["ratio"] < t["least"]] == ["Racing!"]

        answer = cy.execute_async_script("const done = arguments[arguments.length - 1];"
                                         "post('/api/bet', {seat: 3, token: mine().token, mascot: 'mum'}).then(done);")
        assert answer["reason"] == "variant"
        wait_text(cy, "notice", "Not in this game's variant.")
        assert cy.find_element("id", "notice").text == "Not in this game's variant."  # the words, not the detail
        cy.execute_script("post('/api/nothing', {})")  # an answer without words: the page's own sentence
        wait_text(cy, "notice", "The table did not take that. Try again.")
