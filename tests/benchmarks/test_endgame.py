"""The endgame benchmark (docs/learning.md "The endgame benchmark"): the shipped positions are
what they say (round-6 decision nodes in both engines, exact margins the solver confirms), the
file is rebuilt the same from its seed, the scores count what they should, and `vikinger
endgame` runs and refuses bad input in one line."""

import gzip
import json

import pytest

from cli_runs import exit_code
from vikinger_fast.benchmarks import endgame, endgame_make


@pytest.fixture(scope="module")
def data():
    return endgame.load_positions()


@pytest.fixture(scope="module")
def critical_data():
    return endgame.load_positions(endgame.CRITICAL_DATA)


FILES = [endgame.DATA, endgame.CRITICAL_DATA]


def test_the_shipped_file_is_small_and_has_positions_for_2_3_and_4_players(data):
    assert endgame.DATA.stat().st_size < 2_000_000
    assert data["format"] == endgame.FORMAT and data["sources"] == list(endgame_make.SOURCES)
    for players in endgame.PLAYERS:
        positions = endgame.by_players(data, players, None)
        assert len(positions) == 200
        assert len({p["source"] for p in positions}) >= 3  # games of several bots
        assert len({p["state"] for p in positions}) == 200


@pytest.mark.parametrize("path", FILES, ids=["main", "critical"])
@pytest.mark.parametrize("players", endgame.PLAYERS)
def test_positions_are_round_6_decisions_in_both_engines(engines, path, players):
    for position in endgame.by_players(endgame.load_positions(path), players, None):
        states = [endgame.state_of(engine, position) for engine in engines]
        for state in states:
            assert state.to_dict()["round"] == 6 and not state.is_chance_node()
            assert state.current_player() == position["mover"]
            assert state.legal_actions() == position["actions"]
        assert states[0].serialize() == states[1].serialize()
        assert len(set(position["margins"])) > 1


@pytest.mark.parametrize("path", FILES, ids=["main", "critical"])
@pytest.mark.parametrize("players", endgame.PLAYERS)
def test_the_margins_are_the_solvers(engines, path, players):
    ref, fast = engines
    position = endgame.by_players(endgame.load_positions(path), players, None)[0]
    state = endgame.state_of(fast, position)
    assert (
        endgame_make.action_margins(fast, state, endgame_make.SOLVER_NODES) == position["margins"]
    )
    # The best margin is the whole position's value for the mover.
    solved = fast.solve_endgame(state, endgame_make.SOLVER_NODES)
    assert solved["margins"][position["mover"]] == max(position["margins"])


def test_the_file_is_rebuilt_the_same_from_its_seed(data, tmp_path):
    import vikinger_fast

    made = endgame_make.make_positions(data["seed"], 2, vikinger_fast, players=(2,))
    assert made["positions"] == endgame.by_players(data, 2, 2)
    endgame.save_positions(made, tmp_path / "a.json.gz")
    endgame.save_positions(made, tmp_path / "b.json.gz")
    assert (tmp_path / "a.json.gz").read_bytes() == (tmp_path / "b.json.gz").read_bytes()
    assert endgame.load_positions(tmp_path / "a.json.gz") == json.loads(json.dumps(made))


def test_scores_count_optimal_moves_regret_and_blunders(data):
    positions = endgame.by_players(data, 2, None)
    best = [p["actions"][p["margins"].index(max(p["margins"]))] for p in positions]
    worst = [p["actions"][p["margins"].index(min(p["margins"]))] for p in positions]
    perfect = endgame.score_moves(positions, best)
    assert perfect["optimal"] == 200 and perfect["mean_regret"] == 0.0
    assert perfect["blunders"] == 0 and perfect["critical"] > 0
    bad = endgame.score_moves(positions, worst)
    assert bad["optimal"] == 0
    regret = sum(max(p["margins"]) - min(p["margins"]) for p in positions) / 64 / 200
    assert bad["mean_regret"] == pytest.approx(regret)
    # On a critical position the worst margin has the worst result: always a blunder.
    assert bad["blunders"] == bad["critical"] == perfect["critical"]
    low, high = bad["blunder_interval"]
    assert low < 1.0 == high


