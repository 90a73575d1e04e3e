"""Plain-language words for the game: what a decision does, where the game stands, and why a
well-formed move is not legal now, citing the rule ids of docs/rules.md.

Used by `vikinger serve` (each offered choice carries its sentence) and by `vikinger play` (the
reason given for a refused move). Everything is read from `state.to_dict()` and the action
strings of docs/actions.md, so it serves both engines alike.
"""

import re
from typing import Any, Dict, List, Optional, Tuple

from vikinger_ref.components import COLOURS, TILE_KINDS, TILE_SHORT

ROW_COLOUR = {1: "warrior", 2: "noble", 3: "scout", 4: "goldsmith", 5: "fisherman"}
SHIP_REACH = {"r": (2, "3 gold"), "g": (3, "5 gold"), "y": (4, "2 Fame"), "b": (5, "3 Fame")}
SHIP_NAME = {"ship_red": "r", "ship_green": "g", "ship_yellow": "y", "ship_blue": "b"}
SPECIAL_EFFECT = {
    "gold5": "+5 gold at once",
    "goldsmith1": "+1 gold per safe goldsmith at every scoring",
    "goldsmith2": "+2 gold per safe goldsmith at every scoring",
    "boat": "lets one boatsman trip move a full load even under A4",
    "noble1": "+1 Fame per safe noble at every large scoring",
    "scout1": "+1 Fame per safe scout at every large scoring",
    "fisherman1": "+1 Fame per safe fisherman at every large scoring",
    "horn": "counts as one boatsman in the final scoring (B8.3)",
    "fish": "3 Fame instead of 2 per spare meal (B8.6)",
    "treasury": "1 Fame per 3 gold instead of per 5 (B8.2)",
    "building1": "a building: 1 Fame per Viking on it and around it at the end",
    "building2": "a building: 1 Fame per Viking on it and around it at the end",
    "building3": "a building: 1 Fame per Viking on it and around it at the end",
    "building4": "a building: 1 Fame per Viking on it and around it at the end",
}
PHASE_WORDS = {
    "reveal_tile": "tiles are being revealed onto the wheel (B4.1)",
    "draw_viking": "Vikings are being drawn from the bag (B4.2)",
    "buy": "buying groups from the wheel (B5)",
    "start_row": "choosing the row of the start tile (B6.0)",
    "ship_column": "placing a ship (B6.1)",
    "island_cell": "placing an island tile (B6.2)",
    "viking": "deciding where the bought Viking goes (B6.4)",
    "trip": "boatsman trips of the large scoring (B7.2.1)",
    "trip_target": "placing the Vikings of a boatsman trip (B7.2.1)",
    "game_over": "the game is over (B8.9)",
    "special_fill": "special tiles are being laid out (A5)",
    "auction": "the auction for start player (A1)",
    "remove_viking": "the start player removes one drawn Viking (A2)",
    "offer_colour": "putting one colour of drawn Vikings onto the wheel (A3)",
    "take_special": "taking a special tile (A5)",
    "building_replace": "placing a building tile (A5)",
}
CELL = re.compile(r"r(\d+)c(\d+)")


def tile_name(kind: str) -> str:
    """'left' -> 'left piece', 'middle2' -> 'middle piece (building 2)', ships by sail."""
    if kind.startswith("ship_"):
        reach, value = SHIP_REACH[SHIP_NAME[kind]]
        return f"{kind[5:]} ship (threatens rows 1-{reach}, value {value})"
    if kind.startswith("middle"):
        return f"middle piece (building {kind[-1]})"
    return f"{kind} piece"


def plural(colour: str) -> str:
    """fisherman -> fishermen, scout -> scouts."""
    return colour[:-3] + "men" if colour.endswith("man") else colour + "s"


def _row(r: int) -> str:
    return f"row {r} ({plural(ROW_COLOUR[r]) if r in ROW_COLOUR else '?'})"


