"""The loop's exact yardstick (docs/learning.md "The endgame in the loop"): each export's policy
and search on the loop's own solved critical positions, in curves.csv and curves.png; the
numbers are those `vikinger endgame` gives for the same bots, the same in both engines, none at a
table with modules, and the positions are not the reported benchmark's."""

import pytest

import vikinger_fast
import vikinger_ref
from vikinger_fast.benchmarks import endgame
from vikinger_fast.training import curves, evaluation, generations, loop

from tiny_training import tiny


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("endgame"))
    loop.train(folder, 1, tiny(), quiet=True)
    return folder


def test_the_curves_carry_the_exports_endgame(run):
    row = curves.read(run)[-1]
    for name in evaluation.ENDGAME:
        assert 0.0 <= float(row[name]) <= 1.0
    # A network of 16 units after 3 steps is far from exact: it misses some optimal moves.
    assert float(row["endgame_policy_optimal"]) < 1.0


def test_the_columns_are_what_vikinger_endgame_gives_for_the_same_bots(run):
    config = tiny()
    model = generations.model_path(run, 0)
    exact = evaluation.endgame(config, model, 11)
    positions = endgame.by_players(endgame.load_positions(endgame.LOOP_DATA), 2, None)
    sims = config.eval_simulations
    for kind, spec in (
        ("policy", f"azpolicy:model={model}"),
        ("search", f"puct:simulations={sims},model={model}"),
    ):
        scored = endgame.run_bot(spec, positions, vikinger_fast, 11)
        assert exact[f"endgame_{kind}_optimal"] == scored["optimal_share"]
        assert exact[f"endgame_{kind}_blunders"] == scored["blunder_share"]
    assert evaluation.endgame(config, model, 11, engine="ref") == exact


def test_a_table_with_modules_has_no_endgame_columns(run):
    model = generations.model_path(run, 0)
    assert evaluation.endgame(tiny(options=("auction",)), model, 1) == {}


def test_the_loops_positions_are_critical_and_not_the_reported_ones():
    loop_data = endgame.load_positions(endgame.LOOP_DATA)
    reported = endgame.load_positions(endgame.CRITICAL_DATA)
    assert loop_data["critical"] is True and loop_data["seed"] != reported["seed"]
    states = {p["state"] for p in reported["positions"]}
    states |= {p["state"] for p in endgame.load_positions(endgame.DATA)["positions"]}
    for players in endgame.PLAYERS:
        positions = endgame.by_players(loop_data, players, None)
        assert len(positions) == 60
        assert all(endgame.critical(p["margins"]) for p in positions)
        assert not states & {p["state"] for p in positions}
    # In the reference too: its states deserialize to the same positions.
    state = endgame.state_of(vikinger_ref, loop_data["positions"][0])
    assert state.legal_actions() == loop_data["positions"][0]["actions"]