def test_a_bot_scores_the_same_in_both_engines(engines, data):
    positions = endgame.by_players(data, 3, 12)
    ref, fast = (endgame.run_bot("greedy", positions, engine, 3) for engine in engines)
    for key in ("optimal", "mean_regret", "critical", "blunders"):
        assert ref[key] == fast[key]


def test_the_command_prints_the_table(capsys, tmp_path):
    out = tmp_path / "results.json"
    argv = ["endgame", "greedy", "random", "--players", "2,4", "--limit", "6", "--json", str(out)]
    assert exit_code(argv) == 0
    text = capsys.readouterr().out
    assert "| `greedy` | 2 | 6 |" in text and "| `random` | 4 | 6 |" in text
    results = json.loads(out.read_text())
    assert [(r["spec"], r["players"]) for r in results] == [
        ("greedy", 2),
        ("greedy", 4),
        ("random", 2),
        ("random", 4),
    ]


def test_make_rebuilds_the_file_from_its_seed(data, tmp_path, capsys):
    path = tmp_path / "made.json.gz"
    argv = ["endgame", "--make", str(path), "--seed", "1", "--per-count", "1", "--players", "2"]
    assert exit_code(argv) == 0
    assert endgame.load_positions(path)["positions"] == endgame.by_players(data, 2, 1)
    assert "1 positions (seed 1)" in capsys.readouterr().out


def test_jobs_change_nothing_but_the_time(tmp_path, capsys):
    """Each position's bot has its own seed: two workers give the same moves as one."""
    got = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs-{jobs}.json"
        argv = ["endgame", "greedy", "random", "mcts:iterations=30", "--players", "2,3"]
        argv += ["--limit", "30", "--seed", "7", "--jobs", jobs, "--json", str(out)]
        assert exit_code(argv) == 0
        results = json.loads(out.read_text())
        for result in results:
            result.pop("seconds_per_move")
        got.append(results)
    assert got[0] == got[1] and len(got[0]) == 6
    assert got[0][4]["spec"] == "mcts:iterations=30" and got[0][4]["positions"] == 30


def test_make_with_jobs_writes_the_same_file(data, tmp_path):
    import vikinger_fast

    from vikinger_fast.distributed import LocalProcesses

    one = endgame_make.make_positions(data["seed"], 6, vikinger_fast, players=(2,))
    two = endgame_make.make_positions(
        data["seed"], 6, vikinger_fast, players=(2,), executor=LocalProcesses(2)
    )
    assert one == two and len({p["game"] for p in two["positions"]}) > 1
    assert two["positions"][:2] == endgame.by_players(data, 2, 2)  # game 0: as shipped


@pytest.fixture(scope="module")
def checkpoints():
    """The records a 2-player build of 4 positions from seed 1 leaves after each game, and
    the file it makes."""

    import vikinger_fast

    records = []
    made = endgame_make.make_positions(
        1, 4, vikinger_fast, players=(2,), checkpoint=lambda r: records.append(_copied(r))
    )
    return records, made


def _copied(record):
    """`record` as read back from its file (a copy: make_positions goes on changing its own)."""
    return json.loads(json.dumps(record))


