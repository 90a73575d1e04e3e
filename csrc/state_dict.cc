// The canonical dict of docs/state.md as a Value tree, both ways.
#include "state_dict.h"

#include <initializer_list>
#include <string>

#include "serialization.h"

namespace vikinger {
namespace {

template <typename Count>
Value NamedCounts(const char* const* names, const Count* counts, int n) {
  Value d = Value::Dict();
  for (int i = 0; i < n; ++i) d.Set(names[i], Value::Int(counts[i]));
  return d;
}

Value IntList(std::initializer_list<int64_t> values) {
  Value list = Value::List();
  for (int64_t v : values) list.Append(Value::Int(v));
  return list;
}

// A row or ship string: one short per column 1..64, trailing empty columns cut.
std::string CutEmpty(std::string text) {
  text.erase(text.find_last_not_of('.') + 1);
  return text;
}

Value PlayerToDict(const PlayerBoard& board) {
  Value d = Value::Dict();
  d.Set("gold", Value::Int(board.gold));
  d.Set("fame", Value::Int(board.fame));
  d.Set("start_row", board.start_row ? Value::Int(board.start_row) : Value());
  d.Set("mainland", NamedCounts(kColourNames, board.mainland, kNumColours));
  std::string ships;
  for (int col = 1; col <= kNumColumns; ++col) {
    const int kind = board.ShipAt(col);
    ships += kind < 0 ? '.' : kTileShort[kind];
  }
  d.Set("ships", Value::Str(CutEmpty(ships)));
  Value& rows = d.Set("rows", Value::List());
  Value vikings = Value::List();
  for (int row = 1; row <= kNumRows; ++row) {
    const IslandRow& r = board.Row(row);
    std::string text;
    for (int col = 1; col <= kNumColumns; ++col) {
      const int kind = r.KindAt(col);
      text += kind < 0 ? '.' : kTileShort[kind];
    }
    rows.Append(Value::Str(CutEmpty(text)));
    Value& cols = vikings.Append(Value::List());
    for (uint64_t bits = r.vikings; bits; bits &= bits - 1) {
      cols.Append(Value::Int(LowestColumn(bits)));
    }
  }
  d.Set("vikings", std::move(vikings));
  // docs/advanced.md: A5 tiles held, and the cells of the placed building tiles.
  d.Set("specials", NamedCounts(kSpecialKindNames, board.specials, kNumSpecialKinds));
  Value& buildings = d.Set("buildings", Value::List());
  for (int b = 0; b < kNumBuildings; ++b) {
    buildings.Append(board.building_row[b]
                         ? IntList({board.building_row[b], board.building_col[b]})
                         : Value());
  }
  return d;
}

// --- reading --------------------------------------------------------------------------------

// Names the first key of the dict `value` that is not among names[0..n), once all are there.
void FailOnUnknownKey(const Value& value, const char* const* names, int n,
                      const std::string& where) {
  for (const auto& entry : value.Entries()) {
    bool known = false;
    for (int i = 0; i < n && !known; ++i) known = entry.first == names[i];
    if (!known) {
      // bindings_args.cc gives a key that is not a str the name "\x01".
      Fail(where + " has unknown key " +
           (entry.first == "\x01" ? std::string("that is not a str") : "'" + entry.first + "'"));
    }
  }
}

// `value` as a dict with exactly `keys`.
const Value& Keys(const Value& value, std::initializer_list<const char*> keys,
                  const std::string& where) {
  if (value.kind() != Value::Kind::kDict) Fail(where + " must be a dict, not " + value.TypeName());
  for (const char* key : keys) {
    if (value.Find(key) == nullptr) Fail(where + " lacks key '" + key + "'");
  }
  FailOnUnknownKey(value, keys.begin(), static_cast<int>(keys.size()), where);
  return value;
}

const Value& Keys(const Value& value, const char* const* names, int n, const std::string& where) {
  if (value.kind() != Value::Kind::kDict) Fail(where + " must be a dict, not " + value.TypeName());
  for (int i = 0; i < n; ++i) {
    if (value.Find(names[i]) == nullptr) Fail(where + " lacks key '" + names[i] + "'");
  }
  FailOnUnknownKey(value, names, n, where);
  return value;
}

const Value& At(const Value& d, const char* key) { return *d.Find(key); }

int64_t Int(const Value& value, const std::string& where) {
  if (value.kind() != Value::Kind::kInt) Fail(where + " must be an int, not " + value.TypeName());
  return value.AsInt();
}

// The index of the str `value` among `names`, or -1 for None when allowed.
int Name(const Value& value, const char* const* names, int n, const std::string& where,
         bool allow_none = false) {
  if (value.is_none() && allow_none) return -1;
  if (value.kind() == Value::Kind::kStr) {
    const std::string& text = value.AsStr();
    const int index = IndexOfName(names, n, text.data(), static_cast<int>(text.size()));
    if (index >= 0) return index;
  }
  Fail(where + " is not one of the known names");
}

void Counts(const Value& value, const char* const* names, int n, int64_t* out,
            const std::string& where) {
  const Value& d = Keys(value, names, n, where);
  for (int i = 0; i < n; ++i) out[i] = Int(At(d, names[i]), where + "['" + names[i] + "']");
}

const std::vector<Value>& List(const Value& value, const std::string& where) {
  if (value.kind() != Value::Kind::kList) Fail(where + " must be a list, not " + value.TypeName());
  return value.Items();
}

// A row or ship string: at most 64 characters of `alphabet`, no trailing '.'.
const std::string& Text(const Value& value, const char* alphabet, const std::string& where) {
  if (value.kind() != Value::Kind::kStr) Fail(where + " must be a str, not " + value.TypeName());
  const std::string& text = value.AsStr();
  if (text.find_first_not_of(alphabet) != std::string::npos) Fail(where + " has a bad character");
  if (text.size() > static_cast<size_t>(kNumColumns)) Fail(where + " is longer than 64 columns");
  if (!text.empty() && text.back() == '.') Fail(where + " must not end with '.'");
  return text;
}

void Cell(const Value& value, int64_t* row, int64_t* col, const std::string& where) {
  const std::vector<Value>& cell = List(value, where);
  if (cell.size() != 2) Fail(where + " must be a list [row, column]");
  *row = Int(cell[0], where + " row");
  *col = Int(cell[1], where + " column");
}

PlayerDescription ParsePlayer(const Value& value, const std::string& where) {
  const Value& d = Keys(value,
                        {"gold", "fame", "start_row", "mainland", "ships", "rows", "vikings",
                         "specials", "buildings"},
                        where);
  PlayerDescription player = EmptyPlayerDescription();
  player.gold = Int(At(d, "gold"), where + ".gold");
  player.fame = Int(At(d, "fame"), where + ".fame");
  const Value& start = At(d, "start_row");
  player.start_row = start.is_none() ? 0 : Int(start, where + ".start_row");
  if (!start.is_none() && player.start_row < 1) Fail(where + ".start_row is outside 1..5");
  Counts(At(d, "mainland"), kColourNames, kNumColours, player.mainland, where + ".mainland");
  const std::string& ships = Text(At(d, "ships"), ".rgyb", where + ".ships");
  for (size_t c = 0; c < ships.size(); ++c) {
    player.ships[c] = static_cast<int8_t>(
        ships[c] == '.' ? -1 : kShipRed + static_cast<int>(std::string("rgyb").find(ships[c])));
  }
  const std::vector<Value>& rows = List(At(d, "rows"), where + ".rows");
  if (rows.size() != kNumRows) Fail(where + ".rows must be a list of 5 strings");
  for (int r = 0; r < kNumRows; ++r) {
    const std::string& row = Text(rows[r], ".L1234R", where + ".rows");
    for (size_t c = 0; c < row.size(); ++c) {
      player.tiles[r][c] = static_cast<int8_t>(
          row[c] == '.' ? -1 : static_cast<int>(std::string(kTileShort).find(row[c])));
    }
  }
  const std::vector<Value>& vikings = List(At(d, "vikings"), where + ".vikings");
  if (vikings.size() != kNumRows) Fail(where + ".vikings must be a list of 5 lists");
  for (int r = 0; r < kNumRows; ++r) {
    int64_t last = 0;
    for (const Value& item : List(vikings[r], where + ".vikings")) {
      const int64_t col = Int(item, where + ".vikings");
      if (col < 1 || col > kNumColumns) Fail(where + ".vikings column is outside 1..64");
      if (col <= last) Fail(where + ".vikings must be strictly increasing columns");
      last = col;
      player.vikings[r] |= ColumnBit(static_cast<int>(col));
    }
  }
  Counts(At(d, "specials"), kSpecialKindNames, kNumSpecialKinds, player.specials,
         where + ".specials");
  const std::vector<Value>& buildings = List(At(d, "buildings"), where + ".buildings");
  if (buildings.size() != kNumBuildings) Fail(where + ".buildings must be a list of 4 entries");
  for (int b = 0; b < kNumBuildings; ++b) {
    if (buildings[b].is_none()) continue;
    player.has_building[b] = true;
    Cell(buildings[b], &player.building_row[b], &player.building_col[b], where + ".buildings");
  }
  return player;
}

void ParseAuction(const Value& value, int n, StateDescription& s) {
  if (value.is_none()) return;
  const Value& d = Keys(value, {"high", "leader", "passed", "turn"}, "auction");
  s.has_auction = true;
  const std::vector<Value>& passed = List(At(d, "passed"), "auction.passed");
  if (static_cast<int>(passed.size()) != n) Fail("auction.passed must be a list of n bools");
  for (const Value& flag : passed) {
    if (flag.kind() != Value::Kind::kBool) Fail("auction.passed must be a list of n bools");
    s.auction_passed.push_back(flag.AsBool());
  }
  const Value& high = At(d, "high");
  s.auction_high = high.is_none() ? -1 : Int(high, "auction.high");
  if (!high.is_none() && s.auction_high < 0) Fail("auction.high is negative");
  s.auction_leader = Int(At(d, "leader"), "auction.leader");
  s.auction_turn = Int(At(d, "turn"), "auction.turn");
}

void ParseWheelPendingTrip(const Value& d, StateDescription& s) {
  const std::vector<Value>& wheel = List(At(d, "wheel"), "wheel");
  if (wheel.size() != kWheelSpaces) Fail("wheel must be a list of 12 entries");
  for (int i = 0; i < kWheelSpaces; ++i) {
    if (wheel[i].is_none()) continue;
    const Value& group = Keys(wheel[i], {"tile", "viking"}, "wheel entry");
    s.wheel_tile[i] = Name(At(group, "tile"), kTileKindNames, kNumTileKinds, "wheel tile");
    s.wheel_viking[i] = Name(At(group, "viking"), kColourNames, kNumColours, "wheel viking", true);
  }
  if (!At(d, "pending").is_none()) {
    const Value& pending = Keys(At(d, "pending"), {"tile", "viking", "cell"}, "pending");
    s.has_pending = true;
    s.pending_tile = Name(At(pending, "tile"), kTileKindNames, kNumTileKinds, "pending.tile");
    s.pending_viking = Name(At(pending, "viking"), kColourNames, kNumColours, "pending.viking");
    if (!At(pending, "cell").is_none()) {
      s.has_cell = true;
      Cell(At(pending, "cell"), &s.pending_row, &s.pending_col, "pending.cell");
    }
  }
  if (!At(d, "trip").is_none()) {
    const Value& trip = Keys(At(d, "trip"), {"queue", "last_col"}, "trip");
    s.has_trip = true;
    for (const Value& item : List(At(trip, "queue"), "trip.queue")) {
      const std::vector<Value>& entry = List(item, "trip.queue entry");
      if (entry.size() != 2) Fail("trip.queue entries must be [colour, count]");
      s.queue_colour.push_back(Name(entry[0], kColourNames, kBoatsman, "trip.queue colour"));
      s.queue_count.push_back(Int(entry[1], "trip.queue count"));
    }
    s.last_col = Int(At(trip, "last_col"), "trip.last_col");
  }
}

}  // namespace

Value OptionsToDict(int options) {
  Value d = Value::Dict();
  for (int i = 0; i < kNumOptions; ++i) d.Set(kOptionNames[i], Value::Bool((options >> i) & 1));
  return d;
}

Value StateToDict(const State& state) {
  const Position& p = state.position;
  Value d = Value::Dict();
  d.Set("version", Value::Int(kFormatVersion));
  d.Set("num_players", Value::Int(p.num_players));
  d.Set("options", OptionsToDict(p.options));
  d.Set("round", Value::Int(p.round));
  d.Set("phase", Value::Str(kPhaseNames[static_cast<int>(p.phase)]));
  d.Set("start_player", Value::Int(p.start_player));
  d.Set("purchases", Value::Int(p.purchases));
  d.Set("scoring_index", Value::Int(p.scoring_index));
  d.Set("stacks", NamedCounts(kTileKindNames, p.stacks, kNumTileKinds));
  d.Set("bag", NamedCounts(kColourNames, p.bag, kNumColours));
  d.Set("drawn", NamedCounts(kColourNames, p.drawn, kNumColours));
  d.Set("removed", NamedCounts(kColourNames, p.removed, kNumColours));
  d.Set("discarded_tiles", Value::Int(p.discarded_tiles));
  Value& wheel = d.Set("wheel", Value::List());
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (!(p.wheel.occupied & (1u << s))) {
      wheel.Append(Value());
      continue;
    }
    Value& group = wheel.Append(Value::Dict());
    group.Set("tile", Value::Str(kTileKindNames[p.wheel.tiles[s]]));
    const uint8_t viking = p.wheel.vikings[s];
    group.Set("viking", viking == kNone ? Value() : Value::Str(kColourNames[viking]));
  }
  Value& pending = d.Set("pending", Value());
  if (p.pending.tile != kNone) {
    pending = Value::Dict();
    pending.Set("tile", Value::Str(kTileKindNames[p.pending.tile]));
    pending.Set("viking", Value::Str(kColourNames[p.pending.viking]));
    pending.Set("cell", p.pending.row ? IntList({p.pending.row, p.pending.col}) : Value());
  }
  Value& trip = d.Set("trip", Value());
  if (p.trip.length) {
    trip = Value::Dict();
    Value& queue = trip.Set("queue", Value::List());
    for (int i = 0; i < p.trip.length; ++i) {
      Value& entry = queue.Append(Value::List());
      entry.Append(Value::Str(kColourNames[p.trip.colour[i]]));
      entry.Append(Value::Int(p.trip.count[i]));
    }
    trip.Set("last_col", Value::Int(p.trip.last_col));
  }
  // docs/advanced.md: always present (A1 auction, A5 special tiles).
  Value& auction = d.Set("auction", Value());
  if (p.auction.present) {
    auction = Value::Dict();
    auction.Set("high", p.auction.high == kNoBid ? Value() : Value::Int(p.auction.high));
    auction.Set("leader", Value::Int(p.auction.leader));
    Value& passed = auction.Set("passed", Value::List());
    for (int i = 0; i < p.num_players; ++i) passed.Append(Value::Bool((p.auction.passed >> i) & 1));
    auction.Set("turn", Value::Int(p.auction.turn));
  }
  d.Set("special_stack", NamedCounts(kSpecialKindNames, p.specials.stack, kNumSpecialKinds));
  Value& display = d.Set("display", Value::List());
  for (int i = 0; i < kDisplaySlots; ++i) {
    const uint8_t kind = p.specials.display[i];
    display.Append(kind == kNone ? Value() : Value::Str(kSpecialKindNames[kind]));
  }
  d.Set("special_removed", NamedCounts(kSpecialKindNames, p.specials.removed, kNumSpecialKinds));
  Value& players = d.Set("players", Value::List());
  for (int i = 0; i < p.num_players; ++i) players.Append(PlayerToDict(p.players[i]));
  Value& history = d.Set("history", Value::List());
  for (uint16_t action : state.history) history.Append(Value::Int(action));
  return d;
}

