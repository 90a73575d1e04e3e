"""The targets of training, each formed here and named in every batch (docs/learning.md "The
train step"); replay.Replay holds them per sample, network.loss reads them:

* `policy_target`, float32 (B, 2036): the search's improved policy over the 2036 actions, the
  completed-Q policy of the Gumbel root (vikinger_ref/gumbel.py), a distribution over the
  decision's legal actions. Self-play stores it per sample as the shard array `target` (the
  name stays, so the runs on disk read as they are). The loss: its cross-entropy with the
  softmax of the network's legal logits.
* `value_target`, float32 (B, n): the game's returns (B8.9 win shares), mixed with the root's
  mean values of the search that chose the move by `value_mix`, relative to the mover: column
  k is player (mover + k) % n, as the value head's. The loss: the squared error of the value
  head's win shares.
* `score_target`, float32 (B, n), in runs with score_weight > 0 (docs/learning.md "Score-aware
  values"): each seat's final margin, (64 × Fame + gold) of the seat minus the best other
  seat's, in Fame units (divided by 64), squashed by tanh(margin / SCORE_SCALE), relative to the
  mover as the value target. Self-play stores each sample's final 64 × Fame + gold per seat as
  the shard array `final_score` (runs from before it train with score_weight 0). The loss:
  score_weight times the squared error of the score head's tanh outputs.

A sample the endgame solver finished (shard array `exact_margin` finite, runs with
rescore_nodes > 0) has both its value and score targets from the solver's margins of perfect
play instead: its B8.9 returns (value_mix does not apply) and its squashed margin.
"""

from typing import Mapping

import numpy as np

# The margin in Fame at which the squashed score target is tanh(1) = 0.76: most games end within
# a few Fame, so the target still tells a 1-Fame win from a 10-Fame one.
SCORE_SCALE = 8.0
GOLD_PER_FAME = 64  # B8.9: gold only breaks ties, so 64 × Fame + gold orders as the winner rule


def policy_target(arrays: Mapping[str, np.ndarray]) -> np.ndarray:
    """The policy targets of an iteration's samples as the replay holds them: float16, half the
    memory of the window's float32; a batch widens them back to float32."""
    return arrays["target"].astype(np.float16)  # the shards' name of the policy target


def value_target(arrays: Mapping[str, np.ndarray], value_mix: float) -> np.ndarray:
    """(1 - value_mix) * returns + value_mix * root_value, per seat, turned to the mover's view:
    float32 (N, n), column k the share of player (mover + k) % n. Reads the shard arrays
    `player`, `returns` and, only when mixed, `root_value` (runs from before it train with
    value_mix 0)."""
    shares = arrays["returns"]
    if value_mix > 0:
        # docs/learning.md "Value targets": the root's mean value is known at every move, the
        # result only at the end, and it carries less of the luck of the later draws.
        shares = (1.0 - value_mix) * shares + value_mix * arrays["root_value"]
    if "exact_margin" in arrays:
        # Rescored samples (the solver finished): the B8.9 returns of perfect play instead.
        solved = np.isfinite(arrays["exact_margin"]).all(axis=1)
        shares = np.array(shares, np.float32)
        shares[solved] = exact_returns(arrays["exact_margin"][solved])
    return _mover_relative(shares, arrays["player"])


def exact_returns(margins: np.ndarray) -> np.ndarray:
    """The B8.9 returns of final margins (N, n): the players with margin >= 0 (the one ahead, or
    those tied at the top) share 1 equally (vikinger_ref.solver.margin_returns)."""
    winners = np.asarray(margins) >= 0
    return (winners / winners.sum(axis=1, keepdims=True)).astype(np.float32)


def rescored(arrays: Mapping[str, np.ndarray]) -> int:
    """How many samples the solver rescored (0 without `exact_margin`)."""
    if "exact_margin" not in arrays:
        return 0
    return int(np.isfinite(arrays["exact_margin"]).all(axis=1).sum())


def margins(final: np.ndarray) -> np.ndarray:
    """Each seat's margin in Fame of final scores (N, n) of 64 × Fame + gold: the seat's minus
    the best other seat's, divided by 64 (float64)."""
    final = np.asarray(final, np.float64)
    n = final.shape[1]
    others = np.stack([np.max(np.delete(final, seat, axis=1), axis=1) for seat in range(n)], axis=1)
    return (final - others) / GOLD_PER_FAME


def score_target(arrays: Mapping[str, np.ndarray]) -> np.ndarray:
    """tanh(margin / SCORE_SCALE) per seat of the shard array `final_score` (or, at a sample
    with `exact_margin`, the solver's margin of perfect play), turned to the mover's view as
    value_target: float32 (N, n) in (-1, 1)."""
    fame = margins(arrays["final_score"])
    if "exact_margin" in arrays:
        solved = np.isfinite(arrays["exact_margin"]).all(axis=1)
        fame[solved] = arrays["exact_margin"][solved].astype(np.float64) / GOLD_PER_FAME
    return _mover_relative(np.tanh(fame / SCORE_SCALE), arrays["player"])


def _mover_relative(per_seat: np.ndarray, player: np.ndarray) -> np.ndarray:
    n = per_seat.shape[1]
    columns = (player[:, None].astype(np.int64) + np.arange(n)) % n
    return np.take_along_axis(per_seat, columns, axis=1).astype(np.float32)