def test_a_stopped_build_resumed_makes_the_same_file(checkpoints):
    import vikinger_fast

    records, made = checkpoints
    assert len(records) >= 2 and records[-1]["positions"] == made["positions"]
    for record in (records[0], records[len(records) // 2]):
        again = endgame_make.make_positions(1, 4, vikinger_fast, players=(2,), resume=record)
        assert again == made


def test_resume_goes_on_across_the_numbers_of_players(data):
    """Stopped after the 2-player positions were all kept: the 3-player ones are built next."""
    import vikinger_fast

    records = []
    made = endgame_make.make_positions(
        1, 2, vikinger_fast, players=(2, 3), checkpoint=lambda r: records.append(_copied(r))
    )
    settings = endgame_make.partial_settings(1, 2, (2, 3), False, 0)
    first_done = next(r for r in records if len(r["positions"]) == 2)
    assert "3" not in first_done["games"]
    checked = endgame_make.check_partial(first_done, settings, vikinger_fast)
    again = endgame_make.make_positions(1, 2, vikinger_fast, players=(2, 3), resume=checked)
    assert again == made and [p["players"] for p in made["positions"]] == [2, 2, 3, 3]


def _tampered(record, change):
    record = _copied(record)
    change(record)
    return record


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda r: r.update(format="x"), "not a vikinger-endgame-partial/1 record"),
        (lambda r: r["settings"].update(seed=2), "made with other settings"),
        (lambda r: r.update(games={"3": 1}), "must count games per number of players"),
        (lambda r: r.update(games={"2": -1}), "must be counts of games"),
        (lambda r: r.update(positions={}), "its positions must be a list"),
        (lambda r: r["positions"].append(7), "position 3: not a position of the benchmark"),
        (lambda r: r["positions"][0].update(game=10**6), "position 0: game 1000000 is not one"),
        (lambda r: r["positions"][0].update(state="AAAA"), "position 0: its state does not load"),
        (lambda r: r["positions"][0].update(state=5), "position 0: its state does not load"),
        (lambda r: r["positions"][0].update(actions=[0]), "its actions or mover are not its"),
        (lambda r: r["positions"].extend(r["positions"] * 2), "more than 4 of 2"),
    ],
)
def test_a_partial_record_of_other_settings_or_tampered_is_refused(checkpoints, change, words):
    import vikinger_fast

    record = _tampered(checkpoints[0][0], change)
    settings = endgame_make.partial_settings(1, 4, (2,), False, 0)
    assert len(checkpoints[0][0]["positions"]) == 3  # game 0 keeps three (the indices above)
    with pytest.raises(ValueError, match=words):
        endgame_make.check_partial(record, settings, vikinger_fast)
    with pytest.raises(ValueError, match=words):
        endgame_make.make_positions(1, 4, vikinger_fast, players=(2,), resume=record)


def test_make_resumes_a_stopped_build_and_refuses_to_lose_one(checkpoints, tmp_path, capsys):
    records, made = checkpoints
    path = tmp_path / "made.json.gz"
    partial = tmp_path / "made.json.gz.partial"
    argv = ["endgame", "--make", str(path), "--seed", "1", "--per-count", "4", "--players", "2"]
    endgame.save_positions(records[0], partial)
    assert exit_code(argv) == 2  # a stopped build is not overwritten by a new one
    assert "holds a build that was stopped: give --resume" in capsys.readouterr().err
    assert exit_code([*argv[:-4], "--per-count", "5", "--players", "2", "--resume"]) == 2
    assert "made with other settings" in capsys.readouterr().err
    assert partial.exists() and not path.exists()
    assert exit_code([*argv, "--resume"]) == 0
    out = capsys.readouterr().out
    assert f"resuming {partial}: 3 positions kept, games played 1 (2 players)" in out
    assert endgame.load_positions(path) == json.loads(json.dumps(made))
    assert not partial.exists()
    assert exit_code([*argv, "--resume"]) == 2
    assert "there is no" in capsys.readouterr().err
    assert exit_code(["endgame", "--resume"]) == 2
    assert "--resume goes on with a stopped --make" in capsys.readouterr().err


