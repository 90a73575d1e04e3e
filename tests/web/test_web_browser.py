"""`vikinger serve` in a real browser (the distribution's headless Chromium driven by selenium,
as tests/pictures/test_viewer.py does): a whole game clicked to the end, a reload in the middle,
and two games in two tabs (docs/web.md). The server is the real one, started on 127.0.0.1."""

import re

import pytest

from browser import chromium, set_viewport

from web_server import Server


@pytest.fixture(scope="module")
def browser():
    driver = chromium(1400, 1000)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("uvicorn", reason="the web extra: pip install '.[web]'")
    running = Server(tmp_path_factory.mktemp("games"))
    yield running
    running.stop()


def state(driver):
    return driver.find_element("tag name", "body").get_attribute("data-state")


def settle(driver, timeout=60):
    """Wait until the page waits for the person (or shows the end); returns the state."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: state(d) in ("your-turn", "over", "setup", "error")
    )
    return state(driver)


def start_game(driver, server, players=2, bot="random", seed=0, modules=()):
    from selenium.webdriver.support.ui import Select

    driver.get(server.url)
    assert settle(driver) == "setup"
    Select(driver.find_element("id", "players")).select_by_value(str(players))
    for field in driver.find_elements("css selector", ".bot-spec"):
        field.clear()
        field.send_keys(bot)
    seed_field = driver.find_element("id", "seed")
    seed_field.clear()
    seed_field.send_keys(str(seed))
    for name in modules:
        driver.find_element("css selector", f"input[name={name}]").click()
    driver.find_element("id", "start").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 60, poll_frequency=0.05).until(
        lambda d: "game=" in d.current_url and state(d) == "your-turn"
    )
    return re.search(r"game=([0-9a-f]+)", driver.current_url).group(1)


def moves(driver):
    return int(driver.find_element("tag name", "body").get_attribute("data-moves"))


def click_a_choice(driver, number):
    """Click a legal choice: on the board when the decision has a place there (a wheel group,
    a cell, a ship column), else one of the buttons; waits for the move to be made and returns
    the action clicked."""
    from selenium.webdriver.support.ui import WebDriverWait

    targets = driver.find_elements(
        "css selector",
        "#board .legal-buy[data-action], "
        "#board rect.legal[data-action], "
        "#board .legal-viking[data-action]",
    )
    if not targets:
        targets = driver.find_elements("css selector", "button.choice")
    assert targets, "the person's turn offers no choice"
    target = targets[number % len(targets)]
    action = target.get_attribute("data-action")
    before = moves(driver)
    target.click()
    WebDriverWait(driver, 30, poll_frequency=0.05).until(lambda d: moves(d) > before)
    return action


# The page's scorings, read from the breakdown blocks: per block the player, Fame before and
# after, and the sum of its items' Fame.
SCORINGS = """return [...document.querySelectorAll('#scoring-list tbody')].map(b => [
  Number(b.dataset.player), Number(b.dataset.fameBefore), Number(b.dataset.fameAfter),
  [...b.querySelectorAll('tr.item')].reduce((s, r) => s + Number(r.dataset.fame), 0)])"""
SHOWN_FAME = """return Object.fromEntries([...document.querySelectorAll('#scores tbody tr')]
  .map(r => [r.dataset.player, Number(r.dataset.fame)]))"""


def rule_order(rule):
    """B1.5 < B5.5 < B7.2.3 < B8.6 < A5: the base game's rules first, then the modules."""
    head, *rest = rule.split(".")
    return [head[0] == "A", int(head[1:]), *map(int, rest)]


def check_scorings(driver):
    """Every scoring shown adds up: its items make the change from Fame before to after."""
    blocks = driver.execute_script(SCORINGS)
    for player, before, after, items in blocks:
        assert before + items == after, (player, before, after, items)
    return blocks


