"""GumbelRoot: the root of Gumbel MuZero (Danihelka et al. 2022), the twin of vikinger_fast's
gumbel.cc: Gumbel-top-k sampling, sequential halving, the completed-Q improved policy.

Symbols (docs/neural.md "Gumbel root"): log pi(a) the log prior, g(a) = -log(-log(u)) with
u = (m + 0.5) * 2**-53 from the next 53 bits m of the tree's stream, N(a), q(a) the root edge's
visits and mean value for the mover, v_hat the evaluator's value of the root for the mover:
    sigma(q) = (c_visit + max_b N(b)) * c_scale * q
    v_mix = (v_hat + sum N / sum_{N(b)>0} pi(b) * sum_{N(b)>0} pi(b) q(b)) / (1 + sum N)
    completedQ(a) = q(a) if N(a) > 0 else v_mix;   pi'(a) = softmax(log pi(a) + sigma(completedQ))
Considered: the m = min(max_considered, legal) best by g + log pi (lower action on a tie). P =
ceil(log2 m) phases (1 when m = 1); each of the k survivors of a phase gets per = max(1,
floor(n / (P * k))) visits (all the rest when k = 1), the next descent going to the first
survivor in rank order with the fewest scheduled; when all are backed up the ceil(k / 2) best by
g + log pi + sigma(completedQ) stay.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable, Sequence

from .rng import GOLDEN, MASK64, mix

if TYPE_CHECKING:
    from .puct import Stream


class GumbelConfig:
    __slots__ = ("enabled", "max_considered", "c_visit", "c_scale")

    def __init__(
        self,
        enabled: bool = False,
        max_considered: int = 16,
        c_visit: float = 50.0,
        c_scale: float = 1.0,
    ) -> None:
        self.enabled = enabled
        self.max_considered = max_considered
        self.c_visit = c_visit
        self.c_scale = c_scale


def sigma(config: GumbelConfig, max_visits: int, q: float) -> float:
    return (config.c_visit + float(max_visits)) * config.c_scale * q


def completed_q(
    priors: Sequence[float], visits: Sequence[int], q: Sequence[float], v_hat: float
) -> list[float]:
    sum_n, sum_p, weighted = 0, 0.0, 0.0
    for a in range(len(visits)):
        sum_n += visits[a]
        if visits[a] > 0:
            sum_p += priors[a]
            weighted += priors[a] * q[a]
    v_mix = v_hat
    if sum_n > 0 and sum_p > 0.0:
        v_mix = (v_hat + float(sum_n) / sum_p * weighted) / (1.0 + float(sum_n))
    return [q[a] if visits[a] > 0 else v_mix for a in range(len(visits))]


def _log(x: float) -> float:
    return math.log(x) if x > 0.0 else -math.inf


def improved_policy(
    config: GumbelConfig,
    priors: Sequence[float],
    visits: Sequence[int],
    q: Sequence[float],
    v_hat: float,
) -> list[float]:
    completed = completed_q(priors, visits, q, v_hat)
    most = max(visits) if visits else 0
    policy = [_log(priors[a]) + sigma(config, most, completed[a]) for a in range(len(priors))]
    top = policy[0]
    for value in policy[1:]:
        if value > top:
            top = value
    policy = [math.exp(value - top) for value in policy]
    total = 0.0
    for value in policy:
        total += value
    return [value / total for value in policy]


def _by_score(edges: Iterable[int], score: Sequence[float] | dict[int, float]) -> list[int]:
    return sorted(edges, key=lambda a: (-score[a], a))


class GumbelRoot:
    def __init__(self) -> None:
        self.survivors: list[int] = []

    def start(
        self, config: GumbelConfig, priors: Sequence[float], simulations: int, rng: Stream
    ) -> None:
        self.config = config
        self.priors = list(priors)
        self.simulations = simulations
        k = len(priors)
        self.base: list[float] = []
        for a in range(k):
            bits = mix(rng.state)
            rng.state = (rng.state + GOLDEN) & MASK64
            u = (float(bits >> 11) + 0.5) * (1.0 / 9007199254740992.0)
            self.base.append(-math.log(-math.log(u)) + _log(priors[a]))
        m = min(config.max_considered, k)
        self.survivors = _by_score(range(k), self.base)[:m]
        self.phases = 0
        while (1 << self.phases) < m:
            self.phases += 1
        self.phases = max(self.phases, 1)
        self.scheduled = [0] * k
        self.completed = [0] * k
        self._set_per()

    def _set_per(self) -> None:
        k = len(self.survivors)
        self.per = self.simulations if k == 1 else max(1, self.simulations // (self.phases * k))

    def next(self) -> int:
        best = -1
        for a in self.survivors:
            if self.scheduled[a] < self.per and (
                best < 0 or self.scheduled[a] < self.scheduled[best]
            ):
                best = a
        return best

    def _score(self, a: int, most: int, completed: Sequence[float]) -> float:
        return self.base[a] + sigma(self.config, most, completed[a])

    def completed_edge(
        self, edge: int, visits: Sequence[int], q: Sequence[float], v_hat: float
    ) -> None:
        self.completed[edge] += 1
        if len(self.survivors) <= 1:
            return
        if any(self.completed[a] < self.per for a in self.survivors):
            return
        completed = completed_q(self.priors, visits, q, v_hat)
        most = max(visits)
        score = {a: self._score(a, most, completed) for a in self.survivors}
        self.survivors = _by_score(self.survivors, score)[: (len(self.survivors) + 1) // 2]
        self.scheduled = [0] * len(self.scheduled)
        self.completed = [0] * len(self.completed)
        self._set_per()

    def selected(self, visits: Sequence[int], q: Sequence[float], v_hat: float) -> int:
        completed = completed_q(self.priors, visits, q, v_hat)
        most = max(visits)
        best = self.survivors[0]
        best_score = self._score(best, most, completed)
        for a in self.survivors:
            s = self._score(a, most, completed)
            if s > best_score or (s == best_score and a < best):
                best, best_score = a, s
        return best
