"""What happened, step by step: every decision (forced ones included) and every scoring with its
breakdown per player and category, citing the rule ids of docs/rules.md.

Neither engine says why Fame changed: a scoring (B7.1, B7.2, B8) happens inside `apply_action`,
and the forced decisions that `apply_action` adds (docs/actions.md) leave no trace in the
history. A `Narrator` therefore follows the game on a twin in the reference engine, rebuilt from
`state.to_dict()` (so it serves both engines alike), one rule step at a time, and itemizes each
scoring with the reference's own scoring rules on the boards as they stand when it happens. The
items of every scoring add up to the Fame and gold it changed; the tests check that against the
engine's scores in both engines.

Used by `vikinger serve` (the page's log and end screen), `vikinger play` and the viewer.
"""

from collections import Counter
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from vikinger_ref import Game as RefGame
from vikinger_ref.actions import SCORER_PHASES
from vikinger_ref.components import (
    BOATSMAN,
    FISH,
    FISHERMAN,
    FISHERMAN1,
    GOLDSMITH,
    HORN,
    NOBLE,
    NOBLE1,
    SCOUT,
    SCOUT1,
    TREASURY,
    ship_info,
)
from vikinger_ref.scoring import (
    BOATSMEN_BONUS,
    FED_PER_FISHERMAN,
    FISH_SURPLUS_FAME,
    GOLD_PER_FAME,
    ISLANDS_BONUS,
    LONGEST_BONUS,
    NOBLE_FAME,
    SURPLUS_FAME,
    TREASURY_GOLD_PER_FAME,
    building_fame,
    goldsmith_gold,
)

from . import explain

KINDS = {
    "small": "small scoring (B7.1)",
    "large": "large scoring (B7.2)",
    "final": "final scoring (B8)",
}


def _item(board: Any, rule: str, what: str, fame: int = 0, gold: int = 0) -> Dict[str, Any]:
    """One line of a breakdown, applied to `board` as it is noted."""
    board.fame += fame
    board.gold += gold
    return {"rule": rule, "what": what, "fame": fame, "gold": gold}


def _count(n: int, colour: str) -> str:
    return f"{n} safe {colour if n == 1 else explain.plural(colour)}"


def small_items(board: Any) -> List[Dict[str, Any]]:
    """B7.1: gold per unthreatened goldsmith."""
    safe = len(board.unthreatened_vikings(GOLDSMITH))
    rate = goldsmith_gold(board)
    return [_item(board, "B7.1", f"{_count(safe, 'goldsmith')} x {rate} gold", gold=safe * rate)]


def large_items(board: Any) -> List[Dict[str, Any]]:
    """B7.2 steps 2-6 (the trips of step 1 are decisions, narrated as moves)."""
    items = []
    for col, kind in board.ship_list():
        if board.is_repelled(col):
            ship = ship_info(kind)
            unit = "Fame" if ship.pays_fame else "gold"
            what = f"the ship in column {col}, repelled by a warrior, pays {ship.value} {unit}"
            value = {"fame": ship.value} if ship.pays_fame else {"gold": ship.value}
            items.append(_item(board, "B7.2.2", what, **value))
    nobles = len(board.unthreatened_vikings(NOBLE))
    rate = NOBLE_FAME + board.specials[NOBLE1]
    items.append(_item(board, "B7.2.3", f"{_count(nobles, 'noble')} x {rate} Fame", nobles * rate))
    scouts = board.unthreatened_vikings(SCOUT)
    bonus = sum(board.has_viking(4, col) + board.has_viking(5, col) for col in scouts)
    fame = len(scouts) * (1 + board.specials[SCOUT1]) + bonus
    what = f"{_count(len(scouts), 'scout')}, {bonus} bonus for goldsmiths and fishermen below"
    items.append(_item(board, "B7.2.4", what, fame))
    safe = len(board.unthreatened_vikings(GOLDSMITH))
    rate = goldsmith_gold(board)
    items.append(
        _item(board, "B7.2.5", f"{_count(safe, 'goldsmith')} x {rate} gold", 0, safe * rate)
    )
    if board.specials[FISHERMAN1]:
        fishermen = len(board.unthreatened_vikings(FISHERMAN))
        what = f"{_count(fishermen, 'fisherman')} x {board.specials[FISHERMAN1]} (A5 tiles)"
        items.append(_item(board, "B7.2.6", what, fishermen * board.specials[FISHERMAN1]))
    return items