def _cell(text: str) -> Tuple[int, int]:
    """'r2c3' -> (2, 3)."""
    match = CELL.fullmatch(text)
    if not match:
        raise ValueError(f"not a cell: {text!r}")
    return int(match.group(1)), int(match.group(2))


def _price(d: Dict[str, Any], space: int) -> Optional[int]:
    occupied = [s for s, group in enumerate(d["wheel"]) if group is not None]
    return space - occupied[0] if occupied and d["wheel"][space] is not None else None


def _pay(price: int, gold: int) -> str:
    if price == 0:
        return "free"
    if price <= gold:
        return f"{price} gold"
    return f"{price}: all {gold} gold and {price - gold} Fame (B5.5)"


def _to_mainland(pending: Dict[str, Any]) -> str:
    """B6.4: a Viking that cannot stand on the placed tile waits on the mainland."""
    colour = pending.get("viking")
    if not colour:
        return ""
    if colour == "boatsman":
        return "; the boatsman goes to the mainland, where boatsmen wait (B6.4)"
    return (
        f"; the {colour} cannot stand there and goes to the mainland, stranded until a "
        f"boatsman trip (B6.4, B7.2.1)"
    )


THIRD_PERSON = {"pass": "passes", "buy": "buys", "lay": "lays", "put": "puts", "place": "places"}


def in_third_person(sentence: str, who: str) -> str:
    """describe()'s sentence about someone else's move: "buy the group ..." ->
    "player 1 buys the group ...", "your" -> "their"."""
    verb, _, rest = sentence.partition(" ")
    bare = verb.rstrip(":")
    verb = THIRD_PERSON.get(bare, bare + "s") + verb[len(bare) :]
    rest = re.sub(r"\byour\b", "their", rest)
    rest = re.sub(r"\byou\b", "they", rest)
    if rest.startswith("leave "):  # "pass: leave the auction"
        rest = "leaves " + rest[len("leave ") :]
    return f"{who} {verb} {rest}"


def describe(state: Any, text: str) -> str:
    """One sentence saying what the decision `text` (an action string) does in `state`."""
    d = state.to_dict()
    player = max(state.current_player(), 0)
    me = d["players"][player]
    kind, _, rest = text.partition(":")
    pending = d.get("pending") or {}
    if kind == "buy":
        space = int(rest)
        group = d["wheel"][space]
        price = _price(d, space) or 0
        return (
            f"buy the group at price {price} (wheel space {space}): a "
            f"{tile_name(group['tile'])} and a {group['viking']}; "
            + ("free" if price == 0 else f"you pay {_pay(price, me['gold'])}")
            + " (B5)"
        )
    if kind == "start":
        r = int(rest[1:])
        return f"lay your start tile (a left piece) in {_row(r)}, column 1 (B6.0)"
    if kind == "ship":
        return (
            f"put the {tile_name(pending.get('tile', 'ship_red'))} in ship column "
            f"{rest[1:]}: it threatens that column (B6.1, B7.0){_to_mainland(pending)}"
        )
    if kind == "tile":
        r, c = _cell(rest)
        where = (
            f"place the {tile_name(pending.get('tile', 'left'))} at {_row(r)}, column {c} (B6.2)"
        )
        if ROW_COLOUR.get(r) == pending.get("viking"):
            return where
        return where + _to_mainland(pending)
    if kind == "viking":
        colour = pending.get("viking", "Viking")
        if rest == "tile":
            return (
                f"stand the {colour} on the tile you just placed: it scores from there, "
                f"and never moves again (B6.4)"
            )
        return (
            f"send the {colour} to the mainland: it waits there for a boatsman trip and is "
            f"never threatened (B6.4)"
        )
    if kind == "trip":
        if rest == "stop":
            return "make no more boatsman trips this scoring (B7.2.1)"
        if rest == "each":
            return (
                "spend a boatsman to move one mainland Viking of every colour onto a free "
                "tile of its row (B7.2.1)"
            )
        how, _, colour = rest.partition(":")
        row = 5 - COLOURS.index(colour)
        if how == "all":
            return (
                f"spend a boatsman to move all your mainland {plural(colour)} onto free "
                f"tiles of {_row(row)} (B7.2.1)"
            )
        return f"spend a boatsman to move one {colour} onto a free tile of {_row(row)} (A4)"
    if kind == "target":
        r, c = _cell(rest)
        return f"put the travelling {ROW_COLOUR[r]} on the tile at {_row(r)}, column {c} (B7.2.1)"
    if kind == "auction":
        if rest == "pass":
            return "pass: leave the auction for start player (A1)"
        bid = int(rest.split(":")[1])
        return f"bid {bid} to become start player; the winner pays the bid (A1)"
    if kind == "remove":
        return f"remove one drawn {rest} from the game (A2)"
    if kind == "offer":
        return f"put all drawn {plural(rest)} on the highest free wheel spaces (A3)"
    if kind == "special":
        if rest == "decline":
            return "take no special tile (A5)"
        slot = int(rest.split(":")[1])
        special = d["display"][slot]
        return f"take the special tile '{special}' (A5): {SPECIAL_EFFECT[special]}"
    if kind == "building":
        r, c = _cell(rest)
        return f"lay your building tile over the middle piece at {_row(r)}, column {c} (A5)"
    return text


