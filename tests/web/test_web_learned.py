"""The page offers the learned players exactly at the tables a shipped network covers (docs/web.md
"What a request may name"): /api/bots lists the covered module sets per player count, and the
setup's suggestions drop `az` and `azpolicy` elsewhere. Three real servers: one with the
package's base-game networks alone, one whose models folder also holds a network covering all 32
sets at 2 players (random weights, made here), where a game with modules on starts against
`azpolicy`, and one with the package's own networks, which cover every table."""

import os
import re
import shutil

import pytest

from browser import chromium
from vikinger_ref import az_bot
from vikinger_ref.mlp import ALL_SETS, MLPEvaluator
from vikinger_fast import module_sets
from web_server import Server

pytest.importorskip("uvicorn", reason="the web extra: pip install '.[web]'")


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    base_models = tmp_path_factory.mktemp("base-models")
    for n in (2, 3, 4):  # the package's base-game networks alone
        shutil.copy(os.path.join(az_bot.MODELS, f"az-{n}p.npz"), base_models / f"az-{n}p.npz")
    models = tmp_path_factory.mktemp("models")
    game = az_bot.Game(2)
    shutil.copy(base_models / "az-2p.npz", models / "az-2p.npz")
    MLPEvaluator.random(game, hidden=(16,), seed=2).cover(ALL_SETS).save(models / "az-2p-all.npz")
    base = Server(tmp_path_factory.mktemp("base"), models=base_models)
    every = Server(tmp_path_factory.mktemp("every"), models=models)
    package = Server(tmp_path_factory.mktemp("package"))
    yield base, every, package
    base.stop()
    every.stop()
    package.stop()


@pytest.fixture(scope="module")
def browser():
    driver = chromium(1200, 900)
    yield driver
    driver.quit()


def test_the_bots_choices_name_the_covered_sets(servers):
    base, every, package = servers
    _, choices = base.request("GET", "/api/bots")
    assert choices["shipped_bots"] == ["az", "azpolicy"]
    assert choices["shipped"] == {"2": ["none"], "3": ["none"], "4": ["none"]}
    _, choices = every.request("GET", "/api/bots")
    names = [module_sets.name(s) for s in module_sets.every_set()]
    assert choices["shipped"] == {"2": names, "3": [], "4": []}  # its folder has 2 players only
    _, choices = package.request("GET", "/api/bots")  # the package's networks: every table
    assert choices["shipped"] == {"2": names, "3": names, "4": names}


def _suggested(driver):
    return driver.execute_script(
        "return [...document.getElementById('bot-specs').options].map((o) => o.value)"
    )


def _setup(driver, server):
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(server.url)
    WebDriverWait(driver, 60, poll_frequency=0.05).until(
        lambda d: (
            d.find_element("id", "bot-specs").get_attribute("data-learned")
            and d.find_element("tag name", "body").get_attribute("data-state") == "setup"
        )
    )


def _learned(values):
    return sorted(v for v in values if v.partition(":")[0] in ("az", "azpolicy"))


def test_the_page_offers_the_learned_players_where_a_network_covers_the_table(servers, browser):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    base, every, package = servers
    _setup(browser, base)
    assert _learned(_suggested(browser)) == ["az:simulations=100", "azpolicy"]
    browser.find_element("css selector", "input[name=auction]").click()
    assert _learned(_suggested(browser)) == []  # no network of that folder has modules
    assert "greedy" in _suggested(browser)
    _setup(browser, package)  # the package's networks: az whatever modules are on
    for name in ("auction", "special_tiles", "draw13"):
        browser.find_element("css selector", f"input[name={name}]").click()
        assert _learned(_suggested(browser)) == ["az:simulations=100", "azpolicy"]
    Select(browser.find_element("id", "players")).select_by_value("4")
    assert _learned(_suggested(browser)) == ["az:simulations=100", "azpolicy"]

    _setup(browser, every)
    browser.find_element("css selector", "input[name=auction]").click()
    browser.find_element("css selector", "input[name=special_tiles]").click()
    assert _learned(_suggested(browser)) == ["az:simulations=100", "azpolicy"]
    Select(browser.find_element("id", "players")).select_by_value("3")
    assert _learned(_suggested(browser)) == []  # its folder has 2 players only
    Select(browser.find_element("id", "players")).select_by_value("2")
    assert _learned(_suggested(browser)) == ["az:simulations=100", "azpolicy"]
    field = browser.find_element("css selector", ".bot-spec")
    field.clear()
    field.send_keys("azpolicy")
    browser.find_element("id", "start").click()
    WebDriverWait(browser, 60, poll_frequency=0.05).until(
        lambda d: (
            "game=" in d.current_url
            and d.find_element("tag name", "body").get_attribute("data-state") == "your-turn"
        )
    )
    game = re.search(r"game=([0-9a-f]+)", browser.current_url).group(1)
    _, listed = every.request("GET", "/api/games")
    (entry,) = [g for g in listed["games"] if g["id"] == game]
    assert entry["bots"] == ["azpolicy"] and entry["options"] == ["auction", "special_tiles"]