def _majority(
    boards: List[Any],
    items: List[List[Dict[str, Any]]],
    counts: Sequence[int],
    rule: str,
    what: str,
    bonus: int,
) -> None:
    """B8.7: every player with the highest count scores, unless that count is 0."""
    best = max(counts)
    for board, count, lines in zip(boards, counts, items):
        won = best > 0 and count == best
        lines.append(_item(board, rule, f"{what}: {count} (most: {best})", bonus if won else 0))


def final_items(boards: List[Any]) -> List[List[Dict[str, Any]]]:
    """B8.1-B8.6 in the rulebook's order for all players, then the A5 buildings."""
    items: List[List[Dict[str, Any]]] = [[] for _ in boards]
    for board, lines in zip(boards, items):  # B8.1
        for col, kind in board.ship_list():
            if board.is_repelled(col):
                continue
            ship = ship_info(kind)
            what = f"the ship in column {col}, not repelled, costs {ship.value}"
            if ship.pays_fame:
                lines.append(_item(board, "B8.1", what + " Fame", -ship.value))
            else:
                paid = min(board.gold, ship.value)
                short = f" ({ship.value - paid} unpaid, 1 Fame each)" if paid < ship.value else ""
                lines.append(_item(board, "B8.1", what + " gold" + short, paid - ship.value, -paid))
    for board, lines in zip(boards, items):  # B8.2
        rate = TREASURY_GOLD_PER_FAME if board.specials[TREASURY] else GOLD_PER_FAME
        fame = board.gold // rate
        what = f"{board.gold} gold left, 1 Fame per {rate}"
        lines.append(_item(board, "B8.2", what, fame, -fame * rate))
    horns = [board.mainland[BOATSMAN] + board.specials[HORN] for board in boards]
    _majority(boards, items, horns, "B8.3", "boatsmen on the mainland", BOATSMEN_BONUS)
    islands = [board.completed_islands() for board in boards]
    counts = [len(sizes) for sizes in islands]
    _majority(boards, items, counts, "B8.4", "completed islands", ISLANDS_BONUS)
    longest = [max(sizes, default=0) for sizes in islands]
    _majority(boards, items, longest, "B8.5", "longest completed island", LONGEST_BONUS)
    for board, lines in zip(boards, items):  # B8.6
        fed = FED_PER_FISHERMAN * len(board.unthreatened_vikings(FISHERMAN))
        vikings = board.viking_count()
        if fed >= vikings:
            rate = FISH_SURPLUS_FAME if board.specials[FISH] else SURPLUS_FAME
            what = f"{vikings} Vikings, {fed} meals: {fed - vikings} spare x {rate} Fame"
            lines.append(_item(board, "B8.6", what, rate * (fed - vikings)))
        else:
            what = f"{vikings} Vikings, {fed} meals: {vikings - fed} hungry x -1 Fame"
            lines.append(_item(board, "B8.6", what, fed - vikings))
        if any(building is not None for building in board.buildings):
            lines.append(
                _item(board, "A5", "Vikings on and around buildings", building_fame(board))
            )
    return items


def _scoring_event(
    kind: str,
    round_: int,
    players: Iterable[int],
    boards: List[Any],
    before: List[Tuple[int, int]],
    items: List[List[Dict[str, Any]]],
) -> Dict[str, Any]:
    return {
        "kind": "scoring",
        "scoring": kind,
        "title": f"Round {round_}: {KINDS[kind]}",
        "round": round_,
        "players": [
            {
                "player": p,
                "items": [line for line in items[p] if line["fame"] or line["gold"]],
                "fame_before": before[p][0],
                "gold_before": before[p][1],
                "fame": boards[p].fame,
                "gold": boards[p].gold,
            }
            for p in players
        ],
    }


