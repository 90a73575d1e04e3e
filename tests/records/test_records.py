"""Game records (docs/records.md): round trips on both engines for every player count and a
sample of module combinations, the errors of malformed records, and `vikinger replay`."""

import copy
import json

import pytest

from conftest import load_engine
from positions import FLAGS
from tools.random_games import random_game
from vikinger_fast import cli, records

# Players 2-4 x {no module, each module alone, all of them}: every flag is seen on and off
# with every player count.
CONFIGS = [
    (n, frozenset(flags)) for n in (2, 3, 4) for flags in [()] + [(f,) for f in FLAGS] + [FLAGS]
]


def config_id(config):
    n, flags = config
    return f"{n}p-" + ("+".join(sorted(flags)) or "base")


def play(engine, n, flags, seed, stop=None):
    """A seeded random game on `engine`, to the end or until `stop` actions are applied."""
    return random_game(
        engine, seed, n, flags, None if stop is None else lambda state: len(state.history()) >= stop
    )


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_whole_game_replays_to_the_same_state_in_both_engines(engine, config):
    n, flags = config
    seed = 100 + CONFIGS.index(config)
    state = play(engine, n, flags, seed)
    record = records.loads(
        records.dumps(
            records.record_from_state(state, players=["human"] + ["random"] * (n - 1), seed=seed)
        )
    )
    assert record["result"]["terminal"] and len(record["moves"]) == len(state.history())
    assert record["result"]["fame"] == list(state.scores())
    assert abs(sum(record["result"]["returns"]) - 1.0) < 1e-9
    for other in ("ref", "fast"):
        replayed = records.replay(record, load_engine(other))
        assert replayed.to_dict() == state.to_dict()
        assert replayed.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize("n", (2, 3, 4))
@pytest.mark.parametrize("mask", range(32))
def test_every_module_combination_replays_in_both_engines(engine, n, mask):
    flags = frozenset(f for i, f in enumerate(FLAGS) if mask >> i & 1)
    state = play(engine, n, flags, seed=1000 + 32 * n + mask)
    record = records.loads(records.dumps(records.record_from_state(state)))
    for other in ("ref", "fast"):
        assert records.replay(record, load_engine(other)).to_dict() == state.to_dict()


@pytest.mark.parametrize("config", CONFIGS[::4], ids=config_id)
def test_every_step_of_a_record_is_the_state_after_that_many_moves(engine, config):
    n, flags = config
    state = play(engine, n, flags, seed=7, stop=90)
    record = records.record_from_state(state)
    assert not record["result"]["terminal"]
    walked = list(records.states(record, engine))
    assert len(walked) == len(state.history()) + 1
    for step in (0, 1, 45, 90):
        assert walked[step].history() == state.history()[:step]
        assert records.replay(record, engine, step=step) == walked[step]
    assert walked[-1] == state


def test_moves_carry_their_string_and_player(engine):
    state = play(engine, 3, FLAGS, seed=3, stop=60)
    record = records.record_from_state(
        state, players=["mcts:iterations=2000,uct_c=1.4", {"name": "greedy"}, "human"], seed=3
    )
    walker = state.get_game().new_initial_state()
    for move in record["moves"]:
        assert move["string"] == walker.action_to_string(move["action"])
        assert move["player"] == walker.current_player()
        walker.apply_action(move["action"])
    assert record["moves"][0]["player"] == engine.CHANCE
    assert record["players"] == [
        {"name": "mcts", "params": {"iterations": 2000, "uct_c": 1.4}},
        {"name": "greedy", "params": {}},
        {"name": "human", "params": {}},
    ]
    assert record["seed"] == 3 and record["version"] == records.VERSION


def test_save_and_load_a_file(engine, tmp_path):
    state = play(engine, 2, (), seed=11)
    path = tmp_path / "game.json"
    records.save(path, state, players=["random", "random"], seed=11)
    text = path.read_text()
    assert text.count('"action"') == len(state.history())
    assert records.replay(records.load(path), engine) == state
    assert json.loads(text)["format"] == "vikinger-record"


@pytest.fixture(scope="module")
def record():
    return records.record_from_state(
        play(load_engine("ref"), 2, ("special_tiles",), seed=5),
        players=["random", "random"],
        seed=5,
    )


