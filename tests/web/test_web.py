"""The page as a person uses it, in Debian's headless Chromium driven by Selenium: a hand
entered by clicks and ranked as mjfast.best_discards ranks it, three steps played out and
undone, a shared link, the language switch, the fan calculator against mjfast.fan.score, a
bad hand's message, the keys, claims, fields the service may add later, a phone's width, the
page's and a review page's Chinese and the tiles on a machine without a CJK font, its tables at
every width, and the screenshots of docs/web.md.

Chromium sees the machine's fonts less every one that covers Chinese, Japanese or Korean (a
fontconfig file of the test's own), as on a machine without a CJK font: whatever Chinese it
draws comes from the page. A missing browser, driver or fc-list (fontconfig) fails these tests:
install them with `apt-get install chromium chromium-driver fontconfig` (.ci/run does). Every
wait has a timeout. The screenshots go to a temporary folder, or to docs/img/ with
MJFAST_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import struct
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

import mjfast
from mjfast.fan import score, settle
from mjfast.service import ops
from mjfast.service.server import HttpOptions, make_http_server
from mjfast.web import make_font

from ..data import ROOT

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
WAIT = 120  # seconds: a kernel's first compile on a fresh install happens inside a request
DOCS_IMG = ROOT / "docs" / "img"
HAND = "123m456p789s1357sE"
# the fontconfig languages whose fonts Chromium is not shown: all that draw Chinese characters
CJK_LANGS = ("zh-cn", "zh-tw", "zh-hk", "ja", "ko")


@pytest.fixture(scope="module")
def base():
    """The service with the page, in a thread of this process (port 0), its kernels loaded."""
    ops.op_advise({"hand": HAND, "visible": "1s"})
    ops.op_score({"hand": "123m456p789s123sEE"})
    ops.op_waits({"hand": "123m456p789s123sE", "fans": True})
    server = make_http_server("127.0.0.1", 0, HttpOptions(max_body=4 * 1024 * 1024))  # `mjfast web`'s
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/app/"
    server.shutdown()
    server.server_close()


def fonts_without_cjk() -> dict:
    """The environment of a Chromium that sees no CJK font: a fontconfig file that includes the
    machine's and rejects every font of CJK_LANGS. fc-list, reading the same file, checks it."""
    rejected = "".join(f"<pattern><patelt name=\"lang\"><string>{lang}</string></patelt></pattern>"
                       for lang in CJK_LANGS)
    config = Path(tempfile.mkdtemp(prefix="mjfast-fonts-")) / "fonts.conf"
    config.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>'
                      '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
                      f"<selectfont><rejectfont>{rejected}</rejectfont></selectfont></fontconfig>\n")
    env = {**os.environ, "FONTCONFIG_FILE": str(config)}
    listed = subprocess.run(["fc-list", ":lang=zh", "family"], env=env, capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and listed.stdout.strip() == "", listed
    assert subprocess.run(["fc-list", ":", "family"], env=env, capture_output=True, text=True,
                          timeout=60).stdout.strip(), "no font left at all"
    return env


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    assert not missing, f"no {' or '.join(missing)}: apt-get install chromium chromium-driver"
    env = fonts_without_cjk()
    options = Options()
    options.binary_location = str(CHROMIUM)
    profile = tempfile.mkdtemp(prefix="mjfast-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--lang=en-US", f"--user-data-dir={profile}", "--window-size=1280,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER), env=env), options=options)
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, base):
    """page(fragment, width, height): the page opened afresh (English, nothing remembered)."""

    def open_page(fragment="", width=1280, height=900):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        browser.get("about:blank")
        browser.get(base)
        browser.execute_script("localStorage.clear()")
        browser.get_log("browser")  # drained: what earlier tests logged (a bad hand's 400) is theirs
        browser.get(base + ("#" + fragment if fragment else ""))
        browser.refresh()  # a fragment-only change does not reload the page
        idle(browser)
        return browser

    return open_page


def idle(browser):
    """Wait until the page has no request under way."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, WAIT, poll_frequency=0.05).until(
        lambda d: d.execute_script("return document.body.dataset.pending === '0'"))


def review_shown(browser):
    """Wait until a review page's script has shown its current step."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements("css selector", "section.step.current"))


def css(browser, selector):
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, selector)


def click(browser, selector):
    css(browser, selector).click()
    idle(browser)


def text(browser, selector) -> str:
    return css(browser, selector).text


def type_into(browser, selector, value, enter=True):
    from selenium.webdriver.common.keys import Keys

    field = css(browser, selector)
    field.clear()
    field.send_keys(value + (Keys.ENTER if enter else ""))
    idle(browser)


def press(browser, *keys):
    from selenium.webdriver.common.action_chains import ActionChains

    for key in keys:
        ActionChains(browser).send_keys(key).perform()
        idle(browser)


