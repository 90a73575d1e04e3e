"""The game viewer (viewer.py): a self-contained HTML file whose boards are the SVGs of every
step, checked as text and in a real browser (headless Chromium of the distribution, driven by
selenium with the distribution's chromedriver; skipped only when Chromium is not installed,
and failing when Chromium is there but the driver or the `browser` extra is not)."""

import base64
import gzip
import io
import json
import re
import time

import pytest

from browser import chromium

from conftest import load_engine
from tools.random_games import random_game
from vikinger_fast import cli, records
from vikinger_fast.pictures import viewer
from vikinger_ref import svg


def played_record(n=2, seed=4, flags=()):
    state = random_game(load_engine("fast"), seed, n, flags)
    return records.record_from_state(state, players=["random"] * n, seed=seed), state


def packed_svgs(page):
    data = json.loads(
        re.search(
            r'<script id="game-data" type="application/json">(.*?)</script>', page, re.S
        ).group(1)
    )
    return json.loads(gzip.decompress(base64.b64decode(data["svgs"]))), data


def test_the_page_holds_the_board_of_every_step(engine):
    record, _ = played_record(n=3, seed=2, flags=("special_tiles",))
    page = viewer.viewer_html(record, engine)
    svgs, data = packed_svgs(page)
    states = list(records.states(record, engine))
    assert len(svgs) == len(states) == len(record["moves"]) + 1
    widths = {re.match(r'<svg[^>]* width="(\d+)"', text).group(1) for text in svgs}
    assert len(widths) == 1  # one size for the whole game
    columns = viewer.game_columns(states)
    for k in (0, 1, len(states) // 2, len(states) - 1):
        assert svgs[k] == svg.state_svg(states[k], min_columns=columns)
        assert f'data-value="{states[k].to_dict()["round"]}"' in svgs[k]
    assert data["fame"][1][-1] == record["result"]["fame"][1]
    assert data["gold"][2][0] == states[0].gold()[2]
    assert [m["s"] for m in data["moves"]] == [m["string"] for m in record["moves"]]
    # Every scoring is in the step that set it off, with its breakdown by rule id (B7.1, B8).
    notes = [line for m in data["moves"] for line in m["n"]]
    scorings = [line for line in notes if line.startswith("Round ")]
    assert len([s for s in scorings if "small scoring (B7.1)" in s]) == 3
    final = next(s for s in scorings if "final scoring (B8)" in s)
    for p, fame in enumerate(record["result"]["fame"]):
        assert f"-> {fame}, gold" in final.split(f"player {p} (")[1].split("\n")[0]
    assert any("(forced)" in line for line in notes)


def test_the_page_loads_nothing_from_outside(engine):
    record, _ = played_record()
    page = viewer.viewer_html(record, engine)
    assert not re.search(r"<(link|img|iframe)\b|<script[^>]+src=", page)
    assert set(re.findall(r'https?://[^"\s]+', page)) <= {"http://www.w3.org/2000/svg"}


def test_replay_html_command_writes_the_viewer(tmp_path, capsys):
    record, _ = played_record(seed=9)
    source, out = tmp_path / "game.json", tmp_path / "game.html"
    source.write_text(records.dumps(record))
    assert cli.main(["replay", str(source), "--html", str(out)]) == 0
    assert f"{len(record['moves']) + 1} steps" in capsys.readouterr().out
    assert packed_svgs(out.read_text())[0][-1].startswith("<svg")


@pytest.fixture(scope="module")
def browser():
    driver = chromium(1300, 1000)
    yield driver
    driver.quit()


def screenshot_colours(driver):
    from PIL import Image

    picture = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    return picture, len(picture.resize((320, 250)).getcolors(maxcolors=80_000))


def test_the_viewer_steps_through_the_game_in_a_browser(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    record, final = played_record(n=4, seed=6)
    last = len(record["moves"])
    path = tmp_path / "viewer.html"
    viewer.write_viewer(record, load_engine("fast"), path)
    browser.get(path.as_uri())
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true"
    )

    def counter():
        return browser.find_element(By.ID, "counter").text

    # the page opens on the first decision, not on the empty board of step 0
    opening = next(k for k, m in enumerate(record["moves"]) if m["player"] >= 0)
    assert opening > 0 and counter() == f"step {opening} / {last}"
    assert browser.find_element(By.ID, "move").text.startswith("after chance")
    legend = browser.find_element(By.ID, "legend-box").text
    for mark in ("hatching", "shield", "flag", "start player", "boatsman", "r2c3"):
        assert mark in legend
    browser.find_element(By.ID, "first").click()
    assert counter() == f"step 0 / {last}"
    first, colours = screenshot_colours(browser)
    assert colours > 40  # a drawn board, not a blank page
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(3):
        body.send_keys(Keys.ARROW_RIGHT)
    assert counter() == f"step 3 / {last}"
    browser.find_element(By.ID, "next").click()
    assert counter() == f"step 4 / {last}"
    body.send_keys(Keys.ARROW_LEFT)
    assert counter() == f"step 3 / {last}"
    browser.execute_script(
        "const s = document.getElementById('slider'); s.value = 100;"
        "s.dispatchEvent(new Event('input'));"
    )
    assert counter() == f"step 100 / {last}"
    assert browser.find_element(By.CSS_SELECTOR, "#moves li.current").text.endswith(
        record["moves"][99]["string"]
    )
    browser.find_elements(By.CSS_SELECTOR, "#moves li")[49].click()
    assert counter() == f"step 50 / {last}"
    body.send_keys(Keys.SPACE)  # play: the steps advance by themselves
    WebDriverWait(browser, 10).until(lambda d: counter() != f"step 50 / {last}")
    body.send_keys(Keys.SPACE)  # pause
    paused = counter()
    assert browser.find_element(By.ID, "play").text == "play"
    time.sleep(0.8)
    assert counter() == paused and int(paused.split()[1]) > 50
    browser.set_window_size(1300, 450)  # the move list reaches below the window
    body.send_keys(Keys.END)
    assert counter() == f"step {last} / {last}"
    # The move list scrolls to the current move by itself; the page stays where it is.
    assert browser.execute_script(
        "const list = document.getElementById('moves'), li = list.querySelector('li.current');"
        "return li.offsetTop >= list.scrollTop && "
        "li.offsetTop + li.offsetHeight <= list.scrollTop + list.clientHeight + 1;"
    )
    assert browser.execute_script("return window.scrollY") == 0
    browser.set_window_size(1300, 1000)
    drawn = len(browser.find_elements(By.CSS_SELECTOR, "#board .viking"))
    assert drawn == sum(len(cols) for p in final.to_dict()["players"] for cols in p["vikings"])
    end, colours = screenshot_colours(browser)
    assert colours > 40 and end.size == first.size and end.tobytes() != first.tobytes()
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


# Player names are free text in a record: each of these once ended or stopped the page's script
# (`<!--<script>` puts Chromium's parser in the double-escaped state, so the `</script>` that
# closes the data no longer does); U+2028 ends a line in older JavaScript.
HOSTILE_NAMES = [
    "<!--<script>",
    "</script><script>document.title='owned'</script>",
    "]]>",
    "a\u2028b\u2029c & <b>",
]


def hostile_record():
    state = random_game(load_engine("fast"), 5, 4, ())
    players = [{"name": name, "params": {}} for name in HOSTILE_NAMES]
    return records.record_from_state(state, players=players, seed=5)


def test_the_viewer_data_holds_no_character_that_could_leave_its_element():
    page = viewer.viewer_html(hostile_record(), load_engine("fast"))
    element = re.search(
        r'<script id="game-data" type="application/json">(.*?)</script>', page, re.S
    )
    text = element.group(1)
    assert not set(text) & set("<>&\u2028\u2029")
    data = json.loads(text)
    notes = "\n".join(line for m in data["moves"] for line in m["n"])
    for name in HOSTILE_NAMES:  # the names come back whole from the escaped text
        assert f"({name})" in notes
    assert viewer.script_json({"s": "</script>\u2028"}) == '{"s": "\\u003c/script\\u003e\\u2028"}'


def test_hostile_player_names_neither_stop_nor_escape_the_viewer_in_a_browser(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    record = hostile_record()
    path = tmp_path / "hostile.html"
    viewer.write_viewer(record, load_engine("fast"), path)
    browser.get(path.as_uri())
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true"
    )
    assert browser.title != "owned"
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 2  # the data and the page's own
    header = browser.find_element(By.TAG_NAME, "header").text
    for name in ("<!--<script>", "</script><script>document.title='owned'</script>", "]]>"):
        assert name in header
    browser.find_element(By.ID, "last").click()
    last = len(record["moves"])
    assert browser.find_element(By.ID, "counter").text == f"step {last} / {last}"
    narration = browser.execute_script("return document.getElementById('narration').textContent")
    assert "final scoring (B8)" in narration and "(a\u2028b\u2029c & <b>)" in narration
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
