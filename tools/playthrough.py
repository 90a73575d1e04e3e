"""Golden playthroughs (OpenSpiel's idea): every state of one seeded game, written as text.

A playthrough file holds a header naming the game configuration and seed, then one block per
state: the text board (`str(state)`), the chance outcomes with their exact probabilities or the
legal actions with their strings, Fame, gold and returns, and the action applied next. To keep
files small, a player's block of the board is left out when it is the same as in the state
before (an `unchanged:` line names those players), so every state can still be read off exactly.

The game is game `seed` of differential.py (the seeded choices of `vikinger soak`), so a
playthrough is a function of the rules alone and any change of them shows up as a diff.
tests/rules/test_playthroughs.py renders the game on each engine and compares it with the file;
scripts/update_playthroughs.py rewrites the files with the reference engine after an intended
rule change.
"""

import itertools
import random
from fractions import Fraction

from vikinger_fast.differential import FLAG_SETS, PLAYER_COUNTS, Config

SEED = 1  # the game recorded for every configuration
HEADER = (
    "# Vikinger playthrough: every state of one seeded game. Do not edit: regenerate with "
    "scripts/update_playthroughs.py"
)
POLICY = (
    "# play: chance = apply_random_chance(rng.getrandbits(64)), decision = "
    "rng.choice(legal_actions()), rng = random.Random(seed)"
)


# The configurations with a playthrough file: the base game and all modules on for 2, 3 and 4
# players, and each module alone (A1-A5) for 3 players.
ALL_FLAGS = FLAG_SETS[-1]
CONFIGURATIONS = (
    tuple(Config(n) for n in PLAYER_COUNTS)
    + tuple(Config(n, ALL_FLAGS) for n in PLAYER_COUNTS)
    + tuple(Config(3, (flag,)) for flag in ALL_FLAGS)
)


def file_name(config):
    return f"{config.name}.txt"


def probability(p):
    """An outcome probability as `count/total` when that fraction is the float exactly (as
    docs/api.md requires: one division), else the float's repr, so every bit shows."""
    fraction = Fraction(p).limit_denominator(1000)
    if fraction.numerator / fraction.denominator == p:
        return f"{fraction.numerator}/{fraction.denominator}"
    return repr(p)


def _numbers(values):
    return " ".join(str(v) for v in values)


def split_board(text):
    """str(state) as (the lines above the players, [each player's block of lines])."""
    top, players = [], []
    for line in text.split("\n"):
        if line.startswith("Player "):
            players.append([])
        (players[-1] if players else top).append(line)
    return top, players


def _board_lines(text, previous_players):
    """The text board, leaving out each player block that is the same as in the previous state
    (named on an `unchanged:` line instead), so every state is recorded but files stay small."""
    top, players = split_board(text)
    lines, unchanged = list(top), []
    for p, block in enumerate(players):
        if p < len(previous_players) and block == previous_players[p]:
            unchanged.append(str(p))
        else:
            lines += block
    if unchanged:
        lines.append(f"unchanged: player {' '.join(unchanged)}")
    return lines, players


def _result_lines(state, names):
    """Chance outcomes with exact probabilities, or legal actions with their strings; results."""
    if state.is_chance_node():
        lines = [
            "outcomes: "
            + " ".join(f"{a}={names[a]}@{probability(p)}" for a, p in state.chance_outcomes())
        ]
    elif not state.is_terminal():
        lines = ["legal: " + " ".join(f"{a}={names[a]}" for a in state.legal_actions())]
    else:
        lines = []
    results = (
        f"fame {_numbers(state.scores())} | gold {_numbers(state.gold())} | "
        f"returns {_numbers(state.returns())}"
    )
    return [*lines, results]


def render(engine, config, seed=SEED):
    """The playthrough text of game `seed` of `config` on `engine`, ending with a newline."""
    state = config.game(engine).new_initial_state()
    rng = random.Random(seed)
    lines = [HEADER, f"# configuration: {config.name} = {config!r}", f"# seed: {seed}", POLICY]
    players = []
    for index in itertools.count():
        names = {a: state.action_to_string(a) for a in state.legal_actions()}
        board, players = _board_lines(str(state), players)
        lines += [f"## state {index}", *board, *_result_lines(state, names)]
        if state.is_terminal():
            return "\n".join(lines) + "\n"
        if state.is_chance_node():
            action = state.apply_random_chance(rng.getrandbits(64))
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
        lines.append(f"applied: {action}={names[action]}")


def first_change(old, new):
    """Where two playthrough texts first differ: the state, the line and both versions of it
    (None when they are equal)."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    if old_lines == new_lines:
        return None
    line = next(
        (i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b),
        min(len(old_lines), len(new_lines)),
    )
    header = next(
        (text for text in reversed(old_lines[: line + 1]) if text.startswith("## ")), "## header"
    )
    was, now = old_lines[line : line + 1], new_lines[line : line + 1]
    return f"{header[3:]}, line {line + 1}: {was} -> {now}"