def rows(browser, table="#advice-table") -> list[dict]:
    """The options shown, best first: each row's fields as its cells' text, and its tile."""
    return browser.execute_script(f"""
        return [...document.querySelectorAll('{table} tbody tr')].map(tr => Object.assign(
            {{_tile: tr.dataset.tile}},
            Object.fromEntries([...tr.querySelectorAll('td[data-field]')]
                .map(td => [td.dataset.field, td.innerText.trim()]))));
    """)


def hand_text(browser, view="advice") -> str:
    return css(browser, f"#{view}-hand").get_attribute("value")


def click_tiles(browser, hand):
    for t in mjfast.parse_tiles(hand):
        click(browser, f"#advice-palette button[data-tile='{t}']")


def assert_ranked_like_mjfast(browser, hand, **conditions):
    """The page's table is best_discards' of the hand, the tile it holds last being the one just
    drawn (the page sends it as `drawn`)."""
    shown = rows(browser)
    held = mjfast.parse_hand(hand) if isinstance(hand, str) else hand
    expected = mjfast.best_discards(held, drawn=held.last_tile, **conditions)
    assert [r["_tile"] for r in shown] == [o.tile for o in expected]
    for row, option in zip(shown, expected):
        assert int(row["acceptance"]) == option.acceptance and int(row["shanten"]) == option.shanten
        assert int(row["effective_shanten"]) == option.effective_shanten
        if option.valid_acceptance is not None:
            assert int(row["valid_acceptance"]) == option.valid_acceptance
        assert row["useful"].count("×") == len(option.useful)


def resize(browser, width, height=900):
    """The window at another width, the page not reloaded; back after two frames (its layout done)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    browser.execute_async_script(
        "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()))")


def chinese_drawn(browser) -> list[tuple[str, int, int]]:
    """Each element on screen with Chinese in its own text: (that text, its characters of
    make_font.CJK_RANGES, the glyphs Chromium drew for it from a font the page brought), from
    DevTools' CSS.getPlatformFontsForNode."""
    browser.execute_cdp_cmd("DOM.enable", {})
    browser.execute_cdp_cmd("CSS.enable", {})
    found, stack = [], [browser.execute_cdp_cmd("DOM.getDocument", {"depth": -1})["root"]]
    while stack:
        node = stack.pop()
        children = node.get("children", [])
        stack.extend(children)
        own = "".join(c["nodeValue"] for c in children if c["nodeType"] == 3)
        cjk = len(make_font.CJK.findall(own))
        if node["nodeType"] != 1 or not cjk or node["nodeName"] in ("SCRIPT", "STYLE", "TITLE", "OPTION"):
            continue
        fonts = browser.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
        if fonts:  # drawn: not in a hidden part of the page
            found.append((own.strip(), cjk, sum(f["glyphCount"] for f in fonts if f["isCustomFont"])))
    return found


def own_font_loaded(browser) -> bool:
    """Whether the page's own CJK font ("mjfast CJK") is loaded, once every font has settled."""
    return browser.execute_async_script("""
        const done = arguments[0];
        document.fonts.ready.then(() => done([...document.fonts].some(
            (f) => f.family.replace(/"/g, "") === "mjfast CJK" && f.status === "loaded")));""")


def assert_review_chinese_in_own_font(browser) -> None:
    """A review's page of a win: its fan names on screen are glyphs of the font it carries."""
    assert own_font_loaded(browser)
    drawn = chinese_drawn(browser)
    assert drawn and [(text, cjk) for text, cjk, own in drawn if own != cjk] == []


def test_a_hand_entered_by_clicks_is_ranked_as_mjfast_ranks_it(page):
    browser = page()
    click_tiles(browser, HAND)
    assert mjfast.parse_hand(hand_text(browser)) == mjfast.parse_hand(HAND)
    assert_ranked_like_mjfast(browser, HAND)
    best = mjfast.best_discards(HAND)[0]
    reason = text(browser, "#advice-reason")
    assert reason.startswith("Discard East:") and f"{best.acceptance} useful tiles" in reason
    assert f"{best.valid_acceptance} of them reach 8 fans" in reason
    assert text(browser, "#advice-summary").endswith("1-shanten")
    assert "regular 1" in text(browser, "#advice-forms")
    # melds by clicks: a pung given by the player across, a concealed kong
    click(browser, "#advice-editor .clear")
    click(browser, "#advice-editor button[data-mode='pung']")
    css(browser, "#advice-offer option[value='2']").click()
    click(browser, "#advice-palette button[data-tile='27']")
    click(browser, "#advice-editor button[data-mode='concealed']")
    click(browser, "#advice-palette button[data-tile='13']")
    click_tiles(browser, "123m789s55s9m")  # the 9m finds the hand full: 2 melds and 8 tiles
    assert hand_text(browser) == "[EEE2][5555p]123m5789s5s"
    assert "full" in text(browser, "#advice-error")
    assert_ranked_like_mjfast(browser, "[EEE2][5555p]123m789s55s")
    assert len(browser.find_elements("css selector", "#advice-tiles .meld")) == 2