def test_a_whole_game_is_clicked_to_the_end(browser, server):
    game_id = start_game(browser, server, bot="random", seed=1)
    clicked = set()
    seen = 0
    for number in range(400):
        if settle(browser) == "over":
            break
        blocks = check_scorings(browser)
        if len(blocks) > seen:  # a new scoring: the log shows it too, with its rule id
            seen = len(blocks)
            last = browser.find_elements("css selector", "#log li.scoring summary")
            assert last and re.search(r"\((B7\.[12]|B8)\)", last[-1].text)
        if number % 10 == 0:
            assert "you (player 0) are to move" in browser.find_element("id", "sentence").text
            # every offered choice is explained in words
            texts = browser.execute_script(
                "return [...document.querySelectorAll('button.choice')].map(b => b.textContent)"
            )
            assert texts and all(len(text) > 12 for text in texts)
            # what the page offers (outlines and buttons) is exactly the engine's legal set
            legal = {
                c["string"] for c in server.request("GET", f"/api/games/{game_id}")[1]["choices"]
            }
            offered = browser.execute_script(
                "return [...document.querySelectorAll('#board [data-action], button.choice')]"
                ".map(n => n.getAttribute('data-action'))"
            )
            assert set(offered) == legal
        clicked.add(click_a_choice(browser, number).partition(":")[0])
    assert state(browser) == "over"
    assert browser.find_element("id", "sentence").text.startswith("Game over")
    # The end: every scoring adds up, the final one ends at the Fame the table shows, and the
    # whole game's breakdown (on the end screen) sums to it for every player.
    blocks = check_scorings(browser)
    shown = browser.execute_script(SHOWN_FAME)
    assert len(blocks) >= 3 + 3 * 2 + 2  # small (both players), large, final
    assert {str(p): after for p, _, after, _ in blocks[-2:]} == shown
    totals = browser.execute_script(
        "return [...document.querySelectorAll('#choices table.totals')].map(t =>"
        " [...t.querySelectorAll('tr.total [data-total]')].map(c => Number(c.dataset.total)))"
    )
    assert totals == [[shown["0"], shown["1"]]]
    for player in ("0", "1"):
        cells = browser.execute_script(
            "return [...document.querySelectorAll('#choices table.totals td[data-player=\"'"
            " + arguments[0] + '\"]')].map(c => Number(c.dataset.fame))",
            player,
        )
        assert sum(cells) == shown[player]
    assert browser.find_elements("css selector", "#scores tr.winner")
    # the end table: rows in the order of the rules, the gold of the scorings shown too
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#choices table.totals tr[data-rule]')]"
        ".map(r => r.dataset.rule)"
    )
    assert rows[:2] == ["B1.5", "B5.5"] and rows == sorted(rows, key=rule_order)
    cells = browser.execute_script(
        "return [...document.querySelectorAll('#choices table.totals td[data-gold]')]"
        ".map(c => [Number(c.dataset.fame), Number(c.dataset.gold), c.textContent])"
    )
    for fame, gold, text in cells:
        assert text == (
            f"{fame:+d} Fame, " * bool(fame) + f"{gold:+d} gold"
            if gold
            else f"{fame:+d}"
            if fame
            else ""
        )
    assert any(gold > 0 for _, gold, _ in cells)  # the goldsmiths' gold (B7.1, B7.2.5)
    # one heading per scoring: a large scoring's parts (one per player, B7.2.1) under one
    headings = [h.text for h in browser.find_elements("css selector", "#scoring-list h3")]
    assert len(headings) == len(set(headings)) == 7
    # the forced decisions' badge says what forced means, and so does the note above the log
    badges = browser.find_elements("css selector", "#log li.forced .badge")
    assert badges and all("only legal choice" in b.get_attribute("title") for b in badges)
    note = browser.find_element("id", "forced-note")
    assert note.is_displayed() and "only legal choice" in note.text
    assert {"buy", "tile", "viking"} <= clicked
    view = server.request("GET", f"/api/games/{game_id}")[1]
    assert view["terminal"] and view["moves"] == moves(browser)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def test_a_reload_in_the_middle_restores_the_game(browser, server):
    game_id = start_game(browser, server, bot="greedy", seed=2)
    for number in range(6):
        click_a_choice(browser, number)
        settle(browser)
    board = browser.find_element("id", "board").get_attribute("innerHTML")
    count, sentence = moves(browser), browser.find_element("id", "sentence").text
    browser.refresh()
    assert settle(browser) == "your-turn"
    assert game_id in browser.current_url
    assert moves(browser) == count
    assert browser.find_element("id", "sentence").text == sentence
    assert browser.find_element("id", "board").get_attribute("innerHTML") == board
    browser.find_element("id", "undo").click()  # undo works after the reload too
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 20).until(lambda d: moves(d) < count)