def situation(state: Any, seat: Optional[int] = None) -> str:
    """The round and the phase in one sentence, e.g. "Round 2 of 6: buying groups from the wheel
    (B5); you (player 0) are to move"."""
    d = state.to_dict()
    words = f"Round {d['round']} of 6: {PHASE_WORDS.get(d['phase'], d['phase'])}"
    if state.is_terminal():
        returns = state.returns()
        winners = [p for p, r in enumerate(returns) if r > 0]
        names = " and ".join(("you" if p == seat else f"player {p}") for p in winners)
        return (
            f"Game over: {names} {'win' if len(winners) > 1 or seat in winners else 'wins'}"
            f" (most Fame, then most gold, B8.9)"
        )
    player = state.current_player()
    if player < 0:
        return words
    who = f"you (player {player}) are" if player == seat else f"player {player} is"
    return f"{words}; {who} to move"


# --- why a move is not legal ------------------------------------------------------------------


def _edge_clash(row: str, c: int, short: str) -> Optional[str]:
    """B6.2(c): the tile's left/right edges against its neighbours (the mainland edge is sea,
    B2.3). `row` is the row's string, `c` 1-based."""
    land_left, land_right = short != "L", short != "R"
    left = row[c - 2] if c >= 2 and c - 2 < len(row) else "."
    right = row[c] if c < len(row) else "."
    if c == 1 and land_left:
        return "only a left piece can stand in column 1: the mainland's edge is sea (B2.3)"
    if left != "." and (left != "R") != land_left:
        return (
            "its left edge does not match the tile on its left (B6.2c: land against land, "
            "sea against sea)"
        )
    if right != "." and (right != "L") != land_right:
        return "its right edge does not match the tile on its right (B6.2c)"
    return None


def _tile_reason(d: Dict[str, Any], player: Dict[str, Any], r: int, c: int) -> str:
    rows = player["rows"]
    if not 1 <= r <= 5:
        return "island rows are 1 to 5 (B2.1)"
    row = rows[r - 1]
    if c <= len(row) and row[c - 1] != ".":
        return f"{_row(r)}, column {c} already holds a tile (B6.2)"

    def filled(rr: int, cc: int) -> bool:
        return 1 <= rr <= 5 and 1 <= cc <= len(rows[rr - 1]) and rows[rr - 1][cc - 1] != "."

    if c != 1 and not any(
        filled(rr, cc) for rr, cc in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c))
    ):
        return "the cell touches no island tile and not the mainland (B6.2a)"
    pending = d.get("pending") or {}
    short = TILE_SHORT[TILE_KINDS.index(pending["tile"])] if pending.get("tile") else None
    if short:
        clash = _edge_clash(row, c, short)
        if clash:
            return clash
    return "the tile cannot go there (B6.2)"