def test_a_failing_bot_is_one_line_naming_its_positions(tmp_path, capsys, monkeypatch):
    (tmp_path / "broken_bot.py").write_text(
        "class Broken:\n"
        "    def __init__(self, game, seed): pass\n"
        "    def step(self, state): raise RuntimeError('no move')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert exit_code(["endgame", "broken_bot:Broken", "--players", "3", "--limit", "4"]) == 1
    err = capsys.readouterr().err
    assert "broken_bot:Broken, 3 players, positions 0-3" in err and "no move" in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["endgame", "nobot"], "bot spec 'nobot'"),
        (["endgame", "az:simulations=0"], "simulations must be > 0"),
        (["endgame", "--players", "5"], "--players takes 2, 3 and/or 4"),
        (["endgame", "--data", "/nonexistent.json.gz"], "/nonexistent.json.gz: no such file"),
        (["endgame", "az:model=/nonexistent.npz", "--players", "3"], "az:model=/nonexistent.npz"),
    ],
)
def test_bad_input_is_one_line(capsys, argv, words):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_file_of_another_format_is_refused(tmp_path):
    path = tmp_path / "other.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"format": "other/1"}).encode()))
    with pytest.raises(ValueError, match="not a vikinger-endgame/1 file"):
        endgame.load_positions(path)


def test_resume_from_a_fifo_is_refused_unread(tmp_path, capsys):
    import os

    path = tmp_path / "made.json.gz"
    os.mkfifo(tmp_path / "made.json.gz.partial")
    argv = ["endgame", "--make", str(path), "--players", "2", "--resume"]
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert "made.json.gz.partial: not a regular file (a FIFO)" in err and err.count("\n") == 1


def test_files_read_are_regular_bounded_gzip_json(tmp_path, monkeypatch):
    """docs/security.md "Files read": a FIFO is refused unread (nothing blocks), a file that is
    not gzip'd JSON or unpacks past the bound is a ValueError naming it, for the positions and
    for a partial build alike."""
    import os

    from vikinger_fast.safety import json_limits

    fifo = tmp_path / "fifo.json.gz"
    os.mkfifo(fifo)
    plain = tmp_path / "plain.json.gz"
    plain.write_text("{}")
    big = tmp_path / "big.json.gz"
    big.write_bytes(gzip.compress(b" " * 2000 + b"{}"))
    monkeypatch.setattr(json_limits, "MAX_BYTES", 1000)
    for read in (endgame.load_positions, endgame_make.load_partial):
        with pytest.raises(ValueError, match="fifo.json.gz: not a regular file"):
            read(fifo)
        with pytest.raises(ValueError, match="plain.json.gz: not an? "):
            read(plain)
        with pytest.raises(ValueError, match="big.json.gz: unpacks to more than 1,000 bytes"):
            read(big)


def test_each_position_gets_a_bot_of_its_own_seed(data, monkeypatch):
    """run_bot makes position i's bot with arena.bot_seed(seed, i, 0): one seed for every
    position made the random bot draw the same first number everywhere."""
    import vikinger_fast
    from vikinger_fast import arena

    made = []
    real = arena.make_bot
    monkeypatch.setattr(
        arena,
        "make_bot",
        lambda spec, engine, game, seed: made.append(seed) or real(spec, engine, game, seed),
    )
    positions = endgame.by_players(data, 2, 6)
    result = endgame.run_bot("random", positions, vikinger_fast, seed=17)
    assert made == [arena.bot_seed(17, i, 0) for i in range(6)]
    assert len(set(made)) == 6 and result["positions"] == 6


def test_a_critical_file_holds_critical_positions_alone():
    """--make --critical: every kept position has an action that changes the mover's result,
    the solver's margins as in the main file, and the file says so."""
    import vikinger_fast

    made = endgame_make.make_positions(2, 3, vikinger_fast, players=(2,), only_critical=True)
    assert made["critical"] is True and len(made["positions"]) == 3
    for position in made["positions"]:
        assert endgame.critical(position["margins"])
        state = endgame.state_of(vikinger_fast, position)
        assert (
            endgame_make.action_margins(vikinger_fast, state, endgame_make.SOLVER_NODES)
            == (position["margins"])
        )
    # The main file's rebuild is unchanged by the option: no "critical" key there.
    assert "critical" not in endgame_make.make_positions(1, 1, vikinger_fast, players=(2,))


