"""Perft counts (chess programmers' move-path enumeration) for Vikinger positions.

`perft(state, d)` counts the action sequences of length 1..d from a position, chance outcomes
enumerated like decisions (one child per outcome kind, docs/actions.md) and forced decisions
not counted (they are applied automatically). A terminal state reached before depth d counts as
one leaf for every deeper depth. The counts test in one number each the legal lists, the chance
outcomes, the automatic decisions and `clone`, over thousands of states.

The positions are found by playing game `seed` of differential.py (the soak's seeded play) to the
first state matching a description: `POSITIONS` names them. scripts/update_perft.py records them
(as `to_dict`) with their counts, computed by the reference engine, in tests/data/perft.json;
tests/rules/test_perft.py recounts them on each engine.
"""

from dataclasses import dataclass

from tools.random_games import play_until
from vikinger_fast.differential import Config

MAX_SEARCH_SEEDS = 1000


def perft(state, depth):
    """[number of leaves at depth 1, 2, ..., depth] below `state`."""
    if state.is_terminal():
        return [1] * depth
    totals = [0] * depth
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        totals[0] += 1
        if depth > 1:
            for k, count in enumerate(perft(child, depth - 1), start=1):
                totals[k] += count
    return totals


def _phase(state):
    return state.to_dict()["phase"]


def _round(state):
    return state.to_dict()["round"]


def _first_buy(state):
    return _phase(state) == "buy"


def _large_scoring_trip(state):
    """B7.2.1 trips with a choice of colours (rounds 2 or 4): TRIP_STOP and at least two trips."""
    return _phase(state) == "trip" and _round(state) in (2, 4) and len(state.legal_actions()) >= 4


def _round6_obligation(state):
    """⚖ B7.2.1a round 6, the last scorer: a trip is possible, so stopping is not (TRIP_STOP,
    id 342, not legal), and only trips that keep the most movable Vikings reachable are; the
    final scoring (B8) follows the trips, so lines end in the game."""
    d = state.to_dict()
    return (
        d["phase"] == "trip"
        and d["round"] == 6
        and d["scoring_index"] == d["num_players"] - 1
        and 342 not in state.legal_actions()
    )


def _round3_reveal(state):
    """B4.1 the start of round 3's offer: a run of chance nodes."""
    return _phase(state) == "reveal_tile" and _round(state) == 3


@dataclass(frozen=True)
class Position:
    name: str
    description: str
    config: Config
    matches: object  # state -> bool
    depth: int  # deepest count recorded and checked (cheap for the reference)


POSITIONS = (
    Position(
        "round1_buy",
        "2 players, first purchase of round 1 (B5, B6.0)",
        Config(2),
        _first_buy,
        depth=4,
    ),
    Position(
        "round3_offer",
        "3 players, round 3 before the first tile is revealed (B4)",
        Config(3),
        _round3_reveal,
        depth=4,
    ),
    Position(
        "large_scoring_trips",
        "3 players, boatsman trips of a large scoring (B7.2.1)",
        Config(3),
        _large_scoring_trip,
        depth=5,
    ),
    Position(
        "round6_obligation",
        "4 players, round-6 trip that may not be stopped (B7.2.1a ⚖)",
        Config(4),
        _round6_obligation,
        depth=6,
    ),
)


def find(engine, position):
    """(seed, step, state): the first state matching `position` in games 0, 1, 2, ..."""
    for seed in range(MAX_SEARCH_SEEDS):
        state = play_until(position.config.game(engine).new_initial_state(), seed, position.matches)
        if position.matches(state):
            return seed, len(state.history()), state
    raise LookupError(f"no game among seeds 0..{MAX_SEARCH_SEEDS - 1} reaches {position.name}")
