"""vikinger arena (docs/arena.md): bot specs, the duplicate schedule and its chance streams, the
same results for any --jobs and on both engines, the output folder, and clear errors."""

import os
import json
import pathlib
import sys

import pytest
import vikinger_ref

from vikinger_fast import arena, records
from vikinger_fast.bot_registry import BOTS, BotEntry
from vikinger_fast.cli import main

USER_BOT = '''
class FirstLegal:
    """Always the legal action number `index` (clamped), to test user bots."""
    def __init__(self, game, seed, index=0):
        self.index = index
    def step(self, state):
        legal = state.legal_actions()
        return legal[min(self.index, len(legal) - 1)]
'''


def _run(tmp_path, name, *argv):
    out = tmp_path / name
    assert main(["arena", *argv, "--out", str(out), "--no-progress"]) == 0
    return out


def _files(folder):
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_parse_spec():
    spec = arena.parse_spec("mcts:iterations=2000,threads=2")
    assert (spec.name, spec.params) == ("mcts", {"iterations": 2000, "threads": 2})
    assert arena.parse_spec("mcts:time=0.1").params == {"time": 0.1}
    assert arena.parse_spec("random").params == {}
    user = arena.parse_spec("my.bots:Deep:depth=3,style=calm")
    assert (user.name, user.params) == ("my.bots:Deep", {"depth": 3, "style": "calm"})
    assert user.player_entry() == {"name": "my.bots:Deep", "params": {"depth": 3, "style": "calm"}}


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("minimax", "not a bot"),
        ("mcts:depth=3", "unknown parameter 'depth' for mcts"),
        ("greedy:5", "'5' is not key=value"),
        ("random:seed=1", "unknown parameter 'seed' for random"),
        ("mcts:iterations=0", "iterations must be > 0"),
        ("mcts:leaf=deep,iterations=10", "leaf must be one of"),
        # in the spec's words: its name and `time`, not MCTSBot and max_time
        ("mcts:time=1e9", r"mcts needs a finite budget: iterations, or time below 1e9 seconds"),
        ("az:time=1e10", r"az needs a finite budget: simulations, or time below 1e9 seconds"),
        ("puct:time=0", r": time must be > 0, not 0$"),
        ("mcts:threads=2,time=abc", r": time must be a number, not str$"),
        ("mcts:max_time=-1", r": max_time must be > 0, not -1$"),
        ("mcts:time=1,max_time=2", "given twice"),
        ("no_such_module_here:Bot", "cannot import module 'no_such_module_here'"),
        ("vikinger_fast.arena:NoSuchBot", "has no class 'NoSuchBot'"),
    ],
)
def test_bad_specs_name_the_spec(text, message):
    for engine_name in arena.ENGINES:
        with pytest.raises(ValueError, match=message) as caught:
            arena.check_spec(text, arena.engine_module(engine_name))
        assert f"bot spec {text!r}" in str(caught.value)


def test_bad_spec_on_the_command_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["arena", "random", "mcts:iterationz=5", "--out", str(tmp_path / "x")])
    assert caught.value.code == 2
    assert "bot spec 'mcts:iterationz=5': unknown parameter 'iterationz'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["arena", "random", "greedy", "--players", "3"])
    assert "--players 3 needs at least 3 bot specs" in capsys.readouterr().err


def test_schedule_plays_every_seating_of_every_deal():
    tasks = arena.schedule(entrants=4, players=3, deals=2)
    assert len(tasks) == 4 * 2 * 6  # C(4, 3) tables x deals x 3! seatings
    first = [seats for table, deal, seats in tasks if (table, deal) == (0, 1)]
    assert sorted(map(tuple, first)) == [
        (0, 1, 2),
        (0, 2, 1),
        (1, 0, 2),
        (1, 2, 0),
        (2, 0, 1),
        (2, 1, 0),
    ]
    assert arena.deals_for(games=5, players=2) == 3 and arena.deals_for(1, 4) == 1
    with pytest.raises(ValueError, match="at least 3 entrants"):
        arena.schedule(entrants=2, players=3, deals=1)


