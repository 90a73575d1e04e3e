"""A1: the auction for start player, held at the start of every round (docs/advanced.md).

The start player opens (a bid of 0 is allowed, passing is not); then, clockwise, each player who
is still in raises or passes. When one player is left, that player pays the highest bid and
becomes start player.
"""

from __future__ import annotations

from typing import Optional

from . import actions as A


class Auction:
    def __init__(self, num_players: int, start_player: int) -> None:
        self.high: Optional[int] = None  # no bid yet
        self.leader = start_player
        self.passed = [False] * num_players
        self.turn = start_player

    def copy(self) -> Auction:
        other = Auction(len(self.passed), self.leader)
        other.high, other.turn, other.passed = self.high, self.turn, list(self.passed)
        return other

    def legal_actions(self, wealth: int) -> list[int]:
        """BID k up to the bidder's gold + Fame (B5.5); PASS except for the opening bid."""
        top = min(wealth, A.MAX_BID)
        if self.high is None:
            return [A.BID + k for k in range(top + 1)]
        return [A.PASS] + [A.BID + k for k in range(self.high + 1, top + 1)]

    def apply(self, action: int) -> bool:
        """Apply PASS or BID; returns True when the auction is over."""
        if action == A.PASS:
            self.passed[self.turn] = True
        else:
            self.high = action - A.BID
            self.leader = self.turn
        if self.passed.count(False) == 1:
            return True
        n = len(self.passed)
        self.turn = (self.turn + 1) % n
        while self.passed[self.turn]:
            self.turn = (self.turn + 1) % n
        return False