def test_three_steps_played_out_and_undone(page):
    browser = page("advice?hand=" + HAND)
    hands, seen = [mjfast.parse_hand(hand_text(browser))], []
    for step in range(1, 4):
        best = rows(browser)[0]
        draw = css(browser, "#advice-table tbody tr.best button.draw:not([disabled])")
        drawn = draw.get_attribute("data-tile")
        draw.click()
        idle(browser)
        counts = hands[-1].counts.copy()
        counts[mjfast.TILE_NAMES.index(best["_tile"])] -= 1
        counts[mjfast.TILE_NAMES.index(drawn)] += 1
        hands.append(mjfast.parse_hand(hand_text(browser)))
        seen.append(best["_tile"])
        assert list(hands[-1].counts) == list(counts) and mjfast.TILE_NAMES[hands[-1].last_tile] == drawn
        assert text(browser, "#advice-step") == f"step {step}"
        assert sorted(mjfast.parse_tiles(css(browser, "#advice-seen-text").get_attribute("value"))) == \
            sorted(mjfast.TILE_NAMES.index(t) for t in seen)  # the discards lie on the table
        assert_ranked_like_mjfast(browser, hands[-1], visible=" ".join(seen))
    press(browser, "u", "u")
    assert mjfast.parse_hand(hand_text(browser)) == hands[1] and text(browser, "#advice-step") == "step 1"
    click(browser, "#advice-undo")
    assert mjfast.parse_hand(hand_text(browser)) == hands[0] and text(browser, "#advice-step") == "step 0"
    assert css(browser, "#advice-undo").get_attribute("disabled") is not None
    press(browser, "r")
    assert mjfast.parse_hand(hand_text(browser)) == hands[1] and text(browser, "#advice-step") == "step 1"
    assert_ranked_like_mjfast(browser, hands[1], visible=seen[0])


def test_a_shared_link_shows_the_same_hand(page, browser):
    page()
    type_into(browser, "#advice-hand", "[123p1]456m789s1357sW")
    css(browser, "#advice-seat option[value='S']").click()
    idle(browser)
    type_into(browser, "#advice-seen-text", "1s 1s 4s")
    link = browser.execute_script("return location.href")
    assert "hand=[123p1]" in link and "seat=S" in link and "seen=114s" in link
    before = rows(browser)
    browser.get("about:blank")
    browser.get(link)
    idle(browser)
    assert hand_text(browser) == "[123p1]456m1357789sW" and css(browser, "#advice-seat").get_attribute("value") == "S"
    assert rows(browser) == before
    assert_ranked_like_mjfast(browser, "[123p1]456m789s1357sW", visible="1s 1s 4s", seat_wind="S")
    calc = "calc?hand=123m456p789s123sEE&self_drawn=1&wind=S&seven_pairs_tile_fans=0"
    browser.get(link.split("#")[0] + "#" + calc)
    browser.refresh()
    idle(browser)
    assert css(browser, "#view-calc").is_displayed() and css(browser, "#calc-self-drawn").is_selected()
    assert not css(browser, "#rule-seven_pairs_tile_fans").is_selected()
    assert css(browser, "#calc-summary").get_attribute("data-total") == str(
        score("123m456p789s123sEE", self_drawn=True, prevalent_wind="S").total)


def test_the_language_switch_is_remembered(page, browser):
    page("advice?hand=" + HAND)
    assert text(browser, "#tab-advice") == "Advice"
    click(browser, "#lang")
    assert text(browser, "#tab-advice") == "牌理" and text(browser, "#tab-calc") == "算番器"
    assert text(browser, "#advice-reason").startswith("打东：")
    assert rows(browser)[0]["_tile"] == "E"
    browser.refresh()
    idle(browser)
    assert text(browser, "#tab-advice") == "牌理"
    assert browser.execute_script("return document.documentElement.lang") == "zh-CN"
    click(browser, "#lang")
    assert text(browser, "#tab-advice") == "Advice"