def _buy_reason(d: Dict[str, Any], player: Dict[str, Any], space: int) -> str:
    if not 0 <= space < 12 or d["wheel"][space] is None:
        return f"wheel space {space} holds no group now (B4)"
    price = _price(d, space)
    if price > player["gold"] + player["fame"]:
        return (
            f"its price {price} is more than your gold {player['gold']} plus Fame "
            f"{player['fame']} (B5.5)"
        )
    if price == 0:
        colour = d["wheel"][space]["viking"]
        return (
            f"the group at price 0 may be bought only when no other group on the wheel has "
            f"a {colour} (B5.2), unless your gold is below every other price (B5.3)"
        )
    return "this group cannot be bought now (B5)"


def _trip_reason(d: Dict[str, Any], player: Dict[str, Any], rest: str) -> str:
    if player["mainland"]["boatsman"] < 1:
        return "a trip needs a boatsman on your mainland (B7.2.1)"
    if rest == "stop" and d["round"] == 6:
        return (
            "in round 6 you must move as many Vikings as possible: stopping is not "
            "allowed while a trip can move someone (B7.2.1a)"
        )
    colour = rest.partition(":")[2]
    if colour in COLOURS[:5]:
        row = 5 - COLOURS.index(colour)
        if player["mainland"][colour] < 1:
            return f"you have no {colour} on the mainland (B7.2.1)"
        free = sum(
            1
            for col, tile in enumerate(player["rows"][row - 1], start=1)
            if tile != "." and col not in player["vikings"][row - 1]
        )
        if free == 0:
            return f"{_row(row)} has no free island tile (B7.2.1)"
        if rest.startswith("one:") and not d["options"]["weak_boatsmen"]:
            return "one-Viking trips exist only with weak boatsmen (A4)"
    if d["round"] == 6:
        return "in round 6 every trip must keep the most Vikings movable (B7.2.1a)"
    return "this trip is not possible now (B7.2.1)"


def why_illegal(state: Any, text: str) -> str:
    """Why the well-formed action string `text` is not legal in `state`: the rule that forbids
    it, in words. (For a legal action it says so.)"""
    if state.is_terminal():
        return "the game is over (B8.9)"
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    if text in legal:
        return f"{text} is legal"
    d = state.to_dict()
    phase = d["phase"]
    player = d["players"][max(state.current_player(), 0)]
    kind, _, rest = text.partition(":")
    expected = {a.partition(":")[0] for a in legal}
    if kind not in expected:
        return (
            f"now is {PHASE_WORDS.get(phase, phase)}, so a {kind} move is not possible; "
            f"possible now: {', '.join(sorted(expected))}"
        )
    if kind == "buy":
        return _buy_reason(d, player, int(rest))
    if kind == "tile":
        return _tile_reason(d, player, *_cell(rest))
    if kind == "ship":
        c = int(rest[1:])
        return (
            f"ship column {c} already holds a ship (B6.1)"
            if c <= len(player["ships"]) and player["ships"][c - 1] != "."
            else "the first three ships go into columns 1-3 (B6.1)"
        )
    if kind == "trip":
        return _trip_reason(d, player, rest)
    if kind == "target":
        r, c = _cell(rest)
        row = player["rows"][r - 1] if 1 <= r <= 5 else ""
        if c > len(row) or row[c - 1] == ".":
            return f"{_row(r)}, column {c} has no island tile (B7.2.1)"
        if c in player["vikings"][r - 1]:
            return f"{_row(r)}, column {c} already holds a Viking: one per tile (B6.4)"
        trip = d.get("trip") or {}
        if trip.get("queue") and ROW_COLOUR.get(r) != trip["queue"][0][0]:
            return (
                f"the travelling Viking is a {trip['queue'][0][0]}: it goes to its own row (B7.2.1)"
            )
        return (
            "targets are chosen left to right, each right of the last, leaving room for "
            "the Vikings still to place (docs/actions.md, Trips)"
        )
    if kind == "auction":
        auction = d.get("auction") or {}
        high = auction.get("high")
        if rest.startswith("bid:"):
            bid = int(rest.split(":")[1])
            if high is not None and bid <= high:
                return f"a bid must beat the high bid {high} (A1)"
            return (
                f"a bid of {bid} is more than your gold {player['gold']} plus Fame "
                f"{player['fame']} (A1, B5.5)"
            )
        return "the start player opens the auction and cannot pass first (A1)"
    if kind == "remove":
        return f"no {rest} was drawn this round (A2)"
    if kind == "offer":
        return f"no drawn {rest} is left to offer (A3)"
    if kind == "special":
        return "that display place is empty (A5)"
    if kind == "building":
        return "a building replaces one of your middle pieces without a building (A5)"
    if kind == "start":
        return "the start tile goes to column 1 of an island row 1-5 (B6.0)"
    return f"{text} is not legal now"


