"""Intervals and ratings for tournaments (`vikinger arena`, docs/arena.md).

* `wilson(share, games)`: the 95 % Wilson score interval of a win share.
* `bradley_terry(count, outcomes)`: Bradley-Terry strengths fitted by maximum likelihood on
  pairwise outcomes, on the Elo scale, with 95 % intervals from the Fisher information.

Both are plain arithmetic on numbers (numpy only), so they are tested against hand-computed cases.
"""

import math
from collections.abc import Iterable
from typing import Optional, Union

import numpy as np

# (i, j, score of i against j): a win 1, a loss 0, a tie 1/2.
Outcome = tuple[int, int, float]
Ratings = dict[str, Union[list[float], list[list[float]]]]

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal
ELO_PER_NATURAL = 400.0 / math.log(10.0)  # Elo points per unit of the logistic's argument


def wilson(share: float, games: int, z: float = Z95) -> tuple[float, float]:
    """(low, high) of the Wilson score interval for a share observed over `games` trials.

    A tie counts as its fraction of a win (the share is a mean of returns in 0..1), which the
    interval treats like the same mean of wins and losses. (0.0, 1.0) for no games.

    >>> [round(x, 4) for x in wilson(0.5, 100)]
    [0.4038, 0.5962]
    """
    if games < 0 or not 0.0 <= share <= 1.0:
        raise ValueError(f"wilson needs 0 <= share <= 1 and games >= 0, not {share}, {games}")
    if games == 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (share + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(share * (1 - share) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    # The interval holds the share; rounding alone could leave 1.0 a hair above its top.
    return max(0.0, min(share, centre - half)), min(1.0, max(share, centre + half))


def _wins_and_games(
    count: int, outcomes: Iterable[Outcome], prior: float
) -> tuple[np.ndarray, np.ndarray]:
    """wins[i, j]: i's score against j (a win 1, a tie 1/2), summed; games = wins + wins.T."""
    wins = np.zeros((count, count))
    for i, j, score in outcomes:
        if i == j or not (0 <= i < count and 0 <= j < count):
            raise ValueError(
                f"a pairwise outcome needs two entrants in 0..{count - 1}, not ({i}, {j})"
            )
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a pairwise score is in 0..1, not {score}")
        wins[i, j] += score
        wins[j, i] += 1.0 - score
    # `prior` virtual drawn games between every pair keep the fit finite when an entrant won
    # (or lost) every comparison, and tie together entrants that never met.
    wins += prior / 2.0 * (1.0 - np.eye(count))
    return wins, wins + wins.T


def _fit_strengths(
    wins: np.ndarray, games: np.ndarray, tolerance: float = 1e-12, max_rounds: int = 100_000
) -> np.ndarray:
    """The MLE of log strengths (mean 0) by the minorize-maximize iteration of Bradley-Terry
    models: gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j), which raises the likelihood at
    every round."""
    count = len(wins)
    total_wins = wins.sum(axis=1)
    gamma = np.ones(count)
    for _ in range(max_rounds):
        denominators = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        updated = np.where(
            denominators > 0, total_wins / np.where(denominators > 0, denominators, 1), gamma
        )
        updated /= math.exp(np.log(updated).mean())
        change = np.max(np.abs(np.log(updated) - np.log(gamma)))
        gamma = updated
        if change < tolerance:
            break
    return np.log(gamma)


def bradley_terry(
    count: int,
    outcomes: Iterable[Outcome],
    prior: float = 1.0,
    z: float = Z95,
    anchor: Optional[int] = None,
) -> Ratings:
    """Ratings of `count` entrants from pairwise `outcomes` [(i, j, score of i against j)].

    Model: P(i beats j) = 1 / (1 + exp(theta_j - theta_i)), a tie counting half a win each way;
    theta is the maximum-likelihood estimate with mean 0, after adding `prior` virtual drawn
    games between every pair. Returns {"rating": [Elo], "interval": [[low, high]], "stderr":
    [Elo]}: rating = 400 / ln 10 * theta, and the interval rating +- z * stderr, with the
    covariance of theta the pseudo-inverse of the Fisher information (the Hessian of the negative
    log-likelihood; the pseudo-inverse is the covariance of the mean-0 parameters).
    `anchor` (an entrant): the ratings relative to its own, which is 0, each stderr that of the
    difference to it (var theta_i + var theta_a - 2 cov), the anchor's 0.

    >>> fit = bradley_terry(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)], prior=0.0)
    >>> round(fit["rating"][0] - fit["rating"][1], 2)      # 400 log10(3)
    190.85
    """
    if count < 1:
        raise ValueError(f"bradley_terry needs at least one entrant, not {count}")
    if prior < 0:
        raise ValueError(f"prior must be >= 0, not {prior}")
    wins, games = _wins_and_games(count, outcomes, prior)
    theta = _fit_strengths(wins, games)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j] = P(i beats j)
    weights = games * p * (1.0 - p)
    information = np.diag(weights.sum(axis=1)) - weights
    covariance = np.linalg.pinv(information)
    variance = np.diag(covariance)
    if anchor is not None:
        if not 0 <= anchor < count:
            raise ValueError(f"anchor must be an entrant in 0..{count - 1}, not {anchor}")
        theta = theta - theta[anchor]
        variance = variance + covariance[anchor, anchor] - 2.0 * covariance[:, anchor]
    stderr = np.sqrt(np.maximum(variance, 0.0)) * ELO_PER_NATURAL
    rating = theta * ELO_PER_NATURAL
    return {
        "rating": [float(r) for r in rating],
        "stderr": [float(s) for s in stderr],
        "interval": [[float(r - z * s), float(r + z * s)] for r, s in zip(rating, stderr)],
    }