def broken(record, change):
    copied = copy.deepcopy(record)
    change(copied)
    return copied


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: r.pop("moves"), "'moves': missing"),
        (lambda r: r.update(extra=1), "'extra': unknown field"),
        (lambda r: r.update(format="chess-pgn"), "'format'"),
        (lambda r: r.update(version=2), "'version'"),
        (lambda r: r["game"].update(num_players=5), "'game.num_players'"),
        (lambda r: r["game"]["options"].update(auction="yes"), "'game.options.auction'"),
        (lambda r: r["game"]["options"].pop("draw13"), "'game.options'"),
        (lambda r: r["players"].pop(), "'players'"),
        (lambda r: r["players"][1].update(name=""), "'players[1]'"),
        (lambda r: r.update(seed="7"), "'seed'"),
        (lambda r: r["moves"][3].update(action=-2), "'moves[3].action'"),
        (lambda r: r["moves"][4].update(action=True), "'moves[4].action'"),
        (lambda r: r["moves"][5].pop("string"), "'moves[5]'"),
        (lambda r: r["moves"][6].update(player="0"), "'moves[6].player'"),
        (lambda r: r["result"].update(fame=[1]), "'result.fame'"),
        (lambda r: r["result"].update(terminal=1), "'result.terminal'"),
    ],
)
def test_a_malformed_record_names_the_field(engine, record, change, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        records.replay(broken(record, change), engine)


def first_decision(record):
    return next(i for i, move in enumerate(record["moves"]) if move["player"] >= 0)


def test_an_illegal_action_is_reported_with_its_index(engine, record):
    i = first_decision(record)
    bad = broken(record, lambda r: r["moves"][i].update(action=1715, string="special:decline"))
    with pytest.raises(ValueError, match=f"move {i} .*not legal"):
        records.replay(bad, engine)


def test_a_string_that_does_not_match_its_action_is_reported(engine, record):
    i = first_decision(record) + 1
    bad = broken(record, lambda r: r["moves"][i].update(string="buy:99"))
    with pytest.raises(ValueError, match=f"move {i}: string 'buy:99' does not match"):
        records.replay(bad, engine)


def test_a_wrong_player_is_reported(engine, record):
    i = first_decision(record)
    bad = broken(record, lambda r: r["moves"][i].update(player=r["moves"][i]["player"] + 1))
    with pytest.raises(ValueError, match=f"move {i} .*player"):
        records.replay(bad, engine)


def test_an_inconsistent_result_or_an_extra_move_is_refused(engine, record):
    bad = broken(record, lambda r: r["result"]["fame"].__setitem__(0, 999))
    with pytest.raises(ValueError, match="'result.fame': .*999"):
        records.replay(bad, engine)
    bad = broken(record, lambda r: r["moves"].append(dict(r["moves"][-1])))
    with pytest.raises(ValueError, match=f"move {len(record['moves'])} .*already over"):
        records.replay(bad, engine)
    short = broken(record, lambda r: r["moves"].pop())
    with pytest.raises(ValueError, match="'result.terminal'"):
        records.replay(short, engine)


def test_bad_text_and_bad_steps(engine, record):
    with pytest.raises(ValueError, match="must be JSON"):
        records.loads("{not json")
    with pytest.raises(ValueError, match="JSON object"):
        records.loads("[1, 2]")
    with pytest.raises(ValueError, match="step must be in 0.."):
        records.replay(record, engine, step=len(record["moves"]) + 1)
    with pytest.raises(ValueError, match="not key=value"):
        records.player_entry("mcts:iterations")
    with pytest.raises(ValueError, match="players: 1 entries"):
        records.record_from_state(engine.Game().new_initial_state(), players=["human"])


def test_a_constructed_position_whose_history_does_not_lead_to_it_is_refused(engine):
    state = play(engine, 2, (), seed=4, stop=50)
    d = state.to_dict()
    d["players"][0]["gold"] += 1
    with pytest.raises(ValueError, match="does not lead to it"):
        records.record_from_state(state.get_game().state_from_dict(d))
    d = state.to_dict()
    d["history"] = d["history"][:10] + [2035] + d["history"][11:]
    with pytest.raises(ValueError, match=r"action 2035 \(number 10\) is not legal"):
        records.record_from_state(state.get_game().state_from_dict(d))


def test_replay_command_prints_the_board_at_a_step(tmp_path, capsys):
    fast = load_engine("fast")
    state = play(fast, 2, (), seed=21)
    path = tmp_path / "game.json"
    records.save(path, state, players=["random", "human"], seed=21)
    assert cli.main(["replay", str(path), "--step", "30"]) == 0
    out = capsys.readouterr().out
    expected = records.replay(records.load(path), load_engine("ref"), step=30)
    assert out.rstrip("\n").endswith(str(expected))
    assert "step 30/" in out


def test_replay_command_walks_through_the_game(tmp_path, capsys):
    state = play(load_engine("ref"), 2, (), seed=22, stop=40)
    path = tmp_path / "game.json"
    records.save(path, state)
    assert cli.main(["replay", str(path), "--engine", "ref", "--boards"]) == 0
    out = capsys.readouterr().out
    assert out.count("Round 1/6") == 41
    assert out.rstrip("\n").endswith(str(state))
    for move in records.load(path)["moves"][:5]:
        assert move["string"] in out


def test_replay_command_summarizes_the_game_by_default(tmp_path, capsys):
    fast = load_engine("fast")
    state = play(fast, 3, ("special_tiles",), seed=23)
    path = tmp_path / "game.json"
    records.save(path, state, players=["random", "human", "mcts:iterations=20"], seed=23)
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 6
    assert lines[0] == f"{path}: 3 players, modules: special_tiles, seed 23"
    assert lines[1] == "players: 0 random | 1 human | 2 mcts:iterations=20"
    moves = len(state.history())
    assert lines[2].startswith(f"length: {moves} moves (") and lines[2].endswith("finished")
    assert f"player 2 Fame {state.scores()[2]}, gold {state.gold()[2]}" in lines[3]
    winners = [p for p, r in enumerate(state.returns()) if r > 0]
    assert lines[4].startswith("winner") and f"player {winners[0]} (" in lines[4]
    assert "--boards" in lines[5]
    unfinished = play(fast, 2, (), seed=24, stop=30)
    records.save(path, unfinished, seed=None)
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seed unknown" in out and "not finished: round 1/6" in out and "winner" not in out


def test_replay_command_reports_a_bad_record(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text('{"format": "vikinger-record"}')
    assert cli.main(["replay", str(path)]) == 2
    assert "missing" in capsys.readouterr().err
