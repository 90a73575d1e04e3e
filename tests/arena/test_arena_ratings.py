"""ratings.py against hand-computed cases: the Wilson interval and Bradley-Terry by maximum
likelihood with Fisher-information intervals (docs/arena.md "Statistics")."""

import math

import pytest

from vikinger_fast.arena.report import pairwise_outcomes
from vikinger_fast.arena.ratings import ELO_PER_NATURAL, bradley_terry, wilson


def test_wilson_hand_computed():
    # share 0.8 over 25 games, z = 1.96: z^2 / n = 0.15366;
    # centre = (0.8 + 0.07683) / 1.15366 = 0.76004;
    # half = 1.96 * sqrt(0.8 * 0.2 / 25 + 3.8415 / 2500) / 1.15366 = 1.96 * 0.089087 / 1.15366
    #      = 0.15135  ->  [0.6087, 0.9114]
    low, high = wilson(0.8, 25)
    assert low == pytest.approx(0.6087, abs=1e-4)
    assert high == pytest.approx(0.9114, abs=1e-4)
    # share 0.5 over 100: centre 0.5, half 1.96 * sqrt(0.0025 + 0.000096) / 1.038415 = 0.09617
    assert wilson(0.5, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    # share 0 over 10: centre = 0.19207 / 1.38415 = 0.13876 = half -> [0, 0.2775]
    assert wilson(0.0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)


def test_wilson_edges_and_errors():
    assert wilson(0.3, 0) == (0.0, 1.0)
    low, high = wilson(1.0, 7)
    assert high == 1.0 and 0.5 < low < 1.0
    with pytest.raises(ValueError, match="share"):
        wilson(1.5, 10)
    with pytest.raises(ValueError, match="games"):
        wilson(0.5, -1)


def test_bradley_terry_two_entrants_without_prior():
    # A beats B 3 times of 4: P(A beats B) = 3/4 = 1 / (1 + exp(-d)), so d = ln 3 and in Elo
    # 400 log10 3 = 190.85, split +-95.42 around mean 0. Fisher information of d: n p (1 - p)
    # = 4 * 0.75 * 0.25 = 0.75; var(theta_A) = var(d) / 4 = 1 / 3; stderr 0.57735 natural units
    # = 100.30 Elo.
    fit = bradley_terry(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)], prior=0.0)
    assert fit["rating"] == pytest.approx([95.424, -95.424], abs=1e-3)
    assert fit["stderr"] == pytest.approx([100.30, 100.30], abs=1e-2)
    assert fit["interval"][0] == pytest.approx(
        [95.424 - 1.96 * 100.296, 95.424 + 1.96 * 100.296], abs=1e-2
    )


def test_bradley_terry_prior_is_virtual_draws():
    # One virtual drawn game: A scores 3.5 of 5, d = ln(3.5 / 1.5) = 0.84730 = 147.19 Elo;
    # information 5 * 0.7 * 0.3 = 1.05, stderr sqrt(1 / 1.05 / 4) = 0.48795 = 84.77 Elo.
    fit = bradley_terry(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)])
    assert fit["rating"][0] - fit["rating"][1] == pytest.approx(147.19, abs=1e-2)
    assert fit["stderr"][0] == pytest.approx(84.77, abs=1e-2)
    # A clean sweep stays finite with the prior.
    sweep = bradley_terry(2, [(0, 1, 1.0)] * 20)
    assert math.isfinite(sweep["rating"][0]) and sweep["rating"][0] > 200


def test_bradley_terry_symmetric_cycle_is_level():
    # A > B, B > C, C > A, each 2 of 3: by symmetry every rating is 0.
    outcomes = []
    for i, j in ((0, 1), (1, 2), (2, 0)):
        outcomes += [(i, j, 1.0), (i, j, 1.0), (i, j, 0.0)]
    fit = bradley_terry(3, outcomes, prior=0.0)
    assert fit["rating"] == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)


def test_bradley_terry_is_the_likelihood_maximum():
    # At the MLE every entrant's expected score equals its observed score.
    outcomes = (
        [(0, 1, 1.0)] * 5
        + [(0, 1, 0.0)] * 2
        + [(1, 2, 1.0)] * 4
        + [(1, 2, 0.5)] * 2
        + [(2, 0, 1.0)] * 1
        + [(0, 2, 1.0)] * 6
    )
    fit = bradley_terry(3, outcomes, prior=0.0)
    theta = [r / ELO_PER_NATURAL for r in fit["rating"]]
    observed, expected = [0.0] * 3, [0.0] * 3
    for i, j, score in outcomes:
        p = 1 / (1 + math.exp(theta[j] - theta[i]))
        observed[i] += score
        observed[j] += 1 - score
        expected[i] += p
        expected[j] += 1 - p
    assert expected == pytest.approx(observed, abs=1e-6)
    assert sum(fit["rating"]) == pytest.approx(0.0, abs=1e-6)
    assert fit["rating"][0] > fit["rating"][1] > fit["rating"][2]


def test_bradley_terry_errors():
    with pytest.raises(ValueError, match="two entrants"):
        bradley_terry(2, [(0, 2, 1.0)])
    with pytest.raises(ValueError, match="score"):
        bradley_terry(2, [(0, 1, 2.0)])
    with pytest.raises(ValueError, match="prior"):
        bradley_terry(2, [], prior=-1)


def test_pairwise_outcomes_rank_by_returns_then_fame():
    game = {"seats": [2, 0, 1], "returns": [0.0, 1.0, 0.0], "fame": [30, 25, 30]}
    assert pairwise_outcomes([game]) == [(2, 0, 0.0), (2, 1, 0.5), (0, 1, 1.0)]
    shared = {"seats": [0, 1], "returns": [0.5, 0.5], "fame": [40, 40]}
    assert pairwise_outcomes([shared]) == [(0, 1, 0.5)]


def test_bradley_terry_anchored_at_an_entrant():
    # Anchored at B: A's rating is the difference d = ln 3 (190.85 Elo) and its stderr that of
    # d: 1 / sqrt(0.75) = 1.1547 natural units = 200.59 Elo; B is 0 with stderr 0.
    fit = bradley_terry(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)], prior=0.0, anchor=1)
    assert fit["rating"] == pytest.approx([190.849, 0.0], abs=1e-3)
    assert fit["stderr"] == pytest.approx([200.59, 0.0], abs=1e-2)
    assert fit["interval"][1] == [0.0, 0.0]
    with pytest.raises(ValueError, match="anchor must be an entrant in 0..1"):
        bradley_terry(2, [], anchor=2)
