"""Hostile command lines (docs/security.md): every flag's bad values are one argparse line and
exit code 2, outputs are checked before any work (never onto an input, never into a folder of
older results without --force), a check that ran nothing never reports success, a user's bot
that raises is one line; and a hypothesis fuzzer over argument vectors built from the real
flags, run in-process through cli.main."""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_runs import exit_code
from vikinger_fast import records
from vikinger_fast.safety import outputs

BAD_NUMBERS = [
    "-1",
    "-5",
    "0",
    "1e22",
    "inf",
    "nan",
    "-inf",
    "abc",
    "²",
    "1.5",
    "",
    "99999999999999999999999999999",
    "0x10",
    "٣",
]

# (command line before the flag, flag, values refused) for every numeric flag of the CLI.
FLAGS = [
    (["simulate"], "--games", BAD_NUMBERS),
    (["simulate"], "--seed", ["-1", "18446744073709551616", "1.0", "x", "²"]),
    (["simulate"], "--jobs", BAD_NUMBERS),
    (["simulate"], "--shard-size", BAD_NUMBERS),
    (["simulate"], "--cpus-per-shard", BAD_NUMBERS),
    (["soak"], "--games", BAD_NUMBERS),
    (["soak"], "--seed", ["-1", "x", "1e3"]),
    (["soak"], "--jobs", ["-1", "5000", "x"]),
    (["soak"], "--full-every", ["-1", "x", "1.5"]),
    (["soak"], "--report-every", ["0", "-1", "inf", "nan", "x"]),
    (["arena", "random", "random"], "--games", BAD_NUMBERS),
    (["arena", "random", "random"], "--seed", ["-1", "x", "18446744073709551616"]),
    (["arena", "random", "random"], "--jobs", BAD_NUMBERS),
    (["arena", "random", "random"], "--shard-size", BAD_NUMBERS),
    (["selfplay", "--games", "1", "--out", "unused"], "--iterations", BAD_NUMBERS),
    (["selfplay", "--out", "unused"], "--games", BAD_NUMBERS),
    (["selfplay", "--games", "1", "--out", "unused"], "--uct-c", ["-1", "inf", "nan", "x"]),
    (["selfplay", "--games", "1", "--out", "unused"], "--solver-nodes", ["-1", "x", "1e9"]),
    (["selfplay", "--games", "1", "--out", "unused"], "--sample-moves", ["-1", "x", "1e9"]),
    (["selfplay", "--games", "1", "--out", "unused"], "--seed", ["-1", "x"]),
    (["replay", "r.json"], "--step", ["-1", "x", "1.5", "1e22"]),
    (["render", "r.json", "-o", "x.svg"], "--step", ["-1", "x"]),
    (["render", "r.json", "-o", "x.png"], "--scale", ["0", "-1", "inf", "nan", "x", "1e6"]),
    (["play"], "--seed", ["-1", "x", "1e3"]),
    (["play"], "--seat", ["-1", "x", "9"]),
    (["play"], "--hint-iterations", ["0", "-1", "1e22", "99999999999999", "x"]),
    (["bench"], "--repeats", ["0", "-3", "two", "1e22"]),
]


