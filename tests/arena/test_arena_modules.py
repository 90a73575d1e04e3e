"""The arena and the ladder with a module set (`--modules`, docs/arena.md): every game of the
schedule is played with the set, in both engines and in worker processes alike; results.json, the
records, the journal and the ladder's pages name it; a journal of another set is refused by name
before anything is written, and a journal written before module sets were named is the base
game's."""

import json

import pytest

from vikinger_fast import arena, module_sets
from vikinger_fast.arena import journal
from vikinger_fast.cli import ladder, main

ARGS = ["random", "greedy", "--players", "2", "--games", "4", "--seed", "11", "--no-progress"]


def _files(folder):
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_every_game_is_played_with_the_set_in_both_engines_and_in_processes():
    texts = ["random", "greedy"]
    modules = ("auction", "special_tiles")
    fast = arena.run("fast", texts, 2, 5, 1, modules=modules)
    assert arena.run("ref", texts, 2, 5, 1, modules=modules) == fast
    assert arena.run("fast", texts, 2, 5, 1, jobs=2, modules=modules) == fast
    for game in fast:
        assert module_sets.of_options(game["record"]["game"]["options"]) == modules
    assert any(m["string"].startswith("auction:") for m in fast[0]["record"]["moves"])
    base = arena.run("fast", texts, 2, 5, 1)
    assert all(not any(g["record"]["game"]["options"].values()) for g in base)
    with pytest.raises(ValueError, match="unknown module 'dragons'"):
        arena.jobs_of("fast", texts, 2, 5, 1, ("dragons",))


def test_the_results_records_and_journal_name_the_set(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["arena", *ARGS, "--modules", "special_tiles,draw13", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "arena: 2 bots, 2 per game, modules draw13,special_tiles," in printed
    results = json.loads((out / "results.json").read_text())
    assert results["modules"] == "draw13,special_tiles"
    assert results["title"].endswith("modules draw13,special_tiles)")
    record = json.loads((out / "records" / "game-00000.json").read_text())
    assert module_sets.of_options(record["game"]["options"]) == ("draw13", "special_tiles")
    header = json.loads((out / journal.NAME).read_text().splitlines()[0])
    assert header["run"]["modules"] == "draw13,special_tiles"


def _stopped(tmp_path, *modules):
    """A finished run's folder cut back to a journal of its first 2 games."""
    out = tmp_path / "run"
    assert main(["arena", *ARGS, *modules, "--out", str(out)]) == 0
    reference = _files(out)
    text = (out / journal.NAME).read_text().splitlines(keepends=True)
    for name in ("results.json", "results.csv", "games.csv"):
        (out / name).unlink()
    (out / journal.NAME).write_text("".join(text[:3]))
    return out, reference


@pytest.mark.parametrize(
    "written, resumed, message",
    [
        (["--modules", "auction"], [], "its modules is 'auction', this run's 'none'"),
        ([], ["--modules", "all"], "its modules is 'none', this run's 'auction,draw13,"),
        (
            ["--modules", "auction"],
            ["--modules", "auction,draw13"],
            "its modules is 'auction', this run's 'auction,draw13'",
        ),
    ],
)
def test_a_journal_of_another_set_is_refused_by_name(tmp_path, capsys, written, resumed, message):
    out, _ = _stopped(tmp_path, *written)
    before = _files(out)
    with pytest.raises(SystemExit) as stop:
        main(["arena", *ARGS, *resumed, "--out", str(out), "--resume"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "--modules" in err.splitlines()[-1]
    assert _files(out) == before


def test_the_same_set_resumes_and_a_journal_without_the_field_is_the_base_games(tmp_path):
    out, reference = _stopped(tmp_path, "--modules", "weak_boatsmen")
    assert main(["arena", *ARGS, "--modules", "weak_boatsmen", "--out", str(out), "--resume"]) == 0
    assert _files(out) == reference
    # A base-game journal whose header has no "modules" (written before sets were named).
    base, reference = _stopped(tmp_path / "base")
    lines = (base / journal.NAME).read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    del header["run"]["modules"]
    (base / journal.NAME).write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    with pytest.raises(SystemExit):
        main(["arena", *ARGS, "--modules", "auction", "--out", str(base), "--resume"])
    assert main(["arena", *ARGS, "--out", str(base), "--resume"]) == 0
    assert json.loads((base / "results.json").read_bytes()) == json.loads(reference["results.json"])


def test_the_ladder_names_the_set_on_its_pages(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "ladder"
    argv = ["ladder", "random", "greedy", "--games", "2", "--seed", "3", "--no-progress"]
    assert main([*argv, "--modules", "offer_by_colour", "--out", str(out)]) == 0
    assert "modules offer_by_colour," in capsys.readouterr().out
    command = "vikinger ladder random greedy --modules offer_by_colour --games 2 --seed 3"
    page, text = (out / "index.html").read_text(), (out / "ladder.md").read_text()
    for shown in (page, text):
        assert command in shown and "Modules: offer_by_colour (docs/advanced.md)." in shown
    results = json.loads((out / "results.json").read_text())
    assert results["modules"] == "offer_by_colour" and "modules offer_by_colour" in results["title"]
    # Without modules the pages say the games are the base game's.
    assert main([*argv, "--out", str(tmp_path / "base")]) == 0
    assert "Modules: none (the base game)." in (tmp_path / "base" / "ladder.md").read_text()


def test_the_ladders_default_field_has_the_learned_players_at_every_table():
    for modules in ((), ("auction",), ("draw13", "special_tiles")):
        assert ladder.default_field(modules) == list(ladder.DEFAULT_BOTS)


def test_the_ladders_default_field_leaves_out_the_learned_players_without_a_network(base_models):
    assert ladder.default_field(()) == list(ladder.DEFAULT_BOTS)
    field = ladder.default_field(("auction",))
    assert field == [
        t for t in ladder.DEFAULT_BOTS if t.partition(":")[0] not in ("az", "azpolicy")
    ]
    assert len(field) == len(ladder.DEFAULT_BOTS) - 2
    import vikinger_fast as fast

    for text in field:  # every bot left sits at the table
        arena.check_spec(text, fast, 2, ("auction",))
