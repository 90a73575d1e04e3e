// Reading the canonical dict of docs/state.md into a StateDescription (state_from_dict; the
// reference's dict_reader.py). Writing it is dict_writer.cc.
#include "formats/dict_reader.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "formats/serialization.h"
#include "rules/actions.h"

namespace vikinger {
namespace {

// The checks and messages of the reference's dict_reader.py `parse`, in its order: each value's
// type and range where it is read, so both engines name the same first problem.

// A key as the reference's repr() shows it (bindings/helpers.cc marks a key that is not a plain
// str with "\x01" followed by its repr()).
std::string KeyRepr(const std::string& key) {
  return !key.empty() && key[0] == '\x01' ? key.substr(1) : "'" + key + "'";
}

// Names the first key of the dict `value` that is not among names[0..n), once all are there.
void FailOnUnknownKey(const Value& value, const char* const* names, int n,
                      const std::string& where) {
  for (const auto& entry : value.Entries()) {
    bool known = false;
    for (int i = 0; i < n && !known; ++i) known = entry.first == names[i];
    if (!known) Fail(where + " has unknown key " + KeyRepr(entry.first));
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

constexpr int64_t kNoHigh = INT64_MAX;  // an int range without an upper end ("0..")

// The name of a value in a message: a str, or a function that makes it, called only for the
// message (a valid dict builds no names).
const std::string& Label(const std::string& where) { return where; }
template <size_t N>
std::string Label(const char (&where)[N]) {
  return where;
}
template <typename Where>
std::string Label(const Where& where) {
  return where();
}

// An int in low..high (bool is not an int).
template <typename Where>
int64_t Int(const Value& value, const Where& where, int64_t low, int64_t high = kNoHigh) {
  if (value.kind() != Value::Kind::kInt) {
    Fail(Label(where) + " must be an int, not " + value.TypeName());
  }
  const int64_t v = value.AsInt();
  // A saturated int is outside every range but the open-ended one of a positive one.
  if ((value.IsBig() && (v < 0 || high != kNoHigh)) || v < low || v > high) {
    Fail(Label(where) + " = " + value.IntText() + " is outside " + std::to_string(low) + ".." +
         (high == kNoHigh ? std::string() : std::to_string(high)));
  }
  return v;
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
  Fail(where + " is not one of the known names");  // the value itself may not print
}

void Counts(const Value& value, const char* const* names, int n, int64_t* out,
            const std::string& where, const int* limits, int limit = 0) {
  const Value& d = Keys(value, names, n, where);
  for (int i = 0; i < n; ++i) {
    out[i] = Int(
        At(d, names[i]), [&] { return where + "['" + names[i] + "']"; }, 0,
        limits ? limits[i] : limit);
  }
}

bool IsList(const Value& value, size_t size) {
  return value.kind() == Value::Kind::kList && value.Items().size() == size;
}

// The number of characters of UTF-8 text (Python's len()).
size_t CodePoints(const std::string& text) {
  size_t count = 0;
  for (char ch : text) count += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return count;
}

// repr() of the character that starts at value's text[at], as Python writes a str of one
// character. Every character beyond ASCII is outside the alphabets of the format, so one there
// is the str's first such character, whose repr() the bindings keep.
std::string CharRepr(const Value& value, size_t at) {
  const unsigned char ch = static_cast<unsigned char>(value.AsStr()[at]);
  if (ch >= 0x80) {
    if (!value.FirstWideRepr().empty()) return value.FirstWideRepr();
    const std::string& text = value.AsStr();
    size_t end = at + 1;
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    return "'" + text.substr(at, end - at) + "'";
  }
  if (ch == '\'') return "\"'\"";
  if (ch == '\\') return "'\\\\'";
  if (ch == '\n') return "'\\n'";
  if (ch == '\r') return "'\\r'";
  if (ch == '\t') return "'\\t'";
  if (ch < 0x20 || ch == 0x7f) {
    static const char kHex[] = "0123456789abcdef";
    return std::string("'\\x") + kHex[ch >> 4] + kHex[ch & 15] + "'";
  }
  return std::string("'") + static_cast<char>(ch) + "'";
}

// A row or ship string: at most 64 characters of `alphabet`, no trailing '.'.
template <typename Where>
const std::string& Text(const Value& value, const char* alphabet, const Where& where) {
  if (value.kind() != Value::Kind::kStr) {
    Fail(Label(where) + " must be a str, not " + value.TypeName());
  }
  const std::string& text = value.AsStr();
  if (CodePoints(text) > static_cast<size_t>(kNumColumns)) {
    Fail(Label(where) + " is longer than " + std::to_string(kNumColumns) + " columns");
  }
  const size_t bad = text.find_first_not_of(alphabet);
  if (bad != std::string::npos) {
    Fail(Label(where) + " has character " + CharRepr(value, bad) + " (allowed: " + alphabet + ")");
  }
  if (!text.empty() && text.back() == '.') {
    Fail(Label(where) + " must not end with '.' (trailing empty columns are cut)");
  }
  return text;
}

void Cell(const Value& value, int64_t* row, int64_t* col, const std::string& where) {
  if (!IsList(value, 2)) Fail(where + " must be a list [row, column]");
  *row = Int(value.Items()[0], where + " row", 1, kNumRows);
  *col = Int(value.Items()[1], where + " column", 1, kNumColumns);
}

PlayerDescription ParsePlayer(const Value& value, const std::string& where) {
  const Value& d = Keys(value,
                        {"gold", "fame", "start_row", "mainland", "ships", "rows", "vikings",
                         "specials", "buildings"},
                        where);
  PlayerDescription player = EmptyPlayerDescription();
  auto at = [&where](const char* field) { return [&where, field] { return where + field; }; };
  player.gold = Int(At(d, "gold"), at(".gold"), 0, kMaxMoney);
  player.fame = Int(At(d, "fame"), at(".fame"), -kMaxMoney, kMaxMoney);
  const Value& start = At(d, "start_row");
  player.start_row = start.is_none() ? 0 : Int(start, at(".start_row"), 1, kNumRows);
  Counts(At(d, "mainland"), kColourNames, kNumColours, player.mainland, where + ".mainland",
         nullptr, kVikingsPerColour);
  const std::string& ships = Text(At(d, "ships"), ".rgyb", at(".ships"));
  for (size_t c = 0; c < ships.size(); ++c) {
    player.ships[c] = static_cast<int8_t>(
        ships[c] == '.' ? -1 : kShipRed + static_cast<int>(std::string("rgyb").find(ships[c])));
  }
  const Value& rows = At(d, "rows");
  if (!IsList(rows, kNumRows)) Fail(where + ".rows must be a list of 5 strings");
  for (int r = 0; r < kNumRows; ++r) {
    const std::string& row = Text(rows.Items()[r], ".L1234R", [&where, r] {
      return where + ".rows[" + std::to_string(r) + "]";
    });
    for (size_t c = 0; c < row.size(); ++c) {
      player.tiles[r][c] = static_cast<int8_t>(
          row[c] == '.' ? -1 : static_cast<int>(std::string(kTileShort).find(row[c])));
    }
  }
  const Value& vikings = At(d, "vikings");
  if (!IsList(vikings, kNumRows)) Fail(where + ".vikings must be a list of 5 lists");
  for (int r = 0; r < kNumRows; ++r) {
    auto row_where = [&where, r] { return where + ".vikings[" + std::to_string(r) + "]"; };
    const Value& row = vikings.Items()[r];
    if (row.kind() != Value::Kind::kList) Fail(row_where() + " must be a list of columns");
    std::vector<int64_t> cols;
    for (const Value& item : row.Items()) cols.push_back(Int(item, row_where, 1, kNumColumns));
    for (size_t i = 1; i < cols.size(); ++i) {
      if (cols[i - 1] >= cols[i]) {
        Fail(row_where() + " must be strictly increasing columns (one Viking per tile)");
      }
    }
    for (int64_t col : cols) {
      if (player.tiles[r][col - 1] < 0) {
        Fail(where + " has a Viking on row " + std::to_string(r + 1) + " column " +
             std::to_string(col) + ", where no tile stands");
      }
      player.vikings[r] |= ColumnBit(static_cast<int>(col));
    }
  }
  Counts(At(d, "specials"), kSpecialKindNames, kNumSpecialKinds, player.specials,
         where + ".specials", kSpecialCounts);
  const Value& buildings = At(d, "buildings");
  if (!IsList(buildings, kNumBuildings)) Fail(where + ".buildings must be a list of 4 entries");
  for (int b = 0; b < kNumBuildings; ++b) {
    if (buildings.Items()[b].is_none()) continue;
    player.has_building[b] = true;
    Cell(buildings.Items()[b], &player.building_row[b], &player.building_col[b],
         where + ".buildings[" + std::to_string(b) + "]");
  }
  return player;
}

void ParseAuction(const Value& value, int n, StateDescription& s) {
  if (value.is_none()) return;
  const Value& d = Keys(value, {"high", "leader", "passed", "turn"}, "auction");
  s.has_auction = true;
  const Value& passed = At(d, "passed");
  bool bools = IsList(passed, static_cast<size_t>(n));
  for (size_t i = 0; bools && i < passed.Items().size(); ++i) {
    bools = passed.Items()[i].kind() == Value::Kind::kBool;
  }
  if (!bools) Fail("auction.passed must be a list of " + std::to_string(n) + " bools");
  for (const Value& flag : passed.Items()) s.auction_passed.push_back(flag.AsBool());
  const Value& high = At(d, "high");
  s.auction_high = high.is_none() ? -1 : Int(high, "auction.high", 0, kMaxBid);
  s.auction_leader = Int(At(d, "leader"), "auction.leader", 0, n - 1);
  s.auction_turn = Int(At(d, "turn"), "auction.turn", 0, n - 1);
}

void ParseWheelPendingTrip(const Value& d, StateDescription& s) {
  const Value& wheel = At(d, "wheel");
  if (!IsList(wheel, kWheelSpaces)) Fail("wheel must be a list of 12 entries");
  for (int i = 0; i < kWheelSpaces; ++i) {
    const Value& entry = wheel.Items()[i];
    if (entry.is_none()) continue;
    const std::string where = "wheel[" + std::to_string(i) + "]";
    const Value& group = Keys(entry, {"tile", "viking"}, where);
    s.wheel_tile[i] = Name(At(group, "tile"), kTileKindNames, kNumTileKinds, where + ".tile");
    s.wheel_viking[i] =
        Name(At(group, "viking"), kColourNames, kNumColours, where + ".viking", true);
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
    const Value& queue = At(trip, "queue");
    if (queue.kind() != Value::Kind::kList || queue.Items().empty()) {
      Fail("trip.queue must be a non-empty list");
    }
    for (size_t i = 0; i < queue.Items().size(); ++i) {
      const std::string where = "trip.queue[" + std::to_string(i) + "]";
      const Value& entry = queue.Items()[i];
      if (!IsList(entry, 2)) Fail(where + " must be [colour, count]");
      s.queue_colour.push_back(Name(entry.Items()[0], kColourNames, kBoatsman, where + " colour"));
      s.queue_count.push_back(Int(entry.Items()[1], where + " count", 1, kNumColumns));
    }
    s.last_col = Int(At(trip, "last_col"), "trip.last_col", 0, kNumColumns);
  }
}

}  // namespace

StateDescription DictToDescription(const Value& value, int num_players, int options) {
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
  const Value& version = At(d, "version");
  s.version = Int(version, "version", 0);
  if (version.IsBig()) {
    Fail("version " + version.IntText() + " is not " + std::to_string(kFormatVersion));
  }
  CheckFormatVersion(s.version, "version");
  const int n = num_players;
  s.num_players = Int(At(d, "num_players"), "num_players", kMinPlayers, kMaxPlayers);
  if (s.num_players != n) {
    Fail("num_players " + std::to_string(s.num_players) + " differs from the game's " +
         std::to_string(n));
  }
  const Value& flags = Keys(At(d, "options"), kOptionNames, kNumOptions, "options");
  for (int i = 0; i < kNumOptions; ++i) {
    if (At(flags, kOptionNames[i]).kind() != Value::Kind::kBool) {
      Fail("options values must be bools");
    }
  }
  for (int i = 0; i < kNumOptions; ++i) {
    if (At(flags, kOptionNames[i]).AsBool()) s.options |= 1 << i;
  }
  if (s.options != options) Fail("options differ from the game's");
  s.round = Int(At(d, "round"), "round", 1, kNumRounds);
  s.phase = Name(At(d, "phase"), kPhaseNames, kNumPhases, "phase");
  s.start_player = Int(At(d, "start_player"), "start_player", 0, n - 1);
  s.purchases = Int(At(d, "purchases"), "purchases", 0, kGroupsPerRound);
  s.scoring_index = Int(At(d, "scoring_index"), "scoring_index", 0, n - 1);
  Counts(At(d, "stacks"), kTileKindNames, kNumTileKinds, s.stacks, "stacks", kStackCounts);
  Counts(At(d, "bag"), kColourNames, kNumColours, s.bag, "bag", nullptr, kVikingsPerColour);
  Counts(At(d, "drawn"), kColourNames, kNumColours, s.drawn, "drawn", nullptr, kGroupsPerRound);
  Counts(At(d, "removed"), kColourNames, kNumColours, s.removed, "removed", nullptr,
         kVikingsPerColour);
  s.discarded_tiles = Int(At(d, "discarded_tiles"), "discarded_tiles", 0, kStackTiles);
  ParseWheelPendingTrip(d, s);
  ParseAuction(At(d, "auction"), n, s);
  Counts(At(d, "special_stack"), kSpecialKindNames, kNumSpecialKinds, s.special_stack,
         "special_stack", kSpecialCounts);
  const Value& display = At(d, "display");
  if (!IsList(display, kDisplaySlots)) Fail("display must be a list of 4 entries");
  for (int i = 0; i < kDisplaySlots; ++i) {
    s.display[i] = Name(display.Items()[i], kSpecialKindNames, kNumSpecialKinds,
                        "display[" + std::to_string(i) + "]", true);
  }
  Counts(At(d, "special_removed"), kSpecialKindNames, kNumSpecialKinds, s.special_removed,
         "special_removed", kSpecialCounts);
  const Value& players = At(d, "players");
  if (!IsList(players, static_cast<size_t>(n))) {
    Fail("players must be a list of " + std::to_string(n) + " entries");
  }
  for (int i = 0; i < n; ++i) {
    s.players.push_back(ParsePlayer(players.Items()[i], "players[" + std::to_string(i) + "]"));
  }
  const Value& history = At(d, "history");
  if (history.kind() != Value::Kind::kList) Fail("history must be a list of ints");
  for (const Value& action : history.Items()) {
    s.history.push_back(Int(action, "history entry", 0, 65535));
  }
  return s;
}

}  // namespace vikinger