@pytest.mark.parametrize(
    "before,flag,values", FLAGS, ids=lambda v: v if isinstance(v, str) else None
)
def test_bad_flag_values_exit_2_with_one_line(before, flag, values, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for value in values:
        code = exit_code([*before, f"{flag}={value}"])
        err = capsys.readouterr().err
        assert code == 2, (flag, value)
        assert "Traceback" not in err
        last = err.strip().splitlines()[-1]
        assert flag in last and "error" in last, (flag, value, err)
    assert os.listdir(tmp_path) == []  # nothing started, nothing written


def test_soak_never_reports_success_for_nothing(capsys):
    assert exit_code(["soak", "--games", "-1"]) == 2
    assert exit_code(["soak", "--games", "0"]) == 2
    assert "no difference" not in capsys.readouterr().out


def _record(tmp_path):
    import vikinger_ref as ref

    state = ref.Game(num_players=2).new_initial_state()
    for _ in range(8):
        if state.is_chance_node():
            state.apply_random_chance(1)
        else:
            state.apply_action(state.legal_actions()[0])
    path = tmp_path / "g.json"
    records.save(str(path), state)
    return path


def test_replay_and_render_never_overwrite_their_input(tmp_path, capsys, monkeypatch):
    path = _record(tmp_path)
    before = path.read_bytes()
    assert exit_code(["replay", str(path), "--html", str(path)]) == 2
    assert "is the input" in capsys.readouterr().err
    assert exit_code(["render", str(path), "-o", str(path)]) == 2
    assert "is the input" in capsys.readouterr().err
    # The same file by another name: a relative path, and a hard link.
    monkeypatch.chdir(tmp_path)
    assert exit_code(["render", str(path), "-o", "./g.json"]) == 2
    os.link(path, tmp_path / "other.json")
    assert exit_code(["replay", str(path), "--html", "other.json"]) == 2
    assert path.read_bytes() == before
    assert exit_code(["render", str(path), "-o", str(tmp_path / "g.svg")]) == 0
    assert (tmp_path / "g.svg").read_text().startswith("<svg")


@pytest.mark.parametrize("depth", [5000, 50_000])
def test_replay_and_render_refuse_deep_json_in_one_line(tmp_path, capsys, depth):
    path = tmp_path / "deep.json"
    path.write_text('{"a":' * depth + "1" + "}" * depth)
    for argv in (["replay", str(path)], ["render", str(path), "-o", str(tmp_path / "o.svg")]):
        assert exit_code(argv) == 2
        err = capsys.readouterr().err
        assert "levels deep" in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_outputs_checked_before_any_work(tmp_path, capsys):
    missing = tmp_path / "no" / "such" / "folder" / "x.json"
    assert exit_code(["bench", "--quick", "--json", str(missing)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert exit_code(["bench", "--quick", "--json", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for argv in (
        ["arena", "random", "random", "--games", "2", "--out", str(blocker)],
        ["selfplay", "--games", "1", "--out", str(blocker)],
        ["arena", "random", "random", "--out", str(blocker / "sub")],
    ):
        assert exit_code(argv) == 2
        err = capsys.readouterr().err
        assert "--out" in err and "Traceback" not in err
        assert "arena:" not in capsys.readouterr().out  # no game was played


def test_arena_out_folder_reuse_needs_force_and_leaves_no_old_records(tmp_path, capsys):
    out = tmp_path / "out"
    base = ["arena", "random", "greedy", "--no-progress", "--out", str(out)]
    assert exit_code([*base, "--games", "4"]) == 0
    assert len(os.listdir(out / "records")) == 4
    (out / "notes.txt").write_text("mine")
    assert exit_code([*base, "--games", "2"]) == 2
    assert "not empty" in capsys.readouterr().err
    assert len(os.listdir(out / "records")) == 4
    assert exit_code([*base, "--games", "2", "--force"]) == 0
    assert sorted(os.listdir(out / "records")) == ["game-00000.json", "game-00001.json"]
    assert (out / "games.csv").read_text().count("\n") == 3
    assert (out / "notes.txt").read_text() == "mine"  # not one of the arena's files


def test_without_out_a_later_run_numbers_its_folder(tmp_path, monkeypatch, capsys):
    """The default folder is never refused for holding a run, and never overwritten without
    --force: arena-results, then arena-results-2, past a file or a link with the next name."""
    monkeypatch.chdir(tmp_path)
    base = ["arena", "random", "greedy", "--no-progress", "--games", "2"]
    assert exit_code(base) == 0
    assert "holds an earlier run" not in capsys.readouterr().out
    first = (tmp_path / "arena-results" / "games.csv").read_text()
    (tmp_path / "arena-results" / "notes.txt").write_text("mine")
    assert exit_code(base) == 0
    assert "arena-results holds an earlier run: this one goes to arena-results-2" in (
        capsys.readouterr().out
    )
    (tmp_path / "arena-results-3").write_text("a file")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "arena-results-4").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "arena-results-5").mkdir()  # empty: taken as it is
    assert exit_code(base) == 0
    assert "this one goes to arena-results-5" in capsys.readouterr().out
    assert len(os.listdir(tmp_path / "arena-results-5" / "records")) == 2
    assert os.listdir(tmp_path / "elsewhere") == []
    assert (tmp_path / "arena-results" / "games.csv").read_text() == first
    assert (tmp_path / "arena-results" / "notes.txt").read_text() == "mine"
    assert exit_code([*base, "--games", "4", "--force"]) == 0  # --force: the base itself
    assert len(os.listdir(tmp_path / "arena-results" / "records")) == 4
    assert not (tmp_path / "arena-results-6").exists()
    (tmp_path / "arena-results" / "results.json").unlink()  # as if stopped before the end
    assert exit_code(base) == 0
    assert (
        "arena-results holds an earlier run: this one goes to arena-results-6 (arena-results "
        "holds a stopped run: --resume finishes it there)" in capsys.readouterr().out
    )


def test_without_out_the_numbers_end(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(outputs, "NUMBERED_LIMIT", 3)
    for name in ("ladder", "ladder-2", "ladder-3"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "x").write_text("run")
    with pytest.raises(outputs.OutputError, match="ladder and ladder-2 ... ladder-3 all hold"):
        outputs.numbered_folder("ladder")
    assert exit_code(["ladder", "random", "greedy", "--games", "1", "--no-progress"]) == 2
    assert sorted(os.listdir(tmp_path)) == ["ladder", "ladder-2", "ladder-3"]


def test_a_later_ladder_without_out_numbers_its_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["ladder", "random", "greedy", "--games", "1", "--no-progress"]
    assert exit_code(argv) == 0
    first = (tmp_path / "ladder" / "results.json").read_bytes()
    assert exit_code(argv) == 0
    assert "ladder holds an earlier run: this one goes to ladder-2" in capsys.readouterr().out
    assert (tmp_path / "ladder" / "results.json").read_bytes() == first
    assert (tmp_path / "ladder-2" / "ladder.md").exists()


def test_selfplay_out_folder_must_be_new_or_empty(tmp_path, capsys):
    out = tmp_path / "sp"
    out.mkdir()
    (out / "x").write_text("old")
    assert (
        exit_code(
            ["selfplay", "--games", "1", "--iterations", "2", "--out", str(out), "--no-progress"]
        )
        == 2
    )
    assert "not empty" in capsys.readouterr().err


USER_BOTS = """
class Explodes:
    def __init__(self, game, seed):
        self.moves = 0
    def step(self, state):
        self.moves += 1
        if self.moves > 3:
            raise RuntimeError("the bot broke")
        return state.legal_actions()[0]

class BadInit:
    def __init__(self, game, seed):
        raise KeyError("no")
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_user_bot_raising_mid_game_is_one_line(tmp_path, capsys, monkeypatch, jobs):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hostile_user_bots.py").write_text(USER_BOTS)
    code = exit_code(
        [
            "arena",
            "hostile_user_bots:Explodes",
            "random",
            "--games",
            "2",
            "--no-progress",
            "--jobs",
            jobs,
            "--out",
            str(tmp_path / "o"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines() == [
        line for line in err.strip().splitlines() if "RuntimeError: the bot broke" in line
    ]
    assert "game 0" in err
    code = exit_code(["arena", "hostile_user_bots:BadInit", "random", "--out", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert code == 2 and "KeyError" in err and "Traceback" not in err


# --- the fuzzer --------------------------------------------------------------------------------

VALUES = st.sampled_from(BAD_NUMBERS + ["1", "2", "3", " 2", "+1", "-0", "00", "1_0"])
COMMANDS = {
    "simulate": ["--games", "--seed", "--jobs", "--shard-size", "--players", "--engine"],
    "soak": ["--games", "--seed", "--jobs", "--full-every", "--report-every", "--players"],
    "arena": ["--games", "--seed", "--jobs", "--players", "--shard-size", "--engine"],
    "selfplay": [
        "--games",
        "--iterations",
        "--seed",
        "--uct-c",
        "--solver-nodes",
        "--sample-moves",
        "--players",
        "--shard-size",
    ],
    "replay": ["--step", "--engine"],
    "render": ["--step", "--scale", "--engine"],
    "play": ["--seed", "--seat", "--hint-iterations", "--players"],
    "bench": ["--repeats"],
}
SPECS = st.sampled_from(
    [
        "random",
        "greedy",
        "mcts:iterations=1e22",
        "mcts:time=inf",
        "mcts:time=nan",
        "mcts:iterations=-1",
        "mcts:threads=0",
        "nosuch.module:Bot",
        "mcts:iterations=2,time=1e-12",
        "mcts:x=1",
        "",
        ":",
        "random:",
        "mcts:iterations=²",
    ]
)


@st.composite
def argv_vectors(draw, folder):
    command = draw(st.sampled_from(sorted(COMMANDS)))
    argv = [command]
    if command == "arena":
        argv += draw(st.lists(SPECS, min_size=1, max_size=3))
    if command in ("replay", "render"):
        argv.append(
            draw(
                st.sampled_from(
                    [
                        str(folder / "deep.json"),
                        str(folder / "none.json"),
                        str(folder),
                        str(folder / "g.json"),
                    ]
                )
            )
        )
    if command == "render":
        argv += [
            "-o",
            draw(
                st.sampled_from(
                    [
                        str(folder / "g.json"),
                        str(folder / "o.svg"),
                        str(folder / "no" / "o.svg"),
                        "-",
                    ]
                )
            ),
        ]
    if command == "selfplay":
        argv += ["--out", str(folder / "sp")]
    flags = draw(st.lists(st.sampled_from(COMMANDS[command]), min_size=1, max_size=3))
    values = [draw(VALUES) for _ in flags]
    # At least one value that no flag takes, so that every vector is refused quickly: the
    # fuzzer checks the refusals, not the games.
    values[draw(st.integers(0, len(values) - 1))] = draw(
        st.sampled_from(["-1", "abc", "²", "nan", "1e22", ""])
    )
    for flag, value in zip(flags, values):
        argv.append(f"{flag}={value}")
    return argv


@pytest.fixture(scope="module")
def fuzz_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "deep.json").write_text("[" * 5000 + "]" * 5000)
    _record(folder)
    return folder


def test_fuzz_argument_vectors(fuzz_folder, capsys):
    @settings(
        max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(argv_vectors(fuzz_folder))
    def run(argv):
        code = exit_code(argv)
        err = capsys.readouterr().err
        assert "Traceback" not in err
        if isinstance(code, str):  # sys.exit("message")
            assert len(code.strip().splitlines()) == 1
        else:
            assert code in (0, 1, 2, 3), (argv, code)

    run()
