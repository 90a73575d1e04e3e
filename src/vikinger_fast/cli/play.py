"""`vikinger play`: a person against bots in the terminal (docs/arena.md "`vikinger play`").

The board is the text of the state; at each of the person's decisions the legal moves are listed
with numbers, in words (in the notation of docs/actions.md with --notation), and a line is read:
a number, a move's string, or a command (help, legend, rules, board, undo, hint, save FILE,
quit). Chance is drawn from numpy's default_rng(seed), so the same seed and the same moves give
the same game. Wrong input gets a message and the prompt again. Every decision is told in the
words of the web page (narration.py), forced ones marked, and every scoring with its breakdown
by rule id; the chance of a round is one line. At the end the final scores and the winner are
printed and the program exits (--save FILE keeps the game as a record).
"""

import argparse
import copy
import re
import sys
from types import ModuleType
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .. import arena, module_sets, records
from ..narration import Narrator, chance_words, format_scoring
from ..safety import flags, outputs
from .. import explain
from . import common

HELP = """Type one of:
  a number          the move with that number in the list
  a move string     e.g. buy:0 (the notation of --notation and of legend); a row may be
                    given by its name or letter: tile:noble:c3 (or tile:N c3) is tile:r2c3
  legend (or rules) what every symbol of the moves and the board means
  board             show the board and the moves again
  undo              back to your previous decision (chance is drawn again the same way)
  hint              what MCTS would play here, and its share of the visits
  save FILE         write the game so far as a record (vikinger replay FILE)
  help              this text
  quit              leave the game"""
COLUMNS = 4
# Rows by the names the board shows (and their letters): row r holds colour 5 - r (B2.1).
ROW_WORDS = {
    "warrior": 1,
    "w": 1,
    "noble": 2,
    "n": 2,
    "scout": 3,
    "s": 3,
    "goldsmith": 4,
    "g": 4,
    "fisherman": 5,
    "f": 5,
}
NAMED_ROW = re.compile(r"^(start|tile|target|building):([a-z]+)(?:[ :]*(c\d+))?$", re.I)


def named_rows(line: str) -> str:
    """`tile:noble:c3`, `tile:N c3` -> `tile:r2c3`; `start:fisherman` -> `start:r5`; any other
    line as it is."""
    match = NAMED_ROW.match(line.strip())
    if not match or match.group(2).lower() not in ROW_WORDS:
        return line
    return f"{match.group(1).lower()}:r{ROW_WORDS[match.group(2).lower()]}" + (
        match.group(3).lower() if match.group(3) else ""
    )


def add_parser(commands: Any) -> None:
    parser = common.add_bots_command(
        commands,
        "play",
        "play against bots in the terminal",
        __doc__.split("\n\n")[1] + "\n\nThe bots (specs as in vikinger arena):\n",
    )
    common.add_players(parser, default=2)
    common.add_modules(parser)
    parser.add_argument(
        "--bots",
        nargs="+",
        default=["random"],
        metavar="SPEC",
        help="the bots in the other seats, in seat order (one spec: all of "
        "them); specs as in vikinger arena; default random",
    )
    parser.add_argument(
        "--seat", type=flags.int_in(0, 3), default=0, help="your seat 0..players-1 (0 starts)"
    )
    common.add_seed(parser, help="seeds chance and the bots")
    common.add_engine(parser)
    parser.add_argument(
        "--hint-iterations",
        type=flags.int_in(1, 10_000_000),
        default=1000,
        metavar="N",
        help="MCTS iterations of a hint (1..10000000, default 1000)",
    )
    parser.add_argument(
        "--hint-bot",
        default=None,
        metavar="SPEC",
        help="a bot with a search() (mcts:..., puct:..., docs/neural.md) to give "
        "the hints instead of MCTS with --hint-iterations",
    )
    parser.add_argument(
        "--notation",
        action="store_true",
        help="moves in the notation of docs/actions.md (buy:8, tile:r4c1) instead of words",
    )
    parser.add_argument(
        "--save", metavar="FILE", help="write the game as a record when it ends (vikinger replay)"
    )
    parser.set_defaults(run=lambda args: run(args, parser))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat must be in 0..{args.players - 1}, not {args.seat}")
    if len(args.bots) not in (1, args.players - 1):
        parser.error(f"--bots takes 1 or {args.players - 1} specs, not {len(args.bots)}")
    if args.hint_iterations < 1:
        parser.error(f"--hint-iterations must be >= 1, not {args.hint_iterations}")
    engine = arena.engine_module(args.engine)
    try:
        specs = [arena.check_spec(text, engine, args.players, args.modules) for text in args.bots]
        if args.hint_bot is not None:
            arena.check_spec(args.hint_bot, engine, args.players, args.modules)
    except ValueError as error:
        parser.error(str(error))
    if len(specs) == 1:
        specs = specs * (args.players - 1)
    if args.save:
        try:  # before the game, not after it
            outputs.check_output_file(args.save, what="--save")
        except outputs.OutputError as error:
            parser.error(str(error))
    print(
        f"play: {args.players} players, modules {module_sets.name(args.modules)}, you in seat "
        f"{args.seat}, seed {args.seed}"
    )
    try:
        return Session(engine, args, specs).loop()
    except KeyboardInterrupt:
        print("\ninterrupted: bye")
        return 130
    except arena.GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


