"""The game state machine (docs/rules.md B3-B8, A0-A5) behind the OpenSpiel-style API of
docs/api.md.

A round: 12 tiles revealed and 12 Vikings drawn (chance nodes), 12 purchases, each a short
sequence of decisions (group, start tile, cell, Viking), then the round's scoring. With the
auction (A1) or the draw of 13 (A2) the Vikings are drawn first, the auction and the removal
follow, the tiles come last (A0). Phases and the action layout are those of docs/actions.md and
docs/advanced.md; forced decisions are applied automatically.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from . import actions as A
from . import dict_writer, observation, serialization, specials, text, trips
from .arguments import index_value
from .auction import Auction
from .actions import CHANCE, CHANCE_PHASES, SCORER_PHASES, TERMINAL
from .board import PlayerBoard
from .components import (
    BOAT,
    BOATSMAN,
    GROUPS_PER_ROUND,
    NUM_COLOURS,
    NUM_ROUNDS,
    START_FAME,
    START_GOLD,
    STACK_COUNTS,
    VIKINGS_PER_COLOUR,
    is_ship,
    row_of_colour,
)
from .rng import uniform_from
from .scoring import final_scoring, large_scoring, small_scoring, win_shares
from .specials import Display
from .wheel import Wheel

if TYPE_CHECKING:
    from .game import Game


def as_action_id(action: Any) -> int:
    """An action id from a Python or numpy integer; bool, float, str and None are refused."""
    return index_value("an action", action)


class State:
    """One position of a game, with its history."""

    def __init__(self, game: Game) -> None:
        self._game = game
        n = game.num_players
        self.round = 1
        self.phase = "reveal_tile"
        self.start_player = 0  # B3.1
        self.purchases = 0
        self.scoring_index = 0
        self.stacks = list(STACK_COUNTS)  # B1.4
        self.bag = [VIKINGS_PER_COLOUR] * NUM_COLOURS  # B3.1
        self.drawn = [0] * NUM_COLOURS
        self.removed = [0] * NUM_COLOURS
        self.discarded_tiles = 0
        self.wheel = Wheel()
        self.pending: Any = None  # {"tile", "viking", "cell"} during a purchase
        self.trip: Any = None  # {"queue": [[colour, k], ...], "last_col"} during trip targets
        self.players = [PlayerBoard(START_GOLD[n], START_FAME) for _ in range(n)]  # B1.5
        self.display = Display()  # A5
        self.auction: Any = None  # A1, while bidding
        self._history: list[int] = []
        self._start_round()

    # --- who is to move ----------------------------------------------------------------------

    def get_game(self) -> Game:
        return self._game

    def current_player(self) -> int:
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == "game_over":
            return TERMINAL
        n = self._game.num_players
        if self.phase in SCORER_PHASES:
            return (self.start_player + self.scoring_index) % n
        if self.phase == "auction":
            return self.auction.turn
        if self.phase == "remove_viking":
            return self.start_player  # A2
        if self.phase == "offer_colour":  # A3: one colour per player in turn
            return (self.start_player + self.wheel.colours_placed()) % n
        return (self.start_player + self.purchases) % n  # B5.1

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self.phase == "game_over"

    def _player(self) -> PlayerBoard:
        return self.players[self.current_player()]

    # --- chance ------------------------------------------------------------------------------

    def _chance_counts(self) -> list[tuple[int, int]]:
        if self.phase == "reveal_tile":
            return [(A.REVEAL + kind, count) for kind, count in enumerate(self.stacks) if count]
        if self.phase == "special_fill":
            return [
                (A.DISPLAY + kind, count) for kind, count in enumerate(self.display.stack) if count
            ]
        return [(A.DRAW + colour, count) for colour, count in enumerate(self.bag) if count]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """[(chance id, count / total)] sorted by id; [] at decision nodes."""
        if not self.is_chance_node():
            return []
        counts = self._chance_counts()
        total = sum(count for _, count in counts)
        return [(outcome, count / total) for outcome, count in counts]

    def apply_random_chance(self, rng: Any) -> int:
        """Apply one chance outcome sampled with `rng` (docs/api.md); returns its id."""
        if not self.is_chance_node():
            raise ValueError("apply_random_chance needs a chance node")
        outcome = self._outcome_at(uniform_from(rng))
        self.apply_action(outcome)
        return outcome

    def _outcome_at(self, u: float) -> int:
        """The chance outcome that a uniform u in [0, 1) selects: counts laid end to end."""
        counts = self._chance_counts()
        x = math.floor(u * sum(count for _, count in counts))
        for outcome, count in counts:
            if x < count:
                return outcome
            x -= count
        raise AssertionError("u must be below 1")

    # --- legal decisions ---------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        if self.is_chance_node():
            return [outcome for outcome, _ in self._chance_counts()]
        if self.is_terminal():
            return []
        board = self._player()
        phase = self.phase
        if phase == "buy":
            return [A.BUY + s for s in self.wheel.legal_buys(board.gold, board.fame)]
        if phase == "start_row":
            return [A.START + row - 1 for row in range(1, 6)]
        if phase == "ship_column":
            return [A.SHIP + col - 1 for col in board.ship_columns()]
        if phase == "island_cell":
            return [
                A.cell_id(A.TILE, row, col)
                for row, col in board.legal_island_cells(self.pending["tile"])
            ]
        if phase == "viking":
            return [A.VIKING_ON_TILE, A.VIKING_TO_MAINLAND]
        if phase == "trip":
            return trips.legal_trips(board, self.round, self._game.options["weak_boatsmen"])
        if phase == "trip_target":
            return trips.legal_targets(board, self.trip)
        if phase == "auction":
            return self.auction.legal_actions(board.gold + board.fame)
        if phase == "remove_viking" or phase == "offer_colour":
            base = A.REMOVE if phase == "remove_viking" else A.OFFER
            return [base + colour for colour in range(NUM_COLOURS) if self.drawn[colour]]
        if phase == "take_special":
            return [A.TAKE_SPECIAL + i for i in self.display.occupied_slots()] + [A.DECLINE_SPECIAL]
        # building_replace
        building = self._building_to_place(board)
        return sorted(
            A.cell_id(A.BUILDING, row, col)
            for row, col in specials.building_candidates(board, building)
        )

    def legal_actions_mask(self) -> np.ndarray:
        mask = np.zeros(A.NUM_DISTINCT_ACTIONS, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    # --- applying ----------------------------------------------------------------------------

    def apply_action(self, action: Any) -> None:
        """Apply a legal decision or chance id, then every forced decision (docs/actions.md)."""
        action = as_action_id(action)
        if self.is_terminal():
            raise ValueError(f"the game is over; action {action} cannot be applied")
        if action not in self.legal_actions():
            node = "chance outcome" if self.is_chance_node() else "action"
            raise ValueError(f"{node} {action} is not legal in phase {self.phase}")
        self._apply(action)
        self._history.append(action)
        self._apply_forced_decisions()

    def _apply_forced_decisions(self) -> None:
        while not self.is_chance_node() and not self.is_terminal():
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self._apply(legal[0])

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == "reveal_tile":
            self._reveal_tile(action - A.REVEAL)
        elif phase == "draw_viking":
            self._draw_viking(action - A.DRAW)
        elif phase == "special_fill":
            self.display.reveal(action - A.DISPLAY)
            if not self.display.needs_fill():
                self._after_special_fill()
        elif phase == "auction":
            self._bid(action)
        elif phase == "remove_viking":
            self._remove_viking(action - A.REMOVE)
        elif phase == "offer_colour":
            self._offer_colour(action - A.OFFER)
        elif phase == "buy":
            self._buy(action - A.BUY)
        elif phase == "take_special":
            self._take_special(action)
        elif phase == "building_replace":
            self._replace_middle_tile(*A.cell_of(action - A.BUILDING))
        elif phase == "start_row":
            self._player().place_start_tile(action - A.START + 1)  # B6.0
            self._place_pending_tile()
        elif phase == "ship_column":
            self._player().place_ship(self.pending["tile"], action - A.SHIP + 1)
            self._viking_to_mainland()
        elif phase == "island_cell":
            self._place_island_tile(*A.cell_of(action - A.TILE))
        elif phase == "viking":
            if action == A.VIKING_ON_TILE:
                self._player().put_viking_on_tile(*self.pending["cell"])
                self._end_purchase()
            else:
                self._viking_to_mainland()
        elif phase == "trip":
            self._trip(action)
        else:
            self._move_to_target(*A.cell_of(action - A.TARGET))

    # --- the start of a round and the offer (A0, A1, A2, B4, A3) ------------------------------

    def _start_round(self) -> None:
        if self._game.options["special_tiles"] and self.display.needs_fill():
            self.phase = "special_fill"  # A5 fill empty display places
        else:
            self._after_special_fill()

    def _vikings_first(self) -> bool:
        return A.vikings_before_tiles(self._game.options)  # A0

    def _after_special_fill(self) -> None:
        self.phase = "draw_viking" if self._vikings_first() else "reveal_tile"

    def _vikings_to_draw(self) -> int:
        return GROUPS_PER_ROUND + (1 if self._game.options["draw13"] else 0)  # A2 draws 13

    def _draw_viking(self, colour: int) -> None:
        self.bag[colour] -= 1
        self.drawn[colour] += 1
        if sum(self.drawn) < self._vikings_to_draw():
            return
        if not self._vikings_first():
            self._lay_out_vikings()  # B4.2 after the tiles
        elif self._game.options["auction"]:
            self.auction = Auction(self._game.num_players, self.start_player)  # A0 (3) A1
            self.phase = "auction"
        else:
            self._after_auction()

    def _bid(self, action: int) -> None:
        if not self.auction.apply(action):
            return
        winner = self.auction.leader
        self._pay(self.players[winner], self.auction.high)  # A1 pays gold first, then Fame
        self.start_player = winner
        self.auction = None
        self._after_auction()

    def _after_auction(self) -> None:
        """A0 (4) the removal of A2, else (5) the tiles."""
        self.phase = "remove_viking" if self._game.options["draw13"] else "reveal_tile"

    def _remove_viking(self, colour: int) -> None:
        self.drawn[colour] -= 1  # A2 out of the game
        self.removed[colour] += 1
        self.phase = "reveal_tile"  # A0 (5) the tiles after the removal

    def _reveal_tile(self, kind: int) -> None:
        self.stacks[kind] -= 1
        self.wheel.reveal(kind)
        if len(self.wheel.occupied()) < GROUPS_PER_ROUND:
            return
        if self._vikings_first():
            self._lay_out_vikings()  # A0 (6) the drawn Vikings go on
        else:
            self.phase = "draw_viking"  # B4.2 the Vikings after the tiles

    def _lay_out_vikings(self) -> None:
        if self._game.options["offer_by_colour"]:
            self.phase = "offer_colour"  # A3
            return
        self.wheel.lay_out_vikings(self.drawn)  # B4.2
        self.drawn = [0] * NUM_COLOURS
        self.phase = "buy"

    def _offer_colour(self, colour: int) -> None:
        """A3: all drawn Vikings of the colour on the highest free spaces, from 11 down."""
        self.wheel.place_from_top(colour, self.drawn[colour])
        self.drawn[colour] = 0
        if not any(self.drawn):
            self.phase = "buy"

    # --- a purchase (B5, B6, A5) -------------------------------------------------------------

    @staticmethod
    def _pay(board: PlayerBoard, price: int) -> None:
        from_gold = min(board.gold, price)  # B5.5 gold first, then Fame
        board.gold -= from_gold
        board.fame -= price - from_gold

    def _buy(self, space: int) -> None:
        board = self._player()
        may_take_special = (
            self._game.options["special_tiles"]
            and self.wheel.price(space) > 0
            and space == max(self.wheel.occupied())
            and self.display.occupied_slots()
        )  # A5
        self._pay(board, self.wheel.price(space))
        tile, viking = self.wheel.take(space)
        self.pending = {"tile": tile, "viking": viking, "cell": None}
        if may_take_special:
            self.phase = "take_special"
        else:
            self._after_special_choice()

    def _take_special(self, action: int) -> None:
        if action != A.DECLINE_SPECIAL:
            board = self._player()
            slot = action - A.TAKE_SPECIAL
            if self.display.take(slot, board) is not None:
                self.phase = "building_replace"
                return
        self._after_special_choice()

    def _building_to_place(self, board: PlayerBoard) -> int:
        """The building tile just taken: the one held, not placed, with candidates."""
        for building in range(1, 5):
            if specials.waiting_building(board, building) and specials.building_candidates(
                board, building
            ):
                return building
        raise AssertionError("building_replace without a building to place")

    def _replace_middle_tile(self, row: int, col: int) -> None:
        board = self._player()
        specials.place_building(board, self._building_to_place(board), row, col)
        self.discarded_tiles += 1  # the replaced middle tile leaves
        self._after_special_choice()

    def _after_special_choice(self) -> None:
        if self._player().start_row is None:
            self.phase = "start_row"  # B6.0 start tile first
        else:
            self._place_pending_tile()

    def _place_pending_tile(self) -> None:
        board = self._player()
        tile = self.pending["tile"]
        if is_ship(tile):  # B6.1
            if board.ship_count() < 3:
                self.phase = "ship_column"
            else:
                board.place_ship(tile, board.ship_count() + 1)
                self._viking_to_mainland()
        elif board.legal_island_cells(tile):  # B6.2
            self.phase = "island_cell"
        else:  # B6.3 unplaceable
            self.discarded_tiles += 1
            self._viking_to_mainland()

    def _place_island_tile(self, row: int, col: int) -> None:
        board = self._player()
        board.place_island_tile(self.pending["tile"], row, col)
        if specials.building_for_placed_tile(board, self.pending["tile"], row, col):
            self.discarded_tiles += 1  # A5 a waiting building replaces it
        if row_of_colour(self.pending["viking"]) == row:  # B6.4 the Viking's own row
            self.pending["cell"] = [row, col]
            self.phase = "viking"
        else:
            self._viking_to_mainland()

    def _viking_to_mainland(self) -> None:
        self._player().mainland[self.pending["viking"]] += 1  # B6.4
        self._end_purchase()

    def _end_purchase(self) -> None:
        self.pending = None
        self.purchases += 1
        if self.purchases < GROUPS_PER_ROUND:
            self.phase = "buy"
        else:
            self._score_round()

    # --- scoring (B7, B8) --------------------------------------------------------------------

    def _score_round(self) -> None:
        if self.round % 2 == 1:  # B7.1 after rounds 1, 3, 5
            for board in self.players:
                small_scoring(board)
            self._next_round()
        else:  # B7.2 after rounds 2, 4, 6
            self.scoring_index = 0
            self._continue_large_scoring()

    def _continue_large_scoring(self) -> None:
        n = self._game.num_players
        while self.scoring_index < n:
            board = self.players[(self.start_player + self.scoring_index) % n]
            if trips.trip_possible(board):
                self.phase = "trip"
                return
            large_scoring(board)
            self.scoring_index += 1
        self.scoring_index = 0
        if self.round == NUM_ROUNDS:
            final_scoring(self.players, BOATSMAN)  # B8
            self.phase = "game_over"
        else:
            self._next_round()

    def _next_round(self) -> None:
        self.round += 1
        if not self._game.options["auction"]:  # ⚖ A1 replaces B3.3
            self.start_player = (self.start_player + 1) % self._game.num_players  # B3.3
        self.purchases = 0
        self._start_round()

    def _finish_scorer(self, board: PlayerBoard) -> None:
        large_scoring(board)
        self.scoring_index += 1
        self._continue_large_scoring()

    def _trip(self, action: int) -> None:
        board = self._player()
        if action == A.TRIP_STOP:
            self._finish_scorer(board)
            return
        queue, boats = trips.start_trip(board, action, self._game.options["weak_boatsmen"])
        self.removed[BOATSMAN] += 1  # a spent boatsman leaves the game
        self.display.removed[BOAT] += boats
        self.trip = {"queue": queue, "last_col": 0}
        self.phase = "trip_target"

    def _move_to_target(self, row: int, col: int) -> None:
        board = self._player()
        if not trips.move_to_target(board, self.trip, row, col):
            return
        self.trip = None
        if trips.trip_possible(board):
            self.phase = "trip"
        else:
            self._finish_scorer(board)

    # --- results -----------------------------------------------------------------------------

    def history(self) -> list[int]:
        return list(self._history)

    def scores(self) -> list[int]:
        return [board.fame for board in self.players]

    def gold(self) -> list[int]:
        return [board.gold for board in self.players]

    def returns(self) -> list[float]:
        """B8.9: at the end, 1 shared equally by the winners; 0.0 for all before."""
        if not self.is_terminal():
            return [0.0] * self._game.num_players
        return win_shares(self.players)

    # --- board questions (docs/api.md, "Board questions") ---------------------------------------

    def threatened_mask(self, player: Any) -> np.ndarray:
        """B7.0: numpy bool (5, 64); [r - 1, c - 1] is True when a Viking of `player` on row r,
        column c would be threatened (a ship reaching the row, not repelled)."""
        board = self.players[observation.check_player(self, player)]
        return np.array(board.threatened_cells(), dtype=bool)

    def large_scoring_gains(self) -> list[tuple[int, int]]:
        """B7.2 steps 2-6 (A5 bonuses included): [(Fame, gold)] each player would gain if the
        large scoring were scored now, without further boatsman trips."""
        gains = []
        for board in self.players:
            after = board.copy()
            large_scoring(after)
            gains.append((after.fame - board.fame, after.gold - board.gold))
        return gains

    # final_scoring_gains() and pending_scoring_gains() are given to State by evaluation.py (a
    # search module, as csrc/bindings/search.cc gives them to the C++ State), and _repr_svg_()
    # by svg.py: the state depends on neither, so the reference has no import loop.

    # --- strings, copies, formats ------------------------------------------------------------

    def action_to_string(self, action: Any) -> str:
        action = as_action_id(action)
        if self.is_chance_node():
            return A.chance_to_string(action)
        return A.decision_to_string(action)

    def string_to_action(self, text: object) -> int:
        return A.string_to_action(text)

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.stacks = list(self.stacks)
        other.bag = list(self.bag)
        other.drawn = list(self.drawn)
        other.removed = list(self.removed)
        other.wheel = self.wheel.copy()
        other.pending = None if self.pending is None else dict(self.pending)
        other.trip = (
            None
            if self.trip is None
            else {
                "queue": [list(entry) for entry in self.trip["queue"]],
                "last_col": self.trip["last_col"],
            }
        )
        other.players = [board.copy() for board in self.players]
        other.display = self.display.copy()
        other.auction = None if self.auction is None else self.auction.copy()
        other._history = list(self._history)
        return other

    __copy__ = clone

    def __deepcopy__(self, memo: object) -> State:
        return self.clone()

    def to_dict(self) -> dict[str, Any]:
        return dict_writer.to_dict(self)

    def serialize(self) -> bytes:
        return serialization.to_bytes(self)

    def hash_key(self) -> int:
        return serialization.hash_key(self)

    def observation_tensor(self, player: Any) -> np.ndarray:
        return observation.observation_tensor(self, player)

    def __str__(self) -> str:
        return text.render(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    # Mutable: two equal states must not be one dict key.
    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Callable[[Any, Any], State], tuple[Game, bytes]]:
        # A module-level function, not the bound method game.deserialize_state (which pickles
        # as a call of builtins.getattr, refused by a restricted unpickler).
        return state_from_bytes, (self._game, self.serialize())


def state_from_bytes(game: Any, data: Any) -> State:
    """Unpickle a State: `game`'s state of the serialize() bytes `data`, checked as
    Game.deserialize_state checks them."""
    # A Game is what deserializes states: game.py imports this module, so the class is not
    # imported here (the reference has no import loop).
    if not callable(getattr(game, "deserialize_state", None)):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    return game.deserialize_state(data)