StateDescription DictToDescription(const Value& value, int num_players) {
  if (value.kind() != Value::Kind::kDict) {
    throw TypeError("state_from_dict needs a dict, not " + value.TypeName());
  }
  const Value& d = Keys(
      value, {"version",         "num_players",     "options", "round",  "phase",   "start_player",
              "purchases",       "scoring_index",   "stacks",  "bag",    "drawn",   "removed",
              "discarded_tiles", "wheel",           "pending", "trip",   "auction", "special_stack",
              "display",         "special_removed", "players", "history"},
      "state");
  StateDescription s;
  s.version = Int(At(d, "version"), "version");
  s.num_players = Int(At(d, "num_players"), "num_players");
  const Value& options = Keys(At(d, "options"), kOptionNames, kNumOptions, "options");
  for (int i = 0; i < kNumOptions; ++i) {
    const Value& flag = At(options, kOptionNames[i]);
    if (flag.kind() != Value::Kind::kBool) Fail("options values must be bools");
    if (flag.AsBool()) s.options |= 1 << i;
  }
  s.round = Int(At(d, "round"), "round");
  s.phase = Name(At(d, "phase"), kPhaseNames, kNumPhases, "phase");
  s.start_player = Int(At(d, "start_player"), "start_player");
  s.purchases = Int(At(d, "purchases"), "purchases");
  s.scoring_index = Int(At(d, "scoring_index"), "scoring_index");
  Counts(At(d, "stacks"), kTileKindNames, kNumTileKinds, s.stacks, "stacks");
  Counts(At(d, "bag"), kColourNames, kNumColours, s.bag, "bag");
  Counts(At(d, "drawn"), kColourNames, kNumColours, s.drawn, "drawn");
  Counts(At(d, "removed"), kColourNames, kNumColours, s.removed, "removed");
  s.discarded_tiles = Int(At(d, "discarded_tiles"), "discarded_tiles");
  ParseWheelPendingTrip(d, s);
  ParseAuction(At(d, "auction"), num_players, s);
  Counts(At(d, "special_stack"), kSpecialKindNames, kNumSpecialKinds, s.special_stack,
         "special_stack");
  const std::vector<Value>& display = List(At(d, "display"), "display");
  if (display.size() != kDisplaySlots) Fail("display must be a list of 4 entries");
  for (int i = 0; i < kDisplaySlots; ++i) {
    s.display[i] = Name(display[i], kSpecialKindNames, kNumSpecialKinds, "display", true);
  }
  Counts(At(d, "special_removed"), kSpecialKindNames, kNumSpecialKinds, s.special_removed,
         "special_removed");
  const std::vector<Value>& players = List(At(d, "players"), "players");
  if (static_cast<int>(players.size()) != num_players) Fail("players must have n entries");
  for (int i = 0; i < num_players; ++i) {
    s.players.push_back(ParsePlayer(players[i], "players[" + std::to_string(i) + "]"));
  }
  for (const Value& action : List(At(d, "history"), "history")) {
    s.history.push_back(Int(action, "history entry"));
  }
  return s;
}

}  // namespace vikinger