def test_the_calculator_scores_like_mjfast(page, browser):
    page()
    click(browser, "#tab-calc")
    hand = "[123p1]456m789s123sEE"
    type_into(browser, "#calc-hand", hand)
    css(browser, "#calc-wind option[value='S']").click()
    idle(browser)
    css(browser, "#calc-from option[value='2']").click()  # discarded by the player across
    idle(browser)
    expected = score(hand, prevalent_wind="S")
    shown = browser.execute_script("""
        return [...document.querySelectorAll('#calc-fans tbody tr')]
            .map(tr => [...tr.cells].map(td => td.innerText));""")
    assert [(cn, en, int(points)) for cn, en, points, _, _ in shown] == \
        [(f.name_cn, f.name_en, f.points) for f in expected.fans]
    assert css(browser, "#calc-summary").get_attribute("data-total") == str(expected.total)
    assert ("meets the minimum of 8" in text(browser, "#calc-summary")) == expected.meets_minimum
    deltas = [int(css(browser, f"#calc-settle td[data-player='{p}']").text) for p in range(4)]
    assert deltas == settle(expected, 0, 2)
    click(browser, "#calc-self-drawn")
    self_drawn = score(hand, prevalent_wind="S", self_drawn=True)
    assert css(browser, "#calc-summary").get_attribute("data-total") == str(self_drawn.total)
    assert [int(css(browser, f"#calc-settle td[data-player='{p}']").text) for p in range(4)] == settle(self_drawn, 0)
    # the winning tile chosen among the hand's tiles; a ruleset switch; a minimum out of reach
    css(browser, "#calc-win option[value='3']").click()
    idle(browser)
    assert hand_text(browser, "calc").endswith("4m")
    assert css(browser, "#calc-summary").get_attribute("data-total") == str(
        score("[123p1]56m789s123sEE4m", prevalent_wind="S", self_drawn=True).total)
    click(browser, "#calc-rules summary")
    type_into(browser, "#calc-minimum", "40")
    assert "below the minimum of 40" in text(browser, "#calc-summary")
    assert "below the minimum of 40" in text(browser, "#calc-settle-error")
    # 13 tiles: the waits and what each scores
    type_into(browser, "#calc-hand", "123m456p789s123sE")
    waits = mjfast.fan.winning_tiles("123m456p789s123sE", prevalent_wind="S", self_drawn=True)
    assert [b.get_attribute("data-tile") for b in browser.find_elements("css selector", "#calc-summary button.draw")] \
        == list(waits)


def test_a_bad_hand_says_what_is_wrong_next_to_the_input(page, browser):
    page()
    for bad in ("123m456p789s1357sX", "123m", "1111m2345p789s1357s", "[123m1" + "1" * 400):
        type_into(browser, "#advice-hand", bad)
        with pytest.raises(mjfast.HandError) as problem:
            mjfast.parse_hand(bad)
        shown = text(browser, "#advice-error")
        assert shown == str(problem.value) or "characters cut" in shown
        assert css(browser, "#advice-error").is_displayed() and rows(browser) == []
    type_into(browser, "#advice-seen-text", "1s1s1s1s1s")
    assert "only 4 copies" in text(browser, "#advice-seen-error")
    click(browser, "#tab-calc")
    type_into(browser, "#calc-hand", "123m456p789s1357sE")
    assert "not a winning hand" in text(browser, "#calc-error")
    type_into(browser, "#calc-hand", "123m456p789s123sEE")  # and it recovers
    assert text(browser, "#calc-error") == "" and rows(browser, "#calc-fans")


def test_the_keys(page, browser):
    page()
    press(browser, "/")
    assert browser.switch_to.active_element.get_attribute("id") == "advice-hand"
    press(browser, HAND + "\n")
    browser.switch_to.active_element.send_keys("\ue00c")  # Escape leaves the field
    options = mjfast.best_discards(HAND)
    press(browser, "2", "\ue014")  # the second discard, its second useful tile
    assert css(browser, "#advice-table tr.selected").get_attribute("data-tile") == options[1].tile
    chosen = css(browser, "#advice-table tr.selected button.draw.chosen")
    assert chosen.get_attribute("data-tile") == options[1].useful[1]
    press(browser, "\ue015", "\ue007")  # down to the third, Enter plays it
    hand = mjfast.parse_hand(hand_text(browser))
    assert mjfast.TILE_NAMES[hand.last_tile] == options[2].useful[0] and text(browser, "#advice-step") == "step 1"
    press(browser, "u")
    assert text(browser, "#advice-step") == "step 0"
    press(browser, "d")  # a random deal, advised at once
    dealt = mjfast.parse_hand(hand_text(browser))
    assert dealt.drawn  # ranked as the page asks: the tile it holds last is the one just drawn
    assert [r["_tile"] for r in rows(browser)] == [o.tile for o in mjfast.best_discards(dealt, drawn=dealt.last_tile)]
    press(browser, "c")
    assert css(browser, "#view-calc").is_displayed()
    press(browser, "a", "?")
    assert css(browser, "#help").is_displayed()


def test_claims_are_asked_and_shown_whatever_their_fields(page, browser, monkeypatch):
    page("advice?hand=123m456p78s1157sE")
    css(browser, "#claim-tile option[value='9s']").click()
    click(browser, "#claim-ask")  # the service's own claim advice: from the left, a chow is possible
    expected = mjfast.claim_options("123m456p78s1157sE", "9s", 1)
    shown = rows(browser, "#claim-table")
    assert [r["action"] for r in shown] == [o.action for o in expected] and text(browser, "#claim-error") == ""
    page("advice?hand=123m456p789s1357s")
    css(browser, "#claim-tile option[value='6m']").click()
    asked = []

    def claim(params):
        asked.append(params)
        return {"options": [{"action": "chow", "meld": "[456m2]", "discard": "1s", "shanten": 0,
                             "win_probability": 0.31},
                            {"action": "pass", "meld": None, "discard": None, "shanten": 1, "win_probability": 0.2}]}

    monkeypatch.setitem(ops.OPS, "claim", claim)
    click(browser, "#claim-ask")
    assert mjfast.parse_hand(asked[0].pop("hand")) == mjfast.parse_hand("123m456p789s1357s")
    assert asked == [{"tile": "6m", "from": 1, "seat_wind": "E", "prevalent_wind": "E"}]
    shown = rows(browser, "#claim-table")
    assert [r["action"] for r in shown] == ["chow", "pass"] and shown[0]["win_probability"] == "31%"
    meld_tiles = browser.find_elements("css selector", "#claim-table tbody tr:first-child td[data-field='meld'] img")
    assert len(meld_tiles) == 3
    headings = [th.text for th in browser.find_elements("css selector", "#claim-table th")]
    assert headings == ["#", "action", "meld", "discard", "Shanten", "Win chance"]