def test_seatings_of_a_deal_share_the_chance_stream():
    games = arena.run("fast", ["random", "greedy"], 2, seed=5, deals=2)
    assert [(g["deal"], g["seats"]) for g in games] == [
        (0, [0, 1]),
        (0, [1, 0]),
        (1, [0, 1]),
        (1, [1, 0]),
    ]
    assert games[0]["chance_seed"] == games[1]["chance_seed"] == arena.chance_seed(5, 0)
    assert games[2]["chance_seed"] != games[0]["chance_seed"]

    def opening(game):  # the chance outcomes before the first decision
        moves = game["record"]["moves"]
        return [
            m["action"] for m in moves[: next(i for i, m in enumerate(moves) if m["player"] >= 0)]
        ]

    assert opening(games[0]) == opening(games[1]) != opening(games[2])
    # The bots follow their entrant, not the seat: entrant 0 plays seat 0, then seat 1.
    assert games[0]["record"]["players"][0]["name"] == "random"
    assert games[1]["record"]["players"][1]["name"] == "random"


def test_results_do_not_depend_on_jobs(tmp_path):
    bots = ["random", "greedy", "mcts:iterations=20"]
    one = _run(
        tmp_path, "one", *bots, "--players", "2", "--games", "2", "--seed", "3", "--jobs", "1"
    )
    two = _run(
        tmp_path, "two", *bots, "--players", "2", "--games", "2", "--seed", "3", "--jobs", "2"
    )
    first, second = _files(one), _files(two)
    assert len([name for name in first if name.startswith("records")]) == 3 * 2
    assert first == second
    other_seed = _files(
        _run(tmp_path, "three", *bots, "--players", "2", "--games", "2", "--seed", "4")
    )
    assert other_seed["games.csv"] != first["games.csv"]


def test_both_engines_give_the_same_tournament(tmp_path):
    bots = ["random", "greedy", "mcts:iterations=5"]
    results = {}
    for engine in arena.ENGINES:
        out = _run(tmp_path, engine, *bots, "--games", "1", "--engine", engine)
        results[engine] = json.loads((out / "results.json").read_text())
        assert results[engine]["games"] == 6 and results[engine]["players_per_game"] == 3
        assert (out / "games.csv").read_text().count("\n") == 7
    assert results["ref"]["engine"] == "ref"
    assert results["ref"]["entries"] == results["fast"]["entries"]


def test_outputs_records_and_user_bot(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "arena_user_bots.py").write_text(USER_BOT)
    out = _run(
        tmp_path,
        "out",
        "arena_user_bots:FirstLegal:index=1",
        "greedy",
        "--games",
        "4",
        "--seed",
        "1",
    )
    table = capsys.readouterr().out
    assert "arena_user_bots:FirstLegal:index=1" in table and "Elo (BT)" in table
    results = json.loads((out / "results.json").read_text())
    by_name = {e["name"]: e for e in results["entries"]}
    assert by_name["greedy"]["games"] == by_name["arena_user_bots:FirstLegal:index=1"]["games"] == 4
    for entry in results["entries"]:
        low, high = entry["win_share_interval"]
        assert low <= entry["win_share"] <= high
        assert entry["rating_interval"][0] < entry["rating"] < entry["rating_interval"][1]
    score, meetings = results["head_to_head"]["score"], results["head_to_head"]["meetings"]
    assert meetings == [[0, 4], [4, 0]] and score[0][1] + score[1][0] == 4
    shares = sum(e["win_share"] * e["games"] for e in results["entries"])
    assert shares == pytest.approx(4)  # one win shared per game
    assert (out / "results.csv").read_text().splitlines()[0].startswith("name,spec,games")
    record = records.load(out / "records" / "game-00001.json")
    assert record["players"][0] == {"name": "greedy", "params": {}}
    assert record["players"][1] == {"name": "arena_user_bots:FirstLegal", "params": {"index": 1}}
    assert record["seed"] == arena.chance_seed(1, 0)
    import vikinger_ref

    final = records.replay(record, vikinger_ref)
    assert final.is_terminal() and final.scores() == record["result"]["fame"]


