"""Golden playthroughs (tests/data/playthroughs/, tools/playthrough.py): one seeded game
per configuration, every state written out — text board, legal actions and their strings, chance
outcomes with exact probabilities, Fame, gold and returns. Each engine must reproduce the files
exactly. After an intended rule change, rewrite them with scripts/update_playthroughs.py (it uses
the reference) and review the diff.
"""

import math
import pathlib

import pytest

from conftest import ONLY_REF

try:
    from tools import playthrough
except ImportError:
    if not ONLY_REF:
        raise
    pytest.skip("vikinger_fast is not importable; VIKINGER_ONLY_REF=1", allow_module_level=True)

DIRECTORY = pathlib.Path(__file__).resolve().parents[1] / "data" / "playthroughs"
CONFIGS = playthrough.CONFIGURATIONS
UPDATE = "run scripts/update_playthroughs.py"


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_engine_reproduces_the_playthrough(engine, config):
    """B3-B8 over a whole game: every state, action and probability as recorded."""
    path = DIRECTORY / playthrough.file_name(config)
    if not path.exists():
        pytest.fail(f"no playthrough {path.name} for configuration {config}: {UPDATE}")
    expected = path.read_text()
    actual = playthrough.render(engine, config)
    assert actual == expected, (
        f"{engine.__name__} differs from {path.name} at "
        f"{playthrough.first_change(expected, actual)} (if the rules "
        f"changed on purpose: {UPDATE})"
    )


def test_every_configuration_has_a_playthrough():
    missing = [
        config.name
        for config in CONFIGS
        if not (DIRECTORY / playthrough.file_name(config)).exists()
    ]
    assert not missing, f"configurations without a playthrough: {missing}; {UPDATE}"


def test_no_playthrough_without_a_configuration():
    names = {playthrough.file_name(config) for config in CONFIGS}
    stale = sorted(path.name for path in DIRECTORY.glob("*.txt") if path.name not in names)
    assert not stale, f"playthroughs of no listed configuration: {stale}; {UPDATE}"


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_playthrough_header_names_configuration_and_seed(config):
    header = (DIRECTORY / playthrough.file_name(config)).read_text().split("\n")[:4]
    assert header[1] == f"# configuration: {config.name} = {config!r}"
    assert header[2] == f"# seed: {playthrough.SEED}"


def test_probabilities_are_written_exactly():
    """docs/api.md: count / total in one division; anything else shows every bit."""
    assert playthrough.probability(17 / 72) == "17/72"
    assert playthrough.probability(21 / 72) == "7/24"
    off_by_one_bit = math.nextafter(17 / 72, 1.0)
    assert playthrough.probability(off_by_one_bit) == repr(off_by_one_bit)
    assert playthrough.probability(0.1 + 0.2) == repr(0.1 + 0.2)


def test_unchanged_player_blocks_are_left_out():
    """A block is written only when it differs from the state before, so each state is exact."""
    first = "Round 1/6\nPlayer 0: gold 30\n  ships     |\nPlayer 1: gold 30\n  ships     |"
    second = first.replace("Player 1: gold 30", "Player 1: gold 29")
    lines, players = playthrough._board_lines(first, [])
    assert lines == first.split("\n")
    lines, _ = playthrough._board_lines(second, players)
    assert lines == ["Round 1/6", "Player 1: gold 29", "  ships     |", "unchanged: player 0"]