def test_value_figures_show_when_the_service_gives_them(page, browser, monkeypatch):
    advise = ops.OPS["advise"]
    asked = []

    def valued(params):
        asked.append(dict(params))
        result = advise(params)
        for i, option in enumerate(result["options"]):
            option.update(win_probability=0.5 / (i + 1), expected_score=20.0 / (i + 1),
                          brand_new_field=[option["tile"]])
        return result

    monkeypatch.setitem(ops.OPS, "advise", valued)
    browser = page("advice?hand=" + HAND)
    first, second = rows(browser)[:2]
    assert (first["win_probability"], first["expected_score"]) == ("50%", "20.0 points")
    assert second["win_probability"] == "25%" and first["brand_new_field"] == ""  # a tile image
    new_field = css(browser, "#advice-table tr.best td[data-field='brand_new_field'] img")
    assert new_field.get_attribute("alt").startswith("East")
    reason = text(browser, "#advice-reason")
    assert reason.startswith("Discard East: a 50% chance to win, 20.0 points expected")
    # read from the page, not the screen: at this width the table shows as cards, each heading
    # beside its value
    headings = [th.get_attribute("textContent") for th in browser.find_elements("css selector", "#advice-table th")]
    assert css(browser, "#advice-table").get_attribute("class") == "options stacked"
    best = browser.find_elements("css selector", "#advice-table tr.best td")
    assert [td.get_attribute("data-label") for td in best] == headings
    assert headings[:4] == ["#", "Discard", "Win chance", "Expected score"] and headings[-1] == "brand new field"
    assert asked[-1]["drawn"] == "E"  # the tile the hand holds last: the one just drawn


def test_the_page_says_it_is_working_while_an_answer_is_slow(page, browser, monkeypatch):
    from selenium.webdriver.support.ui import WebDriverWait

    advise = ops.OPS["advise"]
    release = threading.Event()

    def slow(params):
        release.wait(WAIT)
        return advise(params)

    page("advice?hand=" + HAND)
    assert not css(browser, "#slow").is_displayed()
    monkeypatch.setitem(ops.OPS, "advise", slow)
    css(browser, "#advice-table tbody tr.best button.draw:not([disabled])").click()  # a play-out step
    try:
        WebDriverWait(browser, WAIT).until(lambda d: css(d, "#slow").is_displayed())
        assert text(browser, "#slow").startswith("Working…")
    finally:
        release.set()
    idle(browser)
    assert not css(browser, "#slow").is_displayed() and rows(browser)