class Narrator:
    """Follows one game: `step(action)` applies an action (decision or chance) and returns what
    it set off, as events: {"kind": "move" | "forced" | "chance", "player", "string", "explain"}
    and {"kind": "scoring", ...} with the items of every scored player."""

    def __init__(self, state: Any) -> None:
        d = state.to_dict()
        self.twin = RefGame(num_players=d["num_players"], **d["options"]).state_from_dict(d)
        self.start_fame = [board.fame for board in self.twin.players]
        self.paid_fame = [0] * d["num_players"]  # B5.5 / A1: Fame spent on purchases and bids
        self.scorings: List[Dict[str, Any]] = []

    def step(self, action: int) -> List[Dict[str, Any]]:
        twin = self.twin
        if twin.is_chance_node():
            text = twin.action_to_string(action)
            events = [{"kind": "chance", "player": -1, "string": text, "explain": ""}]
            twin._apply(int(action))  # noqa: SLF001 -- one rule step, without the forced ones
        else:
            events = self._decision(int(action), "move")
        while not twin.is_chance_node() and not twin.is_terminal():
            legal = twin.legal_actions()
            if len(legal) != 1:
                break
            events += self._decision(legal[0], "forced")
        return events

    def _decision(self, action: int, kind: str) -> List[Dict[str, Any]]:
        twin = self.twin
        before = twin.clone()
        player = twin.current_player()
        text = twin.action_to_string(action)
        words = explain.describe(twin, text)
        events: List[Dict[str, Any]] = [
            {"kind": kind, "player": player, "string": text, "explain": words}
        ]
        twin._apply(action)  # noqa: SLF001 -- one rule step: forced decisions are narrated too
        events += self._scorings(before, action)
        return events

    def _scorings(self, before: Any, action: int) -> List[Dict[str, Any]]:
        """The scorings that the step `action` from `before` set off (none for most steps)."""
        twin, n = self.twin, len(self.twin.players)
        in_trips = before.phase in SCORER_PHASES
        scored = (
            twin.round != before.round
            or twin.is_terminal()
            or (in_trips and twin.scoring_index != before.scoring_index)
            or (not in_trips and twin.phase in SCORER_PHASES)
        )
        if not scored:
            self._note_payments(before, [board for board in twin.players])
            return []
        if in_trips:  # a trip moves Vikings only: the boards with the Fame and gold before
            boards = [board.copy() for board in twin.players]
            for board, old in zip(boards, before.players):
                board.fame, board.gold = old.fame, old.gold
        else:  # the step's own part (a purchase's payment and placement), without the scoring
            own = before.clone()
            # one purchase per player less (the same player buys) so this one ends no round
            own.purchases -= n
            own._apply(action)  # noqa: SLF001
            boards = [board.copy() for board in own.players]
        self._note_payments(before, boards)
        events = []
        items: List[List[Dict[str, Any]]] = [[] for _ in range(n)]
        start = [(board.fame, board.gold) for board in boards]
        if before.round % 2 == 1:
            for board, lines in zip(boards, items):
                lines += small_items(board)
            events.append(_scoring_event("small", before.round, range(n), boards, start, items))
        else:
            first = before.scoring_index if in_trips else 0
            unfinished = twin.phase in SCORER_PHASES and twin.round == before.round
            last = twin.scoring_index if unfinished else n
            order = [(before.start_player + k) % n for k in range(first, last)]
            for p in order:
                items[p] += large_items(boards[p])
            if order:
                events.append(_scoring_event("large", before.round, order, boards, start, items))
        if twin.is_terminal():
            start = [(board.fame, board.gold) for board in boards]
            items = final_items(boards)
            events.append(_scoring_event("final", before.round, range(n), boards, start, items))
        self.scorings += events
        return events

    def _note_payments(self, before: Any, boards: List[Any]) -> None:
        """Fame that changes outside a scoring is Fame paid: B5.5 for a group, A1 for a bid."""
        for p, (old, new) in enumerate(zip(before.players, boards)):
            self.paid_fame[p] += new.fame - old.fame

    def totals(self) -> List[Dict[str, Any]]:
        """The whole game so far per player: the start Fame, the Fame paid, and every scoring's
        items summed by rule id; `fame` is their sum (the player's Fame now)."""
        rows = []
        for p, fame in enumerate(self.start_fame):
            by_rule: Dict[str, Dict[str, Any]] = {}
            for event in self.scorings:
                for entry in event["players"]:
                    if entry["player"] != p:
                        continue
                    for line in entry["items"]:
                        total = by_rule.setdefault(line["rule"], {"fame": 0, "gold": 0})
                        total["fame"] += line["fame"]
                        total["gold"] += line["gold"]
            lines = [{"rule": "B1.5", "what": "Fame at the start", "fame": fame, "gold": 0}]
            if self.paid_fame[p]:
                what = "Fame paid for groups and bids (gold first)"
                lines.append({"rule": "B5.5", "what": what, "fame": self.paid_fame[p], "gold": 0})
            lines += [
                {"rule": rule, "what": RULE_WORDS.get(rule, rule), **sums}
                for rule, sums in sorted(by_rule.items(), key=lambda kv: _rule_key(kv[0]))
            ]
            rows.append({"player": p, "items": lines, "fame": sum(x["fame"] for x in lines)})
        return rows