def test_two_games_in_two_tabs_do_not_mix(browser, server):
    first = start_game(browser, server, players=2, bot="random", seed=3)
    first_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    second = start_game(
        browser, server, players=3, bot="random", seed=4, modules=("special_tiles",)
    )
    assert first != second
    for _ in range(3):
        for handle, game_id in ((first_tab, first), (browser.window_handles[-1], second)):
            browser.switch_to.window(handle)
            assert game_id in browser.current_url
            click_a_choice(browser, 1)
            settle(browser)
    for handle, game_id, players in (
        (first_tab, first, 2),
        (browser.window_handles[-1], second, 3),
    ):
        browser.switch_to.window(handle)
        view = server.request("GET", f"/api/games/{game_id}")[1]
        assert view["num_players"] == players
        assert moves(browser) == view["moves"]
        assert len(browser.find_elements("css selector", "#scores tbody tr")) == players
    browser.close()
    browser.switch_to.window(first_tab)


# Where the parts of the page are, in the viewport's coordinates.
BOXES = """return Object.fromEntries(['#board svg', '#choices', '#log-box', '#scores', '#sentence']
  .map(s => { const r = document.querySelector(s).getBoundingClientRect();
              return [s, [r.left, r.top, r.right, r.bottom]]; }))"""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_1280x720_every_board_the_choices_and_the_pinned_scoring_are_in_view(
    browser, server, players
):
    """A true 1280x720 viewport (window.innerWidth x innerHeight, the window's bars not
    counted): every board, the scores, the choices and the log in view at each decision of the
    first round; at the person's first decision after the small scoring (B7.1) the scoring stays
    pinned in view at the top of the log, its summary giving Fame and gold; the next decision
    unpins it."""
    assert set_viewport(browser, 1280, 720) == [1280, 720]
    try:
        game_id = start_game(browser, server, players=players, bot="greedy", seed=5)
        assert browser.execute_script("return [window.innerWidth, window.innerHeight]") == [
            1280,
            720,
        ]
        for number in range(60):
            boxes = browser.execute_script(BOXES)
            for name, (left, top, right, bottom) in boxes.items():
                assert 0 <= left and right <= 1280 and 0 <= top and bottom <= 720 + 1, name
            boards = browser.find_elements("css selector", "#board svg g.board")
            assert len(boards) == players
            assert all(b.rect["y"] + b.rect["height"] <= 720 + 1 for b in boards)
            if browser.find_elements("css selector", "#log li.scoring"):
                break
            click_a_choice(browser, number)
            settle(browser)
        pinned = browser.find_elements("css selector", "#log li.scoring.pinned")
        assert len(pinned) == 1, "the first scoring is not pinned at the person's decision"
        # in view inside the log box, although the moves after it have scrolled the log
        inside = browser.execute_script(
            "const box = document.getElementById('log-box').getBoundingClientRect(),"
            " li = document.querySelector('#log li.pinned').getBoundingClientRect();"
            "return [li.top >= box.top - 1 && li.bottom <= box.bottom + 1,"
            " document.getElementById('log-box').scrollTop]"
        )
        assert inside[0] and inside[1] > 0, inside
        summary = pinned[0].find_element("css selector", "summary").text
        assert summary.startswith("Round 1: small scoring (B7.1): you: ")
        scoring = next(
            e
            for e in server.request("GET", f"/api/games/{game_id}")[1]["log"]
            if e["kind"] == "scoring"
        )
        for row in scoring["players"]:  # every player's change, gold included
            gold = row["gold"] - row["gold_before"]
            assert f"{row['name']}: " + (f"+{gold} gold" if gold else "nothing") in summary
        # opened, its items stay open through the page's redraws; the next decision unpins it
        pinned[0].find_element("css selector", "summary").click()
        number = pinned[0].get_attribute("data-number")
        click_a_choice(browser, 0)
        settle(browser)
        assert not browser.find_elements("css selector", "#log li.scoring.pinned")
        assert browser.execute_script(
            "return document.querySelector('#log li[data-number=\"' + arguments[0] + '\"] details')"
            ".open",
            number,
        )
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        browser.set_window_size(1400, 1000)


def test_the_rules_page_ignores_a_bad_anchor_and_opens_a_good_one(browser, server):
    """/rules#%E0%A4%A is not valid percent-encoding: the anchor script ignores it (no error in
    the console); a sub-step without its own anchor opens at its rule (B7.2.9 at B7.2)."""
    browser.get_log("browser")  # forget the earlier tests' messages
    browser.get(server.url + "rules#%E0%A4%A")
    assert browser.find_element("id", "B7.1")
    assert browser.execute_script("return window.scrollY") == 0
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    browser.get("about:blank")  # a new load, not a jump within the page
    browser.get(server.url + "rules#B7.2.9")
    top = browser.execute_script(
        "return document.getElementById('B7.2').getBoundingClientRect().top"
    )
    assert abs(top) < 2 and browser.execute_script("return window.scrollY") > 0
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
