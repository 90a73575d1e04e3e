"""Regenerate the screenshots of `vikinger serve` in docs/img/ (docs/web.md).

Starts the real server on 127.0.0.1 with a fresh game folder, drives the distribution's headless
Chromium with selenium, and saves in a viewport of 1400x1000 (the window's bars not counted): the
new-game form, a base game in round 2 (a tile to place), a game with every module (the auction),
and the end of a game (the whole game's breakdown); and at 1280x720 the tile to place again (both
boards, the choices and the log in view).

    python scripts/update_web_screenshots.py [--out docs/img]
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The tests' helpers: the server they start and their headless Chromium.
sys.path.insert(0, os.path.join(HERE, "..", "tests", "helpers"))

from browser import set_viewport, start_chromium  # noqa: E402
from web_server import Server  # noqa: E402


def driver(width=1400, height=1000):
    """A browser whose pages are shown in width x height (the window's bars not counted)."""
    browser = start_chromium(width, height, flags=("--hide-scrollbars",))
    reached = set_viewport(browser, width, height)
    if reached != [width, height]:
        raise RuntimeError(f"the viewport is {reached}, not {[width, height]}")
    return browser


def wait_for(browser, *states):
    deadline = time.monotonic() + 120
    while browser.find_element("tag name", "body").get_attribute("data-state") not in states:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page never reached {states}")
        time.sleep(0.05)


def play(server, body, until):
    """A game made and played over HTTP (first legal choice) until `until(view)` holds."""
    status, view = server.request("POST", "/api/games", body)
    assert status == 201, view
    view = server.wait_for_turn(view["id"])
    while not until(view):
        choice = view["choices"][len(view["choices"]) // 2]
        server.request("POST", f"/api/games/{view['id']}/move", {"action": choice["string"]})
        view = server.wait_for_turn(view["id"])
    return view["id"]


def shoot(browser, server, game_id, path, hover=None):
    # A fresh page: a hash change alone would keep the last game's state until the next render.
    browser.get("about:blank")
    browser.get(f"{server.url}#game={game_id}")
    wait_for(browser, "your-turn", "over")
    if hover:
        from selenium.webdriver.common.action_chains import ActionChains

        targets = browser.find_elements("css selector", hover)
        if targets:
            ActionChains(browser).move_to_element(targets[len(targets) // 2]).perform()
    browser.save_screenshot(path)
    print("wrote", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(HERE, "..", "docs", "img"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="vikinger-web-")
    server = Server(folder)
    browser = driver()
    try:
        browser.get(server.url)
        wait_for(browser, "setup")
        browser.save_screenshot(os.path.join(args.out, "web_new_game.png"))
        tile = play(
            server,
            {"bots": ["greedy"], "seed": 7},
            lambda v: v["phase"] == "island_cell" and v["round"] >= 2,
        )
        shoot(
            browser,
            server,
            tile,
            os.path.join(args.out, "web_place_tile.png"),
            hover="#board rect.legal",
        )
        small = driver(1280, 720)
        try:
            shoot(small, server, tile, os.path.join(args.out, "web_1280x720.png"))
        finally:
            small.quit()
        every = dict.fromkeys(
            ("auction", "draw13", "offer_by_colour", "weak_boatsmen", "special_tiles"), True
        )
        auction = play(
            server,
            {"players": 3, "bots": ["greedy"], "seed": 4, "options": every},
            lambda v: v["phase"] == "auction" or v["terminal"],
        )
        shoot(browser, server, auction, os.path.join(args.out, "web_modules.png"))
        over = play(server, {"bots": ["random"], "seed": 9}, lambda v: v["terminal"])
        shoot(browser, server, over, os.path.join(args.out, "web_game_over.png"))
    finally:
        browser.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