def _rule_key(rule: str) -> List[Any]:
    return [int(part) if part.isdigit() else part for part in rule.replace("A", "Z").split(".")]


RULE_WORDS = {
    "B7.1": "goldsmiths at the small scorings (gold)",
    "B7.2.2": "repelled ships at the large scorings",
    "B7.2.3": "nobles",
    "B7.2.4": "scouts",
    "B7.2.5": "goldsmiths at the large scorings (gold)",
    "B7.2.6": "fishermen (A5 tiles)",
    "B8.1": "ships not repelled",
    "B8.2": "gold turned into Fame",
    "B8.3": "most boatsmen",
    "B8.4": "most completed islands",
    "B8.5": "longest completed island",
    "B8.6": "feeding",
    "A5": "buildings",
}


CHANCE_WORDS = {  # docs/actions.md "Chance ids": what each kind of outcome puts into the game
    "reveal": "tiles revealed onto the wheel (B4.1)",
    "draw": "Vikings drawn from the bag (B4.2)",
    "display": "special tiles laid out (A5)",
}


def _counted(kind: str, what: str, n: int) -> str:
    """'a left piece', '2 x left piece', 'a noble', '3 nobles', 'horn' ... in words."""
    if kind == "reveal":
        name = explain.tile_name(what)
        return name if n == 1 else f"{n} x {name}"
    if kind == "draw":
        return f"a {what}" if n == 1 else f"{n} {explain.plural(what)}"
    effect = explain.SPECIAL_EFFECT.get(what, "")
    return f"{n} x " * (n > 1) + f"'{what}' ({effect})"


def chance_words(strings: List[str]) -> str:
    """Chance outcomes (action strings such as `reveal:left`, `draw:noble`, `display:horn`) in
    one sentence, grouped by kind and counted: what a round's chance put into the game."""
    groups: Dict[str, Counter] = {}
    for text in strings:
        kind, _, what = text.partition(":")
        groups.setdefault(kind, Counter())[what] += 1
    return "; ".join(
        f"{CHANCE_WORDS.get(kind, kind)}: "
        + ", ".join(_counted(kind, what, n) for what, n in counts.items())
        for kind, counts in groups.items()
    )


def format_scoring(event: Dict[str, Any], names: Optional[List[str]] = None) -> str:
    """A scoring event as lines of text (the terminal and the viewer)."""
    lines = [event["title"]]
    for entry in event["players"]:
        p = entry["player"]
        who = names[p] if names else f"player {p}"
        lines.append(
            f"  {who}: Fame {entry['fame_before']} -> {entry['fame']}, "
            f"gold {entry['gold_before']} -> {entry['gold']}"
        )
        for line in entry["items"]:
            amounts = [
                f"{line[k]:+d} {k.capitalize() if k == 'fame' else k}"
                for k in ("fame", "gold")
                if line[k]
            ]
            lines.append(f"    {line['rule']:<7} {', '.join(amounts):<18} {line['what']}")
        if not entry["items"]:
            lines.append("    nothing")
    return "\n".join(lines)