def _most_visited(result: Dict[str, Any]) -> int:
    """The index of the most visited action of a search() result (the first of a tie)."""
    visits = result["visits"]
    return visits.index(max(visits))


def _visit_share(result: Dict[str, Any]) -> str:
    """The most visited action's share of a search() result's visits, as the hint says it."""
    visits = result["visits"]
    return f"{visits[_most_visited(result)] / sum(visits):.0%} of the visits"


class Session:
    """One game: the state, the chance stream, and a snapshot before each of the person's moves
    (for undo)."""

    def __init__(
        self, engine: ModuleType, args: argparse.Namespace, specs: Sequence[arena.BotSpec]
    ) -> None:
        self.engine, self.args = engine, args
        self.game = engine.Game(num_players=args.players, **module_sets.game_options(args.modules))
        self.seat = args.seat
        self.state = self.game.new_initial_state()
        self.rng = np.random.default_rng(args.seed)
        self.snapshots: List[Tuple[Any, Mapping[str, Any], Narrator]] = []
        self.narrator = Narrator(self.state)
        self.chance: List[str] = []  # this round's chance strings, printed as one line
        self.bots: Dict[int, Tuple[arena.BotSpec, arena.Bot]] = {}
        self.players: List[Any] = []
        others = iter(specs)
        for seat in range(args.players):
            if seat == self.seat:
                self.players.append("human")
                continue
            spec = next(others)
            self.bots[seat] = (
                spec,
                arena.make_bot(spec, engine, self.game, arena.bot_seed(args.seed, 0, seat)),
            )
            self.players.append(spec.player_entry())

    def advance(self) -> None:
        """Chance and the bots' moves, up to the person's decision or the end."""
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            if self.state.is_chance_node():
                action = self.state.apply_random_chance(self.rng)
                self.tell(self.narrator.step(action))
                continue
            player = self.state.current_player()
            spec, bot = self.bots[player]
            try:
                action = bot.step(self.state)
            except Exception as error:  # a user's bot: one line, as in vikinger arena
                raise arena.GameError(
                    len(self.state.history()), f"player {player} ({spec.text})", error
                ) from error
            self.state.apply_action(action)
            self.tell(self.narrator.step(action))
        self.flush_chance()

    def name(self, player: int) -> str:
        return "you" if player == self.seat else f"player {player} ({self.bots[player][0].text})"

    def tell(self, events: List[Dict[str, Any]]) -> None:
        """Print what an action set off: its decisions (forced ones marked) and scorings; the
        chance of a round is gathered into one line."""
        for event in events:
            if event["kind"] == "chance":
                self.chance.append(event["string"])
                continue
            self.flush_chance()
            if event["kind"] == "scoring":
                names = [self.name(p) for p in range(len(self.players))]
                print(format_scoring(event, names))
                continue
            forced = "(forced) " if event["kind"] == "forced" else ""
            who = self.name(event["player"])
            if self.args.notation:
                print(f"{who}: {forced}{event['string']}")
            elif event["player"] == self.seat:  # the page's words (web/session.py)
                print(f"{forced}you {event['explain']}")
            else:
                print(forced + explain.in_third_person(event["explain"], who))

    def flush_chance(self) -> None:
        if self.chance:
            words = " ".join(self.chance) if self.args.notation else chance_words(self.chance)
            print(f"chance: {words}")
            self.chance = []

    def show(self) -> None:
        print()
        print(str(self.state))
        if self.state.is_terminal():
            fame, gold, returns = self.state.scores(), self.state.gold(), self.state.returns()
            winners = [p for p, r in enumerate(returns) if r > 0]
            print(
                "game over: "
                + ", ".join(
                    f"player {p}{' (you)' if p == self.seat else ''} Fame {fame[p]} gold {gold[p]}"
                    for p in range(len(fame))
                )
            )
            print(
                f"winner{'s' if len(winners) > 1 else ''}: "
                + ", ".join(f"player {p}" for p in winners)
                + (" -- you win!" if self.seat in winners else "")
            )
            print("where the Fame came from (docs/rules.md):")
            for row in self.narrator.totals():
                items = ", ".join(f"{i['rule']} {i['fame']:+d}" for i in row["items"] if i["fame"])
                print(f"  {self.name(row['player'])}: {items} = {row['fame']}")
            return
        strings = self._moves()
        print(explain.situation(self.state, self.seat))
        print(f"you are player {self.seat}; your moves:")
        if not self.args.notation:
            digits = len(str(len(strings)))
            for number, string in enumerate(strings, 1):
                print(f"  {number:>{digits}}. {explain.describe(self.state, string)}")
            return
        width = max(len(s) for s in strings) + len(str(len(strings))) + 4
        for start in range(0, len(strings), COLUMNS):
            cells = [
                f"{i + 1:>{len(str(len(strings)))}}. {strings[i]}"
                for i in range(start, min(start + COLUMNS, len(strings)))
            ]
            print("  " + "".join(cell.ljust(width) for cell in cells).rstrip())

    def _moves(self) -> List[str]:
        return [self.state.action_to_string(a) for a in self.state.legal_actions()]

    def loop(self) -> int:
        self.advance()
        self.show()
        while not self.state.is_terminal():
            try:
                line = input("> ")
            except EOFError:
                print()
                return 0
            if self.handle(line.strip()) == "quit":
                return 0
        if self.args.save:
            self.save(self.args.save)
        print("bye")
        return 0

    def handle(self, line: str) -> Optional[str]:
        """Answer one line; "quit" ends the game."""
        word, _, rest = line.partition(" ")
        command = word.lower()
        if not line:
            print("type a move number, a move, or help")
        elif command == "quit" or command == "exit":
            print("bye")
            return "quit"
        elif command == "help":
            print(HELP)
        elif command in ("legend", "rules"):
            print(explain.LEGEND)
        elif command == "board":
            self.show()
        elif command == "undo":
            self.undo()
        elif command == "hint":
            self.hint()
        elif command == "save":
            self.save(rest.strip())
        else:
            self.move(line)
        return None

    def move(self, line: str) -> None:
        legal, strings = self.state.legal_actions(), self._moves()
        # ASCII digits only: "²".isdigit() is True, but int() refuses it.
        if line.isascii() and line.isdigit():
            number = int(line) if len(line) < 10 else 0  # int() refuses 4,300 digits
            if not 1 <= number <= len(legal):
                print(f"no move number {line}: choose 1..{len(legal)}")
                return
            action = legal[number - 1]
        elif named_rows(line) in strings:
            action = legal[strings.index(named_rows(line))]
        elif self._well_formed(named_rows(line)):
            print(
                f"{named_rows(line)} is not legal now: "
                f"{explain.why_illegal(self.state, named_rows(line))}"
            )
            return
        else:
            print(f"not a move or a command: {line!r} (type help, or legend for the notation)")
            return
        self.snapshots.append(
            (self.state.clone(), self.rng.bit_generator.state, copy.deepcopy(self.narrator))
        )
        self.state.apply_action(action)
        self.tell(self.narrator.step(action))
        self.advance()
        self.show()

    def _well_formed(self, text: str) -> bool:
        """A decision string of docs/actions.md (legal or not)."""
        try:
            action = self.state.string_to_action(text)
        except (TypeError, ValueError):
            return False
        return (
            action < self.game.num_distinct_actions()
            and ":" in text
            and not any(text.startswith(kind) for kind in ("reveal:", "draw:", "display:"))
        )

    def undo(self) -> None:
        if not self.snapshots:
            print("nothing to undo: this is your first decision")
            return
        self.state, rng_state, self.narrator = self.snapshots.pop()
        self.rng.bit_generator.state = rng_state
        print("undone: back to your previous decision")
        self.show()

    def hint(self) -> None:
        seed = arena.bot_seed(self.args.seed, len(self.snapshots), self.seat)
        if self.args.hint_bot is not None:
            bot: Any = arena.make_bot(
                arena.parse_spec(self.args.hint_bot), self.engine, self.game, seed
            )
            if not callable(getattr(bot, "search", None)):
                print(f"hint: {self.args.hint_bot} has no search(state)")
                return
            result = bot.search(self.state)
            print(f"{self._hint_line(result)} ({self.args.hint_bot}: {_visit_share(result)})")
            return
        bot = self.engine.MCTSBot(self.game, seed, iterations=self.args.hint_iterations)
        result = bot.search(self.state)
        print(
            f"{self._hint_line(result)} (MCTS, {max(1, result['iterations'])} iterations: "
            f"{_visit_share(result)})"
        )

    def _hint_line(self, result: Dict[str, Any]) -> str:
        """The words "hint: N. MOVE", with the number and the words (or notation) of the most
        visited action."""
        best = result["actions"][_most_visited(result)]
        number = self.state.legal_actions().index(best) + 1
        string = self.state.action_to_string(best)
        if not self.args.notation:
            string = explain.describe(self.state, string)
        return f"hint: {number}. {string}"

    def save(self, path: str) -> None:
        if not path:
            print("save needs a file name: save FILE")
            return
        try:
            records.save(path, self.state, players=self.players, seed=self.args.seed)
        except OSError as error:
            print(f"could not save to {path!r}: {error.strerror or error}")
            return
        except ValueError as error:  # a name with a NUL character
            print(f"could not save to {path!r}: {error}")
            return
        print(f"saved {len(self.state.history())} moves to {path} (vikinger replay {path})")
