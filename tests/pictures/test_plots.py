"""Charts (plots.py, the optional `plot` extra): `vikinger bench --plot` and the tournament
chart; what the bars show is read back from the matplotlib figure."""

import sys

import pytest

from conftest import load_engine

BENCH = {
    "rollouts_2p_1thread": 250_000.0,
    "rollouts_2p_1thread_per_cpu_second": 260_000.0,
    "rollouts_2p_2threads": 450_000.0,
    "rollouts_2p_generic_1thread": 80_000.0,
    "reference_rollouts_2p": 130.0,
    "loop_fast": 1_200_000.0,
    "loop_ref": 60_000.0,
    "loop_open_spiel_connect_four": 400_000.0,
}
TOURNAMENT = {
    "title": "ladder",
    "players_per_game": 2,
    "rating_name": "Elo",
    "entries": [
        {
            "name": "random",
            "games": 200,
            "win_share": 0.2,
            "win_share_interval": [0.15, 0.26],
            "rating": -120.0,
            "rating_interval": [-150.0, -90.0],
        },
        {
            "name": "mcts:time=0.1",
            "games": 200,
            "win_share": 0.8,
            "win_share_interval": [0.74, 0.85],
            "rating": 120.0,
            "rating_interval": [90.0, 150.0],
        },
    ],
}


@pytest.fixture
def plots():
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    load_engine("fast")
    from vikinger_fast.pictures import plots

    return plots


def bar_widths(ax):
    return [round(patch.get_width(), 6) for patch in ax.patches]


def test_bench_chart_puts_each_row_against_its_target_and_its_peers(plots, tmp_path):
    path = tmp_path / "bench.png"
    fig = plots.plot_bench(BENCH, path)
    assert path.read_bytes().startswith(b"\x89PNG")
    targets, games, loop = fig.axes
    assert bar_widths(targets) == [1.25, 0.8, round(450 / 250 / 1.9, 6), 2.0, 1.2]
    colours = [patch.get_facecolor()[:3] for patch in targets.patches]
    assert colours[1] != colours[0] == colours[3]  # the row below its target stands out
    assert bar_widths(games) == [250_000.0, 450_000.0, 130.0]  # no Cython row in the results
    assert [t.get_text() for t in loop.get_yticklabels()] == [
        "vikinger_fast",
        "OpenSpiel connect_four",
        "vikinger_ref",
    ]


def test_tournament_chart_shows_shares_and_ratings_with_intervals(plots, tmp_path):
    path = tmp_path / "arena.svg"
    fig = plots.plot_tournament(TOURNAMENT, path)
    assert path.read_text().lstrip().startswith("<?xml")
    shares, ratings = fig.axes
    assert bar_widths(shares) == [0.8, 0.2]  # the best first
    assert shares.get_yticklabels()[0].get_text() == "mcts:time=0.1 (200 games)"
    assert list(shares.lines[-1].get_xdata()) == [0.5, 0.5]  # the even share
    caps = {round(float(x), 6) for line in shares.lines[:-1] for x in line.get_xdata()}
    assert caps == {0.74, 0.85, 0.15, 0.26}  # the intervals' ends
    assert ratings.get_xlabel().startswith("Elo")
    points = ratings.lines[0].get_xdata()
    assert list(points) == [120.0, -120.0]


def test_tournament_chart_without_ratings_has_one_panel(plots):
    results = {
        "players_per_game": 4,
        "entries": [{"name": "a", "games": 8, "win_share": 0.5, "win_share_interval": [0.2, 0.8]}],
    }
    fig = plots.plot_tournament(results)
    assert len(fig.axes) == 1 and fig.axes[0].lines[-1].get_xdata()[0] == 0.25


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda r: r.update(players_per_game=5), "players_per_game"),
        (lambda r: r.update(entries=[]), "entries"),
        (lambda r: r["entries"][1].update(win_share=1.5), "entries[1].win_share"),
        (
            lambda r: r["entries"][0].update(win_share_interval=[0.3, 0.4]),
            "entries[0].win_share_interval",
        ),
        (lambda r: r["entries"][0].update(rating="high"), "entries[0].rating"),
        (lambda r: r["entries"][1].pop("name"), "entries[1].name"),
    ],
)
def test_bad_tournament_results_name_the_field(plots, change, field):
    import copy

    results = copy.deepcopy(TOURNAMENT)
    change(results)
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        plots.plot_tournament(results)


def test_bench_plot_command_writes_the_chart(plots, tmp_path, capsys):
    from vikinger_fast import cli

    path = tmp_path / "bench.png"
    assert cli.main(["bench", "--quick", "--no-cython", "--no-peers", "--plot", str(path)]) == 0
    assert path.stat().st_size > 10_000
    assert "C++ rollouts" in capsys.readouterr().out


def test_bench_plot_without_matplotlib_stops_before_measuring(tmp_path, capsys, monkeypatch):
    load_engine("fast")
    from vikinger_fast import cli

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert cli.main(["bench", "--quick", "--plot", str(tmp_path / "b.png")]) == 3
    captured = capsys.readouterr()
    assert 'pip install "vikinger-fast[plot]"' in captured.err and captured.out == ""
    assert 'pip install ".[plot]"' in captured.err
