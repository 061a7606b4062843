"""The tuner and the A/B test from the web Lab, in headless Chromium.

Issue 28: "A tuner: `bestiary tune GAME --cards FILE --field 'CARD.FIELD'
--range A..B --target 'METRIC=VALUE'` searches the value ... and reports the
curve, the value found and its interval; also from the web Lab." -- so a tune
is started from the page's form (its field picked from the card file's
fields), watched in the runs list, and its result opened in the report frame
with the loading sign: the value found, a plot that says what it shows and a
table with the interval at each value. An A/B test started from the page
shows its decision the same way. No page shows the server's data folder.
"""

from __future__ import annotations

from typing import Any

from .conftest import BROWSER_MARKS
from .test_lab_page import (
    SHIPPED,
    TOKEN,
    Held,
    Lab,
    lab,
    loading_sign_shows_until_loaded,
    no_server_paths,
)

pytestmark = BROWSER_MARKS
__all__ = ["lab"]  # the lab page's server (a fixture), one for this module
FIELD = "Kat z Wieży.passive.amount"


def signed_in(page: Any, url: str) -> None:
    page.goto(f"{url}/lab")
    page.wait_for_selector("#token-form", state="visible")
    page.fill("#token", TOKEN)
    page.click("#sign-in-button")
    page.wait_for_selector("body[data-ready='1']")


def test_a_tune_and_an_ab_test_from_the_lab_page(lab: Lab, browser: Any) -> None:
    # the shipped cards as a lab file: with random bots and 10 games a value on
    # seeds 0-9, Kat z Wieży's seat wins 67% of its games at bonus 0 and 33% at 4
    (lab.folder / "lab" / "cards" / "mine.toml").write_bytes(SHIPPED.read_bytes())
    page = browser.new_page()
    try:
        signed_in(page, lab.url)
        assert page.is_visible("#tune-form") and page.is_visible("#ab-form")
        page.select_option("#tune-game", "meat")
        page.fill("#tune-seats", "random,random")
        page.select_option("#tune-cards", "mine.toml")
        # the field is picked from the card file's own fields (the server reads them)
        page.wait_for_function(
            f"[...document.querySelectorAll('#tune-field option')].some(o => o.value === '{FIELD}')"
        )
        assert "Akolita.attack" in page.locator("#tune-field option").all_inner_texts()
        assert page.locator("#tune-metrics option[value=seat0_win]").count() == 1
        page.select_option("#tune-field", FIELD)
        page.fill("#tune-metric", "item:leader:Kat z Wieży")
        page.fill("#tune-target", "0.5")
        page.fill("#tune-games", "10")
        # a bad range is said on the page, and starts nothing
        page.fill("#tune-range", "5..1")
        page.click("#tune-start")
        page.wait_for_function("document.getElementById('tune-error').textContent.length > 0")
        assert "A..B with A < B" in page.inner_text("#tune-error")
        assert page.locator("#runs tr").count() == 0
        page.fill("#tune-range", "0..4")
        page.fill("#tune-name", "Kat's bonus")
        page.click("#tune-start")
        row = page.locator("#runs tr[data-status=done]")
        row.wait_for(timeout=60_000)
        assert page.inner_text("#tune-error") == ""
        assert row.locator("td.run-name").inner_text() == "Kat's bonus"
        assert row.locator("td.run-kind").inner_text() == "tune"
        assert row.locator("input[name=a]").is_disabled()  # a tune is not compared as a run
        # its result: the value found, the curve as a plot and a table, a loading sign
        held = Held(page, r"/api/lab/runs/[0-9a-f]+/result\?")
        row.locator("button.result").click()
        frame = page.frame_locator("#report-frame")
        found = frame.locator("section#found")
        loading_sign_shows_until_loaded(page, held, "Making the result…", found)
        assert f"{FIELD} = " in found.inner_text() and "values not ruled out" in found.inner_text()
        plot = frame.locator("section#curve img.plot")
        assert plot.count() == 1
        assert plot.get_attribute("alt") == (
            f"item:leader:Kat z Wieży at each value of {FIELD} that was tried, "
            "with its 95% interval, and the target 0.5"
        )
        assert plot.evaluate("img => img.complete && img.naturalWidth > 0")
        heads = frame.locator("section#curve th").all_inner_texts()
        assert heads == ["value", "metric", "95% interval", "games"]
        values = frame.locator("section#curve tbody td:first-child").all_inner_texts()
        assert values[0] == "0" and values[-1] == "4"  # both ends of the range were played
        tuned = page.frame(url=lambda u: "/result?" in u).content()

        # an A/B test: the shipped cards (A) against the lab's file (B)
        page.select_option("#ab-game", "meat")
        page.fill("#ab-seats", "random,random")
        page.select_option("#ab-cards-a", "")
        page.select_option("#ab-cards-b", "stronger.toml")
        page.select_option("#ab-metric", "seat0_win")
        page.fill("#ab-batch", "4")
        page.fill("#ab-budget", "8")
        page.click("#ab-start")
        page.wait_for_function(
            "document.querySelectorAll('#runs tr[data-status=done]').length === 2",
            timeout=60_000,
        )
        ab = page.locator("#runs tr").nth(0)  # newest first
        assert ab.locator("td.run-kind").inner_text() == "A/B test"
        assert "shipped vs stronger.toml" in ab.inner_text()
        held = Held(page, r"/api/lab/runs/[0-9a-f]+/result\?")
        ab.locator("button.result").click()
        decision = frame.locator("section#decision")
        loading_sign_shows_until_loaded(page, held, "Making the result…", decision)
        text = decision.inner_text()
        assert "Not answered within the budget" in text  # 8 games a side decide nothing
        assert "over 8 games a side" in text and "16 games played in all" in text
        assert "always-valid 95% interval" in text
        assert frame.locator("section#looks img.plot").get_attribute("alt")
        decided = page.frame(url=lambda u: "/result?" in u).content()
        no_server_paths(lab, tuned, decided, page.content())
    finally:
        page.close()