def test_a_phone_sized_screen_needs_no_sideways_scrolling(page):
    for fragment in ("advice?hand=" + HAND + "&seen=1s1s", "calc?hand=[123p1]456m789s123sEE&self_drawn=1"):
        browser = page(fragment, 375, 812)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 375
        palette = css(browser, "#advice-palette" if fragment.startswith("advice") else "#calc-palette")
        assert palette.rect["x"] >= 0 and palette.rect["x"] + palette.rect["width"] <= 375
        # nothing went wrong in the page: no script error, nothing its security policy refused
        assert [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_page_draws_its_chinese_in_its_own_font(page, browser):
    """In a Chromium with no CJK font, every Chinese character on screen (the fan names, the
    language button, the conditions, then the whole page in Chinese) is a glyph of the font the
    page loads, as the issue's calculator link shows it."""
    page("calc?hand=[123p1]456m123789sEE&wind=S&from=2", 1400)
    assert own_font_loaded(browser)
    drawn = chinese_drawn(browser)
    assert {"花龙", "喜相逢", "单钓将", "中文", "last copy (和绝张)"} <= {text for text, _, _ in drawn}
    assert [(text, cjk) for text, cjk, own in drawn if own != cjk] == []
    click(browser, "#lang")
    drawn = chinese_drawn(browser)
    assert {"算番器", "番种", "合计", "结算", "点和者"} <= {text for text, _, _ in drawn}
    assert len(drawn) > 30 and [(text, cjk) for text, cjk, own in drawn if own != cjk] == []
    click(browser, "#tab-advice")
    type_into(browser, "#advice-hand", HAND)
    drawn = chinese_drawn(browser)
    assert any(text.startswith("打东") for text, _, _ in drawn)
    assert [(text, cjk) for text, cjk, own in drawn if own != cjk] == []


def test_the_tiles_are_drawn_without_a_font(page, browser):
    """Every tile, drawn as the page loads it, has a face of its own: a character or honour left
    to a missing font would be the same empty box as the others (the top left corner is left
    out, where the tiles once wrote their names)."""
    page("advice?hand=" + HAND, 1400)
    faces = browser.execute_async_script("""
        const [names, done] = arguments;
        (async () => {
          const out = {};
          for (const name of names) {
            const img = new Image();
            img.src = `tiles/${name}.svg`;
            await img.decode();
            const canvas = document.createElement("canvas");
            [canvas.width, canvas.height] = [60, 80];
            const context = canvas.getContext("2d");
            context.drawImage(img, 0, 0, 60, 80);
            context.clearRect(0, 0, 20, 20);
            const pixels = context.getImageData(0, 0, 60, 80).data;
            // ink: the face's pixels far from its paper colour (#fbf7ec), the border left out
            let ink = 0;
            for (let y = 6; y < 72; y++) for (let x = 6; x < 54; x++) {
              const i = 4 * (y * 60 + x);
              const far = Math.abs(pixels[i] - 251) + Math.abs(pixels[i + 1] - 247) + Math.abs(pixels[i + 2] - 236);
              if (far > 200) ink++;
            }
            out[name] = [Array.from(pixels).join(","), ink];
          }
          return out;
        })().then(done);""", [*mjfast.TILE_NAMES, "back"])
    assert len({pixels for pixels, _ in faces.values()}) == len(mjfast.TILE_NAMES) + 1
    chinese = [f"{n}m" for n in range(1, 10)] + list("ESWNCF")
    assert min(faces[name][1] for name in chinese) > 150, {name: faces[name][1] for name in chinese}


def test_every_table_stays_inside_its_panel_at_every_width(page, browser):
    """From a phone's 360 px to 2560 px, the issue's 1024, 1400 and 1920 among them: no cell of
    any table (the ranking, the fans, the settlement) reaches past its panel's inner edge, no
    cell's content past the cell, and the page never scrolls sideways; from 1920 px on the
    ranking is a table, not cards."""
    widths = [1024, 1400, 1920, *range(360, 2561, 200), 375, 420, 2560]
    for fragment in ("advice?hand=" + HAND, "advice?hand=[567s1]23m456p13sNN3m5p&seat=S&wind=E&seen=1s4s5p",
                     "calc?hand=[123p1]456m123789sEE&wind=S&from=2"):
        page(fragment, widths[0])
        for width in widths:
            resize(browser, width)
            shown = browser.execute_script("""
                const out = {page: document.documentElement.scrollWidth, tables: []};
                const named = (cell) => cell.dataset.field || cell.textContent;
                const right = (e) => e.getBoundingClientRect().right;
                for (const table of document.querySelectorAll("table")) {
                  if (!table.offsetParent || !table.rows.length) continue;
                  const panel = table.closest(".panel"), style = getComputedStyle(panel);
                  const inner = panel.getBoundingClientRect().right - parseFloat(style.borderRightWidth)
                    - parseFloat(style.paddingRight);
                  const past = [...table.querySelectorAll("th, td")].filter((cell) => cell.offsetParent
                    && right(cell) > inner + 0.5).map(named);
                  const spilt = [...table.querySelectorAll("th, td")].filter((cell) => [...cell.querySelectorAll("*")]
                    .some((e) => right(e) > right(cell) + 0.5)).map(named);
                  out.tables.push({id: table.id, stacked: table.classList.contains("stacked"), past, spilt});
                }
                return out;""")
            assert shown["page"] <= width, (fragment, width)
            assert shown["tables"], (fragment, width)
            for table in shown["tables"]:
                assert table["past"] == [] and table["spilt"] == [], (fragment, width, table)
                if table["id"] == "advice-table" and width >= 1920:
                    assert not table["stacked"], (fragment, width)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_screenshots_of_both_pages(page, tmp_path):
    folder = DOCS_IMG if os.environ.get("MJFAST_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    shots = {
        "advice": "advice?hand=[567s1]23m456p13sNN3m5p&seat=S&wind=E&seen=1s4s5p",
        "calc": "calc?hand=[123p1]456m789s123sEE&wind=S&from=2",
    }
    for name, fragment in shots.items():
        for size, (width, height) in {"desktop": (1600, 900), "phone": (375, 812)}.items():
            browser = page(fragment, width, height)
            if size == "phone":  # the phone's second screen: the answer
                answer = css(browser, "#advice-result" if name == "advice" else "#calc-result")
                browser.execute_script("window.scrollTo(0, arguments[0].getBoundingClientRect().top + scrollY - 50)",
                                       answer)
                (folder / f"{name}-phone-answer.png").write_bytes(browser.get_screenshot_as_png())
                browser.execute_script("window.scrollTo(0, 0)")
            data = browser.get_screenshot_as_png()
            assert _png_size(data) == (width, height)
            (folder / f"{name}-{size}.png").write_bytes(data)


def test_a_review_page_opens_steps_and_shows_the_advice_of_best_discards(browser, tmp_path):
    """mjfast review's page of a real match, opened from its file: the step controls and keys,
    a link to a step, and the ranking shown at a discard = best_discards' of that table."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    from mjfast.advice.model import draws_left
    from mjfast.game import Replay, read_botzone
    from mjfast.review import render_page, review_game
    from tests.data import LOGS

    # a desktop's screen (the page fixture leaves a phone's emulation on: the review's page is
    # wider than a phone, which then zooms it out)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    path = sorted((LOGS / "botzone_json").glob("*.json"))[0]
    game = read_botzone(path)
    review = review_game(game, file=str(path))
    page = tmp_path / "review.html"
    page.write_text(render_page(review), encoding="utf-8")
    n = len(review["steps"])

    def at() -> int:
        current = browser.find_elements("css selector", "section.step.current")
        assert len(current) == 1 and current[0].is_displayed()
        return int(current[0].get_attribute("data-step"))

    browser.get(page.as_uri())
    review_shown(browser)
    assert at() == 0 and text(browser, "#counter") == f"step 1 / {n}"
    assert review["result"]["kind"] == "win"
    assert_review_chinese_in_own_font(browser)  # the fan names, in a Chromium with no CJK font
    css(browser, "#forward").click()
    assert at() == 1
    for key, step in ((Keys.ARROW_RIGHT, 2), (Keys.ARROW_LEFT, 1), (Keys.END, n - 1), (Keys.HOME, 0)):
        ActionChains(browser).send_keys(key).perform()
        assert at() == step
    css(browser, "#next-decision").click()
    first = next(s["step"] for s in review["steps"] if s["decisions"])
    assert at() == first
    css(browser, "#back").click()
    assert at() == first - 1
    # a discard where the player did not follow mjfast, opened by its link
    shown = next(d for d in review["decisions"] if d["kind"] == "discard" and d["rank"] > 1)
    browser.get(page.as_uri() + f"#step-{shown['step']}")
    assert at() == shown["step"]
    table = next(step.table for k, step in enumerate(Replay(game)) if k == shown["step"])
    p = shown["player"]
    advice = mjfast.best_discards(table.hand(p), visible=table.visible_to(p), seat_wind=p,
                                  prevalent_wind=table.prevalent_wind, flowers=table.seats[p].flowers,
                                  draws=draws_left(table.own_draws_left(p)), drawn=table.drawn(p))
    choices = browser.execute_script(
        "return Array.from(document.querySelectorAll('section.step.current div.decision[data-kind=discard] "
        "tr[data-choice]')).filter(r => r.offsetParent !== null).map(r => r.dataset.choice)")
    assert choices == [f"play {o.tile}" for o in advice]
    assert [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    # the points lost: on the decision, and the severity filter, which the decision keys follow
    decision = css(browser, "section.step.current div.decision[data-kind=discard]")
    assert f"{shown['points_lost']:.2f} points lost" in decision.text
    severity = css(browser, "#severity")
    least = 1.0
    severity.clear()
    severity.send_keys(str(least))
    visible = browser.execute_script(
        "return Array.from(document.querySelectorAll('div.decision')).filter(d => !d.classList.contains('filtered'))"
        ".map(d => parseFloat(d.dataset.lost))")
    lost = [d["points_lost"] for d in review["decisions"] if (d["points_lost"] or 0) > least]
    assert visible == lost and lost
    browser.get(page.as_uri() + "#step-0")
    severity = css(browser, "#severity")
    severity.clear()
    severity.send_keys(str(least))
    css(browser, "#next-decision").click()
    assert at() == next(d["step"] for d in review["decisions"] if (d["points_lost"] or 0) > least)
    screenshot = os.environ.get("MJFAST_REVIEW_SCREENSHOT")  # docs/review.png is made this way
    if screenshot:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 1280, "height": 1500, "deviceScaleFactor": 1, "mobile": False})
        browser.execute_script("document.querySelector('section.step.current h2').scrollIntoView()")
        browser.get_screenshot_as_file(screenshot)


def test_the_page_opens_the_review_of_a_log_file(page, browser):
    """A Botzone JSON match picked in the page: the link opens its review (the page of `mjfast
    review`) in a new tab, whose script runs under the page's security policy; a file that is
    not a log says so beside the picker."""
    from mjfast.game import read_botzone
    from mjfast.review import review_game
    from tests.data import LOGS

    path = sorted((LOGS / "botzone_json").glob("*.json"))[0]
    review = review_game(read_botzone(path))
    browser = page()
    css(browser, "#review-file").send_keys(str(path))
    idle(browser)
    link = css(browser, "#review-open")
    assert link.is_displayed() and f"({len(review['decisions'])} decisions)" in link.text
    home = browser.current_window_handle
    link.click()
    other = next(h for h in browser.window_handles if h != home)
    browser.switch_to.window(other)
    try:
        review_shown(browser)
        assert text(browser, "#counter") == f"step 1 / {len(review['steps'])}"
        assert_review_chinese_in_own_font(browser)  # its inline font allowed by the page's policy
        css(browser, "#next-decision").click()
        first = next(s["step"] for s in review["steps"] if s["decisions"])
        current = browser.find_element("css selector", "section.step.current")
        assert int(current.get_attribute("data-step")) == first
        assert [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    finally:
        browser.close()
        browser.switch_to.window(home)
    bad = Path(tempfile.mkdtemp()) / "notes.txt"
    bad.write_text("this is not a game log\n")
    css(browser, "#review-file").send_keys(str(bad))
    idle(browser)
    error = css(browser, "#review-error")
    assert error.is_displayed() and error.text.startswith("notes.txt: ")
    assert not css(browser, "#review-open").is_displayed()


def test_the_calculator_scores_under_a_rulebook_and_with_the_best_tile(page, browser):
    """The preset chooses the rulebook's switches (WMO: 双明杠 + 暗杠 for a concealed and an
    exposed kong); *the best of its tiles* scores the hand with its best winning tile, named."""
    from mjfast.fan import score_best_tile

    page()
    click(browser, "#tab-calc")
    kongs = "[1111p1][2222s]345m678m8p8p"
    type_into(browser, "#calc-hand", kongs)
    click(browser, "#calc-rules summary")
    css(browser, "#calc-preset option[value='wmo2014']").click()
    idle(browser)
    assert css(browser, "#calc-summary").get_attribute("data-total") == str(score(kongs, ruleset="wmo2014").total)
    fans = [tr.get_attribute("data-fan") for tr in browser.find_elements("css selector", "#calc-fans tbody tr")]
    assert "Two Melded Kongs" in fans and "Concealed Kong and Melded Kong" not in fans
    assert css(browser, "#rule-mixed_kongs_six").is_selected()
    assert not css(browser, "#rule-mixed_kongs_five").is_selected()
    css(browser, "#calc-preset option[value='tziakcha']").click()
    idle(browser)
    assert text(browser, "#calc-rules-name") == "Tziakcha (雀渣) / GB-Mahjong"
    whole = "123456789m12333p"
    type_into(browser, "#calc-hand", whole)
    css(browser, "#calc-win option[value='best']").click()
    idle(browser)
    best = score_best_tile(whole, ruleset="tziakcha")
    assert css(browser, "#calc-summary").get_attribute("data-total") == str(best.total)
    assert "the best of its tiles as the winning tile: 2 characters (2m)" in text(browser, "#calc-notes")
    assert "best=1" in browser.current_url


def test_the_page_reviews_a_tziakcha_session_hand_by_hand(page, browser):
    from tests.data import DATA

    browser = page()
    css(browser, "#review-file").send_keys(str(DATA / "tziakcha" / "session-ghqy2ztj.json"))
    idle(browser)
    assert "GHQY2zTj-01" in css(browser, "#review-open").text
    choice = css(browser, "#review-game")
    assert choice.is_displayed() and len(choice.find_elements("css selector", "option")) == 16
    css(browser, "#review-game option[value='3']").click()
    idle(browser)
    assert "GHQY2zTj-04" in css(browser, "#review-open").text
    assert [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_review_page_of_a_tziakcha_hand(browser, tmp_path):
    """mjfast review's page of a hand of the real session: the players' names, the rules, the
    server's fans beside mjfast's, and a decision that lost points, opened from its link
    (MJFAST_TZIAKCHA_SCREENSHOT=docs/review-tziakcha.png makes the screenshot of docs/review.md)."""
    from mjfast.game import read_games
    from mjfast.review import render_page, review_game
    from mjfast.review.run import game_summaries
    from tests.data import DATA

    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    path = DATA / "tziakcha" / "session-ghqy2ztj.json"
    game = list(read_games(path))[1]
    review = review_game(game, file=f"tests/data/tziakcha/{path.name}")
    summaries = {name: s.to_dict() for name, s in game_summaries(game, review, range(4)).items()}
    page = tmp_path / "review.html"
    page.write_text(render_page(review, summaries), encoding="utf-8")
    worst = max(review["decisions"], key=lambda d: d["points_lost"] or 0)
    browser.get(page.as_uri() + f"#step-{worst['step']}")
    review_shown(browser)
    header = text(browser, "header")
    assert "rules tziakcha" in header and "the log's fans are the same" in header
    assert all(name in header for name in ("米夜", "ChaosDon", "Choimoe", "琳雨空"))
    current = css(browser, "section.step.current")
    assert int(current.get_attribute("data-step")) == worst["step"]
    assert f"{worst['points_lost']:.2f} points lost" in current.text
    screenshot = os.environ.get("MJFAST_TZIAKCHA_SCREENSHOT")
    if screenshot:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 1280, "height": 1500, "deviceScaleFactor": 1, "mobile": False})
        browser.execute_script("document.querySelector('section.step.current h2').scrollIntoView()")
        browser.get_screenshot_as_file(screenshot)