def test_critical_with_data_is_refused(capsys, tmp_path):
    argv = ["endgame", "--critical", "--data", str(tmp_path / "x.json.gz")]
    assert exit_code(argv) == 2
    assert "--critical chooses the shipped critical positions" in capsys.readouterr().err


def test_the_shipped_critical_file_holds_200_critical_positions_per_count(critical_data):
    assert endgame.CRITICAL_DATA.stat().st_size < 2_000_000
    assert critical_data["critical"] is True and critical_data["sources"] == list(
        endgame_make.SOURCES
    )
    for players in endgame.PLAYERS:
        positions = endgame.by_players(critical_data, players, None)
        assert len(positions) == 200 and len({p["state"] for p in positions}) == 200
        assert all(endgame.critical(p["margins"]) for p in positions)
        assert len({p["source"] for p in positions}) >= 3  # games of several bots


def test_the_critical_file_is_rebuilt_from_its_seed(critical_data):
    import vikinger_fast

    made = endgame_make.make_positions(
        critical_data["seed"], 2, vikinger_fast, players=(2,), only_critical=True
    )
    assert made["positions"] == endgame.by_players(critical_data, 2, 2)


def test_critical_runs_on_the_shipped_critical_positions(capsys):
    assert exit_code(["endgame", "random", "--critical", "--players", "3", "--limit", "4"]) == 0
    out = capsys.readouterr().out
    assert "the shipped critical positions" in out and "| `random` | 3 | 4 |" in out
    assert " / 4 = " in out  # all four critical


# --- the hard positions (two players, labelled by results) ---------------------------------


# Each version of the hard rule (endgame.HARD_VERSIONS) and its file: (version, path, positions).
HARD_FILES = [(1, endgame.HARD_V1_DATA, 80), (2, endgame.HARD_DATA, 200)]


@pytest.fixture(scope="module", params=HARD_FILES, ids=["hard-v1", "hard-v2"])
def hard_file(request):
    version, path, count = request.param
    return version, endgame.load_positions(path), count


@pytest.fixture(scope="module")
def hard_data():
    return endgame.load_positions(endgame.HARD_DATA)


def test_the_shipped_hard_files_hold_critical_positions_labelled_by_results(hard_file):
    version, data, count = hard_file
    assert all(path.stat().st_size < 2_000_000 for _, path, _ in HARD_FILES)
    assert data["critical"] is True and data["sources"] == list(endgame_make.HARD_SOURCES)
    rule = {"gives_up_within": endgame_make.HARD_FROM}
    if version > 1:
        rule.update(version=version, table="one per position")
    assert data["hard"] == rule
    assert data["solver_nodes"] == endgame_make.HARD_NODES
    positions = data["positions"]
    assert len(positions) == count and len({p["state"] for p in positions}) == count
    assert {p["players"] for p in positions} == {2} and not endgame.by_players(data, 3, None)
    for p in positions:
        assert "margins" not in p and len(p["results"]) == len(p["actions"])
        assert set(p["results"]) <= {-1, 0, 1} and endgame.critical(p["results"])
        assert max(p["results"]) >= 0  # the mover does not lose under best play
    assert len({p["game"] for p in positions}) >= count * 3 // 8  # from many games


def test_hard_positions_are_the_same_states_in_both_engines(engines, hard_file):
    for position in hard_file[1]["positions"][:20]:
        ref, fast = (endgame.state_of(engine, position) for engine in engines)
        assert ref.to_dict() == fast.to_dict()
        assert fast.legal_actions() == position["actions"]


