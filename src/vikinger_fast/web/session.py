"""One game of `vikinger serve`: the engine State, the bots of its seats, and the thread in which
the bots think.

Everything is a function of the seed and the history, so a game is rebuilt exactly from its file
(store.py): chance at history length k is drawn from numpy's default_rng([seed, k]), and the bot
of seat p moving at history length k is built fresh from its spec with the seed
arena.bot_seed(seed, k, p). An undo therefore replays the same chance and the same bot answers,
and a server restart resumes a game as if nothing had happened.

The bots run in a background thread, one per game at a time; the lock guards the state, and is
not held while a bot thinks (the page keeps asking for the position and sees "thinking").

A Narrator (narration.py) follows the game beside the state: the page's log gets every decision,
forced ones included, in the third person for the bots, and every scoring with its breakdown. A
large scoring comes in parts, one per player as each ends their boatsman trips (B7.2.1); the log
and the list of scorings keep one entry per scoring, its parts so far together.
"""

import threading
from typing import Any, Dict, List, Optional

import numpy as np

from vikinger_ref.svg import state_svg

from .. import arena, records
from .. import explain
from ..narration import Narrator
from .store import Store, new_id

MAX_LOG = 60  # the page's log: the latest decisions and scorings


class BadRequest(Exception):
    """A request the game refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class WebGame:
    def __init__(self, store: Store, engine: Any, document: Dict[str, Any]) -> None:
        self.store, self.engine = store, engine
        self.id: str = document["id"]
        self.seat: int = document["seat"]
        self.seed: int = document["seed"]
        self.options: Dict[str, bool] = dict(document["options"])
        self.bot_texts: Dict[int, str] = {int(k): v for k, v in document["bots"].items()}
        self.game = engine.Game(num_players=document["num_players"], **self.options)
        # the store's check: built-in bots within the caps, networks by name (web/bots.py)
        self.specs = {seat: store.bot_spec(text) for seat, text in self.bot_texts.items()}
        self.human_turns: List[int] = list(document["human_turns"])
        self.lock = threading.Lock()
        self.thread: Optional[threading.Thread] = None
        self.error: Optional[str] = None
        self.state = self.game.new_initial_state()
        self.narrator = Narrator(self.state)
        self.log: List[Dict[str, Any]] = []
        self.logged = 0  # entries ever logged: the page marks the ones it has not shown yet
        self.decided = 0  # entries logged before the person's latest decision (the page pins
        # the scorings after it until the next one)
        self._replay(document["history"])

    # --- building -------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: Store,
        engine: Any,
        num_players: int,
        seat: int,
        bots: List[str],
        seed: int,
        options: Dict[str, bool],
    ) -> "WebGame":
        document = {
            "id": new_id(),
            "num_players": num_players,
            "seat": seat,
            "seed": seed,
            "options": options,
            "human_turns": [],
            "history": [],
            "bots": {
                str(p): text for p, text in zip([p for p in range(num_players) if p != seat], bots)
            },
        }
        game = cls(store, engine, document)
        game.save()
        return game

    def document(self) -> Dict[str, Any]:
        return {
            "id": self.id,
            "num_players": self.game.num_players,
            "seat": self.seat,
            "seed": self.seed,
            "options": self.options,
            "bots": {str(p): t for p, t in self.bot_texts.items()},
            "human_turns": self.human_turns,
            "history": [int(a) for a in self.state.history()],
            "finished": bool(self.state.is_terminal()),
        }

    def save(self) -> None:
        self.store.save(self.id, self.document())

    def players(self) -> List[Any]:
        return [
            "human" if p == self.seat else self.specs[p].player_entry()
            for p in range(self.game.num_players)
        ]

    # --- moving ---------------------------------------------------------------------------

    def name(self, player: int) -> str:
        return "you" if player == self.seat else f"player {player} ({self.bot_texts[player]})"

    def _replay(self, history: List[int]) -> None:
        """Apply a history from the start of the game, noting the person's decisions in it."""
        turns = set(self.human_turns)
        for length, action in enumerate(history):
            if length in turns:
                self.decided = self.logged
            self._apply(action)

    def _apply(self, action: int) -> None:
        """Apply one action of the history, noting what it set off in the log."""
        self.state.apply_action(action)
        self._note(self.narrator.step(action))

    def _note(self, events: List[Dict[str, Any]]) -> None:
        """The log's entries: decisions in words (chance left out) and scorings."""
        for event in events:
            if event["kind"] == "chance":
                continue
            self.logged += 1
            entry = dict(event, number=self.logged)
            if event["kind"] == "scoring":
                entry["players"] = [
                    dict(row, name=self.name(row["player"])) for row in event["players"]
                ]
                self._join_parts(entry)
            elif event["player"] == self.seat:
                entry["text"] = "you " + event["explain"]
            else:
                entry["text"] = explain.in_third_person(
                    event["explain"], self.name(event["player"])
                )
            self.log.append(entry)
        del self.log[:-MAX_LOG]

    def _join_parts(self, entry: Dict[str, Any]) -> None:
        """The log's entry of the same scoring (a large scoring's earlier parts), if any, leaves
        the log; `entry` holds its players before its own and the numbers it `replaces`."""
        for k, old in enumerate(self.log):
            if old["kind"] == "scoring" and _same_scoring(old, entry):
                del self.log[k]
                entry["players"] = old["players"] + entry["players"]
                entry["replaces"] = old.get("replaces", []) + [old["number"]]
                return

    def bots_to_move(self) -> bool:
        return not self.state.is_terminal() and self.state.current_player() != self.seat

    def start_bots(self) -> None:
        """Let the bots (and chance) play up to the person's next decision, in the background."""
        with self.lock:
            if self.thread is not None or not self.bots_to_move():
                return
            self.thread = threading.Thread(
                target=self._run_bots, name=f"bots-{self.id}", daemon=True
            )
            self.thread.start()

    def _run_bots(self) -> None:
        try:
            while True:
                with self.lock:
                    if not self.bots_to_move():
                        # cleared under the same lock that saw the person's turn, so a move
                        # sent as soon as the view says "your turn" is never refused
                        self.thread = None
                        return
                    length = len(self.state.history())
                    if self.state.is_chance_node():
                        rng = np.random.default_rng([self.seed, length])
                        action = self.state.apply_random_chance(rng)
                        self._note(self.narrator.step(action))
                        self.save()
                        continue
                    player = int(self.state.current_player())
                    position = self.state.clone()
                bot = arena.make_bot(
                    self.specs[player],
                    self.engine,
                    self.game,
                    arena.bot_seed(self.seed, length, player),
                )
                action = int(bot.step(position))  # thinking: the lock is free meanwhile
                with self.lock:
                    self._apply(action)
                    self.save()
        except Exception as error:  # shown on the page rather than lost in a thread
            with self.lock:
                self.error = f"a bot failed: {type(error).__name__}: {error}"
                self.thread = None

    def settle(self, seconds: float) -> None:
        """Wait up to `seconds` for the bots, so that a quick bot's answer comes with the
        person's move instead of with the page's next poll."""
        thread = self.thread
        if thread is not None:
            thread.join(seconds)

    def play(self, action: Any) -> None:
        """The person's move: an action string or id; BadRequest (the game unchanged) when it is
        malformed, not the person's turn, or not legal."""
        with self.lock:
            if self.state.is_terminal():
                raise BadRequest("the game is over", 409)
            if self.thread is not None or self.state.current_player() != self.seat:
                raise BadRequest("it is not your turn: the bots are still moving", 409)
            if isinstance(action, bool) or not isinstance(action, (str, int)):
                raise BadRequest("'action' must be an action string such as 'buy:3' (or its id)")
            if isinstance(action, str):
                try:
                    action = self.state.string_to_action(action)
                except (TypeError, ValueError):
                    raise BadRequest(f"{action!r} is not an action (docs/actions.md)") from None
            legal = self.state.legal_actions()
            if action not in legal:
                if not 0 <= action < self.game.num_distinct_actions():
                    raise BadRequest(f"action id {action} is out of range")
                text = self.state.action_to_string(action)
                raise BadRequest(
                    f"{text} is not legal now: {explain.why_illegal(self.state, text)}", 422
                )
            self.human_turns.append(len(self.state.history()))
            self.decided = self.logged
            self._apply(action)
            self.save()
        self.start_bots()

    def undo(self) -> None:
        """Back to the person's previous decision (the same chance and bot moves follow)."""
        with self.lock:
            if self.thread is not None:
                raise BadRequest("wait for the bots to finish before undoing", 409)
            if not self.human_turns:
                raise BadRequest("nothing to undo: this is your first decision", 409)
            keep = self.state.history()[: self.human_turns.pop()]
            self.state = self.game.new_initial_state()
            self.narrator = Narrator(self.state)
            self.log = []
            self.logged = self.decided = 0
            self._replay(keep)
            self.error = None
            self.save()

    def hint(self, iterations: int) -> Dict[str, Any]:
        """What MCTS would play for the person here (a search on a copy of the position)."""
        with self.lock:
            if self.state.is_terminal() or self.state.current_player() != self.seat:
                raise BadRequest("a hint is given only at your own decision", 409)
            position = self.state.clone()
            length = len(position.history())
        bot = self.engine.MCTSBot(
            self.game, arena.bot_seed(self.seed, length, self.seat), iterations=iterations
        )
        result = bot.search(position)
        visits = result["visits"]
        best = visits.index(max(visits))
        text = position.action_to_string(result["actions"][best])
        return {
            "string": text,
            "explain": explain.describe(position, text),
            "share": visits[best] / max(sum(visits), 1),
            "iterations": iterations,
        }

    def record_text(self) -> str:
        with self.lock:
            return records.dumps(
                records.record_from_state(self.state, players=self.players(), seed=self.seed)
            )

    # --- the view -------------------------------------------------------------------------

    def view(self) -> Dict[str, Any]:
        """Everything the page shows, as JSON."""
        with self.lock:
            state = self.state
            mine = (
                not state.is_terminal()
                and state.current_player() == self.seat
                and self.thread is None
            )
            d = state.to_dict()
            return {
                "id": self.id,
                "seat": self.seat,
                "num_players": self.game.num_players,
                "options": self.options,
                "round": d["round"],
                "phase": d["phase"],
                "sentence": explain.situation(state, self.seat),
                "svg": state_svg(state, show_legal=mine),
                "choices": explain.legal_choices(state) if mine else [],
                "your_turn": mine,
                "thinking": self.thread is not None,
                "terminal": bool(state.is_terminal()),
                "players": [
                    {
                        "seat": p,
                        "name": "you" if p == self.seat else self.bot_texts[p],
                        "mainland": sum(d["players"][p]["mainland"].values()),
                        "fame": int(state.scores()[p]),
                        "gold": int(state.gold()[p]),
                        "winner": bool(state.is_terminal() and state.returns()[p] > 0),
                    }
                    for p in range(self.game.num_players)
                ],
                "log": list(self.log),  # a copy: the bots append while the answer is sent
                "last_decision": self.decided,
                "scorings": self._all_scorings(),
                "totals": self._totals(),
                "can_undo": bool(self.human_turns) and self.thread is None,
                "moves": len(state.history()),
                "error": self.error,
            }

    def _all_scorings(self) -> List[Dict[str, Any]]:
        """Every scoring of the game so far, one entry per scoring (a large scoring's parts
        together), with the players' names (the log keeps the latest)."""
        scorings: List[Dict[str, Any]] = []
        for event in self.narrator.scorings:
            rows = [dict(row, name=self.name(row["player"])) for row in event["players"]]
            if scorings and _same_scoring(scorings[-1], event):
                scorings[-1]["players"] += rows
            else:
                scorings.append(dict(event, players=rows))
        return scorings

    def _totals(self) -> List[Dict[str, Any]]:
        """The whole game's breakdown per player (start Fame, Fame paid, scorings by rule)."""
        return [dict(row, name=self.name(row["player"])) for row in self.narrator.totals()]


def _same_scoring(a: Dict[str, Any], b: Dict[str, Any]) -> bool:
    """Whether two scoring events are parts of one scoring: a round has one of each kind."""
    return bool(a["round"] == b["round"] and a["scoring"] == b["scoring"])


def load_game(store: Store, engine: Any, game_id: str) -> WebGame:
    """A stored game, rebuilt by replaying its history (ValueError if the file is damaged)."""
    document = store.load(game_id)
    try:
        return WebGame(store, engine, document)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"stored game {game_id} does not replay: {error}") from None