def legal_choices(state: Any) -> List[Dict[str, Any]]:
    """[{"action": id, "string": ..., "kind": ..., "explain": ...}] for the legal decisions."""
    if state.is_terminal() or state.is_chance_node():
        return []
    return [
        {
            "action": int(a),
            "string": (s := state.action_to_string(a)),
            "kind": s.partition(":")[0],
            "explain": describe(state, s),
        }
        for a in state.legal_actions()
    ]


LEGEND = """How to read the moves (docs/actions.md; every rule in docs/rules.md):
  Colours / rows   F fisherman (row 5)  G goldsmith (row 4)  S scout (row 3)
                   N noble (row 2)      W warrior (row 1)    B boatsman (no row, travels)
  Tiles            L left piece (sea on its left)  1-4 middle pieces (building 1-4)
                   R right piece (sea on its right)
                   ships by sail: r red (threatens rows 1-2, 3 gold)  g green (rows 1-3, 5 gold)
                   y yellow (rows 1-4, 2 Fame)  b blue (rows 1-5, 3 Fame)
  Wheel            0:L/fisherman$0 = wheel space 0 holds a left piece and a fisherman,
                   price 0 ($ = price: gold first, then Fame, B5.5)
  Moves            buy:S         buy the group on wheel space S (B5)
                   start:rR      start tile in row R, column 1 (B6.0)
                   ship:cC       a bought ship into ship column C (B6.1)
                   tile:rRcC     the bought tile at row R, column C (B6.2); rows may be named:
                                 tile:fisherman:c3 is tile:r5c3
                   viking:tile / viking:mainland   where the bought Viking goes (B6.4)
                   trip:all:COLOUR / trip:each / trip:stop   boatsman trips (B7.2.1)
                   target:rRcC   where a travelling Viking lands
                   auction:bid:K / auction:pass (A1)  remove:COLOUR (A2)  offer:COLOUR (A3)
                   special:take:I / special:decline / building:rRcC (A5)
  Board            rows 1..5 from the top (warrior .. fisherman), columns 1.. from the mainland;
                   a Viking stands on a tile of its own row; a ship threatens its column down
                   to its reach unless a warrior stands in row 1 of that column (B7.0)
  Text board       one cell per column: a tile letter (L 1-4 R, ships r g y b), . for an
                   empty cell; a * after a tile is the Viking standing on it; "mainland F=2"
                   counts the Vikings waiting there by colour letter (B6.4)
  Log              "forced" marks a decision with one legal choice, made for you or a bot;
                   each scoring lists what every player scored, by rule id (B7.1, B7.2, B8)
The full rules, with these ids: docs/rules.md"""