def test_the_default_solver_gives_up_on_hard_positions(hard_file):
    import vikinger_fast

    for position in hard_file[1]["positions"][:10]:
        state = endgame.state_of(vikinger_fast, position)
        assert vikinger_fast.solve_endgame_result(state, endgame_make.HARD_FROM) is None


def test_hard_labels_are_the_result_solvers(hard_file):
    """Version 1's labels from a new table per solve, version 2's from one table per position
    (the same values wherever both finish)."""
    import vikinger_fast

    version, data, _ = hard_file
    position = data["positions"][0]
    state = endgame.state_of(vikinger_fast, position)
    solver = None if version == 1 else vikinger_fast.EndgameSolver(state.get_game())
    labels = endgame_make.action_results(vikinger_fast, state, endgame_make.HARD_NODES, solver)
    assert labels == position["results"]


def test_the_hard_files_are_rebuilt_from_their_seeds(hard_file):
    """The first position again from its game (the files' first games keep none)."""
    import vikinger_fast

    version, data, _ = hard_file
    first = data["positions"][0]
    again = endgame_make._game_positions(
        vikinger_fast, 2, data["seed"], first["game"], hard=version
    )
    assert again[0] == first


def test_hard_scores_count_blunders_alone(hard_data):
    positions = hard_data["positions"]
    best = [p["actions"][p["results"].index(max(p["results"]))] for p in positions]
    worst = [p["actions"][p["results"].index(min(p["results"]))] for p in positions]
    perfect = endgame.score_moves(positions, best)
    assert perfect["blunders"] == 0 and perfect["critical"] == len(positions)
    assert perfect["optimal_share"] is None and perfect["mean_regret"] is None
    assert endgame.score_moves(positions, worst)["blunders"] == len(positions)


@pytest.mark.parametrize("version", [None, 1, 2])
def test_hard_runs_on_the_shipped_hard_positions(capsys, version):
    chosen = [] if version is None else ["--hard-version", str(version)]
    assert exit_code(["endgame", "random", "--hard", "--limit", "4", *chosen]) == 0
    text = capsys.readouterr().out
    seed = endgame.load_positions(endgame.hard_data(version or 2))["seed"]
    assert f"the shipped hard (v{version or 2}) positions" in text and f"seed {seed})" in text
    assert "| `random` | 2 | 4 | - | - | " in text


@pytest.mark.parametrize(
    "argv, words",
    [
        (["endgame", "--hard", "--players", "2,3"], "--hard positions are for two players"),
        (["endgame", "--hard", "--critical"], "--critical and --hard choose different files"),
        (["endgame", "--hard", "--data", "x.json.gz"], "--hard chooses the shipped hard"),
        (["endgame", "--hard-version", "1"], "--hard-version chooses a file of --hard positions"),
    ],
)
def test_hard_refusals_are_one_line(capsys, argv, words):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_hard_files_are_for_two_players():
    import vikinger_fast

    with pytest.raises(ValueError, match="hard positions are for two players"):
        endgame_make.make_positions(1, 1, vikinger_fast, players=(3,), hard=True)


def test_the_hard_files_by_version():
    assert (
        endgame.hard_data(1) == endgame.HARD_V1_DATA and endgame.hard_data(2) == endgame.HARD_DATA
    )
    with pytest.raises(ValueError, match="no hard positions of version 3"):
        endgame.hard_data(3)


def test_an_unknown_hard_version_is_a_usage_error(capsys):
    assert exit_code(["endgame", "--hard", "--hard-version", "3"]) == 2
    assert "--hard-version: invalid choice: 3" in capsys.readouterr().err


@pytest.mark.parametrize("hard", [3, -1, 1.0, "2", None])
def test_hard_takes_a_known_version(hard):
    import vikinger_fast

    with pytest.raises(ValueError, match="hard takes 0 or a version of"):
        endgame_make.make_positions(1, 1, vikinger_fast, players=(2,), hard=hard)