def test_plot(tmp_path):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    picture = tmp_path / "ladder.png"
    _run(tmp_path, "out", "random", "greedy", "--games", "2", "--plot", str(picture))
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_docs_describe_the_command():
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "arena.md").read_text()
    for needle in (
        "vikinger arena",
        "vikinger play",
        "Wilson",
        "Bradley-Terry",
        "chance_seed",
        "--jobs",
        "## Ladder",
    ):
        assert needle in text


def test_progress_with_and_without_tqdm(monkeypatch, capsys):
    pytest.importorskip("tqdm", reason="the arena extra is not installed")
    arena.run("fast", ["random", "random"], 2, seed=0, deals=2, progress=True)
    assert "4/4" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm fails
    arena.run("fast", ["random", "random"], 2, seed=0, deals=2, progress=True)
    assert capsys.readouterr().err.splitlines() == [f"  {n}/4 games" for n in (1, 2, 3, 4)]


def test_progress_bars_count_their_unit_and_are_off_when_disabled(monkeypatch, capsys):
    # The one progress bar of arena, ladder, self-play, training (steps) and sharded work.
    from vikinger_fast.progress import progress_bar

    assert progress_bar(3, False) is None
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm fails: the line printer
    bar = progress_bar(3, True, unit="step")
    for _ in range(3):
        bar.update(1)
    bar.close()
    assert capsys.readouterr().err.splitlines() == [f"  {n}/3 steps" for n in (1, 2, 3)]


def test_worker_processes_get_one_blas_thread_unless_the_user_chose(monkeypatch):
    # A worker plays on one core; BLAS threads of several workers would spin against each other.
    from vikinger_fast.arena import BLAS_THREAD_VARIABLES, one_blas_thread, worker_pool

    for name in BLAS_THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    with one_blas_thread():
        pool = worker_pool(1)
        seen = {name: pool.submit(os.getenv, name).result() for name in BLAS_THREAD_VARIABLES}
    pool.shutdown()
    assert (seen["OMP_NUM_THREADS"], seen["OPENBLAS_NUM_THREADS"]) == ("1", "1")
    assert seen["MKL_NUM_THREADS"] == "3"
    assert "OMP_NUM_THREADS" not in os.environ and "OPENBLAS_NUM_THREADS" not in os.environ
    assert os.environ["MKL_NUM_THREADS"] == "3"


def test_spec_keys_are_the_bots_keywords(monkeypatch):
    """A built-in bot's spec keys are its class's keywords (AZBot's **options adds PuctBot's)
    and `time`; a keyword added to a bot is a key at once, without a table to edit."""
    assert arena.spec_keys("mcts") == [
        "iterations",
        "max_time",
        "uct_c",
        "leaf",
        "threads",
        "solver_nodes",
        "time",
    ]
    assert arena.spec_keys("random") == []
    # AZBot names a few of PuctBot's keywords (its own defaults), passes on the others and
    # adds its own `priors` (the uniform-prior ablation).
    assert set(arena.bot_keywords("az")) == set(arena.bot_keywords("puct")) | {"priors"}
    assert "simulations" in arena.bot_keywords("az")
    for name, class_name in arena.BUILTIN.items():  # the C++ classes take the same keywords
        fast_class = getattr(arena.engine_module("fast"), class_name)
        if fast_class.__module__ == "vikinger_fast._core":  # pybind11 writes them in the doc
            for keyword in arena.bot_keywords(name):
                assert f"{keyword}:" in fast_class.__init__.__doc__, (name, keyword)

    class DeepBot(vikinger_ref.RandomBot):
        def __init__(self, game, seed, *, depth=1):
            super().__init__(game, seed)
            self.depth = depth

    monkeypatch.setattr(vikinger_ref, "DeepBot", DeepBot, raising=False)
    entry = BotEntry("deep", "vikinger_ref:DeepBot", "vikinger_ref:DeepBot", "a deeper bot")
    monkeypatch.setitem(BOTS, "deep", entry)
    assert arena.parse_spec("deep:depth=3").params == {"depth": 3}
    with pytest.raises(ValueError, match=r"unknown parameter 'width' for deep \(known: depth\)"):
        arena.parse_spec("deep:width=3")
    bot = arena.make_bot(arena.parse_spec("deep:depth=3"), vikinger_ref, vikinger_ref.Game(2), 0)
    assert bot.depth == 3
