"""The two targets of training, each formed here and named in every batch (docs/learning.md "The
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
"""

from typing import Mapping

import numpy as np


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
    n = shares.shape[1]
    columns = (arrays["player"][:, None].astype(np.int64) + np.arange(n)) % n
    return np.take_along_axis(shares, columns, axis=1).astype(np.float32)
