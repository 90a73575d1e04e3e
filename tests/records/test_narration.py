"""The narration (narration.py): every scoring's breakdown adds up to the Fame and gold the
engine shows after it, the whole game's breakdown to the final Fame, and every forced decision is
narrated; on both engines, with every module, in seeded random games."""

import random

import pytest

from vikinger_fast.narration import Narrator, chance_words, format_scoring

FLAGS = ("auction", "draw13", "offer_by_colour", "weak_boatsmen", "special_tiles")
RULE_IDS = {"B7.1", "B7.2.2", "B7.2.3", "B7.2.4", "B7.2.5", "B7.2.6"}
RULE_IDS |= {"B8.1", "B8.2", "B8.3", "B8.4", "B8.5", "B8.6", "A5"}


def narrated_game(engine, n, flags, seed):
    """(state at the end, [events of each applied action])."""
    state = engine.Game(num_players=n, **dict.fromkeys(flags, True)).new_initial_state()
    narrator = Narrator(state)
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.apply_random_chance(rng.getrandbits(64))
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
        events = narrator.step(action)
        steps.append(events)
        scored = {}
        for event in events:
            if event["kind"] != "scoring":
                continue
            for entry in event["players"]:
                assert entry["items"] or (entry["fame"], entry["gold"]) == (
                    entry["fame_before"],
                    entry["gold_before"],
                )
                for line in entry["items"]:
                    assert line["rule"] in RULE_IDS, line
                fame = sum(line["fame"] for line in entry["items"])
                gold = sum(line["gold"] for line in entry["items"])
                assert entry["fame"] - entry["fame_before"] == fame, event
                assert entry["gold"] - entry["gold_before"] == gold, event
                scored[entry["player"]] = (entry["fame"], entry["gold"])
        for player, (fame, gold) in scored.items():  # what the engine shows after the step
            assert (state.scores()[player], state.gold()[player]) == (fame, gold)
    return state, steps, narrator


@pytest.mark.parametrize("n, flags, seed", [(2, (), 1), (3, FLAGS, 2), (4, ("weak_boatsmen",), 3)])
def test_every_scoring_adds_up_to_the_engines_fame(engine, n, flags, seed):
    state, steps, narrator = narrated_game(engine, n, flags, seed)
    scorings = [e for events in steps for e in events if e["kind"] == "scoring"]
    kinds = [e["scoring"] for e in scorings]
    assert kinds.count("small") == 3 and kinds.count("final") == 1  # B7.1 rounds 1, 3, 5; B8
    assert {e["round"] for e in scorings if e["scoring"] == "large"} == {2, 4, 6}
    # The whole game: the start Fame, the Fame paid and every scoring make the final Fame.
    totals = narrator.totals()
    assert [row["fame"] for row in totals] == list(state.scores())
    assert all(row["items"][0]["rule"] == "B1.5" for row in totals)
    text = format_scoring(scorings[-1])
    assert text.startswith("Round 6: final scoring (B8)") and "B8.6" in text


@pytest.mark.parametrize("n, seed", [(2, 4), (4, 5)])
def test_every_decision_is_narrated_forced_ones_included(engine, n, seed):
    state, steps, _ = narrated_game(engine, n, (), seed)
    decisions = [e for events in steps for e in events if e["kind"] in ("move", "forced")]
    buys = [e for e in decisions if e["string"].startswith("buy:")]
    assert len(buys) == 6 * 12  # B5: twelve purchases a round, the forced last one included
    starts = [e["player"] for e in decisions if e["string"].startswith("start:")]
    assert sorted(starts) == list(range(n))  # B6.0: one start tile each, forced or not
    forced = [e for e in decisions if e["kind"] == "forced"]
    assert forced and all(e["explain"] for e in forced)
    chosen = [e for events in steps for e in events[:1] if e["kind"] == "move"]
    assert [e["string"] for e in chosen] == [
        state.action_to_string(a)
        for a, events in zip(state.history(), steps)
        if events[0]["kind"] == "move"
    ]


def test_a_rounds_chance_in_words(engine):
    """The chance of a real round, one sentence grouped by kind and counted (vikinger play)."""
    state = engine.Game(num_players=2, special_tiles=True).new_initial_state()
    narrator, rng, strings = Narrator(state), random.Random(3), []
    while state.is_chance_node():
        events = narrator.step(state.apply_random_chance(rng.getrandbits(64)))
        strings += [event["string"] for event in events if event["kind"] == "chance"]
    words = chance_words(strings)
    kinds = [text.partition(":")[0] for text in strings]
    assert {"reveal", "draw", "display"} <= set(kinds)
    assert "tiles revealed onto the wheel (B4.1): " in words
    assert "Vikings drawn from the bag (B4.2): " in words
    assert "special tiles laid out (A5): '" in words
    assert ":" not in words.replace("(B4.1):", "").replace("(B4.2):", "").replace("(A5):", "")
    assert chance_words(["draw:noble", "draw:noble", "draw:scout"]) == (
        "Vikings drawn from the bag (B4.2): 2 nobles, a scout"
    )
    assert chance_words(["reveal:left", "reveal:ship_red", "reveal:left"]) == (
        "tiles revealed onto the wheel (B4.1): 2 x left piece, "
        "red ship (threatens rows 1-2, value 3 gold)"
    )
